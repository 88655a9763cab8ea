#include "causal/causal_targets.h"

#include <algorithm>
#include <exception>
#include <map>
#include <string_view>

#include "bn/base/label_file_format.h"

namespace bn::agent {
namespace {

constexpr std::string_view kGap = "..";

// Splits `a;b;..;c` at ';' (JVM signatures hold ';' too, but targets name methods without them).
std::vector<std::string> split_sequence(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t semi = text.find(';', start);
    out.emplace_back(text.substr(start, semi == std::string_view::npos ? semi : semi - start));
    if (semi == std::string_view::npos) return out;
    start = semi + 1;
  }
}

// Compiles the targets' summaries into symbols; the error names `where(target)` and the element.
class Compiler {
 public:
  explicit Compiler(CausalTargets& out) : out_(out) {
    for (const auto& [name, pattern] : out.aspects) {
      try {
        patterns_[name] = std::make_shared<const base::MethodPattern>(pattern);
      } catch (const std::exception& e) {
        fail("aspect " + name + ": " + e.what());
      }
    }
  }

  void compile(std::size_t target, const std::string& where) {
    std::vector<CompiledSummary> summaries;
    for (const std::vector<std::string>& sequence : out_.targets[target].summaries) {
      CompiledSummary summary;
      for (const std::string& element : sequence) {
        if (!out_.status.ok()) return;
        if (element.empty()) {
          fail(where + ": an empty element (two ';' in a row?)");
        } else if (element == kGap) {
          if (!summary.empty() && summary.back().gap) continue;  // `..;..` is one gap
          summary.push_back({true, 0});
        } else if (element.front() == ':') {
          const auto pattern = patterns_.find(element.substr(1));
          if (pattern == patterns_.end())
            fail(where + ": '" + element + "' is no aspect defined here; a causal target may use a " +
                 "label file's aspects, not a view's pseudo-methods");
          else
            summary.push_back({false, symbol(element, pattern->second)});
        } else if (const std::string method = element.substr(0, element.find('('));
                   method.front() == '[' || method.find_first_of("; ") != std::string::npos ||
                   method.find('.') == std::string::npos) {
          fail(where + ": '" + element + "' is no Java method name (expected pkg.Class.method)");
        } else {
          // A signature, if the profile kept them, is dropped: frames are named without one, so
          // the target is every overload (as methods= instruments them).
          summary.push_back({false, symbol(method, nullptr)});
        }
      }
      if (std::all_of(summary.begin(), summary.end(), [](const CompiledElement& e) { return e.gap; }))
        fail(where + ": a call sequence names no method");
      summaries.push_back(std::move(summary));
    }
    out_.compiled.push_back(std::move(summaries));
  }

  void fail(const std::string& what) {
    if (out_.status.ok()) out_.status = Status::error(what);
  }

 private:
  std::uint8_t symbol(const std::string& name, std::shared_ptr<const base::MethodPattern> pattern) {
    for (std::size_t i = 0; i < out_.symbols.size(); ++i)
      if (out_.symbols[i].name == name) return static_cast<std::uint8_t>(i);
    if (out_.symbols.size() == kMaxSymbols) {
      fail("the targets name more than " + std::to_string(kMaxSymbols) +
           " distinct methods and aspects; give fewer targets");
      return 0;
    }
    out_.symbols.push_back({name, std::move(pattern)});
    return static_cast<std::uint8_t>(out_.symbols.size() - 1);
  }

  CausalTargets& out_;
  std::map<std::string, std::shared_ptr<const base::MethodPattern>> patterns_;
};

}  // namespace

CausalTargets read_causal_targets(const std::vector<std::string>& sequences, const std::string& labels_file) {
  CausalTargets out;
  std::vector<std::string> where;  // per target, for messages
  if (!labels_file.empty()) {
    try {
      const base::LabelFile file = base::read_label_file(labels_file);
      for (const base::SavedAspect& a : file.aspects) out.aspects.emplace_back(a.name, a.pattern);
      for (const base::SavedLabel& label : file.labels) {
        auto same = std::find_if(out.targets.begin(), out.targets.end(),
                                 [&](const calltree::CausalTarget& t) { return t.name == label.label; });
        if (same == out.targets.end()) {
          out.targets.push_back({label.label, true, {}});
          where.push_back(labels_file + ":" + std::to_string(label.line));
          same = out.targets.end() - 1;
        }
        same->summaries.push_back(label.calls);
      }
    } catch (const std::exception& e) {  // bn::Error naming FILE:LINE, or std::bad_alloc
      out.status = Status::error(e.what());
      return out;
    }
    if (out.targets.empty()) {
      out.status = Status::error("targets='" + labels_file + "' holds no label");
      return out;
    }
  }
  for (const std::string& sequence : sequences) {
    out.targets.push_back({sequence, false, {split_sequence(sequence)}});
    where.push_back("target='" + sequence + "'");
  }
  Compiler compiler(out);
  for (std::size_t t = 0; t < out.targets.size() && out.status.ok(); ++t) compiler.compile(t, where[t]);
  return out;
}

CausalTargets method_targets(const std::vector<std::string>& methods) { return read_causal_targets(methods, ""); }

}  // namespace bn::agent
