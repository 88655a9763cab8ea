// A NODE chunk's two columns decoded on two threads (the method column from where the parent
// column's varints end) against one thread: random payloads, well formed and with one fault each
// (a cycle, a forward reference, a method id past the strings, a varint past 64 bits in either
// column, the payload cut off anywhere, bytes after the last node), appended to an empty table or
// to earlier nodes. The same table, or the same error message, either way; and the same again when
// the payload is decoded while it is decompressed, its bytes coming out in random pieces.

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "bn/base/error.h"
#include "byte_codec.h"
#include "growing_payload.h"
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

// A random NODE payload after `before`'s nodes, well formed or with one fault.
struct RandomNodes {
  NodeTable before{{kNoNode}, {kNoMethod}, {0}};
  std::size_t strings = 0, n = 0;
  std::vector<std::byte> payload;
};

RandomNodes random_nodes(std::mt19937_64& rng, std::size_t max_nodes = 40, bool faults = true) {
  RandomNodes r;
  NodeTable& before = r.before;
  for (std::size_t i = 1, earlier = rng() % 3 == 0 ? rng() % 5 : 0; i <= earlier; ++i) {
    before.parent.push_back(static_cast<NodeId>(i - 1));
    before.method.push_back(0);
    before.cost.push_back(0);
  }
  const std::size_t first = before.parent.size(), strings = 1 + rng() % 300, n = rng() % max_nodes;
  r.strings = strings;
  r.n = n;
  const int fault = faults ? static_cast<int>(rng() % 8) : 0;  // 0, 1: none
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
  r.payload = out.take();
  if (fault == 7) {
    if (rng() % 2 == 0)
      r.payload.resize(rng() % r.payload.size());
    else
      r.payload.push_back(std::byte{1});
  }
  return r;
}

void check_same(const Decoded& got, const Decoded& want) {
  CHECK(got.error == want.error);
  if (got.error || want.error) return;
  CHECK(got.table.parent == want.table.parent);
  CHECK(got.table.method == want.table.method);
  CHECK(got.table.cost == want.table.cost);
}

}  // namespace

TEST_CASE("a NODE chunk decoded on two threads gives one thread's table or error") {
  std::mt19937_64 rng(2026);
  int failed = 0;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    const RandomNodes r = random_nodes(rng);
    const Decoded one = decode(r.payload, r.before, r.strings, std::size_t{1} << 30);
    const Decoded two = decode(r.payload, r.before, r.strings, 1);
    check_same(two, one);
    failed += one.error.has_value();
    if (one.error) continue;
    CHECK(one.table.parent.size() == r.before.parent.size() + r.n);
  }
  CHECK(failed > 1000);
  CHECK(failed < 2700);
}

namespace {

// The payload decoded while another thread puts it out in random pieces (one byte to all of it,
// so varints are cut anywhere), each piece copied in just before it is published: the bytes not
// yet out are 0xff, which a read past what is out would take for a varint running on or past 64
// bits. With `fails_after`, the decompression fails once that many bytes are out; `voided` says
// the decoder noticed (GrowingPayload::Failed).
Decoded decode_growing(const RandomNodes& r, std::size_t two_threads_from, std::mt19937_64& rng,
                       std::optional<std::size_t> fails_after, bool& voided,
                       std::optional<std::size_t> pause_at = std::nullopt) {
  const std::vector<std::byte>& payload = r.payload;
  std::vector<std::byte> buffer(payload.size(), std::byte{0xff});
  std::vector<std::size_t> ends;
  for (std::size_t at = 0; at < payload.size();) {
    const std::size_t piece = rng() % 3 == 0 ? 1 + rng() % payload.size() : 1 + rng() % 4;
    at = std::min(payload.size(), at + piece);
    ends.push_back(at);
  }
  const bool yields = rng() % 2 == 0;
  GrowingPayload growing;
  std::thread decompressor([&] {
    std::size_t out = 0;
    for (std::size_t end : ends) {
      if (fails_after && end > *fails_after) break;
      std::copy(payload.begin() + out, payload.begin() + end, buffer.begin() + out);
      out = end;
      growing.publish(out);
      if (yields) std::this_thread::yield();
      if (pause_at && out >= *pause_at) {  // the decoder catches up and waits; then the rest at once
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::copy(payload.begin() + out, payload.end(), buffer.begin() + out);
        out = payload.size();
        growing.publish(out);
        break;
      }
    }
    growing.finish(!fails_after);
  });
  Decoded d{r.before, std::nullopt};
  voided = false;
  ByteSource in(buffer, "chunk 'NODE'");
  try {
    decode_nodes(in, d.table, r.strings, 1u << 20, two_threads_from, &growing);
  } catch (const bn::Error& e) {
    d.error = e.what();
  } catch (const GrowingPayload::Failed&) {
    voided = true;
  }
  decompressor.join();
  return d;
}

}  // namespace

TEST_CASE("a NODE chunk decoded as it is decompressed gives the whole payload's table or error") {
  std::mt19937_64 rng(2027);
  int waited_in_vain = 0;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    const RandomNodes r = random_nodes(rng);
    const std::size_t two_threads_from = rng() % 2 == 0 ? 1 : std::size_t{1} << 30;
    const Decoded whole = decode(r.payload, r.before, r.strings, two_threads_from);
    bool voided = false;
    check_same(decode_growing(r, two_threads_from, rng, std::nullopt, voided), whole);
    CHECK(!voided);
    // A decompression that fails part way ends the decoding too (the reader then reports the
    // decompression's error): it never waits for bytes that will not come.
    const std::size_t fails_after = r.payload.empty() ? 0 : rng() % r.payload.size();
    decode_growing(r, two_threads_from, rng, fails_after, voided);
    waited_in_vain += voided;
  }
  CHECK(waited_in_vain > 1000);
}

// Chunks big enough for the second thread to share the rest of the method column evenly
// (MethodSplit): the payload stops growing a while inside the method column, so that this thread
// has begun it when the payload is out whole; faults (method ids past the strings, overlong
// varints) fall anywhere, in either thread's share.
TEST_CASE("a big NODE chunk decoded as it grows shares the rest of the method column") {
  std::mt19937_64 rng(2028);
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    const RandomNodes r = random_nodes(rng, 300'000, round % 2 == 1);
    const Decoded whole = decode(r.payload, r.before, r.strings, std::size_t{1} << 30);
    bool voided = false;
    // A tenth into the method column (or anywhere, if the payload is cut before it).
    ByteSource in(r.payload, "chunk 'NODE'");
    const std::size_t n = in.varint("node count");
    const std::size_t methods = in.offset_after_varints(n).value_or(rng() % (r.payload.size() + 1));
    const std::size_t pause_at = methods + (r.payload.size() - std::min(methods, r.payload.size())) / 10;
    check_same(decode_growing(r, 1, rng, std::nullopt, voided, pause_at), whole);
    CHECK(!voided);
  }
}
