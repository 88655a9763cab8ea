#include "calltree/label_methods.h"

#include <algorithm>
#include <exception>
#include <string_view>

#include "bn/base/label_file_format.h"

namespace bn::agent {
namespace {

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
  try {
    for (const base::SavedLabel& label : base::read_label_file(path).labels)
      for (const std::string& call : label.calls)
        if (std::string m = java_method(call); !m.empty()) result.methods.push_back(std::move(m));
  } catch (const std::exception& e) {  // bn::Error naming FILE:LINE, or std::bad_alloc
    result.status = Status::error(e.what());
    return result;
  }
  std::sort(result.methods.begin(), result.methods.end());
  result.methods.erase(std::unique(result.methods.begin(), result.methods.end()), result.methods.end());
  if (result.methods.empty())
    result.status = Status::error("methods='" + path + "' names no Java method: nothing to instrument");
  return result;
}

}  // namespace bn::agent
