// Long nearby lists are built as they are printed (bn/search/listing.h): what the user sees, the
// JSON and the numbers `select` takes must be exactly those of the same lists built up front.
#include <doctest/doctest.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "bn/base/error.h"
#include "bn/calltree/synthetic_tree.h"
#include "bn/calltree/tree_profile.h"
#include "bn/repl/render.h"
#include "bn/repl/views.h"
#include "bn/search/nearby.h"
#include "bn/search/session.h"

namespace {

using bn::calltree::CallTree;
using bn::calltree::MethodId;

// The method labelling the most nodes: its calling contexts make hundreds of extensions.
std::string hot_method(const CallTree& tree) {
  MethodId best = 0;
  for (MethodId m = 0; m < tree.method_count(); ++m)
    if (tree.nodes_of(m).size() > tree.nodes_of(best).size()) best = m;
  return std::string(tree.method_name(best));
}

struct Shown {
  std::string text, json;
};

Shown shown(bn::search::Session& session, bn::iface::Summary s, std::size_t built_up_front, std::size_t width) {
  bn::iface::Profile& p = session.profile();
  const bn::repl::DetailOutput out =
      bn::repl::detail(session, s, bn::search::nearby(p, s, false, 1, SIZE_MAX, built_up_front));
  bn::repl::RenderContext c;
  c.total = p.total();
  c.percent_base = p.percent_base();
  c.denominator = p.denominator();
  c.metric = p.metric();
  c.width = width;
  std::ostringstream text;
  bn::repl::render_text(out, c, text);
  return {text.str(), bn::repl::render_json(out, "path", "path", c)};
}

}  // namespace

TEST_CASE("a long nearby list printed as it is built reads exactly as one built up front") {
  const CallTree tree = bn::calltree::generate_synthetic_tree({20'000, 3, false});
  bn::calltree::TreeProfile profile(tree);
  bn::search::Session session(profile);
  const bn::iface::Summary s = *profile.method_summary(hot_method(tree));
  const auto groups = bn::search::nearby(profile, s, false, 1, SIZE_MAX);
  REQUIRE(groups.front().listing != nullptr);  // the case under test: built as printed
  REQUIRE(groups.front().listing->size() > bn::search::kBuiltUpFront);

  for (const std::size_t width : {std::size_t{0}, std::size_t{80}}) {
    const Shown up_front = shown(session, s, SIZE_MAX, width);
    // Numbers taken after printing up front, to compare with those of the streamed listing.
    std::vector<bn::iface::Summary> numbered;
    for (std::size_t k = 0;; ++k) {
      try {
        numbered.push_back(session.numbered_summary(std::to_string(k)));
      } catch (const bn::Error&) {
        break;
      }
    }
    const Shown streamed = shown(session, s, bn::search::kBuiltUpFront, width);
    CHECK(streamed.text == up_front.text);
    CHECK(streamed.json == up_front.json);
    for (std::size_t k = numbered.size(); k-- > 0;)  // from the last: built on demand, in order
      CHECK(session.numbered_summary(std::to_string(k)) == numbered[k]);
    CHECK_THROWS_AS(session.numbered_summary(std::to_string(numbered.size())), bn::Error);
  }
}

TEST_CASE("a summary numbered in a long list can be selected before its row was printed") {
  const CallTree tree = bn::calltree::generate_synthetic_tree({20'000, 3, false});
  bn::calltree::TreeProfile profile(tree);
  bn::search::Session session(profile);
  const bn::iface::Summary s = *profile.method_summary(hot_method(tree));
  // Detail made but never rendered: no row of the listing built yet.
  const bn::repl::DetailOutput out = bn::repl::detail(session, s, bn::search::nearby(profile, s, false, 1, SIZE_MAX));
  REQUIRE(out.nearby.front().pending.has_value());
  const std::size_t last = out.nearby.front().pending->listing->size() - 1;
  const bn::iface::Summary t = session.numbered_summary(std::to_string(last));
  CHECK(profile.path_of(t).size() == 2);
  CHECK(profile.cum_of(t) == out.nearby.front().pending->listing->cum(last));
  CHECK(profile.base_of(t) == out.nearby.front().pending->listing->base(last));
}
