"""fusiondiff.classify gives the CLI's classification of kernel names."""

import subprocess

import pytest

import fusiondiff

NAMES = [
    "Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >",
    "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn",
    "flash_fwd_kernel",
    "triton_red_fused_native_layer_norm_0",
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
    "something_nobody_knows",
]


@pytest.mark.parametrize("classifier", ["default", "seed"])
def test_classify_is_the_cli(classifier, cli, tmp_path):
    names_file = tmp_path / "names.txt"
    names_file.write_text("\n".join(NAMES) + "\n")
    run = subprocess.run([cli, "classify", "--names", str(names_file), "--classifier", classifier],
                         capture_output=True, text=True, check=True)
    expected = [line.split("\t")[1] for line in run.stdout.splitlines()[1:]]
    assert fusiondiff.classify(NAMES, classifier=classifier) == expected
    assert len(set(expected)) >= 4, "the names should fall into several types"


def test_classify_takes_a_list():
    with pytest.raises(TypeError):
        fusiondiff.classify("flash_fwd_kernel")
    assert fusiondiff.classify([]) == []
    assert fusiondiff.classify(iter(["flash_fwd_kernel"])) == fusiondiff.classify(["flash_fwd_kernel"])
