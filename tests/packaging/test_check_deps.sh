#!/bin/sh
# Shows that packaging/check-deps.sh passes with install-deps.sh's list and fails when a package
# the build needs is missing from it (libqt6opengl6-dev, which Qt6Charts' CMake config needs and
# qt6-charts-dev does not pull in), or when a library the programs load is missing from the
# package's Depends (libsimdjson14). Run by ctest on a built tree: test_check_deps.sh [--ci]
# BUILD_DIR (--ci: a CI build, held to install-deps.sh --ci's list).
set -eu
ci=""
if [ "$1" = --ci ]; then
    ci=--ci
    shift
fi
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "test_check_deps: $*" >&2
    exit 1
}

# Runs check-deps.sh with the arguments given; its output goes to $tmp/out, its status to $status.
check() {
    status=0
    "$root/packaging/check-deps.sh" "$@" "$build" >"$tmp/out" 2>&1 || status=$?
    cat "$tmp/out"
}

# Asserts that the last check failed (status 1) naming package $1 in its check $2.
expect_failure_naming() {
    [ "$status" -eq 1 ] || fail "without $1 the check exits with $status, not 1"
    grep -q "^check-deps: $2: $1 is neither in nor pulled in by" "$tmp/out" || fail "without $1 the check does not name it"
}

"$root/packaging/install-deps.sh" --list $ci >"$tmp/packages"
check --packages-file "$tmp/packages"
[ "$status" -ne 77 ] || exit 77
[ "$status" -eq 0 ] || fail "the check fails with install-deps.sh${ci:+ $ci}'s list"
depends=$(sed -n "s/^check-deps: runtime: the package's Depends: //p" "$tmp/out")
[ -n "$depends" ] || fail "the check does not print the package's Depends"

grep -vx 'libqt6opengl6-dev' "$tmp/packages" >"$tmp/without-opengl"
check --packages-file "$tmp/without-opengl"
expect_failure_naming libqt6opengl6-dev build

check --depends "$(echo "$depends" | sed 's/libsimdjson14[^,]*,* *//')"
expect_failure_naming libsimdjson14 runtime
echo "test_check_deps: ok"
