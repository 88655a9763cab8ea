#pragma once
// The experiments of a causal recording (causal_data.h) in the native profile: ancillary chunks
// "caus" (its row in kKnownChunks is kTagCausal), so a plain call tree still loads without them.
// Each chunk is self-contained: the sampling period, the targets, the progress points and the
// aspects as the recorder knew them when it wrote the chunk, then the experiments finished since
// the previous chunk. A chunk's experiments name targets and points by their index in that
// chunk's lists; decoding maps them by name onto one list for the file. Every integer is an
// unsigned LEB128 varint (zigzag for signed ones); docs/recorder.md has the byte layout.
// Shared by the agent (encoder) and the analyzer (decoder).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/causal_data.h"
#include "bn/calltree/profile_reader.h"

namespace bn::calltree {

// One "caus" chunk: `header`'s period, targets, points and aspects, and `experiments`.
std::vector<std::byte> encode_causal(const CausalData& header, std::span<const CausalExperiment> experiments);

// Every "caus" chunk of `profile`, in file order, as one CausalData (empty() when there is
// none). Throws bn::Error naming `source`, the chunk and what is wrong on malformed data:
// truncated varints, an index past its list, a speedup above 100, a negative duration, a delay
// longer than its experiment, or chunks that merge_causal cannot pool.
CausalData decode_causal(const LoadedProfile& profile, const std::string& source);

// The experiments of several recordings of one program as one: targets, points and aspects
// matched by name (an aspect defined differently in two recordings is an error naming both),
// experiments appended (period_ns is the first part's: delays are recorded per experiment, so
// parts recorded with other periods pool as they are). Throws bn::Error, without naming the
// parts, when a name means two things (a target with other summaries, a point of another kind)
// or when the parts' experiments count progress at different points (an experiment that did not
// count at a point would read as a slower program there).
CausalData merge_causal(std::vector<CausalData> parts);

}  // namespace bn::calltree
