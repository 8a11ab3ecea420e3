#include "pairkernelrenamer.h"

#include "classify/classifier.h"
#include "ops/alignment/alignmentkeys.h"
#include "util/textmatch.h"

#include <vector>

namespace fusiondiff::test::pairdetail {

namespace {

const char* roleWord(KernelNameRole role)
{
    switch (role) {
    case KernelNameRole::SplitKReduce:
        return "_splitKreduce";
    case KernelNameRole::LayoutConversion:
        return "_transpose";
    case KernelNameRole::Fill:
        return "_fill";
    case KernelNameRole::Copy:
        return "_copy";
    case KernelNameRole::None:
        break;
    }
    return "";
}

} // namespace

std::string KernelRenamer::rename(const std::string& original)
{
    const CategoryId category = m_classifier.classify(original);
    const KernelNameRole role = kernelNameRole(original);
    const std::string id = "_v" + std::to_string(m_next++);
    const std::string lowered = asciiLower(original);
    std::vector<std::string> foreign, familiar;
    for (const Classifier::Rule& rule : m_classifier.rules()) {
        if (rule.category != category)
            continue;
        const auto& c = rule.conditions;
        std::vector<std::string> starts = c.prefix.empty() ? std::vector<std::string> { "" } : c.prefix;
        std::vector<std::string> words = c.any.empty() ? std::vector<std::string> { "" } : c.any;
        for (const std::string& start : starts) {
            for (const std::string& word : words) {
                std::string name = start.empty() ? "k" : start;
                if (!word.empty())
                    name += "_" + word;
                for (const std::string& required : c.all)
                    name += "_" + required;
                name += roleWord(role) + id;
                if (m_classifier.classify(name) != category || kernelNameRole(name) != role)
                    continue;
                const bool seen = (!start.empty() && lowered.starts_with(start))
                    || (!word.empty() && lowered.find(word) != std::string::npos);
                (seen ? familiar : foreign).push_back(name);
            }
        }
    }
    if (foreign.empty() && familiar.empty()) {
        std::string plain = std::string("kernel") + roleWord(role) + id;
        if (m_classifier.classify(plain) == category && kernelNameRole(plain) == role)
            return plain;
        return {};
    }
    const std::vector<std::string>& pool = foreign.empty() ? familiar : foreign;
    return pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(m_rng)];
}

} // namespace fusiondiff::test::pairdetail
