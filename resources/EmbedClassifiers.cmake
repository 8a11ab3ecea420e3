# Writes OUTPUT, a C++ file holding the rule files given in INPUTS (a ;-list) as string literals.
# Run by the build (cmake -P) whenever a rule file changes.
set(entries "")
foreach(input IN LISTS INPUTS)
    get_filename_component(name "${input}" NAME_WE)
    file(READ "${input}" text)
    string(FIND "${text}" ")fdjson\"" clash)
    if(NOT clash EQUAL -1)
        message(FATAL_ERROR "${input} contains the raw-string delimiter )fdjson\"")
    endif()
    string(APPEND entries "    {\"${name}\", R\"fdjson(${text})fdjson\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "// Generated from resources/classifiers by EmbedClassifiers.cmake. Do not edit.
#include \"classify/builtinclassifiers.h\"

namespace fusiondiff {

namespace {
const BuiltinClassifier kBuiltins[] = {
${entries}};
} // namespace

std::span<const BuiltinClassifier> builtinClassifiers()
{
    return kBuiltins;
}

} // namespace fusiondiff
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
