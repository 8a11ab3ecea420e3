#include "pyerrors.h"

namespace py = pybind11;

namespace fusiondiff::python {

namespace {

py::object errorClass(const char* name)
{
    return py::module_::import("fusiondiff.errors").attr(name);
}

py::object offsetKindName(InputError::OffsetKind kind)
{
    switch (kind) {
    case InputError::OffsetKind::File:
        return py::str("file");
    case InputError::OffsetKind::Decompressed:
        return py::str("decompressed");
    case InputError::OffsetKind::None:
        break;
    }
    return py::none();
}

void raise(const py::object& type, const py::object& instance)
{
    PyErr_SetObject(type.ptr(), instance.ptr());
}

} // namespace

InputErrorWithNote::InputErrorWithNote(const InputError& error, std::string note)
    : InputError(error)
    , m_note(std::move(note))
{ }

void registerErrorTranslation()
{
    // NOLINTNEXTLINE(performance-unnecessary-value-param): pybind11's translator type takes it by value
    py::register_exception_translator([](std::exception_ptr exception) {
        if (!exception)
            return;
        try {
            std::rethrow_exception(exception);
        } catch (const InputError& error) {
            const py::object type = errorClass("InputError");
            const std::optional<uint64_t> offset = error.byteOffset();
            const py::object instance = type(error.what(), error.path(), error.reason(),
                offset ? py::int_(*offset) : py::object(py::none()), offsetKindName(error.offsetKind()));
            const auto* withNote = dynamic_cast<const InputErrorWithNote*>(&error);
            if (withNote && py::hasattr(instance, "add_note")) // Python 3.11 on
                instance.attr("add_note")(withNote->note());
            raise(type, instance);
        } catch (const Cancelled&) {
            const py::object type = errorClass("Cancelled");
            raise(type, type("cancelled"));
        }
    });
}

void throwCancelled()
{
    const py::object type = errorClass("Cancelled");
    raise(type, type("cancelled by the progress callback"));
    throw py::error_already_set();
}

} // namespace fusiondiff::python
