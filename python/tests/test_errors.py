"""Bad input raises fusiondiff.InputError with the file, the reason and the byte offset, and its
message is the CLI's."""

import gzip
import subprocess

import pytest

import fusiondiff
from conftest import SAMPLE_A, SAMPLE_B

BROKEN_JSON = b'{"traceEvents": [{"name": "k", "ph": "X", "cat": "kernel", "ts": 1, "dur": 2,, "pid": 0}]}'


def cli_error(cli, *arguments):
    run = subprocess.run([cli, *arguments], capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    first_line = run.stderr.splitlines()[0]
    assert first_line.startswith("fusiondiff-cli: error: ")
    return first_line[len("fusiondiff-cli: error: "):]


def test_missing_trace_names_the_file(tmp_path, cli):
    missing = str(tmp_path / "missing.json.gz")
    with pytest.raises(fusiondiff.InputError) as raised:
        fusiondiff.compare(missing, SAMPLE_B)
    error = raised.value
    assert error.path == missing
    assert error.reason and missing not in error.reason
    assert error.offset is None and error.offset_kind is None
    assert str(error) == cli_error(cli, "compare", missing, str(SAMPLE_B), "--quiet")
    assert isinstance(error, ValueError)


def test_syntax_error_has_its_byte_offset(tmp_path, cli):
    broken = tmp_path / "broken.json"
    broken.write_bytes(BROKEN_JSON)
    with pytest.raises(fusiondiff.InputError) as raised:
        fusiondiff.compare(SAMPLE_A, broken)
    error = raised.value
    assert error.path == str(broken)
    assert error.offset_kind == "file"
    assert isinstance(error.offset, int) and 0 < error.offset < len(BROKEN_JSON)
    assert str(error) == cli_error(cli, "compare", str(SAMPLE_A), str(broken), "--quiet")
    assert str(error) == f"{broken}: {error.reason} (at byte {error.offset})"


def test_gzip_offset_is_into_the_decompressed_data(tmp_path):
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(BROKEN_JSON))
    with pytest.raises(fusiondiff.InputError) as raised:
        fusiondiff.compare(broken, SAMPLE_B)
    assert raised.value.offset_kind == "decompressed"
    assert "of the decompressed data" in str(raised.value)


def test_both_traces_bad_names_both(tmp_path):
    first, second = str(tmp_path / "first.json"), str(tmp_path / "second.json")
    with pytest.raises(fusiondiff.InputError) as raised:
        fusiondiff.compare(first, second)
    assert raised.value.path == first
    assert any(second in note for note in raised.value.__notes__)


def test_bad_rule_file_and_capture(tmp_path, cli):
    rules = tmp_path / "rules.json"
    rules.write_text("{ not json")
    with pytest.raises(fusiondiff.InputError) as raised:
        fusiondiff.compare(SAMPLE_A, SAMPLE_B, classifier=rules)
    assert raised.value.path == str(rules)
    assert str(raised.value) == cli_error(cli, "compare", str(SAMPLE_A), str(SAMPLE_B), "--classifier", str(rules))
    with pytest.raises(fusiondiff.InputError) as raised:
        fusiondiff.compare(SAMPLE_A, SAMPLE_B, capture1=SAMPLE_B)  # a trace without graph captures
    assert raised.value.path == str(SAMPLE_B)


def test_bad_options_are_value_errors():
    with pytest.raises(ValueError, match="unknown parameter 'no_such'") as raised:
        fusiondiff.compare(SAMPLE_A, SAMPLE_B, params={"no_such": 1})
    assert not isinstance(raised.value, fusiondiff.InputError)
    with pytest.raises(ValueError, match="needs a whole number"):
        fusiondiff.compare(SAMPLE_A, SAMPLE_B, params={"min_group_size": 2.5})
    with pytest.raises(ValueError, match="op_level"):
        fusiondiff.compare(SAMPLE_A, SAMPLE_B, op_level="everything")
    with pytest.raises(TypeError):
        fusiondiff.compare(SAMPLE_A, SAMPLE_B, params={"min_group_size": True})
