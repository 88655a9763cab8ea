#pragma once
// A minimal JFR chunk writer for tests: the layout jfr_reader.cpp reads (header, events, one
// checkpoint with the constant pools, metadata), with only the classes an execution sample
// needs. Small enough that a test can cut or corrupt it at every byte.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bn::test {

struct JfrSample {
  std::string thread;
  std::vector<std::string> frames;  // outermost first, "pkg/Class.method(descriptor)", or "method" without a class
  bool truncated = false;
};

class JfrChunkWriter {
 public:
  std::vector<std::byte> chunk(const std::vector<JfrSample>& samples) {
    std::vector<std::uint8_t> events, pools, meta;
    for (const JfrSample& s : samples) {
      std::vector<std::uint8_t> body;
      varint(body, kExecutionSample);
      varint(body, 0);  // startTime
      varint(body, thread(s.thread));
      varint(body, stack(s));
      event(events, body);
    }
    checkpoint(pools);
    metadata(meta);
    std::vector<std::uint8_t> out;
    const std::uint64_t size = 68 + events.size() + pools.size() + meta.size();
    out.insert(out.end(), {'F', 'L', 'R', 0, 0, 2, 0, 0});
    fixed(out, size);
    fixed(out, 68 + events.size());                 // checkpoint
    fixed(out, 68 + events.size() + pools.size());  // metadata
    fixed(out, 1'700'000'000'000'000'000);          // start time
    fixed(out, 1'000'000'000);                      // duration
    fixed(out, 0);                                  // start ticks
    fixed(out, 1'000'000'000);                      // ticks per second
    out.insert(out.end(), {0, 0, 0, 1});            // finished, compressed integers
    for (auto* part : {&events, &pools, &meta}) out.insert(out.end(), part->begin(), part->end());
    const auto* p = reinterpret_cast<const std::byte*>(out.data());
    return {p, p + out.size()};
  }

 private:
  // Class ids; 0 and 1 are the metadata and checkpoint events.
  enum : std::uint64_t {
    kLong = 20,
    kInt,
    kBoolean,
    kString,
    kSymbol = 30,
    kClass,
    kMethod,
    kFrame,
    kStackTrace,
    kThread,
    kExecutionSample = 40
  };

  static void varint(std::vector<std::uint8_t>& o, std::uint64_t v) {
    for (; v >= 0x80; v >>= 7) o.push_back(static_cast<std::uint8_t>(v | 0x80));
    o.push_back(static_cast<std::uint8_t>(v));
  }
  static void fixed(std::vector<std::uint8_t>& o, std::uint64_t v) {
    for (int i = 7; i >= 0; --i) o.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  static void utf8(std::vector<std::uint8_t>& o, const std::string& s) {
    o.push_back(3);
    varint(o, s.size());
    o.insert(o.end(), s.begin(), s.end());
  }
  // An event: its size (counting the size's own bytes) and the body.
  static void event(std::vector<std::uint8_t>& o, const std::vector<std::uint8_t>& body) {
    std::uint64_t size = body.size() + 1;
    while (size - body.size() != varint_length(size)) size = body.size() + varint_length(size);
    varint(o, size);
    o.insert(o.end(), body.begin(), body.end());
  }
  static std::uint64_t varint_length(std::uint64_t v) {
    std::uint64_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
  }
  static std::uint64_t intern(std::map<std::string, std::uint64_t>& ids, const std::string& s) {
    return ids.emplace(s, ids.size() + 1).first->second;
  }

  std::uint64_t thread(const std::string& name) { return intern(threads_, name); }
  std::uint64_t symbol(const std::string& s) { return intern(symbols_, s); }
  std::uint64_t method(const std::string& frame) {
    const auto paren = frame.find('(');
    const std::string head = frame.substr(0, paren);
    const auto dot = head.rfind('.');
    const std::string descriptor = paren == std::string::npos ? "()V" : frame.substr(paren);
    const std::uint64_t id = intern(methods_, frame);
    if (dot == std::string::npos) {  // a frame without a class, as async-profiler writes native ones
      method_parts_[id] = {0, symbol(head), symbol(descriptor)};
      return id;
    }
    const std::string cls = head.substr(0, dot), name = head.substr(dot + 1);
    method_parts_[id] = {intern(classes_, cls), symbol(name), symbol(descriptor)};
    class_names_[classes_[cls]] = symbol(cls);
    return id;
  }
  std::uint64_t stack(const JfrSample& s) {
    std::vector<std::uint64_t> ids;
    for (auto it = s.frames.rbegin(); it != s.frames.rend(); ++it) ids.push_back(method(*it));  // top first
    stacks_.push_back({s.truncated, ids});
    return stacks_.size();
  }

  void checkpoint(std::vector<std::uint8_t>& o) {
    std::vector<std::uint8_t> b;
    for (std::uint64_t v : {1, 0, 0, 0}) varint(b, v);  // type id 1, start, duration, delta
    b.push_back(0);                                     // checkpoint type
    varint(b, 5);                                       // pools
    varint(b, kThread);
    varint(b, threads_.size());
    for (const auto& [name, id] : threads_) varint(b, id), utf8(b, name);
    varint(b, kSymbol);
    varint(b, symbols_.size());
    for (const auto& [text, id] : symbols_) varint(b, id), utf8(b, text);
    varint(b, kClass);
    varint(b, class_names_.size());
    for (const auto& [id, name] : class_names_) varint(b, id), varint(b, name);
    varint(b, kMethod);
    varint(b, method_parts_.size());
    for (const auto& [id, parts] : method_parts_)
      for (std::uint64_t v : {id, parts[0], parts[1], parts[2]}) varint(b, v);
    varint(b, kStackTrace);
    varint(b, stacks_.size());
    for (std::size_t i = 0; i < stacks_.size(); ++i) {
      varint(b, i + 1);
      b.push_back(stacks_[i].first ? 1 : 0);
      varint(b, stacks_[i].second.size());
      for (std::uint64_t m : stacks_[i].second) varint(b, m), varint(b, 7);  // method, lineNumber
    }
    event(o, b);
  }

  struct Field {
    std::string name;
    std::uint64_t type;
    bool pooled = false, array = false;
  };
  void metadata(std::vector<std::uint8_t>& o) {
    const std::vector<std::pair<std::string, std::vector<Field>>> classes = {
        {"long", {}},
        {"int", {}},
        {"boolean", {}},
        {"java.lang.String", {}},
        {"jdk.types.Symbol", {{"string", kString}}},
        {"java.lang.Class", {{"name", kSymbol, true}}},
        {"jdk.types.Method", {{"type", kClass, true}, {"name", kSymbol, true}, {"descriptor", kSymbol, true}}},
        {"jdk.types.StackFrame", {{"method", kMethod, true}, {"lineNumber", kInt}}},
        {"jdk.types.StackTrace", {{"truncated", kBoolean}, {"frames", kFrame, false, true}}},
        {"java.lang.Thread", {{"javaName", kString}}},
        {"jdk.ExecutionSample",
         {{"startTime", kLong}, {"sampledThread", kThread, true}, {"stackTrace", kStackTrace, true}}}};
    const std::vector<std::uint64_t> ids = {kLong,   kInt,   kBoolean,    kString, kSymbol,         kClass,
                                            kMethod, kFrame, kStackTrace, kThread, kExecutionSample};
    std::map<std::string, std::uint64_t> strings;
    std::vector<std::string> table;
    const auto s = [&](const std::string& text) {
      const auto [it, added] = strings.emplace(text, table.size());
      if (added) table.push_back(text);
      return it->second;
    };
    std::vector<std::uint8_t> tree;
    const auto element = [&](const std::string& name, const std::vector<std::pair<std::string, std::string>>& attrs,
                             std::size_t children) {
      varint(tree, s(name));
      varint(tree, attrs.size());
      for (const auto& [k, v] : attrs) varint(tree, s(k)), varint(tree, s(v));
      varint(tree, children);
    };
    element("root", {}, 2);
    element("metadata", {}, classes.size());
    for (std::size_t i = 0; i < classes.size(); ++i) {
      element("class", {{"name", classes[i].first}, {"id", std::to_string(ids[i])}}, classes[i].second.size());
      for (const Field& f : classes[i].second) {
        std::vector<std::pair<std::string, std::string>> attrs = {{"name", f.name}, {"class", std::to_string(f.type)}};
        if (f.pooled) attrs.emplace_back("constantPool", "true");
        if (f.array) attrs.emplace_back("dimension", "1");
        element("field", attrs, 0);
      }
    }
    element("region", {}, 0);
    std::vector<std::uint8_t> b;
    for (std::uint64_t v : {0, 0, 0, 0}) varint(b, v);  // type id 0, start, duration, metadata id
    varint(b, table.size());
    for (const std::string& t : table) utf8(b, t);
    b.insert(b.end(), tree.begin(), tree.end());
    event(o, b);
  }

  std::map<std::string, std::uint64_t> threads_, symbols_, classes_, methods_;
  std::map<std::uint64_t, std::array<std::uint64_t, 3>> method_parts_;
  std::map<std::uint64_t, std::uint64_t> class_names_;
  std::vector<std::pair<bool, std::vector<std::uint64_t>>> stacks_;
};

}  // namespace bn::test
