#include "search.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "bn/calltree/tree_profile.h"
#include "bn/iface/error.h"

namespace bn::cli {
namespace {

// A kind of profile the tool can search, built over one opened file. A new backend is one row.
struct ViewKind {
  std::string_view name;
  std::string_view help;
  std::unique_ptr<iface::Profile> (*open)(const calltree::OpenedProfile& file);
};

const ViewKind kViews[] = {
    {"tree", "the call tree as recorded (seed 004 sec. 2.2)",
     [](const calltree::OpenedProfile& file) -> std::unique_ptr<iface::Profile> {
       return std::make_unique<calltree::TreeProfile>(file.loaded.tree);
     }},
};

const ViewKind& view_kind(std::string_view name) {
  const auto it = std::find_if(std::begin(kViews), std::end(kViews), [&](const ViewKind& v) { return v.name == name; });
  if (it != std::end(kViews)) return *it;
  std::string known;
  for (const ViewKind& v : kViews) known += (known.empty() ? "" : ", ") + std::string(v.name);
  throw Error("unknown view '" + std::string(name) + "' (expected " + known + ")");
}

}  // namespace

// The view refers into the opened file, so a Run never moves.
struct Search::Run {
  Run(const ProfileOptions& loading, const ViewKind& kind) : file(open_profile_from(loading)), view(kind.open(file)) {}
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  calltree::OpenedProfile file;
  std::unique_ptr<iface::Profile> view;
};

Search::Search(const SearchOptions& options) : options_(options) {
  const ViewKind& kind = view_kind(options.view);
  // Options are checked before the slow loads.
  const comparative::CompareOptions compare = to_compare_options(options.compare);
  a_ = std::make_unique<Run>(options.profile, kind);
  if (options.compare.base.empty()) return;
  ProfileOptions b_loading = options.profile;  // B is loaded as A is
  b_loading.path = options.compare.base;
  b_ = std::make_unique<Run>(b_loading, kind);
  comparison_ = make_comparison(*a_->view, *b_->view, compare, options.compare);
}

Search::~Search() = default;

iface::Profile& Search::profile() { return comparison_ ? *comparison_ : *a_->view; }

const std::string& Search::format() const { return a_->file.format; }

std::vector<std::string> Search::header() const {
  if (!comparison_) return {};
  return comparison_header(*comparison_, {options_.profile.path, a_->view->total()},
                           {options_.compare.base, b_->view->total()});
}

std::string Search::header_json() const {
  if (!comparison_) return "";
  return comparison_header_json(*comparison_, {options_.profile.path, a_->view->total()},
                                {options_.compare.base, b_->view->total()});
}

}  // namespace bn::cli
