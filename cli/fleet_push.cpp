#include "fleet_push.h"

#include <sys/stat.h>
#include <unistd.h>

#include <map>

#include "bn/calltree/sample_records.h"
#include "bn/fleet/fleet_url.h"
#include "profile_options.h"

namespace bn::cli {
namespace {

std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

bool is_label_key(std::string_view key) {
  if (key.empty() || key.size() > 64) return false;
  for (const char c : key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) return false;
  return true;
}

// The recording's start: the time given, else the one it records, else its file's modification
// time.
std::int64_t start_of(const RecordingLoad& load, const calltree::CallTree& tree, const std::string& file) {
  if (load.time) return *load.time;
  if (tree.metadata().start_time_unix_ns > 0) return tree.metadata().start_time_unix_ns / 1'000'000'000;
  struct stat status {};
  if (::stat(file.c_str(), &status) != 0) throw Error("cannot stat '" + file + "'");
  return status.st_mtime;
}

}  // namespace

fleet::PushLabels push_labels(const std::vector<std::string>& labels) {
  fleet::PushLabels out;
  std::map<std::string, std::string> rest;
  for (const std::string& label : labels) {
    const std::size_t eq = label.find('=');
    const std::string key = label.substr(0, eq);
    if (eq == std::string::npos || !is_label_key(key) || eq + 1 == label.size())
      throw Error("--label '" + label + "': expected KEY=VALUE, KEY of letters, digits, '_', '.', '-'");
    const std::string value = label.substr(eq + 1);
    if (key == "service")
      out.service = value;
    else if (key == "version")
      out.version = value;
    else if (key == "host")
      out.host = value;
    else if (!rest.emplace(key, value).second)
      throw Error("--label " + key + ": given twice");
  }
  if (out.service.empty()) throw Error("--label service=NAME is required: the slice a query names");
  if (out.version.empty()) throw Error("--label version=V is required: what a comparison of versions names");
  if (out.host.empty()) out.host = this_host();
  out.labels.assign(rest.begin(), rest.end());
  return out;
}

fleet::Recording RecordingFile::recording(std::optional<std::int64_t> at) const {
  return {opened.loaded.tree, samples, start, at.value_or(start), file, std::string(opened.format->name), id};
}

RecordingFile load_recording(const std::string& file, const RecordingLoad& load) {
  if (fleet::is_fleet_url(file)) throw Error("push takes recordings, not a clickhouse:// source");
  ProfileOptions loading;
  loading.path = file;
  loading.keep_signatures = load.keep_signatures;
  loading.sample_type = load.sample_type;
  RecordingFile out{open_profile_from(loading), {}, 0, file, load.id ? *load.id : fleet::content_id(file)};
  out.samples = calltree::decode_sample_data(out.opened.loaded, file);
  out.start = start_of(load, out.opened.loaded.tree, file);
  return out;
}

}  // namespace bn::cli
