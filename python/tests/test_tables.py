"""Report.table() gives the CLI's CSV tables as DataFrames: the same columns in the same order, the
same rows in the same order, the same values, numbers as numbers."""

import csv
import math

import pandas
import pytest

import fusiondiff
from pairs import PAIRS


@pytest.fixture(scope="module", params=PAIRS, ids=[pair[0] for pair in PAIRS])
def compared(request, run_cli):
    _, a, b, keywords, options = request.param
    return fusiondiff.compare(str(a), str(b), **keywords), run_cli(a, b, *options)


def read_csv(path):
    with open(path, newline="", encoding="utf-8", errors="replace") as file:
        rows = list(csv.reader(file))
    return rows[0], rows[1:]


def cell_equals(text, value, dtype):
    """Whether the DataFrame's `value` (of a column of `dtype`) is the CSV field `text`."""
    if pandas.api.types.is_integer_dtype(dtype):
        return pandas.isna(value) if text == "" else (not pandas.isna(value) and int(text) == int(value))
    if pandas.api.types.is_float_dtype(dtype):
        if text == "" or text == "nan":
            return math.isnan(value)
        return float(text) == value
    if value is None:
        return text == ""
    if isinstance(value, str):
        return text == value
    if isinstance(value, int):
        return int(text) == value
    return float(text) == value


def test_the_tables_are_the_csv_files(compared):
    report, cli = compared
    written = sorted(path.stem for path in cli.csv_dir.glob("*.csv"))
    assert sorted(report.tables()) == written


def test_dataframes_equal_the_csv_files(compared):
    report, cli = compared
    nonempty = 0
    for name in report.tables():
        frame = report.table(name)
        header, rows = read_csv(cli.csv(name))
        assert list(frame.columns) == header, name
        assert len(frame) == len(rows), name
        nonempty += len(rows) > 0
        for column_index, column in enumerate(header):
            dtype = frame.dtypes.iloc[column_index]
            values = frame.iloc[:, column_index].tolist()
            for row_index, row in enumerate(rows):
                assert cell_equals(row[column_index], values[row_index], dtype), (
                    f"{name}.csv row {row_index + 1} {column}: CSV {row[column_index]!r}, "
                    f"DataFrame {values[row_index]!r} ({dtype})")
    assert nonempty >= 5, "the pair should fill several tables"


def test_numbers_are_numbers(compared):
    report, _ = compared
    kernels = report.table("kernels")
    assert len(kernels) > 0
    for column in kernels.columns:
        if column.endswith("_count"):
            assert kernels[column].dtype == "int64", column
        if column.endswith("_us"):
            assert kernels[column].dtype == "float64", column
    gap = report.table("time_gap")
    assert gap["delta_us"].dtype == "float64"
    # The parts of each basis add up to its gap, as the core promises (the headline's basis is the
    # step time where the traces have steps).
    kernel_time = gap[gap["basis"] == "gpu_kernel_time"]
    assert kernel_time["delta_us"].sum() == pytest.approx(report.time_gap["kernel_time"]["delta_us"], abs=1e-6)
    headline = gap[gap["basis"] == report.time_gap["basis"]]
    assert headline["delta_us"].sum() == pytest.approx(report.time_gap["delta_us"], abs=1e-3)


def test_the_table_outlives_the_report():
    report = fusiondiff.compare(PAIRS[0][1], PAIRS[0][2])
    frame = report.table("kernels")
    expected = frame.copy()
    del report
    assert frame.equals(expected)


def test_unknown_table_names_the_tables():
    report = fusiondiff.compare(PAIRS[0][1], PAIRS[0][2])
    with pytest.raises(KeyError, match="op_findings"):
        report.table("no_such_table")
