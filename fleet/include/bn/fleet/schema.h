#pragma once
// The store's tables (docs/fleet.md, "Schema"). Stacks are kept once, as the nodes of a trie: a
// node's id hashes its parent's id and its frame's, so a stack is named by the id of its last
// node and every prefix shared between recordings is stored once. Samples are rows of (day,
// time bucket, service, version, host, thread class, labels, recording, push, stack, metric,
// unit, value). A recording's rows all carry its day, the partition key of every table, so a
// dropped day removes whole recordings. A push counts only once its row in `recordings` is
// written, after its samples: a push cut short is never read (slice.h).
//
// Only what ClickHouse 18.16 has and current releases keep: MergeTree and ReplacingMergeTree
// with PARTITION BY/ORDER BY, Distributed, Array(String), Date, DateTime, TinyLog; no Map, no
// LowCardinality, no TTL.

#include <string>

#include "bn/fleet/clickhouse.h"

namespace bn::fleet {

// The layout version this build reads and writes, stored in the database's bn_schema table.
inline constexpr int kSchemaVersion = 1;

// The tables a client reads and writes, qualified: the local ones, or on a cluster the
// Distributed ones over them (samples_all, ...).
struct Tables {
  std::string samples, stacks, frames, recordings;
};
Tables tables_of(const FleetUrl& url);

// Creates the database and the tables if missing and records kSchemaVersion; with url.cluster,
// also the Distributed tables on this server (the local tables must then exist on every shard:
// run it once against each). Throws what ClickHouse refused.
void create_schema(const ClickHouse& server);

// Throws bn::Error saying how to create the schema when the database or its tables are missing,
// and naming both versions when the store was made by another layout version.
void check_schema(const ClickHouse& server);

}  // namespace bn::fleet
