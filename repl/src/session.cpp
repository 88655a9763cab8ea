#include "bn/repl/session.h"

#include <string>

#include "bn/iface/error.h"
#include "bn/repl/parse.h"

namespace bn::repl {

iface::Summary Session::numbered_summary(std::string_view text) const {
  if (numbered_.empty()) throw Error("no numbered summaries yet: run `suggest` or `path` first");
  const auto n = parse_whole(text, 0, static_cast<std::int64_t>(numbered_.size()) - 1, "summary number");
  return numbered_[static_cast<std::size_t>(n)];
}

std::optional<iface::Summary> Session::current() const {
  if (trail_.empty()) return std::nullopt;
  return trail_.back();
}

void Session::make_current(iface::Summary s) {
  if (!trail_.empty() && trail_.back() == s) return;
  trail_.push_back(s);
}

bool Session::back() {
  if (trail_.size() < 2) return false;
  trail_.pop_back();
  return true;
}

}  // namespace bn::repl
