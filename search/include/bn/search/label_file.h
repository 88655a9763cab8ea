#pragma once
// Labels to and from label files (bn/base/label_file_format.h has the format): the call
// sequences of a session's labels and the aspects they use.

#include <filesystem>
#include <string>
#include <vector>

#include "bn/base/label_file_format.h"
#include "bn/iface/profile.h"
#include "bn/search/aspects.h"
#include "bn/search/labels.h"

namespace bn::search {

using base::LabelFile;
using base::read_label_file;
using base::SavedAspect;
using base::SavedLabel;
using base::write_label_file;

// Every labelled summary as its call sequence, in label order.
std::vector<SavedLabel> saved_labels(iface::Profile& profile, const LabelSet& labels);
// The aspects labels use, by name: those of `labels` (measured by `profile`) with the definitions
// their summaries were built with, and those of `set_aside` (call sequences) as `table` defines
// them now.
std::vector<SavedAspect> aspects_used(iface::Profile& profile, const LabelSet& labels,
                                      const std::vector<SavedLabel>& set_aside, const AspectTable& table);
// Writes every label, made in `view`, and the aspects they use, atomically (temporary file, then
// rename). Throws bn::Error naming the file.
void save_labels(const std::filesystem::path& file, iface::Profile& profile, const LabelSet& labels,
                 const std::string& view);
}  // namespace bn::search
