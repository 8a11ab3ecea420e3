#!/bin/sh
# Regenerates the PNGs in docs/screenshots with the built desktop application under Xvfb:
#   docs/screenshots/make.sh [BUILD_DIR]
# BUILD_DIR defaults to build/release (cmake --workflow --preset release), else build-gui, else build.
# The app's hidden --screenshot option loads the traces, grabs the window (QWidget::grab) on every
# view and quits; settings start from the defaults, not from the user's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -ge 1 ]; then
    build=$1
else
    build=
    for candidate in "$root/build/release" "$root/build-gui" "$root/build"; do
        if [ -x "$candidate/app/gui/fusiondiff" ]; then
            build=$candidate
            break
        fi
    done
fi
app=$build/app/gui/fusiondiff
if [ ! -x "$app" ]; then
    echo "make.sh: no fusiondiff under '$build'; build it first or name the build directory" >&2
    exit 1
fi
real=$root/tests/data/real

shoot() {
    if command -v xvfb-run > /dev/null; then
        xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "$@"
    else
        echo "make.sh: xvfb-run not found, using the offscreen platform" >&2
        QT_QPA_PLATFORM=offscreen "$app" "$@"
    fi
}

rm -f "$here"/*.png
# Every view on the bundled real pair (Qwen1.5-0.5B-Chat, MI300X vs H100, eager mode), with its one
# operation finding (aten::scaled_dot_product_attention) drilled into on 11-operations.
shoot --screenshot "$here"
# An eager pair with three operation findings (aten::conv2d selected) and 180 layers a step.
shoot --screenshot "$here" --screenshot-prefix owlv2- \
    --screenshot-only 02-summary,06-kernels,11-operations,12-operation-summary,14-layers \
    "$real/owlv2-large-patch14-ensemble.mi300x.json.gz" "$real/owlv2-large-patch14-ensemble.h100.json.gz"
# A graph finding whose extra runs repeat (x20, x19): the hand-made graph pair.
shoot --screenshot "$here" --screenshot-prefix graphs- --screenshot-only 11-operations \
    "$root/tests/data/synthetic/graphs.amd.json" "$root/tests/data/synthetic/graphs.nvidia.json"
# Eager traces have no fusion opportunities or groups: two real graph pairs show those views filled.
shoot --screenshot "$here" --screenshot-prefix xdit-vs-hta-seed- --classifier seed \
    --screenshot-only 02-summary,03-fusion-opportunities,04-fusion-mappings,08-kernel-types-log-scale,12-operation-summary \
    "$real/xdit_flux_aiter.mi300x.json.gz" "$real/hta_trace_diff_test.v100.json.gz"
shoot --screenshot "$here" --screenshot-prefix vllm-vs-hta- --screenshot-only 07-correlation-groups \
    "$real/vllm_decode_full_graph.mi300x.json.gz" "$real/hta_trace_diff_test.v100.json.gz"
# A graph pair with a large graph finding: its two-lane timeline in the Operations drill-down, and
# the whole traces on the Timeline tab.
shoot --screenshot "$here" --screenshot-prefix sglang-vs-vllm- --param size_tolerance=0.3 \
    --screenshot-only 11-operations,13-timeline \
    "$real/sglang_qwen3-8b_decode.mi300x.json.gz" "$real/vllm_decode_full_graph.mi300x.json.gz"
shoot --screenshot "$here" --screenshot-prefix xdit-vs-hta-seed- --classifier seed --screenshot-only 13-timeline \
    "$real/xdit_flux_aiter.mi300x.json.gz" "$real/hta_trace_diff_test.v100.json.gz"
# Pi0 (MI350 vs H200): the GPU's idle gaps shaded by cause, and the first launch entry of where to
# look first selected on the Timeline, light and dark.
shoot --screenshot "$here" --screenshot-prefix pi0- --screenshot-only 13-timeline,16-timeline-idle \
    "$real/pi0_torchcompile_hipgraph.mi350.json.gz" "$real/pi0_torchcompile_cudagraph.h200.json.gz"
shoot --screenshot "$here" --screenshot-prefix pi0-dark- --dark --screenshot-only 16-timeline-idle \
    "$real/pi0_torchcompile_hipgraph.mi350.json.gz" "$real/pi0_torchcompile_cudagraph.h200.json.gz"
# A pair with two phases: the Summary's per-phase headline, and step 2 of A drawn with step 2 of B
# on the Timeline.
shoot --screenshot "$here" --screenshot-prefix phases- --screenshot-only 02-summary,19-timeline-steps \
    "$real/hta_trace_diff_control.a100.json.gz" "$real/hta_trace_diff_test.v100.json.gz"
# The dark theme (--dark), and a small window (1024x700).
shoot --screenshot "$here" --screenshot-prefix dark- --dark \
    --screenshot-only 02-summary,06-kernels,11-operations,05-kernel-types \
    "$root/tests/data/synthetic/graphs.amd.json" "$root/tests/data/synthetic/graphs.nvidia.json"
shoot --screenshot "$here" --screenshot-prefix 1024x700- --screenshot-size 1024x700 \
    --screenshot-only 02-summary,11-operations \
    "$root/tests/data/synthetic/graphs.amd.json" "$root/tests/data/synthetic/graphs.nvidia.json"
shoot --screenshot "$here" --screenshot-prefix 1024x700- --screenshot-size 1024x700 --screenshot-only 05-kernel-types
# A larger system font (one and a half times, without scaling the rest) at 1024x700: the tabs that
# do not fit are in the row's "N more" menu.
(
    export QT_ENABLE_HIGHDPI_SCALING=0 QT_FONT_DPI=144
    shoot --screenshot "$here" --screenshot-prefix largefont-1024x700- --screenshot-size 1024x700 \
        --screenshot-only 02-summary,05-kernel-types
)
# Twice the scale (a 1440x900 screen is 720x450 logical pixels): the pages stack their panels.
(
    export QT_SCALE_FACTOR=2
    shoot --screenshot "$here" --screenshot-prefix scale2- --screenshot-size 720x450 \
        --screenshot-only 02-summary,05-kernel-types,06-kernels,11-operations,14-layers
)
# The Timeline tab's legend, every chip labelled, in the dark theme and at twice the scale (a 1920x1200
# screen: at 720x450 the legend is below the fold, where the page scrolls).
shoot --screenshot "$here" --screenshot-prefix dark- --dark --screenshot-only 13-timeline
(
    export QT_SCALE_FACTOR=2
    shoot --screenshot "$here" --screenshot-prefix scale2-960x600- --screenshot-size 960x600 --screenshot-only 13-timeline
)
# The Layers tab of the bundled pair in the dark theme and in a small window.
shoot --screenshot "$here" --screenshot-prefix dark- --dark --screenshot-only 14-layers
shoot --screenshot "$here" --screenshot-prefix 1024x700- --screenshot-size 1024x700 --screenshot-only 14-layers
# The Operation summary's table in a small window (the panels below it scroll); Pi0's Steps chart
# with its MI350 step's 9.3 ms without kernel records, light and dark.
shoot --screenshot "$here" --screenshot-prefix 1024x700- --screenshot-size 1024x700 --screenshot-only 12-operation-summary
shoot --screenshot "$here" --screenshot-prefix pi0- --screenshot-only 15-steps \
    "$real/pi0_torchcompile_hipgraph.mi350.json.gz" "$real/pi0_torchcompile_cudagraph.h200.json.gz"
shoot --screenshot "$here" --screenshot-prefix pi0-dark- --dark --screenshot-only 15-steps \
    "$real/pi0_torchcompile_hipgraph.mi350.json.gz" "$real/pi0_torchcompile_cudagraph.h200.json.gz"
# The Efficiency view (the roofline beside the efficiency table, its first plotted row selected):
# owlv2's GEMM, attention and convolution shapes, and the bundled pair dark, small and at twice the scale.
shoot --screenshot "$here" --screenshot-prefix owlv2- --screenshot-only 17-efficiency \
    "$real/owlv2-large-patch14-ensemble.mi300x.json.gz" "$real/owlv2-large-patch14-ensemble.h100.json.gz"
shoot --screenshot "$here" --screenshot-prefix dark- --dark --screenshot-only 17-efficiency
shoot --screenshot "$here" --screenshot-prefix 1024x700- --screenshot-size 1024x700 --screenshot-only 17-efficiency
(
    export QT_SCALE_FACTOR=2
    shoot --screenshot "$here" --screenshot-prefix scale2- --screenshot-size 720x450 --screenshot-only 17-efficiency
)
# Two runs compared as jobs: the real DLRM 8-rank step against the copy with rank 2's kernels 5x
# slower (tests/tools/slowrank.py): the Summary led by the job's verdict, and the Ranks view (step
# time stacked; collective wait side by side), also dark, small and at twice the scale.
runs="$real/dlrm_8ranks $real/dlrm_8ranks_rank2_slow5x"
# shellcheck disable=SC2086 # two folders
shoot --screenshot "$here" --screenshot-prefix dlrm- --screenshot-only 02-summary,17-ranks,18-ranks-wait $runs
# shellcheck disable=SC2086
shoot --screenshot "$here" --screenshot-prefix dlrm-dark- --dark --screenshot-only 17-ranks $runs
# shellcheck disable=SC2086
shoot --screenshot "$here" --screenshot-prefix dlrm-1024x700- --screenshot-size 1024x700 --screenshot-only 17-ranks $runs
(
    export QT_SCALE_FACTOR=2
    # shellcheck disable=SC2086
    shoot --screenshot "$here" --screenshot-prefix dlrm-scale2- --screenshot-size 720x450 --screenshot-only 17-ranks $runs
)
