"""Report.to_json() is the CLI's --json, byte for byte; the sections are that JSON's."""

import json

import pytest

import fusiondiff
from pairs import PAIRS


@pytest.mark.parametrize("pair", PAIRS, ids=[pair[0] for pair in PAIRS])
def test_to_json_is_the_cli_json(pair, run_cli):
    _, a, b, keywords, options = pair
    report = fusiondiff.compare(str(a), str(b), **keywords)
    cli = run_cli(a, b, *options)
    assert report.to_json() == cli.json_path.read_bytes()


def test_sections_are_those_of_the_json(run_cli):
    _, a, b, _, _ = PAIRS[0]
    report = fusiondiff.compare(str(a), str(b))
    whole = json.loads(report.to_json())
    assert report.time_gap == whole["time_gap"]
    assert report.where_to_look_first == whole["where_to_look_first"]
    assert report.verdict == whole["time_gap"]["verdict"]
    assert report.verdict.startswith("B (NVIDIA) is slower than A (AMD)")
    assert isinstance(report.where_to_look_first, list) and len(report.where_to_look_first) > 0
    assert isinstance(report.where_to_look_first[0]["title"], str)


def test_options_reach_the_analysis():
    _, a, b, _, _ = PAIRS[0]
    options = json.loads(fusiondiff.compare(a, b, classifier="seed", op_level="launch",
                                            params={"min_group_size": 7, "strong_ratio": 2.5}).to_json())
    assert options["options"]["min_group_size"] == 7
    assert options["options"]["strong_ratio"] == 2.5
    assert options["classifier"]["name"] == "seed"
    assert options["op_comparison"]["level"] == "launching_operator"
