#include "util/jsonfile.h"

#include "util/inputerror.h"

#include <fstream>
#include <sstream>
#include <utility>

namespace fusiondiff {

JsonFileReader::JsonFileReader(std::string origin, std::string kind)
    : m_origin(std::move(origin))
    , m_kind(std::move(kind))
{ }

void JsonFileReader::fail(const std::string& reason) const
{
    throw InputError(m_origin, "invalid " + m_kind + ": " + reason);
}

simdjson::dom::object JsonFileReader::parseObject(simdjson::dom::parser& parser, std::string_view json) const
{
    simdjson::dom::element root;
    if (const auto error = parser.parse(json.data(), json.size()).get(root))
        fail(std::string("not valid JSON (") + simdjson::error_message(error) + ")");
    simdjson::dom::object object;
    if (root.get_object().get(object))
        fail("the top level must be a JSON object");
    return object;
}

std::string JsonFileReader::string(
    simdjson::dom::object object, const char* key, bool required, const std::string& where) const
{
    const std::string prefix = where.empty() ? std::string() : where + ": ";
    simdjson::dom::element value;
    if (object[key].get(value)) {
        if (required)
            fail(prefix + "missing \"" + key + "\"");
        return {};
    }
    std::string_view text;
    if (value.get_string().get(text))
        fail(prefix + "\"" + key + "\" must be a string");
    return std::string(text);
}

std::string readJsonFile(const std::string& path, const std::string& kind, const std::string& hint)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError(path, "cannot open the " + kind + (hint.empty() ? std::string() : " (" + hint + ")"));
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad())
        throw InputError(path, "cannot read the " + kind);
    return text.str();
}

} // namespace fusiondiff
