#pragma once
// Builds the Outputs that print summaries, numbering every printed summary and recording the
// numbers in the session so `select N` can find them.

#include <string>
#include <vector>

#include "bn/repl/output.h"
#include "bn/search/session.h"

namespace bn::repl {

Row make_row(search::Session& session, iface::Summary s, int number);
// A titled, numbered list (`suggest`, `history`); the list becomes the session's numbering.
ListOutput numbered_list(search::Session& session, std::string title, const std::vector<iface::Summary>& summaries);
// The details of s (seed 004 sec. 2.3, `select`); its nearby summaries become the numbering.
DetailOutput detail(search::Session& session, iface::Summary s);
// The same with these groups in place of the nearby summaries (`refine`).
DetailOutput detail(search::Session& session, iface::Summary s, std::vector<search::NearbyGroup> groups);
// Every label with its summaries (numbered) and totals, and the coverage of all labels.
LabelsOutput labels_report(search::Session& session);

}  // namespace bn::repl
