#include "bn/iface/call_pattern.h"

#include <algorithm>

#include "bn/base/error.h"
#include "bn/iface/call_sequence_text.h"

namespace bn::iface {
namespace {

using Kind = PatternElement::Kind;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string joined(const CallPattern& p, bool with_definitions) {
  std::string out;
  for (const PatternElement& e : p.elements) {
    if (!out.empty()) out += ';';
    out += e.text();
    if (with_definitions && e.kind == Kind::aspect) out += "=" + e.pattern->text();
  }
  return out;
}

[[noreturn]] void reject(const CallPattern& p, const std::string& why) {
  throw Error("call sequence '" + p.text() + "': " + why);
}

}  // namespace

std::string PatternElement::text() const {
  switch (kind) {
    case Kind::gap:
      return std::string(kGapText);
    case Kind::aspect:
      return ":" + name;
    case Kind::method:
      break;
  }
  return name;
}

bool CallPattern::is_plain() const {
  return std::all_of(elements.begin(), elements.end(), [](const PatternElement& e) { return e.kind == Kind::method; });
}

std::string CallPattern::text() const { return joined(*this, false); }

std::string CallPattern::key() const { return joined(*this, true); }

std::vector<std::size_t> CallPattern::gaps() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < elements.size(); ++i)
    if (elements[i].kind == Kind::gap) out.push_back(i);
  return out;
}

CallPattern parse_call_pattern(std::string_view text, const AspectLookup& aspects) {
  std::vector<std::string_view> frames;
  for_each_frame(text, [&](std::string_view raw) { frames.push_back(trim(raw)); });
  return pattern_from_frames(frames, aspects);
}

CallPattern pattern_from_frames(std::span<const std::string_view> frames, const AspectLookup& aspects) {
  CallPattern p;
  for (const std::string_view frame : frames) {
    if (frame == kGapText) {
      p.elements.push_back(PatternElement::gap());
    } else if (frame.size() > 1 && frame.front() == ':') {
      if (auto pattern = aspects ? aspects(frame.substr(1)) : nullptr)
        p.elements.push_back({Kind::aspect, std::string(frame.substr(1)), std::move(pattern)});
      else
        p.elements.push_back(PatternElement::method(frame));
    } else {
      p.elements.push_back(PatternElement::method(frame));
    }
  }
  check_call_pattern(p);
  return p;
}

void check_call_pattern(const CallPattern& p) {
  const auto& e = p.elements;
  if (e.empty()) reject(p, "empty");
  std::size_t calls = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (e[i].kind == Kind::method && e[i].name.empty())
      reject(p, "empty method name at position " + std::to_string(i + 1));
    if (e[i].kind == Kind::aspect && !e[i].pattern) reject(p, "aspect :" + e[i].name + " has no definition");
    if (e[i].kind != Kind::gap) ++calls;
    if (e[i].kind == Kind::gap && (i == 0 || i + 1 == e.size()))
      reject(p, "a gap '..' must stand between two calls, not at an end");
    if (i > 0 && e[i].kind == Kind::gap && e[i - 1].kind == Kind::gap) reject(p, "two gaps '..' in a row");
    if (i > 0 && e[i].kind == Kind::aspect && e[i - 1].kind == Kind::aspect)
      reject(p, "no immediate call from one aspect to another (:" + e[i - 1].name + " to :" + e[i].name +
                    "); put '..' between them");
  }
  // Plain sequences are searched by paths, not by the 64-bit matcher: any length will do.
  if (calls > kMaxPatternCalls && !p.is_plain())
    reject(p, "more than " + std::to_string(kMaxPatternCalls) + " calls with a gap or an aspect");
}

CallPattern plain_pattern(std::span<const std::string_view> methods) {
  CallPattern p;
  for (const std::string_view m : methods) p.elements.push_back(PatternElement::method(m));
  return p;
}

CallPattern extended(const CallPattern& p, End end, std::string_view method) {
  CallPattern out = p;
  if (end == End::top)
    out.elements.insert(out.elements.begin(), PatternElement::method(method));
  else
    out.elements.push_back(PatternElement::method(method));
  check_call_pattern(out);
  return out;
}

CallPattern extended_through_gap(const CallPattern& p, std::string_view method) {
  CallPattern out = p;
  out.elements.push_back(PatternElement::gap());
  out.elements.push_back(PatternElement::method(method));
  check_call_pattern(out);
  return out;
}

CallPattern split_at(const CallPattern& p, std::size_t gap, std::string_view method) {
  if (gap >= p.elements.size() || p.elements[gap].kind != Kind::gap)
    reject(p, "position " + std::to_string(gap + 1) + " is no gap '..' to split at");
  CallPattern out = p;
  out.elements.insert(out.elements.begin() + static_cast<std::ptrdiff_t>(gap) + 1, PatternElement::method(method));
  check_call_pattern(out);
  return out;
}

std::optional<CallPattern> trimmed(const CallPattern& p, End end) {
  CallPattern out = p;
  auto& e = out.elements;
  const auto drop = [&] { end == End::top ? void(e.erase(e.begin())) : e.pop_back(); };
  if (!e.empty()) drop();
  if (!e.empty() && (end == End::top ? e.front() : e.back()).kind == Kind::gap) drop();
  if (e.empty()) return std::nullopt;
  return out;
}

}  // namespace bn::iface
