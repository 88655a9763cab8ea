// A NODE chunk's two columns decoded on two threads (the method column from where the parent
// column's varints end) against one thread: random payloads, well formed and with one fault each
// (a cycle, a forward reference, a method id past the strings, a varint past 64 bits in either
// column, the payload cut off anywhere, bytes after the last node), appended to an empty table or
// to earlier nodes. The same table, or the same error message, either way.

#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bn/iface/error.h"
#include "byte_codec.h"
#include "profile_chunks.h"

using namespace bn::calltree;

namespace {

struct Decoded {
  NodeTable table;
  std::optional<std::string> error;
};

Decoded decode(const std::vector<std::byte>& payload, const NodeTable& before, std::size_t strings,
               std::size_t two_threads_from) {
  Decoded d{before, std::nullopt};
  ByteSource in(payload, "chunk 'NODE'");
  try {
    decode_nodes(in, d.table, strings, 1u << 20, two_threads_from);
  } catch (const bn::Error& e) {
    d.error = e.what();
  }
  return d;
}

void put_overlong(ByteSink& out) {
  for (int i = 0; i < 9; ++i) out.bytes(std::vector<std::byte>{std::byte{0xff}});
  out.bytes(std::vector<std::byte>{std::byte{0x02}});
}

}  // namespace

TEST_CASE("a NODE chunk decoded on two threads gives one thread's table or error") {
  std::mt19937_64 rng(2026);
  int failed = 0;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    NodeTable before{{kNoNode}, {kNoMethod}, {0}};
    for (std::size_t i = 1, earlier = rng() % 3 == 0 ? rng() % 5 : 0; i <= earlier; ++i) {
      before.parent.push_back(static_cast<NodeId>(i - 1));
      before.method.push_back(0);
      before.cost.push_back(0);
    }
    const std::size_t first = before.parent.size(), strings = 1 + rng() % 300, n = rng() % 40;
    const int fault = static_cast<int>(rng() % 8);  // 0, 1: none
    const std::size_t faulty = n == 0 ? 0 : rng() % n;
    ByteSink out;
    out.varint(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t id = first + k;
      if (k == faulty && fault == 2)
        out.varint(0);
      else if (k == faulty && fault == 3)
        out.varint(id + 1 + rng() % 3);
      else if (k == faulty && fault == 4)
        put_overlong(out);
      else
        out.varint(1 + rng() % id);
    }
    for (std::size_t k = 0; k < n; ++k) {
      if (k == faulty && fault == 5)
        out.varint(strings + rng() % 3);
      else if (k == faulty && fault == 6)
        put_overlong(out);
      else
        out.varint(rng() % 4 == 0 ? rng() % strings : rng() % std::min<std::size_t>(strings, 128));
    }
    std::vector<std::byte> payload = out.take();
    if (fault == 7) {
      if (rng() % 2 == 0)
        payload.resize(rng() % payload.size());
      else
        payload.push_back(std::byte{1});
    }
    const Decoded one = decode(payload, before, strings, std::size_t{1} << 30);
    const Decoded two = decode(payload, before, strings, 1);
    CHECK(two.error == one.error);
    failed += one.error.has_value();
    if (one.error) continue;
    CHECK(two.table.parent == one.table.parent);
    CHECK(two.table.method == one.table.method);
    CHECK(two.table.cost == one.table.cost);
    CHECK(one.table.parent.size() == first + n);
  }
  CHECK(failed > 1000);
  CHECK(failed < 2700);
}
