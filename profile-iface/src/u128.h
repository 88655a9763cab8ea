#pragma once
// 128-bit helpers shared by the amount texts (amount.cpp, units.cpp): their fast paths stay in
// machine integers, big integers only beyond.

#include <boost/multiprecision/cpp_int.hpp>
#include <string>

#include "bn/iface/amount.h"

namespace bn::iface::detail {

using U128 = unsigned __int128;

// |a| as unsigned, so the most negative value is representable.
inline U128 magnitude_of(Amount a) { return a < 0 ? -static_cast<U128>(a) : static_cast<U128>(a); }

inline std::string u128_string(U128 v) {
  char buf[40];
  char* p = buf + sizeof buf;
  do {
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  return std::string(p, buf + sizeof buf);
}

inline boost::multiprecision::cpp_int to_cpp_int(U128 v) {
  boost::multiprecision::cpp_int result = static_cast<std::uint64_t>(v >> 64);
  result <<= 64;
  return result + static_cast<std::uint64_t>(v);
}

}  // namespace bn::iface::detail
