// `bottlenecks convert IN -o OUT`: between the native format and collapsed stacks. Collapsed to
// native to collapsed reproduces the same stacks and counts; native to native keeps the
// per-sample records (re-encoded for the tree as written); `--view` exports one view of a
// recording as collapsed stacks, typed-time leaves included, for flame-graph tools.

#include <ext/stdio_filebuf.h>
#include <iostream>
#include <memory>
#include <ostream>

#include "bn/calltree/atomic_file.h"
#include "bn/calltree/collapsed.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/sample_records.h"
#include "bn/iface/error.h"
#include "commands.h"
#include "search.h"

namespace bn::cli {
namespace {

struct ConvertOptions {
  SearchOptions search;  // IN and the view to export
  std::string output;
  std::string to = "auto";
};

// The output format: explicit, or by the output's extension (.bnp native, otherwise collapsed).
std::string output_format(const ConvertOptions& options) {
  if (options.to != "auto") return options.to;
  return std::filesystem::path(options.output).extension() == ".bnp" ? "native" : "collapsed";
}

// The recorded tree with its per-sample records: ids change with the preorder written, so the
// records are decoded and encoded again rather than copied (sample_records.h).
void write_native(Search& search, const std::string& output) {
  OpenedFile& file = search.file();
  std::vector<calltree::AncillaryChunk> chunks;
  if (!file.samples().ticks.empty() || !file.samples().threads.empty())
    chunks = calltree::encode_sample_data(file.file.loaded.tree, file.samples());
  for (const auto& [tag, bytes] : file.file.loaded.extra_chunks)
    if (tag != calltree::kTagThreads && tag != calltree::kTagSamples)
      std::cerr << "bottlenecks: warning: dropped ancillary chunk '" << tag.view()
                << "', which this version does not know how to renumber\n";
  calltree::write_profile(file.file.loaded.tree, output, chunks);
}

void write_collapsed(const calltree::CallTree& tree, const std::string& output) {
  calltree::AtomicFile file(output);
  {
    // libstdc++'s stdio_filebuf lets the collapsed writer stream into the atomic temp file
    // without holding the whole text in memory.
    __gnu_cxx::stdio_filebuf<char> buffer(file.stream(), std::ios::out);
    std::ostream out(&buffer);
    calltree::write_collapsed(tree, out);
    out.flush();
    if (!out) throw Error("cannot write '" + output + "': write failed");
  }
  file.commit();
}

void run_convert(const ConvertOptions& options) {
  Search search(options.search);
  const views::View* view = search.built_view();
  if (output_format(options) == "native") {
    if (view) throw Error("a view is exported as collapsed stacks only (--to collapsed); its costs are fractions");
    write_native(search, options.output);
    return;
  }
  write_collapsed(search.tree(), options.output);
  // Collapsed counts are whole numbers: say what a view's counts are.
  if (view)
    std::cerr << "bottlenecks: wrote view " << search.view() << " (model " << views::to_string(*view->spec.model)
              << "): counts are "
              << (view->hit != 0 ? "samples times " + iface::to_string(view->hit) : std::string("nanoseconds"))
              << ", before the view's normalisation\n";
}

}  // namespace

void setup_convert(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand("convert", "Convert between the native profile format and collapsed stacks");
  add_profile_options(*sub, options->search.profile);
  add_view_options(*sub, options->search);
  sub->add_option("-o,--output", options->output, "File to write (replaced atomically)")->required();
  sub->add_option("--to", options->to,
                  "Output format: native, collapsed, or auto (native for a .bnp output, "
                  "collapsed otherwise)")
      ->check(CLI::IsMember({"auto", "native", "collapsed"}));
  sub->callback([options] { run_convert(*options); });
}

}  // namespace bn::cli
