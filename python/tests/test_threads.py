"""compare() runs without the GIL, other Python threads going on while the traces are read, on
as many parse threads as `threads` says."""

import os
import statistics
import threading
import time

import pytest

import fusiondiff
from test_cancel import ATTEMPTS, LARGE_A, LARGE_B, fast_polling  # noqa: F401 (a fixture)


def test_other_threads_run_during_a_compare():
    stamps = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            stamps.append(time.monotonic())
            time.sleep(0.001)  # lets go of the GIL, then needs it back for the next stamp

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.01)
    start = time.monotonic()
    fusiondiff.compare(LARGE_A, LARGE_B)
    end = time.monotonic()
    stop.set()
    ticker.join()
    during = [stamp for stamp in stamps if start <= stamp <= end]
    assert len(during) >= 5, f"{len(during)} stamps in {end - start:.3f} s"
    gaps = [later - earlier for earlier, later in zip(during, during[1:])]
    # Were the GIL held while the calling thread waits, the ticker would get it only when that
    # thread wakes, every 100 ms.
    assert statistics.median(gaps) < 0.03, f"median gap {statistics.median(gaps):.3f} s"


def _most_threads_while_reading(threads):
    """The most OS threads of this process seen while compare(threads=...) read the traces."""
    seen = []

    def count(done, total):
        if done < total:
            seen.append(len(os.listdir("/proc/self/task")))

    report = fusiondiff.compare(LARGE_A, LARGE_B, threads=threads, progress=count)
    return (max(seen) if seen else None), report


def test_threads_bounds_the_parse_threads(fast_polling):
    # One thread reads the traces one after the other on the job's own thread; four run a pool of
    # four parsers and a reader a trace. On a busy machine the load may end before the calling
    # thread looks: such a try shows nothing and the test tries again.
    for _ in range(ATTEMPTS):
        one, report_one = _most_threads_while_reading(1)
        four, report_four = _most_threads_while_reading(4)
        if one is not None and four is not None:
            break
    else:
        pytest.skip("the traces were read before the calling thread looked, every time")
    assert four >= one + 4, f"{four} threads with threads=4, {one} with threads=1"
    assert report_one.to_json() == report_four.to_json()


@pytest.mark.parametrize("threads", [0, -1, 1025])
def test_threads_out_of_range_is_a_value_error(threads):
    with pytest.raises(ValueError, match="threads takes a whole number from 1 to 1024"):
        fusiondiff.compare(LARGE_A, LARGE_B, threads=threads)


@pytest.mark.parametrize("threads", ["2", 2.0, True])
def test_threads_that_is_not_a_whole_number_is_a_type_error(threads):
    with pytest.raises(TypeError, match="threads takes a whole number"):
        fusiondiff.compare(LARGE_A, LARGE_B, threads=threads)
