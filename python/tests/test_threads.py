"""compare() runs without the GIL: other Python threads go on while the traces are read."""

import statistics
import threading
import time

import fusiondiff
from test_cancel import LARGE_A, LARGE_B


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
