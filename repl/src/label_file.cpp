#include "bn/repl/label_file.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <system_error>

#include "bn/iface/error.h"
#include "bn/io/output_file.h"

namespace bn::repl {
namespace {

constexpr std::string_view kHeader = "# bottlenecks labels v1";
constexpr std::string_view kLabelKeyword = "label ";
constexpr std::string_view kViewKeyword = "view ";
constexpr std::string_view kAspectKeyword = "aspect ";
constexpr std::string_view kIndent = "  ";
// Label files are small; anything larger is not one of ours and is refused before reading.
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace

std::vector<SavedLabel> saved_labels(iface::Profile& profile, const LabelSet& labels) {
  std::vector<SavedLabel> out;
  for (const auto& [name, members] : labels.all())
    for (iface::Summary s : members) {
      const std::vector<std::string_view> path = profile.path_of(s);
      out.push_back({name, {path.begin(), path.end()}, 0});
    }
  return out;
}

void save_labels(const std::filesystem::path& file, iface::Profile& profile, const LabelSet& labels,
                 const std::string& view) {
  std::string text(kHeader);
  text +=
      "\n# Each `label NAME` line starts a summary; its call sequence follows, outermost first, one method per line.\n";
  text.append(kViewKeyword).append(view) += '\n';
  // The aspects the labelled sequences use, with the definitions they were built with.
  std::map<std::string, std::string> aspects;
  for (const auto& [name, members] : labels.all())
    for (iface::Summary s : members)
      for (const iface::PatternElement& e : profile.pattern_of(s).elements)
        if (e.kind == iface::PatternElement::Kind::aspect) aspects.emplace(e.name, e.pattern->text());
  for (const auto& [name, pattern] : aspects) text.append(kAspectKeyword).append(name + " = " + pattern) += '\n';
  for (const SavedLabel& label : saved_labels(profile, labels)) {
    text.append(kLabelKeyword).append(label.label) += '\n';
    for (const std::string& m : label.calls) text.append(kIndent).append(m) += '\n';
  }
  io::OutputFile out(file);  // replaced atomically; errors name the file
  if (std::fwrite(text.data(), 1, text.size(), out.stream()) != text.size())
    throw Error("cannot write labels to " + quoted(file) + ": write failed");
  out.commit();
}

LabelFile read_label_file(const std::filesystem::path& file) {
  // Checked before opening: opening a FIFO would wait for a writer that may never come.
  std::error_code status_error;
  const std::filesystem::file_status status = std::filesystem::status(file, status_error);
  if (status.type() == std::filesystem::file_type::not_found || status_error)
    throw Error("cannot read labels from " + quoted(file) + ": cannot open it");
  std::error_code size_error;
  const std::uintmax_t bytes =
      std::filesystem::is_regular_file(status) ? std::filesystem::file_size(file, size_error) : 0;
  if (!std::filesystem::is_regular_file(status) || size_error || bytes > kMaxFileBytes)
    throw Error("cannot read labels from " + quoted(file) + ": not a regular file of at most 64 MiB");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot read labels from " + quoted(file) + ": cannot open it");
  LabelFile result;
  std::vector<SavedLabel>& out = result.labels;
  bool view_seen = false;
  std::string line;
  int number = 0;
  auto fail = [&](const std::string& what) { throw Error(file.string() + ":" + std::to_string(number) + ": " + what); };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with(kIndent)) {
      if (out.empty()) fail("method line before the first `label NAME` line");
      std::string method = line.substr(kIndent.size());
      if (method.empty() || method.front() == ' ') fail("expected a method name indented by two spaces");
      out.back().calls.push_back(std::move(method));
    } else if (line.starts_with(kViewKeyword) && line.size() > kViewKeyword.size()) {
      if (view_seen || !out.empty()) fail("a `view NAME` line must come once, before the first label");
      result.view = line.substr(kViewKeyword.size());
      view_seen = true;
    } else if (line.starts_with(kAspectKeyword)) {
      if (!out.empty()) fail("an `aspect NAME = PATTERN` line must come before the first label");
      const std::size_t equals = line.find(" = ");
      if (equals == std::string::npos || equals <= kAspectKeyword.size() || equals + 3 >= line.size())
        fail("expected `aspect NAME = PATTERN`");
      result.aspects.push_back(
          {line.substr(kAspectKeyword.size(), equals - kAspectKeyword.size()), line.substr(equals + 3), number});
    } else if (line.starts_with(kLabelKeyword) && line.size() > kLabelKeyword.size()) {
      if (!out.empty() && out.back().calls.empty()) fail("label '" + out.back().label + "' has no call sequence");
      out.push_back({line.substr(kLabelKeyword.size()), {}, number});
    } else {
      fail("expected `view NAME`, `aspect NAME = PATTERN`, `label NAME` or an indented method name");
    }
  }
  if (in.bad()) fail("read error");
  if (!out.empty() && out.back().calls.empty()) fail("label '" + out.back().label + "' has no call sequence");
  return result;
}

}  // namespace bn::repl
