#!/usr/bin/python3
"""The walk-through of docs/python.md, as a script: each step's code, then what it printed.

    PYTHONPATH=build/test/python python/examples/walkthrough.py [CHART.png]

Runs on the bundled sample pair (resources/samples); the bar chart of the time gap needs
matplotlib (Debian: python3-matplotlib) and is written to CHART.png (default: docs/python-time-gap.png).
"""

import contextlib
import io
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
CHART = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "python-time-gap.png"

STEPS = [
    ("Compare the two traces", '''
import fusiondiff
import pandas as pd
pd.set_option("display.width", 120)
pd.set_option("display.max_colwidth", 48)

a = "resources/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz"
b = "resources/samples/Qwen1.5-0.5B-Chat.h100.json.gz"
report = fusiondiff.compare(a, b, progress=lambda done, total: print(f"read {done:,} of {total:,} bytes"))
print(report.verdict)
'''),
    ("The tables", '''
print(report.tables())
kernels = report.table("kernels")
print(kernels.dtypes)
'''),
    ("A table filtered and sorted: the GEMM kernels, largest time first", '''
gemms = kernels[kernels["type"] == "GEMM"].copy()
gemms["time_us"] = gemms["trace1_time_us"] + gemms["trace2_time_us"]
gemms = gemms.sort_values("time_us", ascending=False)
print(gemms[["name", "trace1_count", "trace2_count", "time_us"]].head(5).to_string(index=False, max_colwidth=48))
'''),
    ("The operations where B spends the most extra time", '''
ops = report.table("op_summary")
ops["delta_us"] = ops["trace2_total_us"] - ops["trace1_total_us"]
print(ops.nlargest(5, "delta_us")[["op", "occurrences", "trace1_total_us", "trace2_total_us", "delta_us"]]
      .to_string(index=False))
'''),
    ("The time gap as a bar chart", '''
gap = report.table("time_gap")
kernel_time = gap[gap["basis"] == "gpu_kernel_time"].set_index("label")
parts = -kernel_time["delta_us"] / 1000  # B - A: what each part adds to B's time
print(parts.round(3))
axes = parts.plot.barh(title="B - A, GPU kernel time (ms)", figsize=(7, 3), ylabel="")
axes.figure.tight_layout()
axes.figure.savefig(CHART, dpi=100)  # CHART: the script's picture; a notebook shows it as it is
'''),
    ("Where to look first, as plain Python", '''
first = report.where_to_look_first[0]
print(first["kind"], "|", first["title"])
print(sorted(report.time_gap.keys()))
'''),
    ("A file that cannot be used", '''
try:
    fusiondiff.compare(a, "resources/samples/README.md")
except fusiondiff.InputError as error:
    print(error)
    print(error.path, "|", error.reason, "|", error.offset, error.offset_kind)
'''),
]


def main():
    import matplotlib

    matplotlib.use("Agg")
    namespace = {"CHART": CHART}
    for title, code in STEPS:
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(code, namespace)  # noqa: S102 (the walk-through's own code)
        print(f"### {title}\n\n```python{code}```\n\n```\n{output.getvalue()}```\n")


if __name__ == "__main__":
    main()
