"""compare, classify and the Report with its tables as pandas DataFrames."""

import functools
import json
import os

from fusiondiff import _fusiondiff

# How often the calling thread wakes while the core works: to handle Ctrl+C and call `progress`.
_POLL_SECONDS = 0.1


def _parameter_text(name, value):
    # The core parses the text as the command line's --param NAME=VALUE; repr gives a float's
    # shortest round-trip form.
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError(f"parameter {name} needs a number, not {value!r}")
    return value if isinstance(value, str) else repr(value)


def compare(a, b, classifier="default", op_level="auto", params=None, capture1=None, capture2=None,
            progress=None, threads=None, peaks=None):
    """Compares the traces a ("trace1") and b ("trace2") as `fusiondiff-cli compare` does.

    a, b: Kineto / Chrome-trace JSON files, plain or gzip (str or os.PathLike).
    classifier: "default", "seed" or the path of a rule file (docs/classifiers.md).
    op_level: "auto", "operator", "module" or "launch" (fusiondiff-cli --op-level).
    params: {name: value} of analysis thresholds (fusiondiff-cli --param; fusiondiff.parameters()
        lists them with their defaults).
    capture1, capture2: graph-capture traces that go with a and b (--capture1, --capture2).
    progress: called as progress(done_bytes, total_bytes) while the traces are read, on the
        calling thread, about ten times a second; returning False stops the comparison
        (Cancelled), and so does any exception it raises.
    threads: parse and analyse the traces on at most this many threads (--threads; 1 reads them
        one after the other and analyses them on one thread); None, the default, uses the
        machine's cores.
    peaks: a GPU peaks file that replaces the built-in datasheet figures (--peaks); the table
        "efficiency" and section_json("efficiency") say which definition was used.

    The traces are read on the core's threads without the GIL; Ctrl+C (KeyboardInterrupt) stops
    them. Raises InputError for a file that cannot be used, ValueError for unknown parameters.
    """
    pairs = [(str(name), _parameter_text(name, value)) for name, value in (params or {}).items()]
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)):
        raise TypeError(f"threads takes a whole number from 1 to 1024, or None, not {threads!r}")
    if threads is not None and not 1 <= threads <= 1024:
        raise ValueError(f"threads takes a whole number from 1 to 1024, or None, not {threads!r}")
    core = _fusiondiff.compare(
        os.fspath(a), os.fspath(b),
        classifier=os.fspath(classifier),
        op_level=op_level,
        params=pairs,
        capture1=None if capture1 is None else os.fspath(capture1),
        capture2=None if capture2 is None else os.fspath(capture2),
        progress=progress,
        poll_seconds=_POLL_SECONDS,
        threads=0 if threads is None else threads,
        peaks=None if peaks is None else os.fspath(peaks))
    return Report(core)


def summarize_rank(path, classifier="default"):
    """The map step of compare_runs: one rank trace loaded and summarised (its steps, busy and idle
    by cause, kernel time by type, collective calls), as bytes any executor can send back."""
    return _fusiondiff.summarize_rank(os.fspath(path), os.fspath(classifier))


def _run_files(run):
    inputs = [run] if isinstance(run, (str, os.PathLike)) else list(run)
    return _fusiondiff.run_trace_files([os.fspath(p) for p in inputs])


def compare_runs(a, b, executor=None, classifier="default", rank_pair=None, op_level="auto", params=None,
                 progress=None, threads=None, peaks=None):
    """Compares two multi-rank runs as jobs, as `fusiondiff-cli compare A B` does with folders.

    a, b: a folder of rank traces, or a list of rank trace files (str or os.PathLike).
    executor: any concurrent.futures.Executor that runs the map (each rank trace into a compact
        summary, summarize_rank) on its workers: a ProcessPoolExecutor on one machine, or
        Dask's Client.get_executor() across a cluster (the workers need fusiondiff and the files).
        None summarises the ranks here, one after the other. The merge (the ranks' collectives
        matched, clocks aligned, waits, stragglers) and the detailed report on one rank pair run
        in this process.
    rank_pair: (rank of a, rank of b) for the detailed report; None: the straggler's pair.
    The other arguments are compare's. Raises InputError for a bad rank set (a missing,
    duplicated or foreign rank), naming the files.
    """
    files = [_run_files(a), _run_files(b)]
    classifier = os.fspath(classifier)
    if executor is None:
        summaries = [[summarize_rank(path, classifier) for path in side] for side in files]
    else:
        # Both sides' ranks are submitted before any result is waited for.
        futures = [executor.map(summarize_rank, side, [classifier] * len(side)) for side in files]
        summaries = [list(side) for side in futures]
    pairs = [(str(name), _parameter_text(name, value)) for name, value in (params or {}).items()]
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 1024):
        raise ValueError(f"threads takes a whole number from 1 to 1024, or None, not {threads!r}")
    core = _fusiondiff.compare_runs(
        summaries[0], summaries[1],
        rank_pair=None if rank_pair is None else tuple(int(r) for r in rank_pair),
        classifier=classifier,
        op_level=op_level,
        params=pairs,
        progress=progress,
        poll_seconds=_POLL_SECONDS,
        threads=0 if threads is None else threads,
        peaks=None if peaks is None else os.fspath(peaks))
    return Report(core)


def classify(names, classifier="default"):
    """The kernel type of each kernel name, in order (fusiondiff-cli classify --names)."""
    if isinstance(names, str):
        raise TypeError("classify takes a list of kernel names, not one string")
    return _fusiondiff.classify(list(names), os.fspath(classifier))


def _column(kind, values, mask):
    import pandas

    if kind == "Int64":
        return pandas.arrays.IntegerArray(values, mask)
    if kind == "str":
        return pandas.Series(values, dtype=object)
    if kind == "object":
        return pandas.Series(values, dtype=object)
    return values


class Report:
    """The result of compare(): the report's tables, its time gap and where to look first."""

    def __init__(self, core):
        self._core = core

    def tables(self):
        """The names of the report's tables, in the order of fusiondiff-cli's CSV files."""
        return self._core.table_names()

    def table(self, name):
        """The table `name` as a pandas DataFrame: the columns of fusiondiff-cli's `name`.csv, in
        its order, with its rows in its order. Counts are int64 (Int64 where some are empty),
        times and ratios float64 (NaN where empty), text object (None where empty). The DataFrame
        is a copy: it stays valid after the Report is gone."""
        import pandas

        columns = self._core.table_columns(name)
        data = {key: _column(kind, values, mask) for key, kind, values, mask in columns}
        return pandas.DataFrame(data, columns=[key for key, _, _, _ in columns])

    @property
    def verdict(self):
        """The time gap in one line: "A is slower than B by ...", as the report's time_gap.verdict."""
        return self._core.verdict

    @functools.cached_property
    def time_gap(self):
        """The time gap explained part by part: the JSON report's "time_gap" as dicts and lists."""
        return json.loads(self._core.section_json("time_gap"))

    @functools.cached_property
    def where_to_look_first(self):
        """The differences ranked by the time at stake: the JSON report's "where_to_look_first"."""
        return json.loads(self._core.section_json("where_to_look_first"))

    @functools.cached_property
    def efficiency(self):
        """The peaks used, each side's GPU and the rows against them: the JSON report's "efficiency"
        (the rows also as a DataFrame: table("efficiency"))."""
        return json.loads(self._core.section_json("efficiency"))

    def to_json(self):
        """The whole report as JSON: the bytes fusiondiff-cli compare --json writes."""
        return self._core.to_json()

    def __repr__(self):
        return f"<fusiondiff.Report: {self.verdict}>"
