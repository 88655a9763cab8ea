#include "bn/calltree/frame_names.h"

#include <array>
#include <vector>

// The rules, in the order they apply. Each one exists because the same Java method otherwise
// gets different names in two runs (or from two tools), and the BOTTLENECKS analysis compares
// calling contexts by name (seed 004 sec. 2.1; docs/architecture.md "Java frame names"):
//
//  1. A trailing async-profiler frame-type annotation `_[x]` is dropped (`_[j]` JIT compiled,
//     `_[i]` inlined, `_[k]` kernel, `_[0]` interpreted, `_[1]` C1). Which tier ran a method
//     changes from run to run; the method does not. Applies to every frame, native ones too.
//  2. A frame is treated as Java only if it looks like `class.method` optionally followed by a
//     JVM method descriptor: identifier characters, '/', '.', '$' and '+' in the class, a method
//     name that does not start with a digit, and no C++ `::`, spaces, brackets or other
//     parentheses. In a JVM internal name no '.' comes before a '/' (hidden-class suffixes
//     aside), which keeps Go's `github.com/x/y.Func` out. Native, C++, kernel and other
//     languages' frames (`os::javaTimeNanos()`, `[unknown]`, `libc.so.6`, `/usr/lib/x.so`) keep
//     their names apart from rule 1.
//  3. Signatures (`--signatures`: `Foo.bar(Ljava/lang/String;)V`) are dropped unless kept; a
//     kept one stays as written except that ';' becomes '|', as async-profiler's collapsed
//     output already does, because ';' separates frames in collapsed stacks.
//  4. Hidden and VM-anonymous class suffixes are cut: `Foo$$Lambda$14/0x0000000800c02a00`
//     (Class.getName), `Foo$$Lambda.0x...` (JVMTI signature, JEP 371), `Foo+0x...` (HotSpot's
//     internal name), `LambdaForm$MH/1234567` (JDK 8). The address or hash differs per run.
//     A Java identifier never starts with a digit, so a last segment that does is such a suffix.
//  5. Slashes become dots: `org/h2/Foo` → `org.h2.Foo` (async-profiler prints internal names;
//     stackcollapse-jstack and our agent print dotted ones).
//  6. Per-run counters and random tokens in generated class names are removed:
//     `Foo$$Lambda$14` → `Foo$$Lambda` (lambda counter), `GeneratedMethodAccessor123`,
//     `GeneratedConstructorAccessor45`, `GeneratedSerializationConstructorAccessor7` (reflection
//     inflation), `$Proxy12` and the `jdk.proxy2` module package (java.lang.reflect.Proxy),
//     `Foo$ByteBuddy$AbC123`, `Foo$auxiliary$AbC123` (Byte Buddy random suffixes),
//     `Foo$MockitoMock$123456`, `Foo$HibernateProxy$AbC123`, `Foo$$EnhancerBySpringCGLIB$$1a2b`,
//     `Foo$$FastClassBySpringCGLIB$$1a2b`, `Foo$$EnhancerByCGLIB$$1a2b`,
//     `Foo$$FastClassByCGLIB$$1a2b` and Spring 6's `Foo$$SpringCGLIB$$0`. A token is removed
//     only when it ends the class name or is followed by another such marker, so the result
//     is a fixed point (normalising twice changes nothing; the collapsed round trip needs it).
//     Two lambdas of one class thus share a name; that is the price of comparing runs.

namespace bn::calltree {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Java identifiers may hold any Unicode letter; bytes of multi-byte UTF-8 sequences are >= 0x80.
bool is_ident_char(char c) { return is_alnum(c) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80; }
bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

// Rule 1. Blanks before a dropped annotation go with it: readers trim a frame's blanks before
// normalising, and the collapsed writer refuses a name that ends with one (the collapsed fuzzer's
// `q3 _[j]`). A frame that would be left empty keeps its annotation, as `_[j]` alone does.
std::string_view strip_annotations(std::string_view s) {
  const std::string_view whole = s;
  while (s.size() > 4 && s.substr(s.size() - 4, 2) == "_[" && is_alnum(s[s.size() - 2]) && s.back() == ']') {
    s.remove_suffix(4);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  }
  return s.empty() ? whole : s;
}

// One JVM field type starting at s[i] (JVMS 4.3.2); returns the index after it, or npos.
// Class names end in ';', or in '|' where async-profiler has replaced it.
std::size_t skip_field_type(std::string_view s, std::size_t i) {
  while (i < s.size() && s[i] == '[') ++i;
  if (i >= s.size()) return std::string_view::npos;
  switch (s[i]) {
    case 'B':
    case 'C':
    case 'D':
    case 'F':
    case 'I':
    case 'J':
    case 'S':
    case 'Z':
      return i + 1;
    case 'L': {
      std::size_t j = i + 1;
      while (j < s.size() && (is_ident_char(s[j]) || s[j] == '/' || s[j] == '.' || s[j] == '+')) ++j;
      if (j == i + 1 || j >= s.size() || (s[j] != ';' && s[j] != '|')) return std::string_view::npos;
      return j + 1;
    }
    default:
      return std::string_view::npos;
  }
}

// A JVM method descriptor (JVMS 4.3.3): `(` field types `)` then a field type or `V`.
bool is_method_descriptor(std::string_view s) {
  if (s.empty() || s[0] != '(') return false;
  std::size_t i = 1;
  while (i < s.size() && s[i] != ')') {
    i = skip_field_type(s, i);
    if (i == std::string_view::npos) return false;
  }
  if (i >= s.size()) return false;
  ++i;
  if (i < s.size() && s[i] == 'V') return i + 1 == s.size();
  return skip_field_type(s, i) == s.size();
}

// Rule 2, for the part before any descriptor. Sets `dot` to the class/method separator.
bool is_java_method(std::string_view head, std::size_t& dot) {
  dot = head.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == head.size()) return false;
  const std::string_view cls = head.substr(0, dot), method = head.substr(dot + 1);
  if (is_digit(cls[0]) || !is_ident_char(cls[0])) return false;
  for (char c : cls)
    if (!is_ident_char(c) && c != '/' && c != '.' && c != '+') return false;
  // `<init>` and `<clinit>` are the only method names with angle brackets.
  if (method != "<init>" && method != "<clinit>") {
    if (is_digit(method[0])) return false;
    for (char c : method)
      if (!is_ident_char(c)) return false;
  }
  return true;
}

// Rule 4: cut every trailing `/N`, `.N` or `+N` segment (N starting with a digit).
std::string_view cut_hidden_suffix(std::string_view cls) {
  for (;;) {
    const std::size_t sep = cls.find_last_of("/.+");
    if (sep == std::string_view::npos || sep == 0 || sep + 1 >= cls.size() || !is_digit(cls[sep + 1])) return cls;
    cls = cls.substr(0, sep);
  }
}

struct Marker {
  std::string_view name;
  bool double_dollar;  // must follow `$$` rather than `$`
  bool digits_only;    // the token it is followed by is a counter rather than a random string
};
constexpr std::array<Marker, 10> kMarkers = {{
    {"Lambda", true, true},
    {"ByteBuddy", false, false},
    {"auxiliary", false, false},
    {"MockitoMock", false, false},
    {"HibernateProxy", false, false},
    {"EnhancerBySpringCGLIB", true, false},
    {"FastClassBySpringCGLIB", true, false},
    {"EnhancerByCGLIB", true, false},
    {"FastClassByCGLIB", true, false},
    {"SpringCGLIB", true, true},
}};

const Marker* find_marker(std::string_view segment) {
  for (const Marker& m : kMarkers)
    if (segment == m.name) return &m;
  return nullptr;
}

bool is_token(std::string_view s, const Marker& marker) {
  if (s.empty() || find_marker(s) != nullptr) return false;
  for (char c : s)
    if (marker.digits_only ? !is_digit(c) : !is_alnum(c)) return false;
  return true;
}

// Rule 6 for generated-class markers inside a simple class name, on its '$'-separated segments.
std::string drop_marker_tokens(std::string_view simple) {
  std::vector<std::string_view> segs;
  for (std::size_t start = 0;;) {
    const std::size_t d = simple.find('$', start);
    segs.push_back(simple.substr(start, d == std::string_view::npos ? std::string_view::npos : d - start));
    if (d == std::string_view::npos) break;
    start = d + 1;
  }
  auto next_nonempty = [&](std::size_t j) {
    while (j < segs.size() && segs[j].empty()) ++j;
    return j;
  };
  std::vector<bool> keep(segs.size(), true);
  for (std::size_t i = 1; i < segs.size(); ++i) {
    const Marker* m = find_marker(segs[i]);
    if (m == nullptr || (m->double_dollar && !segs[i - 1].empty())) continue;
    const std::size_t t = next_nonempty(i + 1);
    if (t >= segs.size() || !is_token(segs[t], *m)) continue;
    const std::size_t after = next_nonempty(t + 1);
    if (after < segs.size() && find_marker(segs[after]) == nullptr) continue;
    for (std::size_t j = i + 1; j <= t; ++j) keep[j] = false;
  }
  std::string out;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (!keep[i]) continue;
    if (i > 0) out += '$';
    out += segs[i];
  }
  return out;
}

// Rule 6 for numbered generated classes whose whole simple name is a known prefix plus digits.
std::string_view strip_class_counter(std::string_view simple) {
  static constexpr std::array<std::string_view, 4> kPrefixes = {
      "GeneratedMethodAccessor", "GeneratedConstructorAccessor", "GeneratedSerializationConstructorAccessor", "$Proxy"};
  for (std::string_view p : kPrefixes)
    if (simple.starts_with(p) && all_digits(simple.substr(p.size()))) return p;
  return simple;
}

// Rules 5 and 6 on the class part of a Java frame, its hidden-class suffix already cut.
std::string normalize_class(std::string_view cut) {
  std::string cls(cut);
  for (char& c : cls)
    if (c == '/') c = '.';
  const std::size_t last_dot = cls.rfind('.');
  const std::size_t simple_at = last_dot == std::string::npos ? 0 : last_dot + 1;
  std::string simple = drop_marker_tokens(strip_class_counter(std::string_view(cls).substr(simple_at)));
  cls.replace(simple_at, std::string::npos, simple);
  // Proxy classes of named modules live in dynamic modules `jdk.proxy1`, `jdk.proxy2`, ...
  constexpr std::string_view kProxyModule = "jdk.proxy";
  if (cls.starts_with(kProxyModule)) {
    std::size_t end = kProxyModule.size();
    while (end < cls.size() && is_digit(cls[end])) ++end;
    if (end > kProxyModule.size() && end < cls.size() && cls[end] == '.')
      cls.erase(kProxyModule.size(), end - kProxyModule.size());
  }
  return cls;
}

}  // namespace

std::string normalize_frame(std::string_view frame, bool keep_signatures) {
  const std::string_view name = strip_annotations(frame);
  const std::size_t paren = name.find('(');
  const std::string_view head = name.substr(0, paren);
  const std::string_view signature = paren == std::string_view::npos ? std::string_view() : name.substr(paren);
  std::size_t dot = 0;
  if (!is_java_method(head, dot) || (!signature.empty() && !is_method_descriptor(signature))) return std::string(name);
  const std::string_view cls = cut_hidden_suffix(head.substr(0, dot));
  if (const std::size_t slash = cls.rfind('/'); slash != std::string_view::npos && cls.find('.') < slash)
    return std::string(name);

  std::string out = normalize_class(cls);
  out += '.';
  out += head.substr(dot + 1);
  if (keep_signatures) {
    const std::size_t at = out.size();
    out += signature;
    for (std::size_t i = at; i < out.size(); ++i)
      if (out[i] == ';') out[i] = '|';
  }
  return out;
}

}  // namespace bn::calltree
