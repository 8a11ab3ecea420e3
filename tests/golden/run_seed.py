#!/usr/bin/env python3
"""Run the reference (seed) fusion analysis on two traces and print its result as JSON.

The seed is one file of a larger Python package (wafer-core's fusion_analyzer.py) whose
classifier module is not part of it. This runner rebuilds just enough of that package in a
temporary folder: the seed file, extracted from its diff at run time (its code is never copied
into this repository), and a stand-in `classify_kernel` that implements the seed's documented
rules. It then calls `analyze_fusion_differences(A, B, min_group_size)`.

The seed reads plain JSON only, so gzip traces are decompressed to temporary files first.
`Infinity` (which the seed puts into its numbers) is written as the string "Infinity", so that
the output is valid JSON for the C++ test that compares against it.

Usage: run_seed.py [--seed PATH] [--min-group-size N] [--time] TRACE_A TRACE_B > golden.json
"""
import argparse
import gzip
import json
import math
import os
import shutil
import sys
import tempfile
import time

STAND_IN_CLASSIFIER = '''
def classify_kernel(name):
    n = name.lower()
    def has(*subs):
        return any(s in n for s in subs)
    if has("cijk_", "nvjet", "wvsplitk", "cublas", "hipblas", "tensile"):
        return "GEMM"
    if has("attention", "fmha"):
        return "Attention"
    if has("reshape_and_cache"):
        return "KV_Cache"
    if ("triton" in n and "rsqrt" in n) or has("layernorm", "rmsnorm"):
        return "RMSNorm"
    if has("silu", "swiglu"):
        return "SwiGLU"
    if has("gelu"):
        return "GELU"
    if has("relu"):
        return "ReLU"
    if has("triton_poi"):
        return "Triton_Pointwise"
    if has("triton_red"):
        return "Triton_Reduce"
    if has("triton_per"):
        return "Triton_Persistent"
    if has("reduce_segments", "devicereduce"):
        return "Reduce"
    if has("sort", "radixsort", "merge"):
        return "Sort"
    if has("softmax"):
        return "Softmax"
    if has("elementwise", "unrolled_elementwise"):
        return "Elementwise"
    if has("copy", "memcpy"):
        return "MemCopy"
    return "Other"
'''


def extract_seed(diff_path):
    with open(diff_path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("@@"))
    return "\n".join(line[1:] if line.startswith("+") else line for line in lines[start + 1:])


def build_package(root, diff_path):
    pkg = os.path.join(root, "wafer_core", "lib", "trace_compare")
    os.makedirs(pkg)
    for folder in ("wafer_core", "wafer_core/lib", "wafer_core/lib/trace_compare"):
        open(os.path.join(root, folder, "__init__.py"), "w").close()
    with open(os.path.join(pkg, "classifier.py"), "w") as f:
        f.write(STAND_IN_CLASSIFIER)
    with open(os.path.join(pkg, "fusion_analyzer.py"), "w") as f:
        f.write(extract_seed(diff_path))


def plain_copy(path, tmp):
    with open(path, "rb") as f:
        if f.read(2) != b"\x1f\x8b":
            return path
    out = os.path.join(tmp, os.path.basename(path) + ".plain.json")
    with gzip.open(path, "rb") as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return out


def json_safe(value):
    if isinstance(value, float) and math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_seed = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "seed", "fusion_analyzer.py.diff"))
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", default=default_seed)
    parser.add_argument("--min-group-size", type=int, default=50)
    parser.add_argument("--time", action="store_true", help="print the analysis time to stderr")
    parser.add_argument("--summary", action="store_true", help="print counts only, not the whole result")
    parser.add_argument("trace_a")
    parser.add_argument("trace_b")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        build_package(tmp, args.seed)
        sys.path.insert(0, tmp)
        from wafer_core.lib.trace_compare.fusion_analyzer import analyze_fusion_differences

        a = plain_copy(args.trace_a, tmp)
        b = plain_copy(args.trace_b, tmp)
        started = time.perf_counter()
        result = analyze_fusion_differences(a, b, min_group_size=args.min_group_size)
        elapsed = time.perf_counter() - started
    if args.time:
        print(f"seed analysis: {elapsed:.3f} s", file=sys.stderr)
    if args.summary:
        result = {"metadata": result["metadata"],
                  "fusion_opportunities": len(result["fusion_opportunities"]),
                  "fusion_mappings": len(result["fusion_mappings"])}
    json.dump(json_safe(result), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
