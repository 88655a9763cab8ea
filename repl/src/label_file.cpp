#include "bn/repl/label_file.h"

#include <cstdio>
#include <fstream>
#include <system_error>

#include "bn/iface/error.h"
#include "bn/io/output_file.h"

namespace bn::repl {
namespace {

constexpr std::string_view kHeader = "# bottlenecks labels v1";
constexpr std::string_view kLabelKeyword = "label ";
constexpr std::string_view kIndent = "  ";
// Label files are small; anything larger is not one of ours and is refused before reading.
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace

void save_labels(const std::filesystem::path& file, iface::Profile& profile, const LabelSet& labels) {
  std::string text(kHeader);
  text +=
      "\n# Each `label NAME` line starts a summary; its call sequence follows, outermost first, one method per line.\n";
  for (const auto& [name, members] : labels.all())
    for (iface::Summary s : members) {
      text.append(kLabelKeyword).append(name) += '\n';
      for (std::string_view m : profile.path_of(s)) text.append(kIndent).append(m) += '\n';
    }
  io::OutputFile out(file);  // replaced atomically; errors name the file
  if (std::fwrite(text.data(), 1, text.size(), out.stream()) != text.size())
    throw Error("cannot write labels to " + quoted(file) + ": write failed");
  out.commit();
}

std::vector<SavedLabel> read_label_file(const std::filesystem::path& file) {
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
  std::vector<SavedLabel> out;
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
    } else if (line.starts_with(kLabelKeyword) && line.size() > kLabelKeyword.size()) {
      if (!out.empty() && out.back().calls.empty()) fail("label '" + out.back().label + "' has no call sequence");
      out.push_back({line.substr(kLabelKeyword.size()), {}, number});
    } else {
      fail("expected `label NAME` or an indented method name");
    }
  }
  if (in.bad()) fail("read error");
  if (!out.empty() && out.back().calls.empty()) fail("label '" + out.back().label + "' has no call sequence");
  return out;
}

}  // namespace bn::repl
