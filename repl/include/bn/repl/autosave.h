#pragma once
// Labels a session ends without saving. At a terminal the user is asked first
// (terminal.h); a script, a pipe, or an end of input at that question keeps them in files of
// their own, so an analysis is never lost to a forgotten `save`.

#include <filesystem>
#include <vector>

#include "bn/search/session.h"

namespace bn::repl {

// Sessions whose files autosave_labels keeps in its directory: the newest ones.
inline constexpr std::size_t kKeptSessions = 10;

// Writes the labels changed since the last save into `dir` (created if missing): those of the
// view in force in `unsaved-N.labels`, those kept for another view V in `unsaved-N.V.labels`, N
// one more than the largest number there. Views whose labels were all removed are skipped. Then
// removes the files of all but the kKeptSessions newest sessions (largest N), so scripts run
// again and again do not fill the directory. Returns the files written; throws bn::Error naming
// what could not be written.
std::vector<std::filesystem::path> autosave_labels(const search::Session& session, const std::filesystem::path& dir);

}  // namespace bn::repl
