// Writing collapsed stacks (collapsed.h), readable by flamegraph.pl, speedscope and read_collapsed.

#include <span>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/collapsed.h"
#include "bn/calltree/decompress.h"
#include "bn/iface/call_sequence_text.h"

namespace bn::calltree {
namespace {

// A name the format cannot carry: a newline ends the line, the reader refuses NUL bytes and empty
// frames and trims blanks, and ';' separates frames unless inside parentheses (a JVM signature,
// call_sequence_text.h).
void check_name(const CallTree& tree, NodeId n) {
  const std::string_view name = tree.node_name(n);
  int frames = 0;
  iface::for_each_frame(name, [&](std::string_view) { ++frames; });
  const char* what = name.empty()                                  ? "is empty"
                     : frames > 1                                  ? "contains ';' outside parentheses"
                     : name.find('\n') != std::string_view::npos   ? "contains a newline"
                     : name.find('\0') != std::string_view::npos   ? "contains a NUL byte"
                     : name.find_first_of(" \t") == 0              ? "starts with a blank"
                     : name.find_last_of(" \t") == name.size() - 1 ? "ends with a blank"
                                                                   : nullptr;
  if (what != nullptr) throw Error("cannot write collapsed stacks: the name of node " + std::to_string(n) + " " + what);
}

// True if the stack text of `line` (before its count) splits back into exactly `path`: a name
// with ';' inside parentheses does unless another name leaves a parenthesis open.
bool splits_back(std::string_view stack, const std::vector<std::string_view>& path) {
  std::size_t i = 0;
  bool same = true;
  iface::for_each_frame(stack, [&](std::string_view frame) { same = same && i < path.size() && frame == path[i++]; });
  return same && i == path.size();
}

}  // namespace

void write_collapsed(const CallTree& tree, std::ostream& out) {
  if (tree.cost(kRootNode) != 0)
    throw Error("cannot write collapsed stacks: the synthetic root has cost " + std::to_string(tree.cost(kRootNode)) +
                " (an empty stack)");
  std::vector<bool> checked(tree.method_count(), false);
  std::vector<bool> has_semicolon(tree.method_count(), false);
  std::vector<std::string_view> path;  // path[d - 1] is the name of the current node's depth-d ancestor
  std::vector<int> semicolon_names;    // semicolon_names[d - 1]: how many of path[0..d-1] contain ';'
  std::string line;
  for (NodeId n = 1; n < tree.node_count(); ++n) {
    if (!checked[tree.method(n)]) {
      check_name(tree, n);
      checked[tree.method(n)] = true;
      has_semicolon[tree.method(n)] = tree.node_name(n).find(';') != std::string_view::npos;
    }
    path.resize(tree.depth(n) - 1);
    path.push_back(tree.node_name(n));
    semicolon_names.resize(path.size() - 1);
    semicolon_names.push_back((semicolon_names.empty() ? 0 : semicolon_names.back()) + has_semicolon[tree.method(n)]);
    const Cost cost = tree.cost(n);
    if (cost == 0) continue;
    if (cost < 0)
      throw Error("cannot write collapsed stacks: node " + std::to_string(n) + " has negative cost " +
                  std::to_string(cost));
    line.clear();
    for (std::size_t d = 0; d < path.size(); ++d) {
      if (d > 0) line += ';';
      line += path[d];
    }
    if (semicolon_names.back() > 0 && !splits_back(line, path))
      throw Error("cannot write collapsed stacks: the stack of node " + std::to_string(n) +
                  " would not split back into its frames (a ';' in one name, an open parenthesis in another)");
    line += ' ';
    line += std::to_string(cost);
    line += '\n';
    // No first line can look like a gzip or zstd magic to the reader's sniffing (decompress.h):
    // names are UTF-8 (utf8.h), and both magics' second byte cannot follow an ASCII byte there.
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  }
  if (!out) throw Error("cannot write collapsed stacks: the output stream failed");
}

}  // namespace bn::calltree
