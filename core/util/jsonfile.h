#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

namespace fusiondiff {

// What reading a JSON file the user gives (a classifier rule file, a GPU peaks file) has in common:
// the whole file, parsed to a top-level object, and every error an InputError that names the file,
// its kind and the reason. A file format's own reader derives from this one.
class JsonFileReader
{
public:
    // `origin`: the file's path, or "built-in"; `kind`: "classifier rule file", "GPU peaks file".
    JsonFileReader(std::string origin, std::string kind);

    // Throws InputError(origin, "invalid <kind>: <reason>").
    [[noreturn]] void fail(const std::string& reason) const;

    // The top-level object of `json`, which lives as long as `parser` does.
    simdjson::dom::object parseObject(simdjson::dom::parser& parser, std::string_view json) const;

    // The string `key` of `object`: "" when it is absent and not required. `where` ("rule 3") starts
    // the message when it is not empty.
    std::string string(
        simdjson::dom::object object, const char* key, bool required, const std::string& where = {}) const;

    const std::string& origin() const { return m_origin; }

private:
    std::string m_origin;
    std::string m_kind;
};

// The bytes of the file at `path`, of `kind`. An InputError naming the file when it cannot be
// opened ("cannot open the <kind>", then ` (<hint>)` when `hint` is given) or read.
std::string readJsonFile(const std::string& path, const std::string& kind, const std::string& hint = {});

} // namespace fusiondiff
