"""FusionDiff in Python: compare two PyTorch profiler traces and get the report's tables as
pandas DataFrames (docs/python.md).

    import fusiondiff
    report = fusiondiff.compare("amd.json.gz", "nvidia.json.gz")
    report.table("op_findings").head()
"""

from fusiondiff._fusiondiff import __version__, builtin_classifiers, parameters
from fusiondiff.errors import Cancelled, InputError
from fusiondiff.report import Report, classify, compare, compare_runs, summarize_rank

__all__ = [
    "Cancelled",
    "InputError",
    "Report",
    "__version__",
    "builtin_classifiers",
    "classify",
    "compare",
    "compare_runs",
    "parameters",
    "summarize_rank",
]
