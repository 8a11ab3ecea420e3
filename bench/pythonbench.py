#!/usr/bin/python3
"""CPU time of a comparison through the Python module against fusiondiff-cli's (issue 22).

    bench/pythonbench.py --build build/release [--runs N] [--tile-bytes BYTES] [A B]...

For each pair (default: the bundled sample pair and the owlv2 MI300X/H100 pair of tests/data;
--tile-bytes adds that pair tiled by bench/tracetiler to about BYTES of plain JSON a trace), runs,
interleaved, N times each:
  - cli:     fusiondiff-cli compare A B --json /dev/null --quiet, a process of its own: its user +
             sys CPU time (getrusage of the child), process start and the JSON written included;
  - python:  fusiondiff.compare(A, B) and Report.to_json() in this process (the same work: load,
             analysis, JSON): user + sys CPU time of the process (time.process_time, all threads);
  - tables:  a DataFrame of every table (Report.table for each of Report.tables()), after that;
  - process: python3 -c "import fusiondiff; ...compare(A, B).to_json() to /dev/null", a process of
             its own like the CLI's: interpreter start and import included.
Prints the medians, python / cli, and the one-time cost of starting python3 and importing
fusiondiff, and fusiondiff and pandas (a process of its own, N times). CPU time, not wall time: the machine is
shared; the load average is printed before and after. Files are read once before they are timed.
"""

import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = [
    (REPO / "resources/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz", REPO / "resources/samples/Qwen1.5-0.5B-Chat.h100.json.gz"),
    (REPO / "tests/data/real/owlv2-large-patch14-ensemble.mi300x.json.gz",
     REPO / "tests/data/real/owlv2-large-patch14-ensemble.h100.json.gz"),
]


PROCESS_SCRIPT = ("import sys, fusiondiff; "
                  "open('/dev/null', 'wb').write(fusiondiff.compare(sys.argv[1], sys.argv[2]).to_json())")


def child_cpu(command, environment=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def tile(tiler, source, target_bytes, directory):
    out = pathlib.Path(directory) / (source.name.replace(".json.gz", "") + f".tiled{target_bytes >> 20}M.json")
    subprocess.run([str(tiler), str(source), str(out), "--target-size", str(target_bytes)], check=True,
                   stdout=subprocess.DEVNULL)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True, help="build tree with app/cli/fusiondiff-cli and python/fusiondiff")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--tile-bytes", type=int, default=0, help="also the owlv2 pair tiled to this size a trace")
    parser.add_argument("traces", nargs="*", help="pairs of traces A B (default: the sample and owlv2 pairs)")
    arguments = parser.parse_args()
    if len(arguments.traces) % 2:
        parser.error("traces come in pairs")

    build = pathlib.Path(arguments.build).resolve()
    cli = build / "app/cli/fusiondiff-cli"
    sys.path.insert(0, str(build / "python"))
    import fusiondiff  # noqa: E402 (from the build tree given)

    pairs = [(pathlib.Path(a), pathlib.Path(b)) for a, b in zip(arguments.traces[::2], arguments.traces[1::2])]
    pairs = pairs or list(DEFAULT_PAIRS)
    work = tempfile.TemporaryDirectory(prefix="pythonbench-")
    if arguments.tile_bytes:
        tiler = build / "bench/tracetiler"
        pairs.append(tuple(tile(tiler, trace, arguments.tile_bytes, work.name) for trace in DEFAULT_PAIRS[1]))

    print(f"fusiondiff {fusiondiff.__version__} from {fusiondiff.__file__}; {os.cpu_count()} CPUs; "
          f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    environment = dict(os.environ, PYTHONPATH=str(build / "python"))
    startup = statistics.median(
        child_cpu([sys.executable, "-c", "import fusiondiff"], environment) for _ in range(arguments.runs))
    pandas_startup = statistics.median(
        child_cpu([sys.executable, "-c", "import fusiondiff, pandas"], environment) for _ in range(arguments.runs))
    rows = []
    for a, b in pairs:
        for path in (a, b):
            path.read_bytes()  # into the page cache
        cli_times, python_times, table_times, process_times = [], [], [], []
        for _ in range(arguments.runs):
            cli_times.append(child_cpu([str(cli), "compare", str(a), str(b), "--json", "/dev/null", "--quiet"]))
            process_times.append(child_cpu([sys.executable, "-c", PROCESS_SCRIPT, str(a), str(b)], environment))
            start = time.process_time()
            report = fusiondiff.compare(a, b)
            report.to_json()
            python_times.append(time.process_time() - start)
            start = time.process_time()
            for name in report.tables():
                report.table(name)
            table_times.append(time.process_time() - start)
            del report
        size = (a.stat().st_size + b.stat().st_size) / (1 << 20)
        rows.append((f"{a.name} vs {b.name}", size, statistics.median(cli_times), statistics.median(python_times),
                     statistics.median(table_times), statistics.median(process_times)))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"python3 start + import fusiondiff: {startup:.3f} s CPU; with pandas: {pandas_startup:.3f} s "
          f"(median of {arguments.runs}, once a process)")
    print()
    print("| pair | files MB | cli s | python compare + to_json s | python / cli | python3 process s | process / cli "
          "| every table as a DataFrame s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, size, cli_time, python_time, table_time, process_time in rows:
        print(f"| {name} | {size:.1f} | {cli_time:.3f} | {python_time:.3f} | {python_time / cli_time:.2f} | "
              f"{process_time:.3f} | {process_time / cli_time:.2f} | {table_time:.3f} |")


if __name__ == "__main__":
    main()
