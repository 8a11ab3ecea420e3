#!/bin/sh
# Installs the build into a temporary prefix and builds the Debian package, then checks that both
# hold what a desktop installation needs. Run by ctest: test_packaging.sh BUILD_DIR GZIP_DECODER
# (GZIP_DECODER: isal or zlib, the build's FUSIONDIFF_GZIP choice).
set -eu
build=$1
gzip_decoder=${2:-zlib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "packaging: $*" >&2
    exit 1
}

prefix="$tmp/usr"
cmake --install "$build" --prefix "$prefix" >/dev/null
for file in bin/fusiondiff bin/fusiondiff-cli \
    share/applications/fusiondiff.desktop \
    share/icons/hicolor/scalable/apps/fusiondiff.svg \
    share/icons/hicolor/16x16/apps/fusiondiff.png share/icons/hicolor/48x48/apps/fusiondiff.png \
    share/icons/hicolor/256x256/apps/fusiondiff.png \
    share/fusiondiff/classifiers/default.json share/fusiondiff/classifiers/seed.json \
    share/fusiondiff/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz share/fusiondiff/samples/Qwen1.5-0.5B-Chat.h100.json.gz \
    share/man/man1/fusiondiff-cli.1 share/man/man1/fusiondiff.1; do
    [ -f "$prefix/$file" ] || fail "cmake --install did not install $file"
done
desktop-file-validate "$prefix/share/applications/fusiondiff.desktop" || fail "the .desktop entry is not valid"
grep -q '^Exec=fusiondiff %F$' "$prefix/share/applications/fusiondiff.desktop" || fail "the .desktop entry does not pass files"
file "$prefix/share/icons/hicolor/256x256/apps/fusiondiff.png" | grep -q '256 x 256' || fail "the 256 px icon is not 256 x 256"

# The installed programs run, and the installed rule files work as user rule files.
"$prefix/bin/fusiondiff-cli" --version | grep -q '^fusiondiff-cli ' || fail "fusiondiff-cli --version"
printf 'Cijk_Alik_Bljk_gemm\n' >"$tmp/names.txt"
"$prefix/bin/fusiondiff-cli" classify --names "$tmp/names.txt" \
    --classifier "$prefix/share/fusiondiff/classifiers/seed.json" | grep -q 'GEMM' || fail "installed seed.json"
"$prefix/bin/fusiondiff-cli" compare "$prefix/share/fusiondiff/samples/Qwen1.5-0.5B-Chat.mi300x.json.gz" \
    "$prefix/share/fusiondiff/samples/Qwen1.5-0.5B-Chat.h100.json.gz" --json "$tmp/report.json" || fail "compare the samples"
QT_QPA_PLATFORM=offscreen "$prefix/bin/fusiondiff" --version | grep -q 'fusiondiff' || fail "fusiondiff --version"

# The Debian package.
(cd "$build" && cpack -G DEB -B "$tmp/deb" >/dev/null) || fail "cpack -G DEB"
deb=$(ls "$tmp"/deb/*.deb)
contents=$(dpkg-deb -c "$deb")
for path in ./usr/bin/fusiondiff ./usr/bin/fusiondiff-cli ./usr/share/applications/fusiondiff.desktop \
    ./usr/share/icons/hicolor/scalable/apps/fusiondiff.svg ./usr/share/fusiondiff/classifiers/default.json \
    ./usr/share/man/man1/fusiondiff-cli.1; do
    echo "$contents" | grep -q " $path\$" || fail "the package lacks $path"
done
depends=$(dpkg-deb -f "$deb" Depends)
# The gzip decoder's library: ISA-L's, or zlib's for the fallback build.
libraries="libqt6widgets6 libqt6charts6 libsimdjson14"
if [ "$gzip_decoder" = isal ]; then
    libraries="$libraries libisal2"
else
    libraries="$libraries zlib1g"
fi
for library in $libraries; do
    echo "$depends" | grep -q "$library" || fail "the package does not depend on $library (Depends: $depends)"
done
echo "packaging: $(basename "$deb") ok"
