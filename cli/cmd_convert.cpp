// `bottlenecks convert IN -o OUT`: from any format open_profile reads to any format the table
// of profile_formats.h writes, chosen by --to or by the output's name (docs/formats.md).
// Collapsed or native to pprof and back keeps every stack and count; native to native keeps the
// per-sample records (re-encoded for the tree as written); `--view` exports one view of a
// recording, typed-time leaves included, for flame-graph tools (docs/views.md).

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/profile_formats.h"
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

// "a, b or c" (`last` " or "), of strings or string views.
template <class Words>
std::string join_words(const Words& words, std::string_view last) {
  std::string text;
  std::size_t i = 0;
  for (const auto& word : words) {
    if (i > 0) text += i + 1 == std::size(words) ? last : ", ";
    text += word;
    ++i;
  }
  return text;
}

std::vector<const calltree::ProfileFormat*> writable_formats() {
  std::vector<const calltree::ProfileFormat*> out;
  for (const calltree::ProfileFormat& format : calltree::profile_formats())
    if (format.write != nullptr) out.push_back(&format);
  return out;
}

// The formats a view can be exported as, in alphabetical order.
std::string view_formats() {
  std::vector<std::string_view> titles;
  for (const calltree::ProfileFormat* format : writable_formats())
    if (!format->whole_recording) titles.push_back(format->title);
  std::sort(titles.begin(), titles.end());
  return join_words(titles, " or ");
}

// The output format: explicit (--to accepts only writable rows), or by the output's name.
const calltree::ProfileFormat& output_format(const ConvertOptions& options) {
  if (options.to != "auto") return *calltree::find_profile_format(options.to);
  return calltree::format_for_output(options.output);
}

// The recorded tree with its per-sample records: ids change with the preorder written, so the
// records are decoded and encoded again rather than copied (sample_records.h); causal
// experiments name no node and are copied; other ancillary chunks cannot be renumbered and are
// dropped, with a warning.
const calltree::CallTree& recording(SearchSource& search, std::vector<calltree::AncillaryChunk>& chunks) {
  OpenedFile& file = search.file();
  if (!file.samples().ticks.empty() || !file.samples().threads.empty())
    chunks = calltree::encode_sample_data(file.file.loaded.tree, file.samples());
  for (const auto& [tag, bytes] : file.file.loaded.extra_chunks)
    if (const calltree::KnownChunk* known = calltree::find_known_chunk(tag);
        known && known->reader == calltree::ChunkReader::causal)
      chunks.emplace_back(tag, bytes);
    else if (!known || known->reader != calltree::ChunkReader::sample_records)
      std::cerr << "bottlenecks: warning: dropped ancillary chunk '" << search::terminal_safe(tag.view())
                << "', which this version does not know how to renumber\n";
  return file.file.loaded.tree;
}

void run_convert(const ConvertOptions& options) {
  const calltree::ProfileFormat& format = output_format(options);
  const calltree::Compression compression = calltree::output_compression(format, options.output);
  // A conversion keeps the recording as recorded, every sample: the CPU time a search opens on
  // is a view, asked for with --states running like any other.
  SearchOptions searched = options.search;
  if (searched.states.empty()) searched.states = "all";
  searched.profile.probe_estimate = false;  // and its metrics as recorded
  SearchSource search(searched);
  const views::View* view = search.built_view();
  if (format.whole_recording && view)
    throw Error("a view is exported as " + view_formats() + " only; its costs are fractions");
  std::vector<calltree::AncillaryChunk> chunks;
  const calltree::CallTree& tree = format.whole_recording ? recording(search, chunks) : search.tree();
  {
    const auto progress = ProgressLine::on_stderr("writing " + options.output);
    format.write({tree, chunks, options.output, compression, progress->callback()});
  }
  // Exported counts are whole numbers: say what a view's counts are.
  if (view)
    std::cerr << "bottlenecks: wrote view " << search::terminal_safe(search.view()) << " (model "
              << views::to_string(*view->spec.model) << "): counts are "
              << (view->hit != 0 ? "samples times " + iface::to_string(view->hit) : std::string("nanoseconds"))
              << ", before the view's normalisation\n";
}

// --to's help: the writable formats, and the name rule of format_for_output.
std::string to_help() {
  std::vector<std::string_view> names;
  std::vector<std::string> rules;
  const calltree::ProfileFormat& fallback = calltree::profile_formats().back();
  for (const calltree::ProfileFormat* format : writable_formats()) {
    names.push_back(format->name);
    if (format == &fallback || format->extensions.empty()) continue;
    std::vector<std::string_view> suffixes;
    for (const calltree::FileExtension& e : format->extensions) suffixes.push_back(e.suffix);
    rules.push_back(join_words(suffixes, " or ") + " " + std::string(format->name));
  }
  rules.push_back("anything else " + std::string(fallback.name));
  return "Output format: " + join_words(names, ", ") +
         ", or auto (by the name without .gz/.zst: " + join_words(rules, ", ") + ")";
}

// -o's help: the extensions compressed without a .gz or .zst.
std::string output_help() {
  std::string help =
      "File to write, replaced atomically (- or /dev/stdout: standard output); a .gz or .zst name is compressed so";
  for (const calltree::ProfileFormat* format : writable_formats())
    for (const calltree::FileExtension& e : format->extensions)
      if (e.bare != calltree::Compression::none)
        help += ", a " + std::string(e.suffix) + " one " +
                (e.bare == calltree::Compression::gzip ? "gzipped" : "zstd-compressed");
  return help;
}

}  // namespace

void setup_convert(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  std::vector<std::string_view> titles;
  std::vector<std::string> choices = {"auto"};
  for (const calltree::ProfileFormat* format : writable_formats()) {
    titles.push_back(format->title);
    choices.emplace_back(format->name);
  }
  CLI::App* sub = app.add_subcommand("convert", "Convert a profile to another format: " + join_words(titles, " or "));
  add_profile_options(*sub, options->search.profile);
  add_view_options(*sub, options->search);
  sub->add_option("-o,--output", options->output, output_help())->required();
  sub->add_option("--to", options->to, to_help())->check(CLI::IsMember(choices));
  sub->callback([options] { run_convert(*options); });
}

}  // namespace bn::cli
