#include "jfr_pools.h"

#include "jfr_values.h"

namespace bn::calltree::jfr {
namespace {

class PoolReader {
 public:
  PoolReader(Cursor& in, const JfrTypes& types, ChunkPools& pools)
      : in_(in), values_(in), types_(types), pools_(pools) {}

  void checkpoint(std::size_t end) {
    in_.i64();  // start time
    in_.i64();  // duration
    in_.i64();  // delta to the previous checkpoint: not needed, every event is visited in order
    in_.u8();   // checkpoint type (flush, chunk header, statics, thread)
    for (std::size_t pools = in_.count("checkpoint pools"); pools > 0; --pools) {
      const std::size_t at = in_.pos();
      const std::int64_t id = in_.i64();
      const JfrClass* cls = types_.find(id);
      if (cls == nullptr) in_.fail_at(at, "constant pool of undefined class id " + std::to_string(id));
      for (std::size_t n = in_.count("constant pool"); n > 0; --n) entry(*cls, in_.i64());
    }
    if (in_.pos() != end) in_.fail("checkpoint event content does not match its size");
  }

 private:
  void entry(const JfrClass& cls, std::int64_t key) {
    if (cls.kind == Kind::string) {
      pools_.strings[key] = in_.string();
    } else if (cls.kind != Kind::object) {
      values_.skip(JfrField{"", cls.id, false, false, &cls});
    } else if (cls.name == "jdk.types.Symbol") {
      read(cls, [&](const JfrField& f) {
        return f.name == "string" ? (pools_.symbols[key] = values_.string(f), true) : false;
      });
    } else if (cls.name == "java.lang.Class") {
      read(cls,
           [&](const JfrField& f) { return f.name == "name" ? (pools_.classes[key] = values_.key(f), true) : false; });
    } else if (cls.name == "jdk.types.Method") {
      MethodEntry& m = pools_.methods[key];
      read(cls, [&](const JfrField& f) {
        std::int64_t* target = f.name == "type"         ? &m.cls
                               : f.name == "name"       ? &m.name
                               : f.name == "descriptor" ? &m.descriptor
                                                        : nullptr;
        if (target != nullptr) *target = values_.key(f);
        return target != nullptr;
      });
    } else if (cls.name == "jdk.types.StackTrace") {
      stack_trace(cls, pools_.stacks[key]);
    } else if (cls.name == "java.lang.Thread") {
      ThreadEntry& t = pools_.threads[key];
      read(cls, [&](const JfrField& f) {
        JfrString* target = f.name == "javaName" ? &t.java_name : f.name == "osName" ? &t.os_name : nullptr;
        if (target != nullptr) *target = values_.string(f);
        return target != nullptr;
      });
    } else {
      values_.skip_object(cls, 0);
    }
  }

  // Each field in order: `take` reads the ones it wants and returns true; the rest are skipped.
  template <class Take>
  void read(const JfrClass& cls, Take take) {
    for (const JfrField& f : cls.fields)
      if (!take(f)) values_.skip(f);
  }

  void stack_trace(const JfrClass& cls, StackEntry& stack) {
    stack = {false, static_cast<std::uint32_t>(pools_.frame_methods.size()), 0};
    read(cls, [&](const JfrField& f) {
      if (f.name == "truncated") {
        stack.truncated = values_.boolean(f);
        return true;
      }
      if (f.name != "frames" || !f.array || f.pooled || f.type->kind != Kind::object) return false;
      const int method = f.type->field_index("method");
      for (std::size_t n = in_.count("stack frames"); n > 0; --n) {
        std::int64_t key = -1;
        for (int i = 0; i < static_cast<int>(f.type->fields.size()); ++i) {
          if (i == method)
            key = values_.key(f.type->fields[static_cast<std::size_t>(i)]);
          else
            values_.skip(f.type->fields[static_cast<std::size_t>(i)]);
        }
        pools_.frame_methods.push_back(key);
      }
      stack.count = static_cast<std::uint32_t>(pools_.frame_methods.size() - stack.first);
      return true;
    });
  }

  Cursor& in_;
  ValueReader values_;
  const JfrTypes& types_;
  ChunkPools& pools_;
};

}  // namespace

std::string_view ChunkPools::text(const JfrString& s) const {
  if (s.pool_key < 0) return s.text;
  const auto it = strings.find(s.pool_key);
  return it == strings.end() ? std::string_view() : std::string_view(it->second.text);
}

std::string_view ChunkPools::symbol(std::int64_t key) const {
  const auto it = symbols.find(key);
  return it == symbols.end() ? std::string_view() : text(it->second);
}

ChunkPools read_pools(Cursor& in, const JfrTypes& types, std::size_t begin, std::size_t end) {
  ChunkPools pools;
  PoolReader reader(in, types, pools);
  for_each_event(in, begin, end, [&](std::int64_t type, std::size_t next) {
    if (type == kCheckpointTypeId) reader.checkpoint(next);
  });
  return pools;
}

}  // namespace bn::calltree::jfr
