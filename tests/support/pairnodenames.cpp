#include "pairnodenames.h"

namespace fusiondiff::test::pairdetail {

bool isEngineNode(const std::string& name)
{
    return name.starts_with(kEngineNodes);
}

bool isOptimizerStep(const std::string& name)
{
    return name.starts_with("Optimizer.step");
}

std::pair<std::string, std::string> splitNodeName(const std::string& name)
{
    const size_t at = name.rfind("Backward");
    if (at == std::string::npos || at == 0 || name.find("::") != std::string::npos)
        return {};
    for (size_t i = at + 8; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return {};
    }
    return { name.substr(0, at), name.substr(at) };
}

std::string nodeStem(const std::string& name)
{
    const size_t colons = name.rfind("::");
    std::string stem;
    for (const char c : colons == std::string::npos ? name : name.substr(colons + 2)) {
        if (c != '_')
            stem += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    return stem;
}

std::string camelCase(const std::string& name)
{
    std::string result;
    bool upper = true;
    for (const char c : name) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum) {
            upper = true;
            continue;
        }
        result += upper && c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
        upper = false;
    }
    return result;
}

} // namespace fusiondiff::test::pairdetail
