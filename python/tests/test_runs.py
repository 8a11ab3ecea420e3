"""compare_runs: two multi-rank runs compared as jobs, the per-rank map run by any
concurrent.futures.Executor (a process pool, Dask's LocalCluster), with the CLI's report."""

import concurrent.futures
import json
import shutil
import subprocess
import sys

import pytest

import fusiondiff
from conftest import REAL

DLRM = REAL / "dlrm_8ranks"


def _cli_json(cli, a, b, tmp_path):
    path = tmp_path / "cli.json"
    subprocess.run([cli, "compare", str(a), str(b), "--json", str(path), "--quiet"], check=True)
    return path.read_bytes()


@pytest.fixture(scope="module")
def slowed(tmp_path_factory):
    """The DLRM run with rank 7's kernels twice as slow, the others waiting for it."""
    out = tmp_path_factory.mktemp("slow7")
    subprocess.run([sys.executable, str(REAL.parents[1] / "tools" / "slowrank.py"), str(DLRM), str(out),
                    "--rank", "7", "--factor", "2"], check=True, capture_output=True)
    return out


def test_in_process_is_the_cli(cli, slowed, tmp_path):
    report = fusiondiff.compare_runs(DLRM, slowed)
    assert report.to_json() == _cli_json(cli, DLRM, slowed, tmp_path)
    assert report.tables()[-3:] == ["job_steps", "rank_times", "rank_collectives"]
    ranks = report.table("rank_times")
    assert list(ranks["trace1_rank"]) == list(range(8))
    entry = next(e for e in report.where_to_look_first if e["kind"] == "straggler")
    assert entry["straggler_rank"] == 7 and entry["slower_trace"] == "trace2"


def test_process_pool(cli, slowed, tmp_path):
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        report = fusiondiff.compare_runs(DLRM, slowed, executor=pool)
    assert report.to_json() == _cli_json(cli, DLRM, slowed, tmp_path)


def test_dask_local_cluster(cli, slowed, tmp_path):
    import distributed  # Debian: python3-distributed (packaging/install-deps.sh)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        report = fusiondiff.compare_runs(DLRM, slowed, executor=client.get_executor())
    assert report.to_json() == _cli_json(cli, DLRM, slowed, tmp_path)


def test_files_and_rank_pair(slowed):
    files = sorted(DLRM.iterdir())
    report = fusiondiff.compare_runs(files, sorted(slowed.iterdir()), rank_pair=(2, 2))
    job = json.loads(report.to_json())["job"]
    assert job["detailed_pair"] == {"trace1_rank": 2, "trace2_rank": 2}
    assert job["trace1"]["world_size"] == 8


def test_bad_rank_set_names_the_files(tmp_path):
    for name in ("worker0.v100.pt.trace.json.gz", "worker1.v100.pt.trace.json.gz"):
        shutil.copy(DLRM / name, tmp_path / name)
    with pytest.raises(fusiondiff.InputError) as error:
        fusiondiff.compare_runs(DLRM, tmp_path)
    assert "the job has 8 ranks, but these are missing: 2, 3, 4, 5, 6, 7" in str(error.value)
    assert "worker1" in str(error.value)
