#include "comparison_states.h"

#include <algorithm>

#include "bn/base/error.h"
#include "comparison.h"

namespace bn::cli {
namespace {

bool has_states(OpenedFile& file) { return views::has_records(file.samples()); }

// Every file of the comparison, A's first.
std::vector<OpenedFile*> every_file(const ComparedFiles& files) {
  std::vector<OpenedFile*> out;
  for (const auto& f : files.a) out.push_back(f.get());
  for (const auto& f : files.b) out.push_back(f.get());
  return out;
}

// "A = a.jfr", "A = a.jfr, B = b.bnp": the files that have (or lack) thread states, by side.
std::string named(const ComparedFiles& files, bool with_states) {
  const auto side = [&](const char* name, const std::vector<std::shared_ptr<OpenedFile>>& runs) {
    std::vector<std::string> names;
    for (const auto& f : runs)
      if (has_states(*f) == with_states) names.push_back(file_name(f->path));
    return names.empty() ? std::string() : std::string(name) + " = " + joined(names);
  };
  const std::string a = side("A", files.a), b = side("B", files.b);
  return a.empty() ? b : b.empty() ? a : a + ", " + b;
}

// What the files without thread states count, as the header says it.
std::string stateless_counts(const ComparedFiles& files) {
  const std::vector<OpenedFile*> all = every_file(files);
  const bool jfr_cpu = std::all_of(all.begin(), all.end(), [&](OpenedFile* f) {
    return has_states(*f) ||
           (f->file.loaded.tree.metadata().mode == "jfr" && (files.sample_type.empty() || files.sample_type == "cpu"));
  });
  return jfr_cpu ? "JFR's execution samples, of threads running Java code"
                 : "samples of threads in whatever states its profiler sampled";
}

bool any_recording_in(const ComparedFiles& files, const Wanted& wanted, views::States states) {
  const std::vector<OpenedFile*> all = every_file(files);
  return std::any_of(all.begin(), all.end(),
                     [&](OpenedFile* f) { return has_states(*f) && states_of(*f, wanted) == states; });
}

}  // namespace

bool mixes_states(const ComparedFiles& files) {
  const std::vector<OpenedFile*> all = every_file(files);
  return std::any_of(all.begin(), all.end(), [](OpenedFile* f) { return has_states(*f); }) &&
         std::any_of(all.begin(), all.end(), [](OpenedFile* f) { return !has_states(*f); });
}

std::optional<views::States> aligned_states(const ComparedFiles& files) {
  return mixes_states(files) ? std::optional(views::States::runnable) : std::nullopt;
}

void check_states(const ComparedFiles& files, const Wanted& wanted) {
  if (wanted.view != "tree" || !mixes_states(files) || !any_recording_in(files, wanted, views::States::running)) return;
  throw Error("states running: " + named(files, false) +
              " has no thread states, so its samples cannot be weighed as shares of a CPU; `set states runnable` "
              "counts one sample per runnable thread on both sides");
}

std::string states_line(const ComparedFiles& files, const Wanted& wanted) {
  if (!mixes_states(files)) return "";
  return "states: " + named(files, false) + " records no thread states (" + stateless_counts(files) + "); " +
         named(files, true) +
         (any_recording_in(files, wanted, views::States::all)
              ? " counts every sample, waiting threads included: the sides count different states (`set states "
                "runnable` aligns them)"
              : " counts one sample per runnable thread to match (`set states all`: every sample)");
}

}  // namespace bn::cli
