"""The efficiency table from Python: the DataFrame, the section with the peaks and GPUs, and a
peaks file that replaces the built-in one."""

import json

import pytest

import fusiondiff
from conftest import SAMPLE_A, SAMPLE_B


@pytest.fixture(scope="module")
def report():
    return fusiondiff.compare(str(SAMPLE_A), str(SAMPLE_B))


def test_the_table_is_a_dataframe_with_both_gpus(report):
    table = report.table("efficiency")
    assert list(table.columns[:4]) == ["op", "shape", "dtype", "family"]
    gemm = table[(table["op"] == "aten::mm") & (table["shape"] == "M=8944 N=2816 K=1024")].iloc[0]
    assert gemm["flops"] == 2 * 8944 * 2816 * 1024
    assert gemm["trace1_calls"] == 48 and gemm["trace2_calls"] == 48
    assert 0 < gemm["trace1_peak_share"] < gemm["trace2_peak_share"] < 1
    assert gemm["trace1_peak_tflops"] == 1307.4 and gemm["trace2_peak_tflops"] == 989.5
    section = report.efficiency
    assert section["peaks_definition"] == "datasheet"
    assert [gpu["gpu"] for gpu in section["gpus"]] == ["MI300X", "H100 SXM"]


def test_a_peaks_file_replaces_the_datasheet(tmp_path):
    peaks = tmp_path / "measured.json"
    peaks.write_text(json.dumps({"definition": "max achievable", "gpus": [
        {"gpu": "MI300X measured", "vendor": "AMD", "names": ["MI300X"], "matrixTflops": {"bf16": 708},
         "vectorTflops": 80, "hbmTBps": 4.3, "source": "measured"}]}))
    report = fusiondiff.compare(str(SAMPLE_A), str(SAMPLE_B), peaks=peaks)
    section = report.efficiency
    assert section["peaks_definition"] == "max achievable"
    assert section["peaks_origin"] == str(peaks)
    assert section["gpus"][0]["gpu"] == "MI300X measured"
    assert section["gpus"][1]["gpu"] is None
    assert section["gpus"][1]["detected"].startswith("unknown GPU")
    table = report.table("efficiency")
    gemm = table[table["op"] == "aten::mm"].iloc[0]
    assert gemm["trace1_peak_tflops"] == 708
    assert gemm["trace2_note"].startswith("unknown GPU")


def test_a_bad_peaks_file_names_the_file(tmp_path):
    peaks = tmp_path / "broken.json"
    peaks.write_text("{")
    with pytest.raises(fusiondiff.InputError, match="broken.json"):
        fusiondiff.compare(str(SAMPLE_A), str(SAMPLE_B), peaks=peaks)
