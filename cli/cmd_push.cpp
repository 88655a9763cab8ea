// `bottlenecks push FILE... --to clickhouse://HOST:PORT/DB --label service=S --label version=V`:
// recordings into a fleet store (docs/fleet.md), each all or nothing, none twice.

#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bn/fleet/push.h"
#include "bn/fleet/schema.h"
#include "bn/iface/units.h"
#include "bn/search/text.h"
#include "commands.h"
#include "fleet_push.h"
#include "profile_options.h"
#include "progress_line.h"

namespace bn::cli {
namespace {

struct PushOptions {
  std::vector<std::string> files;
  std::string to;
  std::vector<std::string> labels;
  std::string time;
  bool create = false;
  bool signatures = false;
  std::string sample_type;
};

void run_push(const PushOptions& o) {
  const fleet::FleetUrl url =
      parsing_option("--to", [&] { return fleet::parse_fleet_url(o.to, fleet::now_unix_seconds()); });
  const fleet::ClickHouse server(url);
  if (o.create) fleet::create_schema(server);
  if (o.files.empty()) {
    if (!o.create) throw Error("no FILE to push (--create alone creates the schema)");
    std::cout << "schema version " << fleet::kSchemaVersion << " ready in " << url.server() << '\n';
    return;
  }
  fleet::check_schema(server);
  const fleet::PushLabels labels = push_labels(o.labels);
  RecordingLoad load{std::nullopt, o.signatures, o.sample_type, std::nullopt};
  if (!o.time.empty())
    load.time = parsing_option("--time", [&] { return fleet::parse_time(o.time, fleet::now_unix_seconds()); });
  const auto started = std::chrono::steady_clock::now();
  std::size_t pushed = 0, skipped = 0;
  std::uint64_t rows = 0, bytes = 0;
  for (std::size_t i = 0; i < o.files.size(); ++i) {
    const std::string& file = o.files[i];
    try {
      // A file already in the store is skipped before it is read: pushing a directory again is
      // a hash of each file, not a parse.
      RecordingLoad this_file = load;
      this_file.id = fleet::content_id(file);
      if (fleet::in_store(server, *this_file.id)) {
        ++skipped;
        std::cerr << "bottlenecks: " << search::terminal_safe(file) << ": already in the store; not pushed again\n";
        continue;
      }
      const RecordingFile loaded = load_recording(file, this_file);
      const auto progress = ProgressLine::on_stderr("pushing " + file + " (" + std::to_string(i + 1) + " of " +
                                                    std::to_string(o.files.size()) + ")");
      const fleet::PushOutcome outcome = fleet::push_recording(server, loaded.recording(), labels,
                                                               [&](std::uint64_t sent) { progress->update(sent, 0); });
      if (!outcome.pushed) {  // pushed by another client meanwhile
        ++skipped;
        continue;
      }
      ++pushed;
      rows += outcome.rows;
      bytes += outcome.bytes;
    } catch (const Error& e) {
      std::string done;
      if (pushed + skipped > 0)
        done = " (" + std::to_string(pushed + skipped) + " earlier file" + (pushed + skipped == 1 ? "" : "s") +
               " are in the store; pushing again skips them)";
      throw Error(file + ": " + e.what() + "; nothing of it is counted" + done);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "pushed " << pushed << (pushed == 1 ? " recording" : " recordings") << " to " << url.server() << " ("
            << labels.service << " " << labels.version << "): " << rows << " sample rows, "
            << iface::decimal_string(static_cast<iface::Amount>(bytes / 1024), 1024, 1) << " MiB in "
            << iface::decimal_string(static_cast<iface::Amount>(seconds * 1000), 1000, 1) << " s";
  if (skipped > 0) std::cout << "; " << skipped << " already there, skipped";
  std::cout << '\n';
}

}  // namespace

void setup_push(CLI::App& app) {
  auto options = std::make_shared<PushOptions>();
  CLI::App* sub = app.add_subcommand(
      "push",
      "Upload recordings to a fleet store in ClickHouse: push FILE... --to clickhouse://HOST:PORT/DB --label "
      "service=S --label version=V (docs/fleet.md)");
  sub->add_option("FILE", options->files,
                  "Recordings to push, any format a profile is read in; each is stored whole or not at all, and "
                  "one already in the store (the same bytes) is skipped");
  sub->add_option("--to", options->to,
                  "The store: clickhouse://[USER[:PASSWORD]@]HOST:PORT/DB[?cluster=NAME] (the HTTP port; "
                  "credentials also from BOTTLENECKS_CLICKHOUSE_USER and _PASSWORD)")
      ->required();
  sub->add_option("--label", options->labels,
                  "KEY=VALUE, repeatable: service and version are required, host defaults to this machine's name, "
                  "any other key is a free-form label a query can select (label.KEY=VALUE)");
  sub->add_option("--time", options->time,
                  "When the recordings were made, if their own start time is wrong or missing: Unix seconds, "
                  "2026-11-28T10:05, now, -2h (default: the recording's start, else the file's modification time)");
  sub->add_flag("--create", options->create,
                "Create the database and tables first if missing (with ?cluster=NAME also the Distributed tables; "
                "run it against every shard)");
  sub->add_flag("--signatures", options->signatures, "Keep Java method signatures in imported frame names");
  sub->add_option("--sample-type", options->sample_type, "JFR: the event kind to push (cpu, the default, ...)");
  sub->callback([options] { run_push(*options); });
}

}  // namespace bn::cli
