#include "bn/fleet/schema.h"

namespace bn::fleet {
namespace {

struct TableRow {
  const char* name;
  const char* columns;
  const char* engine;
  // How the Distributed table spreads rows over shards: a push's samples and its recording row
  // go to one shard together; stacks and frames anywhere (a query groups them by id).
  const char* sharding;
};

// The one table of the schema.
constexpr TableRow kTables[] = {
    {"frames", "day Date, service String, id UInt64, name String",
     "ReplacingMergeTree PARTITION BY day ORDER BY (service, id)", "rand()"},
    {"stacks", "day Date, service String, id UInt64, parent UInt64, frame UInt64",
     "ReplacingMergeTree PARTITION BY day ORDER BY (service, id)", "rand()"},
    {"samples",
     "day Date, time DateTime, service String, version String, host String, thread_class String, "
     "labels Array(String), recording UInt64, push UInt64, stack UInt64, metric String, unit String, value Int64",
     "MergeTree PARTITION BY day ORDER BY (service, version, time, host, stack)", "push"},
    {"recordings",
     "day Date, time DateTime, service String, version String, host String, labels Array(String), "
     "recording UInt64, push UInt64, pushed DateTime, source String, format String, metrics Array(String), "
     "units Array(String), rows UInt64",
     "MergeTree PARTITION BY day ORDER BY (service, version, recording)", "push"},
};

std::string no_schema_hint(const ClickHouse& server) {
  return "create it with `bottlenecks push --create --to " + server.url().server() + "`";
}

}  // namespace

Tables tables_of(const FleetUrl& url) {
  const std::string suffix = url.cluster.empty() ? "" : "_all";
  const auto table = [&](const char* name) { return url.database + "." + name + suffix; };
  return {table("samples"), table("stacks"), table("frames"), table("recordings")};
}

void create_schema(const ClickHouse& server) {
  const FleetUrl& url = server.url();
  const std::string& db = url.database;
  server.query("CREATE DATABASE IF NOT EXISTS " + db);
  server.query("CREATE TABLE IF NOT EXISTS " + db + ".bn_schema (version UInt32) ENGINE = TinyLog");
  for (const TableRow& t : kTables) {
    server.query("CREATE TABLE IF NOT EXISTS " + db + "." + t.name + " (" + t.columns + ") ENGINE = " + t.engine);
    if (!url.cluster.empty())
      server.query("CREATE TABLE IF NOT EXISTS " + db + "." + t.name + "_all AS " + db + "." + t.name +
                   " ENGINE = Distributed(" + url.cluster + ", " + db + ", " + t.name + ", " + t.sharding + ")");
  }
  const std::string found = server.query("SELECT count(), max(version) FROM " + db + ".bn_schema FORMAT TSV");
  if (found.starts_with("0\t"))
    server.query("INSERT INTO " + db + ".bn_schema VALUES (" + std::to_string(kSchemaVersion) + ")");
  check_schema(server);
}

void check_schema(const ClickHouse& server) {
  const FleetUrl& url = server.url();
  std::string version;
  try {
    version = server.query("SELECT max(version) FROM " + url.database + ".bn_schema FORMAT TSV");
  } catch (const RefusedQuery& e) {
    if (e.code() == error_code::kUnknownDatabase)
      throw Error(url.server() + ": no database '" + url.database + "'; " + no_schema_hint(server));
    if (e.code() == error_code::kUnknownTable)
      throw Error(url.server() + ": no bottlenecks schema in database '" + url.database + "'; " +
                  no_schema_hint(server));
    throw;
  }
  while (!version.empty() && version.back() == '\n') version.pop_back();
  if (version != std::to_string(kSchemaVersion))
    throw Error(url.server() + ": the store has schema version " + version + ", this bottlenecks reads version " +
                std::to_string(kSchemaVersion) + " (docs/fleet.md, \"Schema\")");
  // Every table a query reads, local or Distributed.
  const std::string suffix = url.cluster.empty() ? "" : "_all";
  const std::string present =
      server.query("SELECT name FROM system.tables WHERE database = '" + url.database + "' FORMAT TSV");
  for (const TableRow& t : kTables) {
    const std::string name = t.name + suffix;
    if (present.find(name + "\n") == 0 || present.find("\n" + name + "\n") != std::string::npos) continue;
    if (!url.cluster.empty())
      throw Error(url.server() + ": no Distributed table " + url.database + "." + name + " over cluster '" +
                  url.cluster + "'; create them with `bottlenecks push --create --to " + url.server() +
                  "?cluster=" + url.cluster + "`");
    throw Error(url.server() + ": the bottlenecks schema in '" + url.database + "' has no table " + name + "; " +
                no_schema_hint(server));
  }
}

}  // namespace bn::fleet
