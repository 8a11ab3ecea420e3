#pragma once

#include "model/categoryid.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fusiondiff {

// Sorts kernel names into categories by an ordered list of rules (first match wins), read from a
// JSON rule file (docs/classifiers.md). Built in: "seed" (the reference analyzer's rules) and
// "default" (ours). Matching is case-insensitive substring matching; no regular expressions, so a
// rule file cannot make classification slow.
class Classifier
{
public:
    static constexpr size_t kMaxCategories = 64;
    static constexpr size_t kMaxTags = 64;

    // Substring conditions on a lower-cased kernel name; all present ones must hold.
    struct Conditions
    {
        std::vector<std::string> any; // at least one must occur
        std::vector<std::string> all; // every one must occur
        std::vector<std::string> none; // none may occur
        std::vector<std::string> prefix; // the name starts with one of these

        bool matches(std::string_view lowerName) const;
    };

    struct Rule
    {
        CategoryId category = 0;
        Conditions conditions;
    };

    // A tag names an operation a kernel performs, possibly fused into it: "relu" on a CUTLASS
    // gemm_relu kernel as on a stand-alone ReLU. Every tag whose conditions hold applies.
    struct TagRule
    {
        uint16_t tag = 0;
        Conditions conditions;
        uint64_t categoryMask = ~uint64_t(0); // the categories the tag applies to
    };

    // "seed", "default", or the path of a rule file. Throws InputError.
    static Classifier load(const std::string& spec);
    static Classifier builtin(std::string_view name);
    static std::vector<std::string> builtinNames();
    // Parses a rule file's text; `source` names it in errors. Throws InputError.
    static Classifier parse(std::string_view json, const std::string& source);

    CategoryId classify(std::string_view kernelName) const;
    // The category and the set of tags (bit t: tags()[t]) of a kernel name.
    std::pair<CategoryId, uint64_t> classifyWithTags(std::string_view kernelName) const;

    const std::string& name() const { return m_name; }
    const std::string& description() const { return m_description; }
    // Where the rules came from: "built-in" or the file's path.
    const std::string& source() const { return m_source; }
    const std::vector<std::string>& categories() const { return m_categories; }
    const std::string& categoryName(CategoryId id) const { return m_categories[id]; }
    CategoryId fallback() const { return m_fallback; }
    const std::vector<Rule>& rules() const { return m_rules; }
    const std::vector<std::string>& tags() const { return m_tags; }

private:
    uint64_t tagsOf(std::string_view lowerName, CategoryId category) const;

    std::string m_name;
    std::string m_description;
    std::string m_source;
    std::vector<std::string> m_categories;
    CategoryId m_fallback = 0;
    std::vector<Rule> m_rules;
    std::vector<std::string> m_tags;
    std::vector<TagRule> m_tagRules;
};

} // namespace fusiondiff
