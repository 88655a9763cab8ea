// libFuzzer entry point for the native profile reader: any byte string must either load or
// throw bn::Error; a crash, sanitizer report, hang or out-of-memory is a bug.

#include <cstddef>
#include <cstdint>
#include <span>

#include "bn/calltree/profile_reader.h"
#include "bn/iface/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  for (const bool accept_unfinished : {false, true}) {
    try {
      (void)bn::calltree::read_profile_bytes(bytes, "fuzz input", {.accept_unfinished = accept_unfinished});
    } catch (const bn::Error&) {
    }
  }
  return 0;
}
