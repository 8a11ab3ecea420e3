"""The trace pairs the tests compare through Python and through fusiondiff-cli, with the options
each passes both ways: (id, a, b, compare() keyword arguments, fusiondiff-cli options)."""

from conftest import REAL, SAMPLE_A, SAMPLE_B

PAIRS = [
    ("sample", SAMPLE_A, SAMPLE_B, {}, []),
    ("bert", REAL / "bert-small-uncased.mi300x.json.gz", REAL / "bert-small-uncased.h100.json.gz", {}, []),
    ("nsfw-seed-params", REAL / "nsfw_image_detection.mi300x.json.gz", REAL / "nsfw_image_detection.h100.json.gz",
     {"classifier": "seed", "op_level": "module", "params": {"min_group_size": 20, "size_tolerance": 0.5}},
     ["--classifier", "seed", "--op-level", "module", "--param", "min_group_size=20", "--param",
      "size_tolerance=0.5"]),
    ("graphs-capture", REAL / "vllm_decode_full_graph.mi300x.json.gz", REAL / "sglang_qwen3-8b_decode.mi300x.json.gz",
     {"capture2": REAL / "sglang_qwen3-8b_decode_capture.mi300x.json.gz"},
     ["--capture2", str(REAL / "sglang_qwen3-8b_decode_capture.mi300x.json.gz")]),
]
