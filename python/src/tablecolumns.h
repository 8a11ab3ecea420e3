#pragma once

#include "report/reporttables.h"

#include <pybind11/pybind11.h>

namespace fusiondiff::python {

// The CSV columns of `table` (report/reporttables.h), in the CSV's order, for a pandas DataFrame:
// a list of (key, kind, values, mask) where kind is
//   "int":   values a numpy int64 array (uint64 where a count exceeds int64), mask None;
//   "Int64": values an int64 array and mask a bool array, True where the CSV field is empty;
//   "float": values a float64 array, NaN where the CSV field is empty;
//   "str":   values a list of str, None where the cell is empty;
//   "object": values a list of str, int or float (a column with text and numbers).
// A column's kind follows its values; one without any (no rows, or every cell empty) takes the kind
// of its unit. Spreads are the app's: like the CSV, they count as empty.
pybind11::list tableColumns(const ReportTable& table);

} // namespace fusiondiff::python
