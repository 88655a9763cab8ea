#pragma once
// A diff report (diff_report.h) as text (at most 80 columns), as markdown for a pull-request
// comment (the verdict first, then a table, top regressions first) and as one JSON object whose
// schema docs/compare.md lists field by field ("The diff gate").

#include <string>

#include "diff_report.h"

namespace bn::cli {

// "FAIL: 'cum > 1%' tripped by 2 significant regressions" or "PASS: ...": one line.
std::string diff_verdict(const DiffReport& report);
std::string diff_text(const DiffReport& report);
std::string diff_markdown(const DiffReport& report);
std::string diff_json(const DiffReport& report);

}  // namespace bn::cli
