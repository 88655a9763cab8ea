// `bottlenecks convert IN -o OUT`: from any format open_profile reads to the native format,
// collapsed stacks or pprof (docs/formats.md). Collapsed or native to pprof and back keeps every
// stack and count; native to native keeps the per-sample records (re-encoded for the tree as
// written); `--view` exports one view of a recording, typed-time leaves included, for
// flame-graph tools (docs/views.md).

#include <iostream>
#include <memory>
#include <ostream>

#include "bn/base/error.h"
#include "bn/base/output_file.h"
#include "bn/calltree/collapsed.h"
#include "bn/calltree/compress.h"
#include "bn/calltree/pprof.h"
#include "bn/calltree/profile_writer.h"
#include "bn/calltree/sample_records.h"
#include "bn/search/text.h"
#include "commands.h"
#include "progress_line.h"
#include "search_source.h"

namespace bn::cli {
namespace {

struct ConvertOptions {
  SearchOptions search;  // IN and the view to export
  std::string output;
  std::string to = "auto";
};

// The output format: explicit, or by the output's name once a .gz or .zst is set aside: .bnp
// native, .pb or .pprof pprof, anything else collapsed.
std::string output_format(const ConvertOptions& options) {
  if (options.to != "auto") return options.to;
  const auto ext = calltree::uncompressed_name(options.output).extension();
  if (ext == ".bnp") return "native";
  if (ext == ".pb" || ext == ".pprof") return "pprof";
  return "collapsed";
}

// Compressed as the name says; a bare `.pprof` is gzipped, as pprof itself writes it.
calltree::Compression output_compression(const std::string& format, const std::filesystem::path& output) {
  const calltree::Compression named = calltree::compression_for_name(output);
  if (format == "pprof" && named == calltree::Compression::none && output.extension() == ".pprof")
    return calltree::Compression::gzip;
  return named;
}

void write_text_or_pprof(const calltree::CallTree& tree, const std::string& format, const std::string& output) {
  base::OutputFile file(output);
  const auto progress = ProgressLine::on_stderr("writing " + output);
  calltree::CompressingStreambuf buffer(file.stream(), output_compression(format, output), output,
                                        progress->callback());
  std::ostream out(&buffer);
  try {
    if (format == "pprof")
      calltree::write_pprof(tree, out);
    else
      calltree::write_collapsed(tree, out);
  } catch (const Error&) {
    buffer.throw_if_failed();  // the file's own error (e.g. no space left) says more
    throw;
  }
  buffer.finish();
  file.commit();
}

// The recorded tree with its per-sample records: ids change with the preorder written, so the
// records are decoded and encoded again rather than copied (sample_records.h).
void write_native(SearchSource& search, const std::string& output) {
  OpenedFile& file = search.file();
  std::vector<calltree::AncillaryChunk> chunks;
  if (!file.samples().ticks.empty() || !file.samples().threads.empty())
    chunks = calltree::encode_sample_data(file.file.loaded.tree, file.samples());
  for (const auto& [tag, bytes] : file.file.loaded.extra_chunks)
    if (tag != calltree::kTagThreads && tag != calltree::kTagSamples)
      std::cerr << "bottlenecks: warning: dropped ancillary chunk '" << search::terminal_safe(tag.view())
                << "', which this version does not know how to renumber\n";
  calltree::write_profile(file.file.loaded.tree, output, chunks);
}

void run_convert(const ConvertOptions& options) {
  const std::string format = output_format(options);
  if (format == "native" && calltree::compression_for_name(options.output) != calltree::Compression::none)
    throw Error("cannot write '" + options.output +
                "': native profiles are compressed already (zstd chunks); drop the .gz or .zst");
  SearchSource search(options.search);
  const views::View* view = search.built_view();
  if (format == "native") {
    if (view) throw Error("a view is exported as collapsed stacks or pprof only; its costs are fractions");
    write_native(search, options.output);
    return;
  }
  write_text_or_pprof(search.tree(), format, options.output);
  // Exported counts are whole numbers: say what a view's counts are.
  if (view)
    std::cerr << "bottlenecks: wrote view " << search::terminal_safe(search.view()) << " (model "
              << views::to_string(*view->spec.model) << "): counts are "
              << (view->hit != 0 ? "samples times " + iface::to_string(view->hit) : std::string("nanoseconds"))
              << ", before the view's normalisation\n";
}

}  // namespace

void setup_convert(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand("convert", "Convert a profile to the native format, collapsed stacks or pprof");
  add_profile_options(*sub, options->search.profile);
  add_view_options(*sub, options->search);
  sub->add_option("-o,--output", options->output,
                  "File to write, replaced atomically (- or /dev/stdout: standard output); a .gz or .zst "
                  "name is compressed so, a .pprof one gzipped")
      ->required();
  sub->add_option("--to", options->to,
                  "Output format: native, collapsed, pprof, or auto (by the name without .gz/.zst: .bnp "
                  "native, .pb or .pprof pprof, anything else collapsed)")
      ->check(CLI::IsMember({"auto", "native", "collapsed", "pprof"}));
  sub->callback([options] { run_convert(*options); });
}

}  // namespace bn::cli
