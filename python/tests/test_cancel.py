"""A comparison stops when its progress callback raises (KeyboardInterrupt included) or returns
False, and on Ctrl+C (SIGINT): the core's cancel flag reaches the loader, which throws Cancelled."""

import os
import signal
import threading

import pytest

import fusiondiff
import fusiondiff.report
from conftest import REAL, SAMPLE_A, SAMPLE_B
from fusiondiff import _fusiondiff

# The largest pair of tests/data: tens of MB of JSON, read in several chunks.
LARGE_A = REAL / "owlv2-large-patch14-ensemble.mi300x.json.gz"
LARGE_B = REAL / "owlv2-large-patch14-ensemble.h100.json.gz"


@pytest.fixture
def fast_polling(monkeypatch):
    # The calling thread checks every millisecond, so that it acts while the traces are read.
    monkeypatch.setattr(fusiondiff.report, "_POLL_SECONDS", 0.001)


def test_progress_counts_up_to_the_file_sizes():
    calls = []
    fusiondiff.compare(SAMPLE_A, SAMPLE_B, progress=lambda done, total: calls.append((done, total)))
    assert calls, "progress was never called"
    assert calls[-1] == (SAMPLE_A.stat().st_size + SAMPLE_B.stat().st_size,) * 2
    assert all(done <= total for done, total in calls)


# On a busy machine the traces may be read before the calling thread first looks: such a try
# shows nothing, and the test tries again, a few times.
ATTEMPTS = 5


def test_keyboard_interrupt_from_progress_cancels_the_load(fast_polling):
    for _ in range(ATTEMPTS):
        calls = []

        def interrupt(done, total):
            calls.append((done, total))
            if done < total:
                raise KeyboardInterrupt

        try:
            fusiondiff.compare(LARGE_A, LARGE_B, progress=interrupt)
        except KeyboardInterrupt:
            break
    else:
        pytest.fail(f"the traces were read before the first progress call in {ATTEMPTS} tries")
    assert calls[-1][0] < calls[-1][1]
    assert _fusiondiff._last_compare_outcome() == "cancelled"
    assert _fusiondiff._alive_reports() == 0


def test_progress_returning_false_raises_cancelled(fast_polling):
    calls = []

    def stop(done, total):
        calls.append((done, total))
        return False

    with pytest.raises(fusiondiff.Cancelled):
        fusiondiff.compare(LARGE_A, LARGE_B, progress=stop)
    assert len(calls) == 1
    # If the traces were read before the first call, the flag is seen after loading.
    assert _fusiondiff._last_compare_outcome() in ("cancelled", "cancelled between steps")


def test_progress_returning_none_goes_on():
    report = fusiondiff.compare(SAMPLE_A, SAMPLE_B, progress=lambda done, total: None)
    assert _fusiondiff._last_compare_outcome() == "finished"
    assert len(report.table("kernels")) > 0


class Interrupted(Exception):
    pass


def test_sigint_cancels_the_load(fast_polling):
    def on_sigint(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        for _ in range(ATTEMPTS):
            sender = []

            def progress(done, total):
                # From another thread, so that the signal arrives while the calling thread waits in
                # the module (which then lets Python run the handler), not inside this callback.
                if done < total and not sender:
                    sender.append(threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT)))
                    sender[0].start()

            try:
                fusiondiff.compare(LARGE_A, LARGE_B, progress=progress)
            except Interrupted:
                break
            assert not sender, "SIGINT was sent while the traces were read, yet the compare finished"
        else:
            pytest.fail(f"the traces were read before the first progress call in {ATTEMPTS} tries")
        sender[0].join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert _fusiondiff._last_compare_outcome() == "cancelled"


def test_a_compare_after_a_cancel_works(fast_polling):
    with pytest.raises(fusiondiff.Cancelled):
        fusiondiff.compare(LARGE_A, LARGE_B, progress=lambda done, total: False)
    report = fusiondiff.compare(SAMPLE_A, SAMPLE_B)
    assert report.verdict
