#pragma once
// The metadata event of a JFR chunk: the classes (event types and the types of their fields) that
// say how to decode every other event and constant pool of the chunk. Layout as the JDK's
// MetadataReader reads it: a string table, then a tree of elements, each a name, attributes
// (string-table pairs) and children. Classes are the `class` elements under `metadata`, with
// attributes `id`, `name`, `superType`; their `field` children have `name`, `class` (the
// field's type id), `constantPool="true"` (the value is a key into that type's pool) and
// `dimension="1"` (an array).

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jfr_cursor.h"

namespace bn::calltree::jfr {

// How a value of a class is encoded when it is not a constant-pool key.
enum class Kind { object, boolean, byte, int_like, float32, float64, string };

struct JfrClass;

struct JfrField {
  std::string name;
  std::int64_t type_id = 0;
  bool pooled = false;
  bool array = false;
  const JfrClass* type = nullptr;  // resolved once all classes are read
};

struct JfrClass {
  std::int64_t id = 0;
  std::string name;
  Kind kind = Kind::object;
  std::vector<JfrField> fields;

  // Index of the field called `name`, or -1.
  int field_index(std::string_view field) const;
};

class JfrTypes {
 public:
  // Parses the metadata event at the cursor's position (its size and type id included).
  static JfrTypes read(Cursor& in);

  const JfrClass* find(std::int64_t id) const;
  const JfrClass* find(std::string_view name) const;

 private:
  std::unordered_map<std::int64_t, JfrClass> by_id_;
  std::unordered_map<std::string, std::int64_t> id_by_name_;
};

}  // namespace bn::calltree::jfr
