#pragma once

#include "pairevents.h"

#include <cstdint>
#include <string>

namespace fusiondiff {
class Classifier;
}

namespace fusiondiff::test::pairdetail {

// Gives kernel names new ones of another style: built from the classifier's own rules for the
// category (a prefix or substring that rule matches), checked to classify the same, with the
// same role; preferring a rule whose words the original name does not contain.
class KernelRenamer
{
public:
    KernelRenamer(const Classifier& classifier, Rng& rng)
        : m_classifier(classifier)
        , m_rng(rng)
    { }

    // Empty if no other name was found.
    std::string rename(const std::string& original);

private:
    const Classifier& m_classifier;
    Rng& m_rng;
    uint64_t m_next = 1;
};

} // namespace fusiondiff::test::pairdetail
