#include "bn/repl/autosave.h"

#include <string>
#include <system_error>

#include "bn/base/error.h"
#include "bn/search/label_file.h"

namespace bn::repl {
namespace {

// More sessions than anyone keeps unsaved; past it the directory wants cleaning, not a scan.
constexpr int kMaxNumber = 10000;

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
  int number = 1;
  while (number <= kMaxNumber && std::filesystem::exists(dir / ("unsaved-" + std::to_string(number) + ".labels"), ec))
    ++number;
  if (number > kMaxNumber)
    throw Error("'" + dir.string() + "' already holds " + std::to_string(kMaxNumber) + " unsaved-N.labels files");
  std::vector<std::filesystem::path> written;
  const std::string stem = "unsaved-" + std::to_string(number);
  for (const search::LabelFile& labels : views) {
    const bool in_force = labels.view == session.view();
    written.push_back(dir / (stem + (in_force ? "" : "." + file_part(labels.view)) + ".labels"));
    search::write_label_file(written.back(), labels.view, labels.labels, labels.aspects);
  }
  return written;
}

}  // namespace bn::repl
