#pragma once

#include "cliarguments.h"

namespace fusiondiff::cli {

// Checks, before any trace is loaded, that every output of a compare can be written where it is
// asked for: a typo in a folder name is reported in a second, not after minutes of loading, and
// nothing is written when one of the outputs could not be. Throws InputError naming the output.
// A file output may go into the --csv folder even where that folder is still to be created.
// (What only writing can tell, such as a full disk, is still reported by the write itself.)
void checkOutputDestinations(const CompareArguments& arguments);

} // namespace fusiondiff::cli
