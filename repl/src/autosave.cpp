#include "bn/repl/autosave.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <system_error>

#include "bn/base/error.h"
#include "bn/search/label_file.h"

namespace bn::repl {
namespace {

constexpr std::string_view kPrefix = "unsaved-";
constexpr std::string_view kSuffix = ".labels";

// N of a file `unsaved-N.labels` or `unsaved-N.VIEW.labels`, or 0 for any other name.
std::uint64_t session_number(const std::string& name) {
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return 0;
  std::uint64_t n = 0;
  const char* first = name.data() + kPrefix.size();
  const auto [end, ec] = std::from_chars(first, name.data() + name.size(), n);
  if (ec != std::errc() || end == first || (*end != '.')) return 0;
  return n;
}

// The files of every session kept in `dir`, by session number.
std::map<std::uint64_t, std::vector<std::filesystem::path>> kept_sessions(const std::filesystem::path& dir) {
  std::map<std::uint64_t, std::vector<std::filesystem::path>> sessions;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (const std::uint64_t n = session_number(entry.path().filename().string()); n > 0)
      sessions[n].push_back(entry.path());
  return sessions;
}

// A view's name as part of a file name: "thread com.x.Worker" -> "thread-com.x.Worker".
std::string file_part(std::string_view view) {
  std::string out;
  for (const char c : view) {
    const bool plain =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '$';
    out += plain ? c : '-';
  }
  return out;
}

}  // namespace

std::vector<std::filesystem::path> autosave_labels(const search::Session& session, const std::filesystem::path& dir) {
  // Written like `save` writes: with the aspects the labels use, so that `:NAME` reloads.
  std::vector<search::LabelFile> views;
  if (search::LabelFile in_force = session.label_file(); session.labels_dirty() && !in_force.labels.empty())
    views.push_back(std::move(in_force));
  for (const std::string& view : session.dirty_kept_views())
    if (const auto kept = session.kept_labels().find(view); kept != session.kept_labels().end())
      views.push_back({view,
                       search::aspects_used(session.profile(), search::LabelSet(), kept->second, session.aspects()),
                       kept->second});
  if (views.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("cannot create '" + dir.string() + "' to keep unsaved labels: " + ec.message());
  std::map<std::uint64_t, std::vector<std::filesystem::path>> sessions = kept_sessions(dir);
  const std::uint64_t number = sessions.empty() ? 1 : sessions.rbegin()->first + 1;
  std::vector<std::filesystem::path> written;
  written.reserve(views.size());
  const std::string stem = std::string(kPrefix) + std::to_string(number);
  for (const search::LabelFile& labels : views) {
    const bool in_force = labels.view == session.view();
    written.push_back(dir / (stem + (in_force ? "" : "." + file_part(labels.view)) + std::string(kSuffix)));
    search::write_label_file(written.back(), labels.view, labels.labels, labels.aspects);
  }
  // Scripts that label end this way every run: only the last sessions' files are kept.
  while (sessions.size() >= kKeptSessions) {
    for (const std::filesystem::path& old : sessions.begin()->second) std::filesystem::remove(old, ec);
    sessions.erase(sessions.begin());
  }
  return written;
}

}  // namespace bn::repl
