#include "jfr_metadata.h"

#include <charconv>

namespace bn::calltree::jfr {
namespace {

constexpr std::int64_t kMetadataTypeId = 0;
// root → metadata → class → field → annotation: deeper elements exist only in hostile files.
constexpr int kMaxElementDepth = 8;

Kind kind_of(std::string_view name) {
  if (name == "boolean") return Kind::boolean;
  if (name == "byte") return Kind::byte;
  if (name == "char" || name == "short" || name == "int" || name == "long") return Kind::int_like;
  if (name == "float") return Kind::float32;
  if (name == "double") return Kind::float64;
  if (name == "java.lang.String") return Kind::string;
  return Kind::object;
}

class MetadataParser {
 public:
  explicit MetadataParser(Cursor& in) : in_(in) {}

  void read(std::unordered_map<std::int64_t, JfrClass>& classes) {
    const std::size_t n = in_.count("metadata string table");
    for (std::size_t i = 0; i < n; ++i) {
      JfrString s = in_.string();
      if (s.pool_key >= 0) in_.fail("metadata string refers to a constant pool");
      strings_.push_back(std::move(s.text));
    }
    element(0, Parent::root, classes);
  }

 private:
  enum class Parent { root, metadata, cls, other };

  const std::string& string_ref() {
    const std::size_t at = in_.pos();
    const std::int64_t i = in_.i64();
    if (i < 0 || static_cast<std::uint64_t>(i) >= strings_.size())
      in_.fail_at(at, "metadata names string " + std::to_string(i) + " of " + std::to_string(strings_.size()));
    return strings_[static_cast<std::size_t>(i)];
  }

  std::int64_t number(const std::string& text) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
      in_.fail("metadata attribute '" + text + "' is not a number");
    return v;
  }

  void element(int depth, Parent parent, std::unordered_map<std::int64_t, JfrClass>& classes) {
    if (depth > kMaxElementDepth) in_.fail("metadata elements nested deeper than " + std::to_string(kMaxElementDepth));
    const std::size_t at = in_.pos();
    const std::string& name = string_ref();
    const bool is_class = parent == Parent::metadata && name == "class";
    const bool is_field = parent == Parent::cls && name == "field";
    JfrClass cls;
    JfrField field;
    bool has_id = false;
    for (std::size_t n = in_.count("metadata attributes"); n > 0; --n) {
      const std::string& key = string_ref();
      const std::string& value = string_ref();
      if (is_class) {
        if (key == "id") cls.id = number(value), has_id = true;
        if (key == "name") cls.name = value;
      } else if (is_field) {
        if (key == "name") field.name = value;
        if (key == "class") field.type_id = number(value), has_id = true;
        if (key == "constantPool") field.pooled = value == "true";
        if (key == "dimension") field.array = number(value) > 0;
      }
    }
    if ((is_class || is_field) && !has_id) in_.fail_at(at, std::string("metadata ") + name + " without a type id");
    if (is_field) current_->fields.push_back(std::move(field));
    JfrClass* saved = current_;
    if (is_class) {
      cls.kind = kind_of(cls.name);
      auto [it, added] = classes.emplace(cls.id, std::move(cls));
      if (!added) in_.fail_at(at, "metadata defines class id " + std::to_string(it->first) + " twice");
      current_ = &it->second;
    }
    const Parent child_parent = depth == 0                                     ? Parent::root
                                : parent == Parent::root && name == "metadata" ? Parent::metadata
                                : is_class                                     ? Parent::cls
                                                                               : Parent::other;
    for (std::size_t n = in_.count("metadata children"); n > 0; --n) element(depth + 1, child_parent, classes);
    current_ = saved;
  }

  Cursor& in_;
  std::vector<std::string> strings_;
  JfrClass* current_ = nullptr;
};

}  // namespace

int JfrClass::field_index(std::string_view field) const {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == field) return static_cast<int>(i);
  return -1;
}

JfrTypes JfrTypes::read(Cursor& in) {
  const std::size_t start = in.pos();
  const std::int64_t size = in.i32();
  if (size <= 0 || static_cast<std::uint64_t>(size) > in.size() - start)
    in.fail_at(start, "metadata event of " + std::to_string(size) + " bytes does not fit in the chunk");
  if (in.i64() != kMetadataTypeId) in.fail_at(start, "the header's metadata offset does not point to a metadata event");
  in.i64();  // start time
  in.i64();  // duration
  in.i64();  // metadata id
  JfrTypes types;
  MetadataParser(in).read(types.by_id_);
  if (in.pos() > start + static_cast<std::size_t>(size)) in.fail("metadata runs past its event's size");
  for (auto& [id, cls] : types.by_id_) {
    types.id_by_name_.emplace(cls.name, id);
    for (JfrField& f : cls.fields) {
      f.type = types.find(f.type_id);
      if (f.type == nullptr)
        in.fail_at(start,
                   "field " + f.name + " of " + cls.name + " has undefined type id " + std::to_string(f.type_id));
    }
  }
  return types;
}

const JfrClass* JfrTypes::find(std::int64_t id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &it->second;
}

const JfrClass* JfrTypes::find(std::string_view name) const {
  const auto it = id_by_name_.find(std::string(name));
  return it == id_by_name_.end() ? nullptr : find(it->second);
}

}  // namespace bn::calltree::jfr
