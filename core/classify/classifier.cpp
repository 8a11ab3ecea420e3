#include "classify/classifier.h"

#include "classify/builtinclassifiers.h"
#include "util/inputerror.h"
#include "util/jsonfile.h"
#include "util/textmatch.h"

#include <algorithm>
#include <simdjson.h>

namespace fusiondiff {

namespace {

constexpr std::string_view kFormat = "fusiondiff-classifier/1";

bool contains(std::string_view haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string_view::npos;
}

class RuleFileParser : public JsonFileReader
{
public:
    explicit RuleFileParser(const std::string& source)
        : JsonFileReader(source, "classifier rule file")
    { }

    // The conditions of a rule or tag rule; `what` names it in messages ("rule 3").
    Classifier::Conditions readConditions(simdjson::dom::object rule, const std::string& what) const
    {
        Classifier::Conditions conditions;
        conditions.any = readPatterns(rule, "any", what);
        conditions.all = readPatterns(rule, "all", what);
        conditions.none = readPatterns(rule, "none", what);
        conditions.prefix = readPatterns(rule, "prefix", what);
        if (conditions.any.empty() && conditions.all.empty() && conditions.prefix.empty())
            fail(what + " needs \"any\", \"all\" or \"prefix\"");
        return conditions;
    }

    void checkKeys(
        simdjson::dom::object rule, std::initializer_list<std::string_view> allowed, const std::string& what) const
    {
        for (auto field : rule) {
            if (std::find(allowed.begin(), allowed.end(), field.key) == allowed.end())
                fail(what + ": unknown key \"" + std::string(field.key) + "\"");
        }
    }

    std::vector<std::string> readPatterns(simdjson::dom::object rule, const char* key, const std::string& what) const
    {
        std::vector<std::string> patterns;
        simdjson::dom::element value;
        if (rule[key].get(value))
            return patterns;
        simdjson::dom::array list;
        if (value.get_array().get(list))
            fail(what + ": \"" + key + "\" must be a list of strings");
        for (simdjson::dom::element item : list) {
            std::string_view text;
            if (item.get_string().get(text) || text.empty())
                fail(what + ": \"" + key + "\" must hold non-empty strings");
            patterns.push_back(asciiLower(text));
        }
        return patterns;
    }
};

} // namespace

bool Classifier::Conditions::matches(std::string_view lowerName) const
{
    if (!prefix.empty() && std::none_of(prefix.begin(), prefix.end(), [&](const std::string& p) {
            return lowerName.substr(0, p.size()) == p;
        }))
        return false;
    if (!any.empty()
        && std::none_of(any.begin(), any.end(), [&](const std::string& s) { return contains(lowerName, s); }))
        return false;
    if (!std::all_of(all.begin(), all.end(), [&](const std::string& s) { return contains(lowerName, s); }))
        return false;
    return std::none_of(none.begin(), none.end(), [&](const std::string& s) { return contains(lowerName, s); });
}

Classifier Classifier::parse(std::string_view json, const std::string& source)
{
    const RuleFileParser parser(source);
    simdjson::dom::parser domParser;
    const simdjson::dom::object object = parser.parseObject(domParser, json);
    if (parser.string(object, "format", true) != kFormat)
        parser.fail("\"format\" must be \"" + std::string(kFormat) + "\"");

    Classifier classifier;
    classifier.m_source = source;
    classifier.m_name = parser.string(object, "name", true);
    classifier.m_description = parser.string(object, "description", false);

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
    classifier.m_fallback = categoryId(parser.string(object, "fallback", true), "\"fallback\"");

    simdjson::dom::array rules;
    if (object["rules"].get_array().get(rules))
        parser.fail("\"rules\" must be a list of rules");
    size_t index = 0;
    for (simdjson::dom::element item : rules) {
        simdjson::dom::object ruleObject;
        const std::string what = "rule " + std::to_string(index + 1);
        if (item.get_object().get(ruleObject))
            parser.fail(what + " is not an object");
        parser.checkKeys(ruleObject, { "category", "any", "all", "none", "prefix", "comment" }, what);
        Rule rule;
        rule.category = categoryId(parser.string(ruleObject, "category", true), what);
        rule.conditions = parser.readConditions(ruleObject, what);
        classifier.m_rules.push_back(std::move(rule));
        ++index;
    }

    simdjson::dom::element tagsValue;
    if (!object["tags"].get(tagsValue)) {
        simdjson::dom::array tags;
        if (tagsValue.get_array().get(tags))
            parser.fail("\"tags\" must be a list of tag rules");
        size_t tagIndex = 0;
        for (simdjson::dom::element item : tags) {
            simdjson::dom::object tagObject;
            const std::string what = "tag rule " + std::to_string(tagIndex + 1);
            if (item.get_object().get(tagObject))
                parser.fail(what + " is not an object");
            parser.checkKeys(tagObject, { "tag", "any", "all", "none", "prefix", "categories", "comment" }, what);
            const std::string name = parser.string(tagObject, "tag", true);
            TagRule rule;
            const auto known = std::find(classifier.m_tags.begin(), classifier.m_tags.end(), name);
            rule.tag = static_cast<uint16_t>(known - classifier.m_tags.begin());
            if (known == classifier.m_tags.end()) {
                if (classifier.m_tags.size() == kMaxTags)
                    parser.fail("more than " + std::to_string(kMaxTags) + " tags");
                classifier.m_tags.push_back(name);
            }
            rule.conditions = parser.readConditions(tagObject, what);
            simdjson::dom::element restrict;
            if (!tagObject["categories"].get(restrict)) {
                simdjson::dom::array list;
                if (restrict.get_array().get(list))
                    parser.fail(what + ": \"categories\" must be a list of category names");
                rule.categoryMask = 0;
                for (simdjson::dom::element category : list) {
                    std::string_view text;
                    if (category.get_string().get(text))
                        parser.fail(what + ": \"categories\" must hold category names");
                    rule.categoryMask |= uint64_t(1) << categoryId(std::string(text), what);
                }
            }
            classifier.m_tagRules.push_back(std::move(rule));
            ++tagIndex;
        }
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
    return parse(readJsonFile(spec, "classifier rule file", "built-in classifiers: seed, default"), spec);
}

CategoryId Classifier::classify(std::string_view kernelName) const
{
    return classifyWithTags(kernelName).first;
}

std::pair<CategoryId, uint64_t> Classifier::classifyWithTags(std::string_view kernelName) const
{
    const std::string lower = asciiLower(kernelName);
    CategoryId category = m_fallback;
    for (const Rule& rule : m_rules) {
        if (rule.conditions.matches(lower)) {
            category = rule.category;
            break;
        }
    }
    return { category, tagsOf(lower, category) };
}

uint64_t Classifier::tagsOf(std::string_view lowerName, CategoryId category) const
{
    uint64_t tags = 0;
    for (const TagRule& rule : m_tagRules) {
        if ((rule.categoryMask >> category & 1) && !(tags >> rule.tag & 1) && rule.conditions.matches(lowerName))
            tags |= uint64_t(1) << rule.tag;
    }
    return tags;
}

} // namespace fusiondiff
