"""Fixtures of the fusiondiff pytest suite: the source tree, fusiondiff-cli and its reports.

ctest runs the suite with PYTHONPATH at the build's python/ folder, FUSIONDIFF_CLI at the
fusiondiff-cli built beside the module and FUSIONDIFF_SOURCE_DIR at the source tree
(python/CMakeLists.txt). Nothing here skips: a missing CLI or trace fails the tests that need it.
"""

import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("FUSIONDIFF_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SAMPLES = SOURCE_DIR / "resources" / "samples"
REAL = SOURCE_DIR / "tests" / "data" / "real"

SAMPLE_A = SAMPLES / "Qwen1.5-0.5B-Chat.mi300x.json.gz"
SAMPLE_B = SAMPLES / "Qwen1.5-0.5B-Chat.h100.json.gz"


class CliRun:
    """One fusiondiff-cli compare with --json and --csv, and what it wrote."""

    def __init__(self, directory):
        self.directory = directory
        self.json_path = directory / "report.json"
        self.csv_dir = directory / "csv"

    def csv(self, table):
        return self.csv_dir / f"{table}.csv"


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("FUSIONDIFF_CLI")
    assert path, "FUSIONDIFF_CLI must name the fusiondiff-cli built with the module (ctest sets it)"
    assert os.access(path, os.X_OK), f"FUSIONDIFF_CLI={path} is not an executable"
    return path


@pytest.fixture(scope="session")
def run_cli(cli, tmp_path_factory):
    """run_cli(a, b, *options) -> CliRun: fusiondiff-cli compare a b --json ... --csv ... options."""

    def run(a, b, *options):
        run = CliRun(tmp_path_factory.mktemp("cli"))
        subprocess.run([cli, "compare", str(a), str(b), "--quiet", "--json", str(run.json_path),
                        "--csv", str(run.csv_dir), *options], check=True)
        return run

    return run
