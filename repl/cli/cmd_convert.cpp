// `bottlenecks convert IN -o OUT`: between the native format and collapsed stacks. Collapsed to
// native to collapsed reproduces the same stacks and counts.

#include <ext/stdio_filebuf.h>
#include <memory>
#include <ostream>

#include "bn/calltree/collapsed.h"
#include "bn/calltree/profile_writer.h"
#include "bn/iface/error.h"
#include "bn/io/output_file.h"
#include "commands.h"
#include "profile_options.h"

namespace bn::cli {
namespace {

struct ConvertOptions {
  ProfileOptions profile;
  std::string output;
  std::string to = "auto";
};

// The output format: explicit, or by the output's extension (.bnp native, otherwise collapsed).
std::string output_format(const ConvertOptions& options) {
  if (options.to != "auto") return options.to;
  return std::filesystem::path(options.output).extension() == ".bnp" ? "native" : "collapsed";
}

void run_convert(const ConvertOptions& options) {
  const calltree::OpenedProfile opened = open_profile_from(options.profile);
  if (output_format(options) == "native") {
    calltree::write_profile(opened.loaded.tree, options.output);
    return;
  }
  io::OutputFile file(options.output);
  {
    // libstdc++'s stdio_filebuf lets the collapsed writer stream into the atomic temp file
    // without holding the whole text in memory.
    __gnu_cxx::stdio_filebuf<char> buffer(file.stream(), std::ios::out);
    std::ostream out(&buffer);
    calltree::write_collapsed(opened.loaded.tree, out);
    out.flush();
    if (!out) throw Error("cannot write '" + options.output + "': write failed");
  }
  file.commit();
}

}  // namespace

void setup_convert(CLI::App& app) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand("convert", "Convert between the native profile format and collapsed stacks");
  add_profile_options(*sub, options->profile);
  sub->add_option("-o,--output", options->output,
                  "File to write, replaced atomically; - (or /dev/stdout) for standard output")
      ->required();
  sub->add_option("--to", options->to,
                  "Output format: native, collapsed, or auto (native for a .bnp output, "
                  "collapsed otherwise)")
      ->check(CLI::IsMember({"auto", "native", "collapsed"}));
  sub->callback([options] { run_convert(*options); });
}

}  // namespace bn::cli
