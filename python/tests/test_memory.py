"""A dropped Report frees its report: nothing else (DataFrames, sections) holds the core's
FusionReport, and the heap returns to where it was, however many comparisons ran."""

import ctypes
import gc

import fusiondiff
from conftest import REAL
from fusiondiff import _fusiondiff

PAIR = (REAL / "timesformer-base-finetuned-k400.mi300x.json.gz", REAL / "timesformer-base-finetuned-k400.h100.json.gz")


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


_libc = ctypes.CDLL(None)
_libc.mallinfo2.restype = MallInfo2


def heap_in_use():
    """Bytes the C heap has handed out and not got back (glibc's mallinfo2, all arenas): unlike the
    resident size, it drops when memory is freed even if the allocator keeps the pages."""
    info = _libc.mallinfo2()
    return info.uordblks + info.hblkhd


def use(report):
    tables = {name: report.table(name) for name in report.tables()}
    return tables, report.time_gap, report.where_to_look_first, report.to_json()


def test_dropping_the_report_frees_it():
    gc.collect()
    before = _fusiondiff._alive_reports()
    report = fusiondiff.compare(*PAIR)
    kept = use(report)
    assert _fusiondiff._alive_reports() == before + 1
    del report
    assert _fusiondiff._alive_reports() == before, "the Report's FusionReport outlived it"
    kernels = kept[0]["kernels"]  # a copy, still whole
    assert len(kernels) > 0 and kernels["trace1_count"].sum() > 0


def test_the_heap_returns_to_where_it_was():
    for _ in range(2):
        use(fusiondiff.compare(*PAIR))  # one-time allocations: pandas' and numpy's caches
    gc.collect()
    base = heap_in_use()
    held = [fusiondiff.compare(*PAIR) for _ in range(3)]
    three_reports = heap_in_use() - base
    assert three_reports > 3 * (32 << 10), f"three reports should take some memory, took {three_reports} bytes"
    del held
    gc.collect()
    assert heap_in_use() - base < three_reports / 6, "dropping the reports did not free them"
    for _ in range(5):
        use(fusiondiff.compare(*PAIR))
    gc.collect()
    growth = heap_in_use() - base
    # Five more reports, used and dropped: a leak of each would add more than the three held took.
    assert growth < three_reports / 6, f"grew by {growth} bytes over five dropped reports ({three_reports} for three)"
