#!/bin/sh
# Installs the Debian 12 packages FusionDiff needs to build and test, skipping those already
# installed. Uses sudo when not run as root. Everything comes from Debian's own archive.
# --ci adds what CI needs besides; --list prints the packages, one a line, and installs nothing
# (packaging/check-deps.sh reads the list from there).
set -eu

ci=no
list=no
for arg in "$@"; do
    case $arg in
    --ci) ci=yes ;;
    --list) list=yes ;;
    *)
        echo "usage: install-deps.sh [--ci] [--list]" >&2
        exit 2
        ;;
    esac
done

packages="build-essential cmake ninja-build pkg-config
qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl1-mesa-dev
libsimdjson-dev libisal-dev zlib1g-dev
pybind11-dev python3-dev python3-pandas python3-pytest python3-distributed
fonts-dejavu-core desktop-file-utils dpkg-dev file"

if [ "$ci" = yes ]; then
    # Fuzzing and sanitizers with clang and its runtime (llvm: the llvm-ar that CMake takes for
    # clang when it is there, so that every CI machine builds alike); the format and clang-tidy
    # checks.
    packages="$packages clang libclang-rt-14-dev llvm clang-format clang-tidy-14"
fi
if [ "$list" = yes ]; then
    # shellcheck disable=SC2086
    printf '%s\n' $packages
    exit 0
fi

missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages are installed"
    exit 0
fi

echo "install-deps: installing$missing"
run=""
if [ "$(id -u)" -ne 0 ]; then
    run="sudo"
fi
$run env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
$run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
