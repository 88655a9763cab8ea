// Writing collapsed stacks (collapsed.h), readable by flamegraph.pl, speedscope and read_collapsed.

#include <span>
#include <string>
#include <vector>

#include "bn/calltree/collapsed.h"
#include "bn/calltree/decompress.h"
#include "bn/iface/error.h"

namespace bn::calltree {
namespace {

// A name the format cannot carry: ';' separates frames, a newline ends the line, and the reader
// refuses NUL bytes and empty frames.
void check_name(const CallTree& tree, NodeId n) {
  const std::string_view name = tree.node_name(n);
  const char* what = name.empty()                                ? "is empty"
                     : name.find(';') != std::string_view::npos  ? "contains ';'"
                     : name.find('\n') != std::string_view::npos ? "contains a newline"
                     : name.find('\0') != std::string_view::npos ? "contains a NUL byte"
                                                                 : nullptr;
  if (what != nullptr) throw Error("cannot write collapsed stacks: the name of node " + std::to_string(n) + " " + what);
}

}  // namespace

void write_collapsed(const CallTree& tree, std::ostream& out) {
  if (tree.cost(kRootNode) != 0)
    throw Error("cannot write collapsed stacks: the synthetic root has cost " + std::to_string(tree.cost(kRootNode)) +
                " (an empty stack)");
  std::vector<bool> checked(tree.method_count(), false);
  std::vector<std::string_view> path;  // path[d - 1] is the name of the current node's depth-d ancestor
  std::string line;
  bool first_line = true;
  for (NodeId n = 1; n < tree.node_count(); ++n) {
    if (!checked[tree.method(n)]) {
      check_name(tree, n);
      checked[tree.method(n)] = true;
    }
    path.resize(tree.depth(n) - 1);
    path.push_back(tree.node_name(n));
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
    line += ' ';
    line += std::to_string(cost);
    line += '\n';
    // Readers recognise compression by the first bytes (decompress.h); a name that begins like
    // a gzip or zstd magic would make the file unreadable, so it gets a blank line, which
    // readers skip, in front.
    if (first_line && detect_compression(std::as_bytes(std::span(line.data(), line.size()))) != Compression::none)
      out.put('\n');
    first_line = false;
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  }
  if (!out) throw Error("cannot write collapsed stacks: the output stream failed");
}

}  // namespace bn::calltree
