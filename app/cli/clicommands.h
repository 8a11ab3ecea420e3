#pragma once

#include "cliarguments.h"

namespace fusiondiff::cli {

// Each returns the process exit status; errors in the input are thrown as InputError.
int runCompare(const CompareArguments& arguments);
int runClassify(const ClassifyArguments& arguments);

} // namespace fusiondiff::cli
