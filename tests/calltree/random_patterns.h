#pragma once
// Test helper: random call sequences with gaps and aspects (bn/iface/call_pattern.h) over a
// random case's alphabet, and the same sequence for the naive recount (naive_patterns.h).

#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/iface/call_pattern.h"
#include "naive_patterns.h"
#include "random_stacks.h"

namespace bn::calltree::testing {

// Aspects over the alphabet: "x" and "y", each a random set of letters written as alternatives
// ("a|c"), and "any" written as the glob "*".
struct RandomAspects {
  std::map<std::string, std::set<std::string>> members;
  std::map<std::string, std::shared_ptr<const base::MethodPattern>> patterns;

  RandomAspects(std::mt19937& rng, const std::vector<std::string>& alphabet) {
    for (const std::string name : {"x", "y"}) {
      std::set<std::string> chosen;
      std::string text;
      for (const std::string& letter : alphabet)
        if (rng() % 2 == 0) chosen.insert(letter);
      if (chosen.empty()) chosen.insert(pick(rng, alphabet));
      for (const std::string& letter : chosen) text += (text.empty() ? "" : "|") + letter;
      add(name, chosen, text);
    }
    add("any", {alphabet.begin(), alphabet.end()}, "*");
  }
  void add(const std::string& name, std::set<std::string> set, const std::string& text) {
    members[name] = std::move(set);
    patterns[name] = std::make_shared<const base::MethodPattern>(text);
  }
};

inline NaivePattern naive_of(const iface::CallPattern& p, const RandomAspects& aspects) {
  using Kind = iface::PatternElement::Kind;
  NaivePattern out;
  for (const auto& e : p.elements) {
    if (e.kind == Kind::gap) out.push_back({NaiveElement::Kind::gap, "", {}});
    if (e.kind == Kind::method) out.push_back({NaiveElement::Kind::method, e.name, {}});
    if (e.kind == Kind::aspect) out.push_back({NaiveElement::Kind::aspect, e.name, aspects.members.at(e.name)});
  }
  return out;
}

// A random sequence of 1 to 5 elements that obeys the rules; with `plain_too` false, with at
// least one gap or aspect.
inline iface::CallPattern random_pattern(std::mt19937& rng, const std::vector<std::string>& alphabet,
                                         const RandomAspects& aspects, bool plain_too) {
  const std::vector<std::string> aspect_names = {"x", "y", "any"};
  for (;;) {
    iface::CallPattern p;
    for (int n = std::uniform_int_distribution<int>(1, 7)(rng); n > 0; --n) {
      const int kind = std::uniform_int_distribution<int>(0, 3)(rng);
      if (kind <= 1) {
        p.elements.push_back(iface::PatternElement::method(pick(rng, alphabet)));
      } else if (kind == 2) {
        const std::string& name = pick(rng, aspect_names);
        p.elements.push_back({iface::PatternElement::Kind::aspect, name, aspects.patterns.at(name)});
      } else {
        p.elements.push_back(iface::PatternElement::gap());
      }
    }
    if (p.is_plain() && !plain_too) continue;
    try {
      iface::check_call_pattern(p);
      return p;
    } catch (const Error&) {
    }
  }
}

}  // namespace bn::calltree::testing
