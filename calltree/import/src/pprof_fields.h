#pragma once
// Field numbers of message Profile (pprof's profile.proto), for the reader and the writer, which
// walk and stream its top level field by field.

namespace bn::calltree {

enum ProfileField : int {
  kSampleType = 1,
  kSample = 2,
  kMapping = 3,
  kLocation = 4,
  kFunction = 5,
  kStringTable = 6,
  kTimeNanos = 9,
  kDurationNanos = 10,
  kPeriodType = 11,
  kPeriod = 12,
  kDefaultSampleType = 14,
};

}  // namespace bn::calltree
