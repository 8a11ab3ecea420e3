#!/usr/bin/env python3
"""Writes the hand-made traces of tests/data/synthetic/, built so that every branch of the seed's
analysis fires on them (see the comments below and tests/core/tst_seedanalysis.cpp).

Kernel names are chosen by the seed's rules: "nvjet"/"cijk_" -> GEMM, "relu" -> ReLU, ...
Usage: make_synthetic.py OUTPUT_DIR
"""
import json
import os
import sys

NAMES = {
    "GEMM_AMD": "Cijk_Alik_Bljk_BBS_MT256x192x64_gemm",
    "GEMM_NV": "nvjet_tst_128x64_gemm_relu_epilogue",  # the seed's rules call this GEMM: GEMM is tried first
    "ReLU": "void at::native::relu_kernel<float>",
    "Elementwise": "void at::native::vectorized_elementwise_kernel<4, AddFunctor<float>>",
    "Softmax": "void cunn_SoftMaxForward<float>",
    "Attention": "flash_attention_fwd_kernel",
    "Sort": "void cub::DeviceRadixSortOnesweepKernel<long>",
    "Other": "some_other_kernel, with a comma and \"quotes\"",
    "MemCopy": "void at::native::memcpy_kernel",
    "Reduce": "void cub::DeviceReduceKernel<float>",
    "Triton_Pointwise": "triton_poi_fused_add_mul_0",
}


class Trace:
    def __init__(self, platform, gpu):
        self.platform = platform
        self.gpu = gpu
        self.events = []
        self.ts = 1_000_000.0
        self.correlation = 1
        self.counter = 0

    def kernel(self, kind, correlation):
        self.counter += 1
        dur = 1.0 + (self.counter % 7) * 0.25  # uneven durations: sums must be added in the seed's order
        self.events.append({
            "ph": "X", "cat": "kernel", "name": NAMES[kind], "pid": 0, "tid": 7,
            "ts": round(self.ts, 3), "dur": dur,
            "args": {"device": 0, "stream": 7, "correlation": correlation},
        })
        self.ts += dur + 0.5

    def launch(self, name, correlation):
        self.events.append({
            "ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": 1,
            "ts": round(self.ts, 3), "dur": 3.0, "args": {"correlation": correlation},
        })

    def graph(self, layer, layers):
        """One graph launch: `layers` repetitions of `layer`, all sharing one correlation id."""
        correlation = self.correlation
        self.correlation += 1
        self.launch("hipGraphLaunch" if self.platform == "AMD" else "cudaGraphLaunch", correlation)
        for _ in range(layers):
            for kind in layer:
                self.kernel(kind, correlation)
        self.ts += 100

    def eager(self, kinds):
        for kind in kinds:
            correlation = self.correlation
            self.correlation += 1
            self.launch("hipLaunchKernel" if self.platform == "AMD" else "cudaLaunchKernel", correlation)
            self.kernel(kind, correlation)

    def write(self, path):
        header = {"schemaVersion": 1}
        if self.platform == "AMD":
            header["deviceProperties"] = [{"id": 0, "name": self.gpu, "warpSize": 64}]
            header["roctracer_version"] = 4.1
        else:
            header["deviceProperties"] = [{"id": 0, "name": self.gpu, "warpSize": 32}]
        header["traceEvents"] = self.events
        with open(path, "w") as f:
            json.dump(header, f, indent=0)


def graphs_pair(amd_gemm="GEMM_AMD"):
    # Trace A: 8 graph groups of 20 layers x 13 kernels (260): ReLU runs separately after every GEMM
    # (B fuses it), two Softmax per layer, Sort in chains of three; one extra group of 600 kernels that
    # nothing in B matches; eager MemCopy/Reduce pairs that B runs far fewer of.
    a = Trace("AMD", "AMD Instinct MI300X")
    layer_a = [amd_gemm, "ReLU", "Elementwise", "Elementwise", "Elementwise", "Softmax", "Softmax", "Attention",
               amd_gemm, "ReLU", "Sort", "Sort", "Sort"]
    for _ in range(8):
        a.graph(layer_a, 20)
    a.graph(["Attention", "Elementwise", "Elementwise"], 200)
    a.eager(["MemCopy", "Reduce"] * 400)

    # Trace B: 8 groups of 20 layers x 11 kernels (220, within 25% of 260): GEMM with the ReLU fused,
    # more Elementwise, Softmax only in the first two groups (Attention instead in the others), single
    # Sorts, an Other kernel after each Sort; a group of 60 that nothing in A matches; few eager pairs
    # and Triton kernels that always follow a Reduce.
    b = Trace("NVIDIA", "NVIDIA H100 80GB HBM3")
    for group in range(8):
        middle = "Softmax" if group < 2 else "Attention"
        b.graph(["GEMM_NV", "Elementwise", "Elementwise", "Elementwise", "Elementwise", "Elementwise", middle,
                 "Attention", "GEMM_NV", "Sort", "Other"], 20)
    b.graph(["Attention"], 60)
    b.eager(["MemCopy", "Reduce", "Triton_Pointwise"] * 50)
    return a, b


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    a, b = graphs_pair()
    a.write(os.path.join(out, "graphs.amd.json"))
    b.write(os.path.join(out, "graphs.nvidia.json"))
    # The same kernels on two NVIDIA traces: names of the two sides must stay apart.
    a_nv, _ = graphs_pair(amd_gemm="GEMM_NV")
    a_nv.platform = "NVIDIA"
    a_nv.gpu = "NVIDIA A100-SXM4-80GB"
    a_nv.write(os.path.join(out, "graphs.a100.json"))


if __name__ == "__main__":
    main()
