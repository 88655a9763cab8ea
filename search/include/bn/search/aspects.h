#pragma once
// The aspects of a session (seed 000 sec. 3): names for method patterns, written `:NAME` in call
// sequences (`aspect io = java.io.*|java.nio.*`, then `path Server.handle;..;:io`). A name may
// hold letters, digits and `_ . $ -`. An aspect hides a method of the same name with a leading
// ':' (a view's typed time, `:RUN`), so `aspect` refuses such names.

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/method_pattern.h"
#include "bn/iface/call_pattern.h"
#include "bn/iface/profile.h"

namespace bn::search {

class AspectTable {
 public:
  using Definitions = std::map<std::string, std::shared_ptr<const base::MethodPattern>, std::less<>>;

  // Defines or redefines NAME. Throws bn::Error for a bad name or pattern, or a name that
  // `profile` has as the method ":NAME".
  void define(iface::Profile& profile, std::string_view name, std::string_view pattern);
  // False when no aspect has that name.
  bool undefine(std::string_view name);
  std::shared_ptr<const base::MethodPattern> find(std::string_view name) const;
  const Definitions& all() const { return definitions_; }
  // For iface::parse_call_pattern; valid while the table lives.
  iface::AspectLookup lookup() const {
    return [this](std::string_view name) { return find(name); };
  }

 private:
  Definitions definitions_;
};

// The summary of a call sequence given as frames (methods by full name, "..", ":NAME" for an
// aspect of `aspects`), or nullopt when no measurement satisfies it. Throws bn::Error when the
// frames break a rule of call_pattern.h.
std::optional<iface::Summary> summary_of_frames(iface::Profile& profile, std::span<const std::string_view> frames,
                                                const AspectTable& aspects);

}  // namespace bn::search
