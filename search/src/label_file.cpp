#include "bn/search/label_file.h"

#include <map>

#include "bn/base/error.h"

namespace bn::search {
std::vector<SavedLabel> saved_labels(iface::Profile& profile, const LabelSet& labels) {
  std::vector<SavedLabel> out;
  for (const auto& [name, members] : labels.all())
    for (iface::Summary s : members) {
      const std::vector<std::string_view> path = profile.path_of(s);
      out.push_back({name, {path.begin(), path.end()}, 0});
    }
  return out;
}

std::vector<SavedAspect> aspects_used(iface::Profile& profile, const LabelSet& labels,
                                      const std::vector<SavedLabel>& set_aside, const AspectTable& table) {
  std::map<std::string, std::string> aspects;
  for (const auto& [name, members] : labels.all())
    for (iface::Summary s : members)
      for (const iface::PatternElement& e : profile.pattern_of(s).elements)
        if (e.kind == iface::PatternElement::Kind::aspect) aspects.emplace(e.name, e.pattern->text());
  for (const SavedLabel& label : set_aside)
    for (const std::string& call : label.calls)
      if (call.starts_with(':'))
        if (const auto pattern = table.find(std::string_view(call).substr(1)))
          aspects.emplace(call.substr(1), pattern->text());
  std::vector<SavedAspect> saved;
  saved.reserve(aspects.size());
  for (const auto& [name, pattern] : aspects) saved.push_back({name, pattern, 0});
  return saved;
}

void save_labels(const std::filesystem::path& file, iface::Profile& profile, const LabelSet& labels,
                 const std::string& view) {
  write_label_file(file, view, saved_labels(profile, labels), aspects_used(profile, labels, {}, AspectTable()));
}

}  // namespace bn::search
