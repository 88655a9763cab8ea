#include "profile_options.h"

#include <iostream>
#include <string>

#include "bn/calltree/profile_reader.h"
#include "bn/repl/text.h"
#include "progress_line.h"

namespace bn::cli {

void add_profile_options(CLI::App& sub, ProfileOptions& options) {
  sub.add_option("PROFILE", options.path,
                 "Profile to read, recognised by content: native (.bnp), JFR (.jfr), pprof (.pb.gz, "
                 ".pprof) or collapsed stacks (plain, .gz, .zst)")
      ->required();
  sub.add_flag("--partial", options.partial,
               "Accept a native profile whose recording was cut off (e.g. by SIGKILL) and load "
               "its complete chunks");
  sub.add_flag("--signatures", options.keep_signatures,
               "Keep Java method signatures in imported frame names (tells overloads apart)");
  sub.add_option("--sample-type", options.sample_type,
                 "pprof: the sample type whose values are the costs (e.g. cpu, alloc_space; default: the "
                 "file's default, else its last). JFR: cpu (jdk.ExecutionSample, the default), native, "
                 "monitor-enter, monitor-wait or park. `info` lists a file's types");
  sub.add_flag("--threads", options.thread_frames,
               "pprof and JFR: put each sample's thread above its outermost frame as '[thread NAME]'");
}

calltree::OpenedProfile open_profile_from(const ProfileOptions& options) {
  calltree::OpenOptions open;
  open.accept_unfinished = options.partial;
  open.import.keep_signatures = options.keep_signatures;
  open.import.sample_type = options.sample_type;
  open.import.thread_frames = options.thread_frames;
  calltree::OpenedProfile opened = [&] {
    const auto progress = ProgressLine::on_stderr("reading " + options.path);
    open.import.progress = progress->callback();
    try {
      return calltree::open_profile(options.path, open);
    } catch (const calltree::UnfinishedProfileError& e) {
      throw Error(std::string(e.what()) + "; --partial reads its complete chunks");
    }
  }();  // the progress line is erased before any warning is printed
  if (opened.loaded.unfinished)
    std::cerr << "bottlenecks: warning: " << repl::terminal_safe(opened.loaded.warning) << '\n';
  return opened;
}

}  // namespace bn::cli
