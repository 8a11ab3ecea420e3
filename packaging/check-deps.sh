#!/bin/sh
# Checks, after configuring and building BUILD_DIR, that every Debian package the build and the
# programs use is one the project declares:
#   build:   every CMake package config, file named in the Ninja files (tools, linked libraries,
#            CMake modules) and system header the build used must belong to a package that
#            packaging/install-deps.sh installs: listed there, or pulled in by one listed
#            (Depends and Pre-Depends, recursively, as installed here).
#   runtime: every shared library app/gui/fusiondiff, app/cli/fusiondiff-cli and the Python
#            module (python/fusiondiff/_fusiondiff*.so, where built) load must belong
#            to a package the .deb's Depends pulls in: the Depends CPackConfig.cmake declares, plus
#            what dpkg-shlibdeps adds at cpack time when CPACK_DEBIAN_PACKAGE_SHLIBDEPS is on.
# Files outside the source and build trees that belong to no package (/usr/local, a hand-installed
# SDK) are errors too. Debian's Essential packages count as installed everywhere.
#
# Usage: check-deps.sh [--ci] [--packages-file FILE] [--depends DEPENDS] BUILD_DIR
#   --ci                  the build may also use install-deps.sh --ci's packages
#   --packages-file FILE  the build's packages from FILE (whitespace-separated, # comments)
#                         instead of install-deps.sh --list
#   --depends DEPENDS     check the runtime against this Depends field instead of the package's
# Exit status: 0 everything is covered, 1 something is not, 2 usage or setup error,
# 77 no dpkg (not a Debian system: nothing to check).
set -eu

die() {
    echo "check-deps: $*" >&2
    exit 2
}

usage() {
    die "usage: check-deps.sh [--ci] [--packages-file FILE] [--depends DEPENDS] BUILD_DIR"
}

# The value of the CMakeCache.txt entry $1.
cache_value() {
    sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"
}

# Reads "path<TAB>why" lines and keeps those of absolute paths outside the source and build trees
# (each as CMake names it and with symbolic links resolved).
outside_trees() {
    awk -F '\t' -v trees="$source/$tab$source_resolved/$tab$build/$tab$build_named/" '
        BEGIN { n = split(trees, tree, "\t") }
        substr($1, 1, 1) == "/" {
            for (i = 1; i <= n; i++) if (index($1, tree[i]) == 1) next
            print
        }'
}

# --- What the build used: "path<TAB>why" lines ---------------------------------------------------

# find_package(Name) records Name_DIR; the config file in that directory is what CMake read.
package_configs() {
    sed -n 's/^\([A-Za-z0-9_.+-]*\)_DIR:PATH=\(\/.*\)$/\1 \2/p' "$build/CMakeCache.txt" |
        while read -r name dir; do
            lower=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')
            for file in "$dir/${name}Config.cmake" "$dir/$lower-config.cmake"; do
                if [ -f "$file" ]; then
                    printf '%s\tCMake package %s, %s_DIR in CMakeCache.txt\n' "$file" "$name" "$name"
                    break
                fi
            done
        done
}

# The files the Ninja files name: compilers and tools, linked libraries, every CMake file the
# configure step read (build.ninja's re-run dependencies).
ninja_files() {
    for ninja_file in build.ninja CMakeFiles/rules.ninja; do
        grep -o '/[^ ;:"$]*' "$build/$ninja_file" | sort -u | sed "s|\$|${tab}named in $ninja_file|" |
            outside_trees | while IFS="$tab" read -r path why; do
                if [ -f "$path" ]; then
                    printf '%s\t%s\n' "$path" "$why"
                fi
            done
    done
}

# Every header the compiler read, from the dependency files Ninja keeps (.ninja_deps).
headers() {
    ninja -C "$build" -t deps >"$tmp/ninja-deps" || die "ninja -t deps failed in $build"
    awk '
        /^[^ ]/ { object = $1; sub(/:$/, "", object); next }
        /^    / {
            path = substr($0, 5)
            if (!(path in seen)) { seen[path] = 1; print path "\theader of " object }
        }' "$tmp/ninja-deps" | outside_trees
}

build_files() {
    package_configs | outside_trees
    ninja_files
    headers
}

# --- What the programs load ----------------------------------------------------------------------

programs="app/gui/fusiondiff app/cli/fusiondiff-cli"

# Every shared library the programs load, as the dynamic loader resolves it (except the build
# tree's own), and every one it does not find.
runtime_files() {
    for program in $programs; do
        [ -x "$build/$program" ] || continue
        LC_ALL=C ldd "$build/$program" >"$tmp/ldd" || die "ldd $build/$program failed"
        awk -v program="$program" '/ => not found/ {
            print $1 "\tneeded by " program ", not found by the dynamic loader" }' "$tmp/ldd"
        awk -v program="$program" '
            / => \// { print $3 "\tloaded by " program; next }
            $1 ~ /^\// { print $1 "\tloaded by " program }' "$tmp/ldd" | outside_trees
    done
}

# The Depends the .deb gets: CPackConfig.cmake's Depends and Pre-Depends, plus dpkg-shlibdeps'
# output for the programs when CPack runs it (CPACK_DEBIAN_PACKAGE_SHLIBDEPS), as CPack runs it.
package_depends() {
    config="$build/CPackConfig.cmake"
    [ -f "$config" ] || die "$config is missing: configure $build first"
    sed -n 's/^set(CPACK_DEBIAN_PACKAGE_\(PRE\)\{0,1\}DEPENDS "\(.*\)")$/\2/p' "$config"
    if grep -qiE '^set\(CPACK_DEBIAN_PACKAGE_SHLIBDEPS "(1|on|yes|true|y)"\)$' "$config"; then
        mkdir -p "$tmp/shlibdeps/debian" "$tmp/shlibdeps/DEBIAN"
        : >"$tmp/shlibdeps/debian/control"
        set --
        for program in $programs; do
            if [ -x "$build/$program" ]; then
                set -- "$@" "$build/$program"
            fi
        done
        if ! (cd "$tmp/shlibdeps" && dpkg-shlibdeps --ignore-missing-info -O "$@") \
            >"$tmp/shlibdeps/out" 2>"$tmp/shlibdeps/err"; then
            cat "$tmp/shlibdeps/err" >&2
            die "dpkg-shlibdeps failed"
        fi
        sed -n 's/^shlibs:Depends=//p' "$tmp/shlibdeps/out"
    fi
}

# --- Packages --------------------------------------------------------------------------------------

# Reads "path<TAB>why" lines; prints "owners<TAB>path<TAB>why", owners being the comma-separated
# packages dpkg says hold the file (empty for none). A file is looked up as given, then with its
# symbolic links resolved, then (merged /usr) under its other name; one dpkg-query for all files.
owners() {
    awk -F '\t' '!seen[$1]++' >"$tmp/files"
    cut -f1 "$tmp/files" | sort -u >"$tmp/paths"
    while IFS= read -r path; do
        if [ -e "$path" ]; then
            printf '%s\n' "$path"
        fi
    done <"$tmp/paths" >"$tmp/existing"
    tr '\n' '\0' <"$tmp/existing" | xargs -0 -r realpath -e -- >"$tmp/realpaths"
    [ "$(wc -l <"$tmp/realpaths")" -eq "$(wc -l <"$tmp/existing")" ] || die "realpath failed"
    paste "$tmp/existing" "$tmp/realpaths" >"$tmp/resolved"
    {
        awk '{ print $0 "\t" $0 }' "$tmp/paths"
        cat "$tmp/resolved"
        if [ -L /lib ]; then
            cat "$tmp/paths" "$tmp/resolved" | awk -F '\t' '{
                name = $NF
                if (name ~ /^\/usr\/(bin|sbin|lib[^\/]*)\//) print $1 "\t" substr(name, 5)
                else if (name ~ /^\/(bin|sbin|lib[^\/]*)\//) print $1 "\t/usr" name
            }'
        fi
    } >"$tmp/names"
    cut -f2 "$tmp/names" | grep '^/' | sort -u | tr '\n' '\0' |
        LC_ALL=C xargs -0 -r dpkg-query -S -- >"$tmp/dpkg" 2>/dev/null || true
    awk -F '\t' -v dpkg="$tmp/dpkg" -v names="$tmp/names" '
        FILENAME == dpkg {
            if ($0 ~ /^diversion by /) next
            i = index($0, ": /")
            if (i == 0) next
            packages = substr($0, 1, i - 1)
            gsub(/:[a-z0-9-]+/, "", packages)   # architecture qualifiers
            gsub(/, /, ",", packages)
            owner[substr($0, i + 2)] = packages
            next
        }
        FILENAME == names {
            if (!($1 in found) && ($2 in owner)) found[$1] = owner[$2]
            next
        }
        { print ($1 in found ? found[$1] : "") "\t" $1 "\t" $2 }
    ' "$tmp/dpkg" "$tmp/names" "$tmp/files"
}

# Prints every installed package the Depends-style list $1 ("a, b | c (>= 1), d:any", or one a line)
# pulls in, recursively through Depends and Pre-Depends as installed here, plus Debian's Essential
# packages and theirs. Of alternatives, the first installed one counts; a name no installed package
# has counts as every installed package that Provides it. Warns about roots not installed here.
closure() {
    awk -F '\t' -v roots="$(printf '%s' "$1" | tr '\n' ',')" '
        function bare(atom) {
            sub(/\(.*/, "", atom)   # version constraint
            sub(/:.*/, "", atom)    # architecture qualifier (:any, :native, :amd64)
            gsub(/[ \t]/, "", atom)
            return atom
        }
        function add(package) {
            if (!(package in covered)) { covered[package] = 1; queue[++queued] = package }
        }
        function add_list(list, is_root,   clauses, nclauses, c, alternatives, nalternatives, a, name, n, p, providing) {
            nclauses = split(list, clauses, ",")
            for (c = 1; c <= nclauses; c++) {
                name = ""
                nalternatives = split(clauses[c], alternatives, "|")
                for (a = 1; a <= nalternatives; a++) {
                    name = bare(alternatives[a])
                    if (name in installed) { add(name); break }
                    if (name in providers) {
                        n = split(providers[name], providing, " ")
                        for (p = 1; p <= n; p++) add(providing[p])
                        break
                    }
                }
                if (is_root && a > nalternatives && name != "")
                    print "check-deps: warning: " clauses[c] " is not installed here: what it pulls in is not counted" | "cat >&2"
            }
        }
        $2 ~ / installed$/ {
            installed[$1] = 1
            depends[$1] = depends[$1] ", " $5
            if ($3 == "yes") essential[$1] = 1
            n = split($4, provided, ",")
            for (i = 1; i <= n; i++) {
                name = bare(provided[i])
                if (name != "") providers[name] = providers[name] " " $1
            }
        }
        END {
            add_list(roots, 1)
            for (package in essential) add(package)
            for (done = 0; done < queued; ) add_list(depends[queue[++done]], 0)
            for (package in covered) print package
        }' "$tmp/installed"
}

# Reads "owners<TAB>path<TAB>why" lines; reports every file that belongs to no package and every
# package not in the covered list (file $2). $1 names the check, $3 what declares the packages,
# $4 who uses the files. Fails if anything is reported.
report() {
    awk -F '\t' -v check="$1" -v covered_file="$2" -v declared="$3" -v user="$4" '
        function problem(text) { print "check-deps: " check ": " text > "/dev/stderr" }
        FILENAME == covered_file { covered[$1] = 1; next }
        $1 == "" {
            if (++orphans > 10) next
            if (substr($2, 1, 1) != "/") problem($2 " (" $3 ")")
            else problem($2 " (" $3 ") belongs to no Debian package, so " declared " cannot provide it")
            next
        }
        {
            files++
            n = split($1, packages, ",")
            ok = 0
            for (i = 1; i <= n; i++) if (packages[i] in covered) ok = 1
            if (!(packages[1] in used)) { used[packages[1]] = 1; nused++ }
            if (ok) next
            if (!(packages[1] in missing)) { order[++nmissing] = packages[1]; example[packages[1]] = $2 " (" $3 ")" }
            missing[packages[1]]++
        }
        END {
            for (m = 1; m <= nmissing; m++)
                problem(order[m] " is neither in nor pulled in by " declared ", yet " user " " \
                    missing[order[m]] " of its files, e.g. " example[order[m]])
            if (orphans > 10) problem("and " orphans - 10 " more files that belong to no package")
            if (nmissing || orphans) exit 1
            print "check-deps: " check ": " files + 0 " files from " nused + 0 " packages, all covered by " declared
        }' "$2" -
}

# --- Main ----------------------------------------------------------------------------------------

ci=""
packages_file=""
depends=""
depends_given=no
while [ $# -gt 1 ]; do
    case $1 in
    --ci) ci=--ci ;;
    --packages-file) packages_file=$2 && shift ;;
    --depends) depends=$2 && depends_given=yes && shift ;;
    *) usage ;;
    esac
    shift
done
[ $# -eq 1 ] || usage
case $1 in -*) usage ;; esac

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "check-deps: no dpkg-query: not a Debian system, nothing to check"
    exit 77
fi
for tool in ninja ldd dpkg-shlibdeps realpath; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing"
done

tab=$(printf '\t')
here=$(cd "$(dirname "$0")" && pwd -P)
build=$(cd "$1" 2>/dev/null && pwd -P) || die "no build directory $1"
[ -f "$build/CMakeCache.txt" ] || die "$build is not a CMake build directory: configure it first"
[ "$(cache_value CMAKE_GENERATOR)" = Ninja ] || die "$build is not a Ninja build: the header check needs Ninja's dependency log"
[ -f "$build/.ninja_deps" ] || die "$build has no .ninja_deps: build it first"
[ -x "$build/app/gui/fusiondiff" ] || [ -x "$build/app/cli/fusiondiff-cli" ] ||
    die "$build has neither app/gui/fusiondiff nor app/cli/fusiondiff-cli: build it first"
source=$(cache_value CMAKE_HOME_DIRECTORY)
source_resolved=$(cd "${source:-/nonexistent}" 2>/dev/null && pwd -P) || die "the source tree of $build is gone"
for module in "$build"/python/fusiondiff/_fusiondiff*.so; do
    if [ -f "$module" ]; then
        programs="$programs ${module#"$build"/}"
    fi
done
build_named=$(cache_value CMAKE_CACHEFILE_DIR)
build_named=${build_named:-$build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "$packages_file" ]; then
    [ -r "$packages_file" ] || die "cannot read $packages_file"
    build_list=$(sed 's/#.*//' "$packages_file" | tr -s ' \t' '\n')
    build_source="the list in $packages_file"
else
    build_list=$(sh "$here/install-deps.sh" --list $ci) || die "install-deps.sh --list failed"
    build_source="install-deps.sh${ci:+ $ci}'s list"
fi
runtime_source="the Depends given"
if [ "$depends_given" = no ]; then
    runtime_source="the package's Depends"
    package_depends >"$tmp/depends"
    depends=$(paste -sd, "$tmp/depends" | sed 's/,/, /g; s/,  */, /g')
fi

dpkg-query -W -f='${Package}\t${Status}\t${Essential}\t${Provides}\t${Pre-Depends}, ${Depends}\n' \
    >"$tmp/installed" || die "dpkg-query -W failed"

status=0
closure "$build_list" >"$tmp/build-covered"
build_files >"$tmp/build-files"
grep -q "${tab}header of " "$tmp/build-files" || die "Ninja's dependency log in $build names no system header: build it first"
owners <"$tmp/build-files" >"$tmp/build-owners"
report build "$tmp/build-covered" "$build_source" "the build uses" <"$tmp/build-owners" || status=1

echo "check-deps: runtime: $runtime_source: $depends"
closure "$depends" >"$tmp/runtime-covered"
runtime_files >"$tmp/runtime-files"
owners <"$tmp/runtime-files" >"$tmp/runtime-owners"
report runtime "$tmp/runtime-covered" "$runtime_source" "the programs load" <"$tmp/runtime-owners" || status=1
exit $status
