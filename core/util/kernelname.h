#pragma once

#include <string>

namespace fusiondiff {

// A kernel's name as a reader knows it: a mangled name ("_Z...") demangled, also where the runtime's
// demangler is older than the compiler that made it: C++20's template parameter declarations
// ("Tn" and a type before a template argument, Clang 17 and GCC 14) and std::bfloat16_t ("DF16b",
// GCC 13) are read first. A name that does not demangle is returned as it is.
std::string demangledKernelName(const std::string& name);

// The name without a leading return type ("void at::native::f<...>(...)" -> "at::native::f<...>(...)",
// "std::enable_if<true, void>::type k<3>(float*)" -> "k<3>(float*)"); a name without a parameter list,
// or with nothing before its scope, as it is.
std::string withoutReturnType(const std::string& name);

} // namespace fusiondiff
