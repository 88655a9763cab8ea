#include "fleet_source.h"

#include "bn/fleet/slice.h"

namespace bn::cli {
namespace {

// The format row a slice is opened as: `info` and the headers name it.
const calltree::ProfileFormat kFleetFormat{
    .name = "clickhouse",
    .title = "a fleet store's slice",
    .description = "the sum of a slice of the recordings pushed to ClickHouse (docs/fleet.md)",
    .sniff = nullptr,
    .refuse = nullptr,
    .read = nullptr,
    .write = nullptr,
    .extensions = {},
    .compressed_inside = {},
    .whole_recording = false};

}  // namespace

std::vector<OpenedRunOf> open_fleet_slice(const std::string& url_text, const std::string& runs_by) {
  fleet::FleetUrl url = fleet::parse_fleet_url(url_text, fleet::now_unix_seconds());
  if (runs_by == "host")
    url.runs_by = fleet::RunsBy::host;
  else if (runs_by == "day")
    url.runs_by = fleet::RunsBy::day;
  std::vector<fleet::SliceRun> runs = fleet::read_slice(fleet::ClickHouse(url));
  std::vector<OpenedRunOf> out;
  for (fleet::SliceRun& run : runs) {
    calltree::OpenedProfile opened{{std::move(run.tree), false, {}, {}}, &kFleetFormat};
    out.push_back({std::move(opened), std::move(run.name)});
  }
  return out;
}

}  // namespace bn::cli
