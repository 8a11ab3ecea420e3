#pragma once

#include "util/inputerror.h"

#include <pybind11/pybind11.h>

#include <string>

namespace fusiondiff::python {

// An InputError with a note for the user: another file that failed as well.
class InputErrorWithNote : public InputError
{
public:
    InputErrorWithNote(const InputError& error, std::string note);
    const std::string& note() const { return m_note; }

private:
    std::string m_note;
};

// Turns the core's InputError into fusiondiff.InputError (with path, reason, offset and
// offset_kind) and Cancelled into fusiondiff.Cancelled, both defined in fusiondiff/errors.py.
void registerErrorTranslation();

// Raises fusiondiff.Cancelled: the progress callback returned False.
[[noreturn]] void throwCancelled();

} // namespace fusiondiff::python
