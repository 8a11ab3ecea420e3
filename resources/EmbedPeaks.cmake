# Writes OUTPUT, a C++ file holding the GPU peaks file INPUT as a string literal (builtinGpuPeaksText).
# Run by the build (cmake -P) whenever the file changes.
file(READ "${INPUT}" text)
string(FIND "${text}" ")fdjson\"" clash)
if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )fdjson\"")
endif()
file(WRITE "${OUTPUT}.tmp" "// Generated from resources/peaks by EmbedPeaks.cmake. Do not edit.
#include \"ops/efficiency/gpupeaks.h\"

namespace fusiondiff {

std::string_view builtinGpuPeaksText()
{
    return R\"fdjson(${text})fdjson\";
}

} // namespace fusiondiff
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
