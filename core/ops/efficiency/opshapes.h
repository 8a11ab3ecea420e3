#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// One operator call's recorded shapes (TraceStore::opShapes), parsed: per input its dims (empty
// for a scalar, a list or an absent tensor), its type ("c10::BFloat16", "float", "Scalar",
// "ScalarList", ""), and its concrete value where the profiler recorded one ("[16, 16]", "True",
// "0.125"; "" otherwise).
struct OpInputs
{
    std::vector<std::vector<int64_t>> dims;
    std::vector<std::string> types;
    std::vector<std::string> concrete;

    size_t size() const { return dims.size(); }
    // Input i's dims, or an empty list if there is no such input.
    const std::vector<int64_t>& dimsOf(size_t i) const;
    std::string_view typeOf(size_t i) const;
    std::string_view concreteOf(size_t i) const;
    bool isTensor(size_t i) const; // has dims or a tensor type (a 0-d tensor has no dims)
    int64_t elements(size_t i) const; // product of dims (1 for a 0-d tensor); 0 if not a tensor
};

// Parses the text OpShapes keeps (three JSON arrays joined by 0x1F); nullopt if "Input Dims" is
// not a list of integer lists.
std::optional<OpInputs> parseOpInputs(std::string_view text);

// A concrete input as integers: "[16, 16]" -> {16, 16}, "1" -> {1}; nullopt if not integers.
std::optional<std::vector<int64_t>> concreteIntegers(std::string_view text);
// A concrete input as a boolean ("True", "False", "1", "0"); nullopt otherwise.
std::optional<bool> concreteBool(std::string_view text);

// A concrete list of booleans ("[True, True, False]"); nullopt otherwise.
std::optional<std::vector<bool>> concreteBools(std::string_view text);

// The data type as the efficiency table names it ("bf16", "fp16", "fp32", "fp64", "fp8", "int8",
// ...), from an "Input type" ("c10::BFloat16" -> "bf16"); empty if not a tensor type.
std::string dtypeName(std::string_view inputType);
// Bytes per element of such a name; 0 if unknown.
double dtypeNameBytes(std::string_view dtype);

} // namespace fusiondiff
