#include "bn/search/method_names.h"

#include <algorithm>

#include "bn/base/error.h"
#include "bn/base/glob.h"
#include "bn/iface/call_sequence_text.h"
#include "bn/iface/overlap.h"
#include "bn/search/text.h"

namespace bn::search {
namespace {

constexpr std::size_t kMaxListed = 8;

std::string join_listed(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kMaxListed; ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  if (names.size() > kMaxListed) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

}  // namespace

namespace {

// Where the suffixes GCC and Clang give a function's clones start ("finish_task_switch.isra.0",
// "foo.constprop.0.cold", "bar.llvm.4711"), or npos. They name a copy of the function, not a
// package and class, so they stay with it. A lone ".cold" ends a clone only after a name without
// dots: "pkg.Cls.cold" is a Java method named cold.
std::size_t clone_suffix(std::string_view name) {
  constexpr std::string_view kNumbered[] = {".isra", ".constprop", ".part", ".lto_priv", ".llvm"};
  std::size_t end = name.size();
  bool numbered = false;
  for (bool peeled = true; peeled;) {
    peeled = false;
    const std::string_view rest = name.substr(0, end);
    if (rest.ends_with(".cold")) {
      end -= 5;
      peeled = true;
      continue;
    }
    const std::size_t digits = rest.find_last_not_of("0123456789") + 1;
    if (digits == 0 || digits == rest.size() || rest[digits - 1] != '.') break;
    for (std::string_view kind : kNumbered)
      if (rest.substr(0, digits - 1).ends_with(kind)) {
        end = digits - 1 - kind.size();
        numbered = peeled = true;
        break;
      }
  }
  if (end == name.size() || end == 0) return std::string_view::npos;
  if (!numbered && name.substr(0, end).find('.') != std::string_view::npos) return std::string_view::npos;
  return end;
}

// A C++ name keeps its last two components ("std::vector<int>::push_back(int)" ->
// "vector<int>::push_back(int)"); "::" inside template arguments or parentheses does not count.
std::string cxx_short_name(std::string_view full) {
  std::vector<std::size_t> separators;
  int depth = 0;
  for (std::size_t i = 0; i + 1 < full.size(); ++i) {
    const char c = full[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) --depth;
    if (depth == 0 && c == ':' && full[i + 1] == ':') separators.push_back(i++);
  }
  if (separators.size() < 2) return std::string(full);
  return std::string(full.substr(separators[separators.size() - 2] + 2));
}

// Java names are dot-separated identifiers; "libc.so.6" or "[kernel.kallsyms]" are not, and
// have no package to drop.
bool java_like(std::string_view head) {
  for (std::size_t start = 0;;) {
    const std::size_t dot = head.find('.', start);
    const std::string_view part = head.substr(start, dot == std::string_view::npos ? head.npos : dot - start);
    if (part.empty() || (part.front() >= '0' && part.front() <= '9') || part.front() == '[') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

std::string short_name(std::string_view full) {
  // A view's pseudo-nodes (docs/views.md): typed time and thread classes stay whole, a monitor
  // holder's frame keeps its '@'.
  if (full.starts_with(':')) return std::string(full);
  if (full.starts_with('@')) return "@" + short_name(full.substr(1));
  if (full.find("::") != std::string_view::npos) return cxx_short_name(full);
  if (const std::size_t clone = clone_suffix(full); clone != std::string_view::npos)
    return short_name(full.substr(0, clone)) + std::string(full.substr(clone));
  const std::string_view head = full.substr(0, full.find('('));
  if (!java_like(head)) return std::string(full);
  const std::size_t last = head.rfind('.');
  if (last == std::string_view::npos || last == 0) return std::string(full);
  const std::size_t before = head.rfind('.', last - 1);
  if (before == std::string_view::npos) return std::string(full);
  return std::string(full.substr(before + 1));
}

std::string display_name(std::string_view full, NameStyle style) {
  return style == NameStyle::kShort ? short_name(full) : std::string(full);
}

std::string display_path(const std::vector<std::string_view>& path, NameStyle style) {
  std::string out = "[";
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i) out += ';';
    out += display_name(path[i], style);
  }
  return out + "]";
}

std::vector<std::string> split_call_sequence(std::string_view text) {
  std::vector<std::string> parts;
  iface::for_each_frame(text, [&](std::string_view frame) { parts.emplace_back(trim(frame)); });
  return parts;
}

const std::vector<std::string_view>& MethodIndex::names() const {
  if (!names_) {
    std::vector<std::string_view> names;
    for (iface::Summary s : profile_->initial_summaries()) {
      const std::vector<std::string_view> path = profile_->path_of(s);
      if (path.size() == 1) names.push_back(path.front());
    }
    // The tree backend lists them in name order already: checking costs one pass, sorting 156k
    // names again (at 10M nodes) some 20 ms of a first command.
    if (!std::is_sorted(names.begin(), names.end())) std::sort(names.begin(), names.end());
    names_ = std::move(names);
  }
  return *names_;
}

namespace {

// Where a typed prefix may stop and still name a method: at the end of a name component
// ("Helper0" of "Helper0.op0", "pkg.Cls" of "pkg.Cls$1.run"). One that stops inside a word
// ("NoSuchMethod" of "NoSuchMethodError.<init>") is offered to the user, never taken.
bool component_prefix(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return false;
  constexpr std::string_view kBoundaries = ".$(:;|/<[ ";
  return name.size() == prefix.size() || kBoundaries.find(name[prefix.size()]) != std::string_view::npos ||
         kBoundaries.find(prefix.back()) != std::string_view::npos;
}

// Signatures are stored as async-profiler writes them, with '|' for the ';' inside parentheses
// (frame_names.h); a user may type the JVM's own ';'.
std::string as_stored(std::string_view typed) {
  std::string out(typed);
  int depth = 0;
  for (char& c : out) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c == ';' && depth > 0) c = '|';
  }
  return out;
}

}  // namespace

std::string_view MethodIndex::resolve(std::string_view typed) const {
  if (typed.empty()) throw Error("empty method name in call sequence");
  const std::string stored = as_stored(typed);
  const std::string_view pattern = stored;
  if (pattern.find('*') == std::string_view::npos) {
    // An exact full name: the method of that name, if it occurs, as names() would find it.
    if (const std::optional<iface::Summary> s = profile_->method_summary(pattern)) {
      const std::vector<std::string_view> path = profile_->path_of(*s);
      if (path.size() == 1 && path.front() == pattern) return path.front();
    }
  }
  const std::vector<std::string_view>& names_listed = names();
  std::vector<std::string_view> found;
  auto collect = [&](auto&& matches) {
    found.clear();
    for (std::string_view name : names_listed)
      if (matches(name) || matches(std::string_view(short_name(name)))) found.push_back(name);
  };
  if (pattern.find('*') != std::string_view::npos) {
    collect([&](std::string_view n) { return base::glob_match(pattern, n); });
  } else {
    collect([&](std::string_view n) { return n == pattern; });
    if (found.empty()) collect([&](std::string_view n) { return component_prefix(n, pattern); });
    if (found.empty()) {
      collect([&](std::string_view n) { return n.starts_with(pattern); });
      if (!found.empty())
        throw Error("no method is named '" + std::string(typed) + "'; did you mean " + join_listed(found) + "?");
    }
  }
  if (found.size() == 1) return found.front();
  if (found.empty()) throw Error("no method matches '" + std::string(typed) + "'");
  throw Error("'" + std::string(typed) + "' is ambiguous: it matches " + join_listed(found));
}

std::vector<std::string_view> MethodIndex::complete(std::string_view prefix) const {
  std::vector<std::string_view> out;
  for (std::string_view name : names())
    if (name.starts_with(prefix) || std::string_view(short_name(name)).starts_with(prefix)) out.push_back(name);
  return out;
}

std::string why_no_root(iface::Profile& profile, const std::vector<std::string_view>& calls) {
  if (std::any_of(calls.begin(), calls.end(), [](std::string_view c) { return c == iface::kGapText; }))
    return "no measurement satisfies it";
  std::optional<iface::Summary> s = calls.empty() ? std::nullopt : profile.method_summary(calls.front());
  if (!s) return "method " + std::string(calls.empty() ? "" : calls.front()) + " does not occur in this profile";
  for (std::size_t i = 1; i < calls.size(); ++i) {
    std::optional<iface::Summary> next = profile.extend_bottom(*s, calls[i]);
    if (!next) {
      const std::vector<std::string_view> ext = profile.bottom_extensions(*s);
      return display_path(profile.path_of(*s), NameStyle::kFull) + " never calls " + std::string(calls[i]) +
             (ext.empty() ? std::string(" (it calls nothing)") : " (it calls " + join_listed(ext) + ")");
    }
    s = next;
  }
  return "no root in this profile";
}

iface::Summary resolve_call_sequence(iface::Profile& profile, const MethodIndex& methods, std::string_view text,
                                     const AspectTable& aspects, std::span<const std::string> typed_time) {
  const std::vector<std::string> typed = split_call_sequence(text);
  std::vector<std::string_view> names;
  bool plain = true;
  for (const std::string& t : typed) {
    const bool kept = t == iface::kGapText || (t.starts_with(':') && aspects.find(std::string_view(t).substr(1)));
    plain = plain && !kept;
    if (kept) {
      names.push_back(t);
    } else if (t.starts_with(':')) {
      try {
        names.push_back(methods.resolve(t));  // a view's typed time, `:RUN`
      } catch (const Error&) {
        if (std::find(typed_time.begin(), typed_time.end(), t) != typed_time.end())
          throw Error("'" + t + "' is typed time that no measurement of this profile has (docs/views.md)");
        throw Error("'" + t +
                    "' is no aspect (`aspects` lists them, `aspect NAME = PATTERN` defines one) and no method "
                    "of this profile");
      }
    } else {
      names.push_back(methods.resolve(t));
    }
  }
  if (!plain) {
    if (const std::optional<iface::Summary> s = summary_of_frames(profile, names, aspects)) return *s;
    // An aspect that names nothing here says more than the sequence as a whole.
    for (const std::string_view name : names) {
      const auto aspect = name.starts_with(':') ? aspects.find(name.substr(1)) : nullptr;
      if (aspect && std::none_of(methods.names().begin(), methods.names().end(),
                                 [&](std::string_view m) { return aspect->matches(m); }))
        throw Error("aspect '" + std::string(name) + "' (" + aspect->text() +
                    ") exists but matches no method of this profile");
    }
    throw Error("call sequence " + display_path(names, NameStyle::kFull) +
                " is satisfied by no measurement of this profile");
  }
  if (std::optional<iface::Summary> s = profile.path_summary(names)) return *s;
  throw Error("call sequence " + display_path(names, NameStyle::kFull) +
              " has no root: " + why_no_root(profile, names));
}

}  // namespace bn::search
