#pragma once

#include <QString>
#include <QStringList>

namespace fusiondiff::ui {

// Kernel names as the views show them. Traces record C++ kernels by their demangled signature
// ("void at::native::elementwise_kernel<128, 2, ...>(int, ...)", up to thousands of characters)
// or, for some libraries, mangled ("_ZN5aiter..."). A view shows the name demangled, without its
// return type and parameters, its nested template arguments collapsed to "<…>"; the tooltip has
// the whole name, and copying and filtering use the name as the trace has it.

// `name` demangled with the C++ runtime's demangler (abi::__cxa_demangle) when it is a mangled
// name ("_Z..."); otherwise `name` itself.
QString demangledKernelName(const QString& name);
// The demangled name shortened for a column: no return type or parameter list, template arguments
// nested inside others collapsed ("kernel<4, Functor<…>>"), and all of them when the name is still
// longer than 160 characters; past 512 characters, its start and end around "…" (a Tensile
// "Cijk_…" GEMM name, some 450 characters, stays whole: its tile sizes tell GEMMs apart).
QString shownKernelName(const QString& name);
// The shown names of `names`, shown together (a table's column, the search's list): each its
// shownKernelName, except where different names would look the same (two template instances
// collapsed to one "kernel<…>"), which keep their template arguments, or where those are the same
// too, their whole demangled signature.
QStringList distinctShownKernelNames(const QStringList& names);
// The tooltip of a kernel name: the whole demangled name, and the name as the trace has it when
// that differs (a mangled name).
QString kernelNameToolTip(const QString& name);

} // namespace fusiondiff::ui
