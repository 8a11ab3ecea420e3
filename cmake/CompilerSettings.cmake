# Warnings, architecture and sanitizer flags shared by every target of the project.

add_library(fusiondiff_warnings INTERFACE)
target_compile_options(fusiondiff_warnings INTERFACE -Wall -Wextra -pedantic -Wshadow -Wnon-virtual-dtor
    -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
# GCC 12 at -O3 warns -Wrestrict inside libstdc++ for "text" + std::string&& (GCC bug 105651,
# "accessing 9223372036854775810 or more bytes"): a false positive that comes and goes with
# inlining, so rewriting the call sites only moves it. GCC 13 fixed it. Only in the optimised
# configurations, where it shows: the test build's compile_commands.json stays free of a flag that
# clang-tidy (clang) does not know.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(fusiondiff_warnings INTERFACE $<$<CONFIG:Release,MinSizeRel>:-Wno-restrict>)
endif()
if(FUSIONDIFF_WERROR)
    target_compile_options(fusiondiff_warnings INTERFACE -Werror)
endif()

if(FUSIONDIFF_ARCH AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    add_compile_options(-march=${FUSIONDIFF_ARCH} -mpclmul)
endif()

set(FUSIONDIFF_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
if(FUSIONDIFF_SANITIZE)
    add_compile_options(-fsanitize=${FUSIONDIFF_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${FUSIONDIFF_SANITIZE})
endif()

if(FUSIONDIFF_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        message(FATAL_ERROR "FUSIONDIFF_FUZZ needs clang (libFuzzer): use the fuzz preset")
    endif()
    add_compile_options(-fsanitize=fuzzer-no-link)
endif()
