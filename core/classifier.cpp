#include "classifier.h"

#include "builtinclassifiers.h"
#include "inputerror.h"

#include <algorithm>
#include <fstream>
#include <simdjson.h>
#include <sstream>

namespace fusiondiff {

namespace {

constexpr std::string_view kFormat = "fusiondiff-classifier/1";

std::string lowerAscii(std::string_view text)
{
    std::string lower(text);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    }
    return lower;
}

bool contains(std::string_view haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string_view::npos;
}

bool matches(const Classifier::Rule& rule, std::string_view lowerName)
{
    if (!rule.prefix.empty()
        && std::none_of(rule.prefix.begin(), rule.prefix.end(),
            [&](const std::string& prefix) { return lowerName.substr(0, prefix.size()) == prefix; }))
        return false;
    if (!rule.any.empty()
        && std::none_of(rule.any.begin(), rule.any.end(), [&](const std::string& s) { return contains(lowerName, s); }))
        return false;
    if (!std::all_of(rule.all.begin(), rule.all.end(), [&](const std::string& s) { return contains(lowerName, s); }))
        return false;
    return std::none_of(rule.none.begin(), rule.none.end(), [&](const std::string& s) { return contains(lowerName, s); });
}

class RuleFileParser
{
public:
    explicit RuleFileParser(const std::string& source)
        : m_source(source)
    {
    }

    [[noreturn]] void fail(const std::string& reason) const
    {
        throw InputError(m_source, "invalid classifier rule file: " + reason);
    }

    std::string readString(simdjson::dom::object object, const char* key, bool required) const
    {
        simdjson::dom::element value;
        if (object[key].get(value)) {
            if (required)
                fail(std::string("missing \"") + key + "\"");
            return {};
        }
        std::string_view text;
        if (value.get_string().get(text))
            fail(std::string("\"") + key + "\" must be a string");
        return std::string(text);
    }

    std::vector<std::string> readPatterns(simdjson::dom::object rule, const char* key, size_t index) const
    {
        std::vector<std::string> patterns;
        simdjson::dom::element value;
        if (rule[key].get(value))
            return patterns;
        simdjson::dom::array list;
        if (value.get_array().get(list))
            fail("rule " + std::to_string(index + 1) + ": \"" + key + "\" must be a list of strings");
        for (simdjson::dom::element item : list) {
            std::string_view text;
            if (item.get_string().get(text) || text.empty())
                fail("rule " + std::to_string(index + 1) + ": \"" + key + "\" must hold non-empty strings");
            patterns.push_back(lowerAscii(text));
        }
        return patterns;
    }

private:
    const std::string& m_source;
};

} // namespace

Classifier Classifier::parse(std::string_view json, const std::string& source)
{
    const RuleFileParser parser(source);
    simdjson::dom::parser domParser;
    simdjson::dom::element root;
    if (const auto error = domParser.parse(json.data(), json.size()).get(root))
        parser.fail(std::string("not valid JSON (") + simdjson::error_message(error) + ")");
    simdjson::dom::object object;
    if (root.get_object().get(object))
        parser.fail("the top level must be a JSON object");

    if (parser.readString(object, "format", true) != kFormat)
        parser.fail("\"format\" must be \"" + std::string(kFormat) + "\"");

    Classifier classifier;
    classifier.m_source = source;
    classifier.m_name = parser.readString(object, "name", true);
    classifier.m_description = parser.readString(object, "description", false);

    simdjson::dom::array categories;
    if (object["categories"].get_array().get(categories))
        parser.fail("\"categories\" must be a list of category names");
    for (simdjson::dom::element item : categories) {
        std::string_view text;
        if (item.get_string().get(text) || text.empty())
            parser.fail("\"categories\" must hold non-empty strings");
        if (std::find(classifier.m_categories.begin(), classifier.m_categories.end(), text)
            != classifier.m_categories.end())
            parser.fail("category \"" + std::string(text) + "\" is listed twice");
        classifier.m_categories.emplace_back(text);
    }
    if (classifier.m_categories.size() > kMaxCategories)
        parser.fail("more than " + std::to_string(kMaxCategories) + " categories");

    auto categoryId = [&](const std::string& name, const std::string& where) {
        const auto found = std::find(classifier.m_categories.begin(), classifier.m_categories.end(), name);
        if (found == classifier.m_categories.end())
            parser.fail(where + ": category \"" + name + "\" is not in \"categories\"");
        return static_cast<CategoryId>(found - classifier.m_categories.begin());
    };
    classifier.m_fallback = categoryId(parser.readString(object, "fallback", true), "\"fallback\"");

    simdjson::dom::array rules;
    if (object["rules"].get_array().get(rules))
        parser.fail("\"rules\" must be a list of rules");
    size_t index = 0;
    for (simdjson::dom::element item : rules) {
        simdjson::dom::object ruleObject;
        if (item.get_object().get(ruleObject))
            parser.fail("rule " + std::to_string(index + 1) + " is not an object");
        for (auto field : ruleObject) {
            const std::string_view key = field.key;
            if (key != "category" && key != "any" && key != "all" && key != "none" && key != "prefix"
                && key != "comment")
                parser.fail("rule " + std::to_string(index + 1) + ": unknown key \"" + std::string(key) + "\"");
        }
        Rule rule;
        rule.category = categoryId(parser.readString(ruleObject, "category", true), "rule " + std::to_string(index + 1));
        rule.any = parser.readPatterns(ruleObject, "any", index);
        rule.all = parser.readPatterns(ruleObject, "all", index);
        rule.none = parser.readPatterns(ruleObject, "none", index);
        rule.prefix = parser.readPatterns(ruleObject, "prefix", index);
        if (rule.any.empty() && rule.all.empty() && rule.prefix.empty())
            parser.fail("rule " + std::to_string(index + 1) + " needs \"any\", \"all\" or \"prefix\"");
        classifier.m_rules.push_back(std::move(rule));
        ++index;
    }
    return classifier;
}

Classifier Classifier::builtin(std::string_view name)
{
    for (const BuiltinClassifier& entry : builtinClassifiers()) {
        if (entry.name == name) {
            Classifier classifier = parse(entry.json, "built-in classifier \"" + std::string(name) + "\"");
            classifier.m_source = "built-in";
            return classifier;
        }
    }
    throw InputError(std::string(name), "no such built-in classifier");
}

std::vector<std::string> Classifier::builtinNames()
{
    std::vector<std::string> names;
    for (const BuiltinClassifier& entry : builtinClassifiers())
        names.emplace_back(entry.name);
    return names;
}

Classifier Classifier::load(const std::string& spec)
{
    for (const BuiltinClassifier& entry : builtinClassifiers()) {
        if (entry.name == spec)
            return builtin(spec);
    }
    std::ifstream file(spec, std::ios::binary);
    if (!file)
        throw InputError(spec, "cannot open the classifier rule file (built-in classifiers: seed, default)");
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad())
        throw InputError(spec, "cannot read the classifier rule file");
    return parse(text.str(), spec);
}

CategoryId Classifier::classify(std::string_view kernelName) const
{
    const std::string lower = lowerAscii(kernelName);
    for (const Rule& rule : m_rules) {
        if (matches(rule, lower))
            return rule.category;
    }
    return m_fallback;
}

} // namespace fusiondiff
