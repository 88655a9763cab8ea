#pragma once
// The profile interface for one call tree (seed 004 sec. 2.2, "Call-tree Profiles").
//
// A summary is a call sequence plus ALL nodes that root it (a node roots a sequence iff the
// sequence labels a path beginning there). Siblings differ in method, so each root starts
// exactly one path; its last node is that root's final node. With
//   along(s)  = nodes on those paths,   final(s) = their last nodes,
//   subtree(f) = f and its descendants,
// the definitions of sec. 2.2 become
//   base_of(s) = Σ base_cost over along(s)
//   cum_of(s)  = Σ cost over along(s) ∪ descendants(final(s))
//              = Σ cum_cost over the outermost final nodes (those inside no other final's
//                subtree) + Σ cost over along nodes outside every final subtree,
// each node counted once even when recursion puts a path node below a final node (the
// paper's reason for excluding descendants). total_base_of/total_cum_of are the same over the
// union of the paths of all summaries in the set. base_cost is cost except in a tree with
// refining methods (a view, CallTree::base_cost), where a frame's base holds the typed time
// below it.
//
// Fast paths:
// - "d is a descendant of a" is the preorder interval test a < d < subtree_end(a), so unions
//   of subtrees are sorted sweeps over preorder numbers, never tree walks.
// - Length-1 summaries: the roots are CallTree::nodes_of(m) (not copied); base and cum of every
//   method are figured on first use, from its nodes or for all methods in one pass over the
//   tree (method_totals.h).
// - Longer summaries are interned by call sequence (equal sequences give equal handles) and
//   their base and cum are computed once, when the summary is first built.
//
// Complexity of each operation (n = tree nodes, R = roots of the summary, k = its length,
// N(m) = nodes of method m, e = names returned, L = summaries built so far):
//   constructor                     O(methods)
//   path_of, calls, roots           O(k) / O(1)
//   base_of, cum_of                 O(1): cached when the summary is built; of a length-1
//                                   summary, O(N(m)) the first time, or O(n) once for all
//                                   methods when the ones asked add up to n/16 nodes
//   initial_summaries               O(methods log methods) (name order is computed once)
//   method_summary                  O(1) expected (string-table lookup)
//   path_summary                    O(N(rarest method) · k · c) plus building it, as summary_of
//   top_extensions                  O(R log R)
//   bottom_extensions               O(C log C), C = children of the final nodes
//   extend_top(s, m)                O(log L) if built before; right after top_extensions(s)
//                                   O(its roots) plus building it; else O(min(R, N(m) log R ·
//                                   c)) plus building it
//   extend_bottom(s, m)             the same after bottom_extensions(s); else
//                                   O(min(R c, N(m) log R)) plus building it
//   extension_amounts(s, end)       the listing above (a counting sort by method when large),
//                                   the path facts of s (O(R k log(R k)), shared by both
//                                   directions), then O(size) per extension made of isolated
//                                   paths and a sorted sweep over the others, O(e log e) to
//                                   put them in name order (O(e) when asked again for the same s)
//   extension_union(s, end)         the same facts; adding an extension costs O(its paths) when
//                                   isolated, O(its nodes · log) in ordered sets otherwise
//   gap_extension_union(s), split_union(s, gap)  one pass over the tree (two for a split)
//                                   for the refinements' outermost nodes; adding one costs O(its nodes · log) in a map
//                                   of disjoint preorder stretches, total() O(1)
//   extension_walk(s, end)          extension_amounts(s, end) until the first step, which costs
//                                   O(g k) for the g paths it continues; then a step O(P log P +
//                                   e log e) for the P paths and the neighbours reached, building
//                                   nothing while every path is isolated, else as building the
//                                   summary reached; the summary where it stops built once
//   trim_top, trim_bottom           O(log L) if built before; else O(N(rarest method of the
//                                   shorter sequence) · k · c) plus building it
//   building a summary of length ≥ 2  O(R k log(R k)), once (along nodes are sorted)
//   total_base_of(S)                O(|S| log |S| + A log A), A = along nodes of the summaries
//                                   of length ≥ 2 whose method has no length-1 summary in S
//   total_cum_of(S)                 O(|S| log |S| + F log |S| + X log X), F = outermost final
//                                   nodes of the summaries (nested runs are galloped over), X =
//                                   along nodes of summaries of length ≥ 2 outside their finals
//   summary_set(S)                  total_cum_of and total_base_of's lists, kept with prefix sums
//   its overlap with s or with a set  a galloping merge of the two node lists: O(min · log) for
//                                   lists of unequal size, O(sum) at worst; s's lists are kept for
//                                   the last summary asked
//   summary_set_from(earlier, S)    when S only adds to earlier: a merge of earlier's lists with
//                                   the added summaries' (O(both lists), no tree reads at its tops)
//   overlaps(s, sets)               O(R) per set for a summary of R outermost finals, placed by
//                                   each set's block index; when R · |sets| exceeds the sets' E
//                                   tops, one sweep, O(E + R), over their merge (kept; O(E log
//                                   |sets|) to make, O(E) after one set changed)
//   set_overlaps(set, others)       O(n/64 + set's tops) for its coverage (kept for one set), then
//                                   O(others' tops) for those of at most 4× its tops, all walked
//                                   together a 128th of the tree at a time
//   pair_overlaps(sets)             O(E log E) for the E entries of all the sets' node and method
//                                   lists, plus one addition per pair for each subtree, node or
//                                   method two sets share
//   grown_set_overlaps(grown, earlier, s, others, ...)  the intersection of earlier's and s's
//                                   regions (O(min · log) per list), then O(its tops) per other set,
//                                   or one sweep of the merged tops kept by overlaps() when larger
// c = finding a node's child among a sorted node list: a binary search, plus one walk up per
// other child whose subtree holds listed nodes (O(log n) when the child comes first or is
// absent).
//
// Call sequences with gaps and aspects (pattern_summary, seed 000 sec. 2-3) are matched against
// every stack in one pass over the tree (PatternMatcher, src/pattern_matcher.h): building one,
// listing its extensions at either end, the amounts of all its bottom extensions,
// gap_extensions and total_*_of of a set holding one cost O(n) each (plus O(methods) per aspect to resolve its pattern
// once); their cum and base are kept, so base_of/cum_of are O(1). Plain sequences never take this path.
//
// Handles stay valid for the life of the TreeProfile; the CallTree must outlive it. Not
// thread-safe: queries update caches.

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/method_totals.h"
#include "bn/iface/profile.h"

namespace bn::calltree {

namespace region {
struct Region;  // node_region.h
struct MergedTops;
struct SummedNodes;
struct Coverage;
}  // namespace region
class PatternMatcher;
class OutermostTally;

class TreeProfile final : public iface::Profile {
 public:
  // O(methods). Throws bn::Error if two method ids that label nodes share a name
  // (summaries are identified by names, so such a tree has no well-defined summaries), or if
  // `denominator` is not positive. Node costs are numerators over `denominator`: a tree of
  // typed time (views/, CPPROFJ sec. 5.2) stores its fractional hits as integers over one
  // common denominator, its normalisation included. What the costs measure comes from the
  // tree's metadata (metric, unit; sample counts when the unit is "samples"), unless `metric`
  // says it (a view states what one sample is).
  explicit TreeProfile(const CallTree& tree, iface::Amount denominator = 1,
                       std::optional<iface::MetricInfo> metric = std::nullopt);
  // The tree is borrowed, so a temporary one would dangle.
  explicit TreeProfile(CallTree&&, iface::Amount = 1, std::optional<iface::MetricInfo> = std::nullopt) = delete;

  std::vector<std::string_view> path_of(iface::Summary s) override;
  std::vector<iface::Summary> initial_summaries() override;
  std::optional<iface::Summary> method_summary(std::string_view method) override;
  std::vector<std::string_view> top_extensions(iface::Summary s) override;
  std::vector<std::string_view> bottom_extensions(iface::Summary s) override;
  // The parents of the roots scanned until `at_most` methods are found, unless the summary's
  // callers are listed already.
  std::vector<std::string_view> top_extensions_up_to(iface::Summary s, std::size_t at_most,
                                                     std::string_view other_than) override;
  std::optional<iface::Summary> extend_top(iface::Summary s, std::string_view m) override;
  std::optional<iface::Summary> extend_bottom(iface::Summary s, std::string_view m) override;
  // The roots found from the nodes of the path's rarest method (summary_of), not a summary built
  // per prefix.
  std::optional<iface::Summary> path_summary(std::span<const std::string_view> path) override;
  // From the extension nodes that top_extensions/bottom_extensions collect, one group per
  // method, each measured like a built summary but not interned. In name order.
  std::vector<iface::ExtensionAmounts> extension_amounts(iface::Summary s, iface::End end) override;
  std::optional<iface::Summary> trim_top(iface::Summary s) override;
  std::optional<iface::Summary> trim_bottom(iface::Summary s) override;
  iface::Amount base_of(iface::Summary s) override;
  iface::Amount cum_of(iface::Summary s) override;
  iface::Amount total_base_of(std::span<const iface::Summary> S) override;
  iface::Amount total_cum_of(std::span<const iface::Summary> S) override;
  // Counts the extensions whose paths share nothing with the other paths (path_facts) by
  // plain sums, and keeps the rest as node sets; no extension is built as a summary.
  std::unique_ptr<iface::ExtensionUnion> extension_union(iface::Summary s, iface::End end) override;
  // Keeps each path's sums and adds a node to every path a step; measures a step by those sums
  // while no path touches another, and interns only the summary where the walk stops
  // (tree_extension_walk.cpp).
  std::unique_ptr<iface::ExtensionWalk> extension_walk(iface::Summary s, iface::End end) override;
  // Keeps the nodes that S's cum and base count, sorted with prefix sums, so an overlap with S
  // is a galloping merge of two node lists instead of two unions (tree_summary_set.cpp).
  std::unique_ptr<iface::SummarySet> summary_set(std::span<const iface::Summary> S) override;
  // Unites the earlier set's kept lists with the added summaries' (node_region.h's united): a
  // label that gains a summary costs what that summary's lists cost, not a union of all again.
  std::unique_ptr<iface::SummarySet> summary_set_from(iface::SummarySet& earlier,
                                                      std::span<const iface::Summary> S) override;
  // Of a set of many subtrees against others: their walks go together against its coverage
  // (a bit per node, kept for the last such set), a stretch of the tree at a time.
  std::vector<iface::Overlap> set_overlaps(iface::SummarySet& set, std::span<iface::SummarySet* const> others) override;
  // Of a label that gained a summary: only what the earlier set and the summary both count is
  // measured against each other set (its intersection region placed by their block indexes).
  std::vector<iface::Overlap> grown_set_overlaps(iface::SummarySet& grown, iface::SummarySet& earlier,
                                                 iface::Summary added, std::span<iface::SummarySet* const> others,
                                                 std::span<const iface::Overlap> earlier_with,
                                                 std::span<const iface::Overlap> added_with) override;
  // One sweep over all the sets' lists in node order (region_pairs.h): the cost follows what the
  // sets hold and which pairs meet, not the number of pairs.
  std::vector<iface::SetPairOverlap> pair_overlaps(std::span<iface::SummarySet* const> sets) override;
  // Of many sets against a summary: its tops placed among each set's by the set's index, or, for
  // a summary of many subtrees, one sweep over all the sets' tops merged.
  std::vector<iface::Overlap> overlaps(iface::Summary s, std::span<iface::SummarySet* const> sets) override;
  std::optional<iface::Summary> pattern_summary(const iface::CallPattern& p) override;
  iface::CallPattern pattern_of(iface::Summary s) override;
  // One pass over the subtrees where s is first satisfied, counting each method's outermost
  // nodes below that point (tree_profile_patterns.cpp).
  std::vector<iface::ExtensionAmounts> gap_extensions(iface::Summary s) override;
  // The union of s;..;x's subtrees as they are added, kept as disjoint stretches of the preorder
  // (tree_subtree_union.cpp): zooming on `refine below` built and united every s;..;x of a prefix.
  std::unique_ptr<iface::ExtensionUnion> gap_extension_union(iface::Summary s) override;
  // Every P1;..;x;P2 measured in two passes (P1's matches, then P2's top extensions below them),
  // where building each was a pass per caller x: 10^4 callers took 4.3 s.
  std::vector<iface::Summary> upward_splits(iface::Summary s, std::size_t gap) override;
  // The same subtrees of the split's callers (tree_subtree_union.cpp).
  std::unique_ptr<iface::ExtensionUnion> split_union(iface::Summary s, std::size_t gap) override;
  iface::Amount total() override { return tree_.total_cost(); }
  iface::MetricInfo metric() override;
  iface::Amount denominator() override { return denominator_; }
  bool costs_never_negative() override { return method_totals().costs_never_negative(); }

  // Backend-specific views (tests, benchmarks). The spans stay valid for the life of the
  // profile. Both throw bn::Error for a handle this profile did not return.
  // The call sequence as method ids, outermost first.
  std::span<const MethodId> calls(iface::Summary s) const;
  // All nodes that root the call sequence, in increasing preorder. Never empty.
  std::span<const NodeId> roots(iface::Summary s) const;
  const CallTree& tree() const { return tree_; }

 private:
  // A summary of length >= 2. Length-1 summaries need no record: their handle id is the
  // method id and everything about them is a view into the tree or the per-method arrays.
  struct Sequence {
    std::vector<MethodId> calls;
    std::vector<NodeId> roots;          // increasing preorder
    std::vector<NodeId> finals;         // finals[i] ends the path from roots[i]
    std::vector<NodeId> sorted_finals;  // the finals, increasing
    std::vector<NodeId> top_finals;     // increasing; none lies in another's subtree
    std::vector<NodeId> along;          // increasing, each node once
    std::vector<NodeId> exposed;        // along nodes outside every final subtree, increasing
    iface::Amount base = 0;
    iface::Amount cum = 0;
  };
  // Everything about a summary, whatever its length.
  struct View {
    std::span<const MethodId> calls;
    std::span<const NodeId> roots;
    std::span<const NodeId> finals;  // parallel to roots
    std::span<const NodeId> sorted_finals;
  };
  using RootFinal = std::pair<NodeId, NodeId>;
  // A summary whose sequence has a gap or an aspect (tree_profile_patterns.cpp).
  struct PatternRecord {
    iface::CallPattern pattern;
    std::vector<std::string> texts;  // path_of's elements
    // Made when first asked (matcher_of): an upward split measures its summaries without one,
    // and each holds a word per method of the tree.
    mutable std::shared_ptr<const PatternMatcher> matcher;
    iface::Amount base = 0;
    iface::Amount cum = 0;
  };
  // Pattern handles have this bit set: no tree has 2^31 methods plus built sequences.
  static constexpr std::uint32_t kPatternBit = std::uint32_t{1} << 31;
  class RunningExtensionUnion;  // tree_extension_union.cpp
  class ChainWalk;              // tree_extension_walk.cpp
  class SubtreeUnion;           // tree_subtree_union.cpp
  class TreeSummarySet;         // tree_summary_set.cpp

  // --- summary store (tree_profile.cpp) ---
  bool is_method_summary(iface::Summary s) const { return s.id < method_count_; }
  const Sequence& sequence(iface::Summary s) const;
  View view(iface::Summary s) const;
  // Throws for a method summary whose method labels no node (base_of, cum_of).
  void check_occurs(iface::Summary s);
  std::optional<MethodId> occurring_method(std::string_view name) const;
  std::optional<iface::Summary> find(const std::vector<MethodId>& calls) const;
  // A sequence of length >= 2 with its metrics, from its non-empty (root, final) pairs in any order.
  Sequence measure(std::vector<MethodId> calls, std::vector<RootFinal> paths) const;
  // Interns a sequence of length >= 2 given its (root, final) pairs in any order; nullopt if
  // there are none.
  std::optional<iface::Summary> store(std::vector<MethodId> calls, std::vector<RootFinal> paths);

  // --- patterns (tree_profile_patterns.cpp) ---
  static bool is_pattern(iface::Summary s) { return (s.id & kPatternBit) != 0; }
  const PatternRecord& pattern_record(iface::Summary s) const;
  std::shared_ptr<const PatternMatcher> matcher_of(const PatternRecord& r) const;
  // The summary of p if it was built already.
  std::optional<iface::Summary> built_pattern(const iface::CallPattern& p) const;
  // The summary of p, a pattern not built yet, measured as cum and base.
  iface::Summary add_pattern(const iface::CallPattern& p, std::shared_ptr<const PatternMatcher> matcher,
                             iface::Amount cum, iface::Amount base);
  std::vector<std::string_view> pattern_top_extensions(const PatternRecord& r) const;
  std::vector<std::string_view> pattern_bottom_extensions(const PatternRecord& r) const;
  std::vector<iface::ExtensionAmounts> pattern_top_amounts(const PatternRecord& r) const;
  std::vector<iface::ExtensionAmounts> pattern_bottom_amounts(const PatternRecord& r) const;
  std::optional<iface::Summary> pattern_trimmed(iface::Summary s, iface::End end);
  // Tallies, per method x, the nodes where s;..;x holds outermost.
  void tally_gap_extensions(iface::Summary s, OutermostTally& tally);
  // The same for P1;..;x;P2, the split of `pattern` at `gap`; false where the tally does not
  // apply (no call before the gap, or more calls than a matcher takes).
  bool tally_upward_splits(const iface::CallPattern& pattern, std::size_t gap, OutermostTally& tally);
  // total_base_of / total_cum_of of a set holding a pattern summary: each node marked by some
  // summary of S is counted once.
  iface::Amount marked_total(std::span<const iface::Summary> S, bool cum);

  // --- paths (tree_profile_paths.cpp) ---
  // The node of the increasing list `nodes` that is a child of n, or nullptr. Used on the
  // nodes of one method and on the roots of one summary, where siblings cannot repeat.
  const NodeId* child_in(NodeId n, std::span<const NodeId> nodes) const;
  // The summary of an arbitrary non-empty sequence, with its roots found from scratch.
  std::optional<iface::Summary> summary_of(std::vector<MethodId> calls);

  // --- extensions (tree_profile_extensions.cpp) ---
  // The nodes one step beyond a summary, found by top_extensions (parents of the roots) or
  // bottom_extensions (children of the final nodes). Kept for the last summary listed in each
  // direction, because zooming and the suggesters then extend it by every name in turn
  // (sec. 2.3): each of those extensions then costs only its own size.
  struct ExtensionNode {
    MethodId method;
    std::uint32_t path;  // index into the summary's roots/finals
    NodeId node;         // the parent of roots[path] or a child of finals[path]
    // What measuring reads of the node, read while listing in preorder: measuring goes by method,
    // in no order of the tree's arrays. Its base cost, and what it adds to the cum of an isolated
    // path: its cost above a root (top), its cum-cost below a final (bottom). Only those: each
    // column more is a cache miss per node of a hot method's 10^5 callers.
    Cost base = 0, adds = 0;
    // (method, path, node) order; the costs follow from the node.
    bool operator<(const ExtensionNode& other) const {
      return std::tie(method, path, node) < std::tie(other.method, other.path, other.node);
    }
  };
  // Per path of a summary (index into its roots/finals), what measuring an extension without
  // building it needs, whichever the direction (tree_profile_isolation.cpp).
  struct PathFacts {
    iface::Summary of;
    std::vector<iface::Amount> own;    // Σ cost over the path's nodes (what cum counts of them)
    std::vector<iface::Amount> base;   // Σ base_cost over the path's nodes
    std::vector<iface::Amount> alone;  // the cum of the path alone: its nodes and final subtree
    // The path shares a node with another path, or one of them has its root in the other's
    // final subtree: the path's nodes or subtree may be counted through the other.
    std::vector<bool> touched;
    // Every path's nodes with the path's index, sorted; only for sequences of length >= 2 (a
    // length-1 path is its root, and the roots are sorted already).
    std::vector<std::pair<NodeId, std::uint32_t>> along;
  };
  struct Neighbourhood {
    iface::Summary of;
    iface::End end = iface::End::top;
    std::vector<ExtensionNode> nodes;  // sorted, so grouped by method
    // extension_amounts(of), once asked: `select` and `show` of the same summary reuse it.
    std::optional<std::vector<iface::ExtensionAmounts>> amounts;
    // Computed on first use (isolation()):
    std::shared_ptr<const PathFacts> facts;
    // Untouched paths that also (top) have no root's parent on them nor their own root's parent
    // on another path. Whatever an extension adds through an isolated path is counted through
    // no other path, so cum and base are plain sums over such paths.
    std::vector<bool> isolated;
  };
  // Lists the extension nodes of s into the cache of that end and returns it. Shared with
  // running unions, which keep it after the cache moves on to another summary.
  const std::shared_ptr<Neighbourhood>& list_extensions(iface::Summary s, iface::End end);
  // `listed` in (method, path, node) order, into `grouped`.
  void group_by_method(const std::vector<ExtensionNode>& listed, std::vector<ExtensionNode>& grouped) const;
  // The cache of that end if it holds s, listing it otherwise.
  const std::shared_ptr<Neighbourhood>& neighbourhood(iface::Summary s, iface::End end);
  // The last neighbourhood listed at each end.
  std::shared_ptr<Neighbourhood>& cache_of(iface::End end) { return neighbourhoods_[static_cast<int>(end)]; }
  const std::shared_ptr<Neighbourhood>& cache_of(iface::End end) const {
    return neighbourhoods_[static_cast<int>(end)];
  }
  std::vector<std::string_view> extension_names(const Neighbourhood& n);
  // The nodes of n labelled m (possibly none).
  static std::span<const ExtensionNode> extension_group(const Neighbourhood& n, MethodId m);
  // The cached extension nodes of s labelled m; nullopt when s is not the cached summary.
  std::optional<std::span<const ExtensionNode>> cached_extensions(iface::Summary s, MethodId m, iface::End end) const;
  // The facts of s's paths, kept for the last summary asked (top and bottom share them).
  std::shared_ptr<const PathFacts> path_facts(iface::Summary s);
  // Fills n.facts and n.isolated if they are not yet.
  void isolation(Neighbourhood& n);
  // The cum an extension gets through the isolated path of e: the path's cum alone and the new
  // root (top), or the path's nodes' own costs and the new final's subtree (bottom).
  static iface::Amount isolated_cum(const Neighbourhood& n, const ExtensionNode& e);
  // {cum, base} of the extension made of one group of extension nodes of n, not built.
  std::pair<iface::Amount, iface::Amount> measure_extension(const Neighbourhood& n,
                                                            std::span<const ExtensionNode> group);
  // Position of each method in name order, computed on first use.
  const std::vector<std::uint32_t>& name_rank();
  // Base and cum of every method's length-1 summary, and the sign of the costs, figured on
  // first use: opening a profile need not wait for them.
  MethodTotals& method_totals() { return method_totals_; }

  // --- metrics (tree_profile_metrics.cpp) ---
  void compute_metrics(Sequence& seq) const;
  // {cum, base} (sec. 2.2) of the paths with these final and along nodes, both increasing and
  // distinct; `tops` receives the outermost finals and `exposed` the along nodes outside their
  // subtrees (their storage is reused, so measuring many groups allocates little).
  std::pair<iface::Amount, iface::Amount> measure_nodes(std::span<const NodeId> finals, std::span<const NodeId> along,
                                                        std::vector<NodeId>& tops, std::vector<NodeId>& exposed) const;
  // Outermost final nodes of a summary, increasing.
  std::span<const NodeId> top_finals(iface::Summary s);
  // For total_cum_of: the outermost finals of the union of S and the exposed along nodes
  // outside their subtrees, both increasing.
  std::pair<std::vector<NodeId>, std::vector<NodeId>> cum_union_nodes(std::span<const iface::Summary> S);
  // For total_base_of: the methods of S's length-1 summaries and the along nodes of its other
  // summaries that are of none of those methods, both increasing.
  std::pair<std::vector<MethodId>, std::vector<NodeId>> base_union_nodes(std::span<const iface::Summary> S) const;

  // --- summary sets (tree_summary_set.cpp) ---
  // What the cum and base of S count; of one summary, kept for the last one asked (the REPL
  // asks it against every label in turn).
  region::Region region_of(std::span<const iface::Summary> S);
  std::shared_ptr<const region::Region> region_of(iface::Summary s);
  // The coverage of the set with this serial and tops, kept for the last set asked (n/8 bytes);
  // nullptr when a bitmap of the tree would cost more than the tops (few tops in a large tree).
  const region::Coverage* coverage_of(std::uint64_t serial, const region::SummedNodes& tops);
  // The sets whose tops merged_tops_ holds, in its order, when they are all among `sets` and
  // `earlier` and hold every one of `sets`; empty otherwise.
  std::vector<const TreeSummarySet*> merged_sets(std::span<const TreeSummarySet* const> sets,
                                                 const TreeSummarySet& earlier) const;
  // The distinct members of `grown` are those of `earlier` and `added`.
  static bool adds_one(std::span<const iface::Summary> earlier, iface::Summary added,
                       std::span<const iface::Summary> grown);

  const CallTree& tree_;
  const iface::Amount denominator_;
  const std::optional<iface::MetricInfo> metric_;
  const std::uint32_t method_count_;
  // Id m of the identity table is m, so a length-1 summary's call sequence is a view too.
  std::vector<MethodId> method_ids_;
  MethodTotals method_totals_;
  // Outermost nodes of nested methods, computed on first use by total_cum_of.
  std::vector<std::vector<NodeId>> method_top_finals_;
  std::vector<Sequence> sequences_;  // handle id = method_count_ + index
  std::map<std::vector<MethodId>, std::uint32_t> index_;
  std::array<std::shared_ptr<Neighbourhood>, 2> neighbourhoods_;  // by End
  std::shared_ptr<const PathFacts> facts_cache_;
  std::shared_ptr<const region::Region> region_cache_;
  iface::Summary region_cached_for_;
  std::uint64_t summary_sets_made_ = 0;
  // The tops of the last list of sets asked by overlaps(), merged, with the sets' serials.
  std::shared_ptr<std::pair<std::vector<std::uint64_t>, region::MergedTops>> merged_tops_;
  const region::MergedTops& merged_tops(std::span<const region::Region* const> regions,
                                        const std::vector<std::uint64_t>& serials);
  std::shared_ptr<std::pair<std::uint64_t, region::Coverage>> coverage_;  // coverage_of's
  struct Scratch {
    std::vector<NodeId> finals, along, tops, exposed;
  } scratch_;  // measure_extension's working lists
  // list_extensions' nodes before grouping. Kept, like the grouped list of a neighbourhood that
  // leaves the cache, so that listing the next summary's 10^5 extension nodes neither
  // reallocates as it grows nor takes fresh pages from the kernel.
  std::vector<ExtensionNode> listed_;
  std::vector<std::uint32_t> name_rank_;
  std::vector<PatternRecord> patterns_;                 // handle id = kPatternBit | index
  std::map<std::string, std::uint32_t> pattern_index_;  // by CallPattern::key()
};

}  // namespace bn::calltree
