#include "util/kernelname.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <regex>

namespace fusiondiff {

namespace {

std::string demangleOrEmpty(const std::string& mangled)
{
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> demangled(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && demangled ? std::string(demangled.get()) : std::string();
}

} // namespace

std::string demangledKernelName(const std::string& name)
{
    if (!name.starts_with("_Z"))
        return name;
    std::string demangled = demangleOrEmpty(name);
    if (!demangled.empty())
        return demangled;
    std::string older = name;
    // "Tn <type>" declares the parameter a template argument binds to (a non-type parameter of a
    // deduced or constrained type); the argument itself follows, so the declaration can go. Builtin
    // types are one letter, or "D" and one ("Da": auto).
    static const std::regex declaration("Tn(D[a-z]|[a-z])(?=[LX])");
    older = std::regex_replace(older, declaration, "");
    // std::bfloat16_t as the other builtin 16-bit float, `half` (Dh), named back afterwards.
    const bool bfloat = older.find("DF16b") != std::string::npos && older.find("Dh") == std::string::npos;
    if (bfloat)
        older = std::regex_replace(older, std::regex("DF16b"), "Dh");
    if (older == name)
        return name;
    demangled = demangleOrEmpty(older);
    if (demangled.empty())
        return name;
    if (bfloat)
        demangled = std::regex_replace(demangled, std::regex("\\bhalf\\b"), "std::bfloat16_t");
    return demangled;
}

std::string withoutReturnType(const std::string& name)
{
    static const std::string anonymous = "(anonymous namespace)";
    int angles = 0;
    size_t lastSpace = std::string::npos; // the last space outside brackets before the parameter list
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (name.compare(i, anonymous.size(), anonymous) == 0) {
            i += anonymous.size() - 1;
            continue;
        }
        if (c == '<') {
            ++angles;
        } else if (c == '>' && angles > 0) {
            --angles;
        } else if (c == '(' && angles == 0) {
            return lastSpace == std::string::npos ? name : name.substr(lastSpace + 1);
        } else if (c == ' ' && angles == 0) {
            lastSpace = i;
        }
    }
    // No parameter list: only "void " can be told apart from the name.
    return name.starts_with("void ") ? name.substr(5) : name;
}

} // namespace fusiondiff
