#include "calltree/label_methods.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <string_view>

namespace bn::agent {
namespace {

constexpr std::string_view kIndent = "  ";
constexpr std::string_view kLabel = "label ";
constexpr std::string_view kView = "view ";
constexpr off_t kMaxFileBytes = 64 << 20;  // as the REPL's reader

// `pkg.Class.method(sig)` -> `pkg.Class.method`; empty if the entry names no Java method.
std::string java_method(std::string_view entry) {
  entry = entry.substr(0, entry.find('('));
  const std::size_t dot = entry.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == entry.size()) return {};
  if (entry.front() == ':' || entry.front() == '[' || entry.find('*') != std::string_view::npos) return {};
  return std::string(entry);
}

}  // namespace

LabelMethods read_label_methods(const std::string& path) {
  LabelMethods result;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxFileBytes) {
    result.status = Status::error("cannot read methods='" + path + "': not a readable file of at most 64 MiB");
    return result;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    result.status = Status::error("cannot read methods='" + path + "': cannot open it");
    return result;
  }
  std::string line;
  int number = 0;
  bool in_label = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with(kIndent) && line.size() > kIndent.size() && line[kIndent.size()] != ' ') {
      if (!in_label) {
        result.status =
            Status::error(path + ":" + std::to_string(number) + ": method line before the first `label NAME` line");
        return result;
      }
      if (std::string m = java_method(std::string_view(line).substr(kIndent.size())); !m.empty())
        result.methods.push_back(std::move(m));
    } else if (line.starts_with(kLabel) && line.size() > kLabel.size()) {
      in_label = true;
    } else if (!(line.starts_with(kView) && line.size() > kView.size() && !in_label)) {
      result.status = Status::error(path + ":" + std::to_string(number) +
                                    ": expected `view NAME`, `label NAME` or a method name indented by two spaces");
      return result;
    }
  }
  if (in.bad()) {
    result.status = Status::error("cannot read methods='" + path + "': read error");
    return result;
  }
  std::sort(result.methods.begin(), result.methods.end());
  result.methods.erase(std::unique(result.methods.begin(), result.methods.end()), result.methods.end());
  if (result.methods.empty())
    result.status = Status::error("methods='" + path + "' names no Java method: nothing to instrument");
  return result;
}

}  // namespace bn::agent
