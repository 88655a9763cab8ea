#pragma once
// How many random cases a property test runs. The naive models allocate a container per node per
// question, which AddressSanitizer makes more than ten times slower (tree_profile_property_test:
// 6 s of CPU unsanitized, 90 s under ASan), so a sanitized build, CI's, runs the first quarter of
// a slow test's seeded sequence of cases: every case it checks is one an unsanitized run checks
// too, the small and large trees alike, and every unsanitized build still runs them all.

namespace bn::test {

#if defined(__SANITIZE_ADDRESS__)  // g++
inline constexpr int kSanitizedShare = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  // clang
inline constexpr int kSanitizedShare = 4;
#else
inline constexpr int kSanitizedShare = 1;
#endif
#else
inline constexpr int kSanitizedShare = 1;
#endif

// All `full` cases unsanitized; under ASan a quarter of them, at least one.
constexpr int property_cases(int full) { return full / kSanitizedShare > 0 ? full / kSanitizedShare : 1; }

}  // namespace bn::test
