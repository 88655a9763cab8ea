#pragma once
// gzip (RFC 1952) in memory, for the HTTP bodies ClickHouse sends and accepts with
// Content-Encoding: gzip.

#include <cstdint>
#include <string>
#include <string_view>

namespace bn::fleet::detail {

std::string gzip(std::string_view bytes);
// Throws bn::Error ("WHAT: ...") for a corrupt stream or one that expands past `limit` bytes.
std::string gunzip(std::string_view bytes, std::uint64_t limit, std::string_view what);

}  // namespace bn::fleet::detail
