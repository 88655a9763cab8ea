#pragma once
// The profile formats the tool reads and writes, one row each (docs/formats.md). The one table
// of them: open_profile tries the rows in order to recognise a file by content, `convert` takes
// its --to choices, its help and the format an output name implies from them, and `info` names
// a file's format by its row. A format is a row here plus its reader and writer
// (docs/architecture.md, "Add a profile format"); tests/calltree/profile_formats_test.cpp holds
// every row to its docs section, its sample files and a round trip.

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/decompress.h"
#include "bn/calltree/import_options.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/profile_writer.h"

namespace bn::calltree {

struct OpenOptions {
  // Load the complete chunks of a profile whose recording was cut off (e.g. SIGKILL).
  bool accept_unfinished = false;
  // How imports of other tools' formats read names, values and threads.
  ImportOptions import;
};

// The first bytes of a file, read when a row first asks for them: a native file is told by its
// stored bytes without starting a decompressor.
class ProfileHead {
 public:
  ProfileHead(std::filesystem::path path, const ImportOptions& options);

  const std::filesystem::path& path() const { return path_; }

  // Up to 8 bytes as stored: enough to tell the native magic. Throws bn::Error if the file
  // cannot be opened.
  std::span<const std::byte> stored() const;
  // Up to 256 bytes once a gzip or zstd layer is removed: enough to see a JFR magic and tell a
  // protobuf message from text (pprof.h).
  std::span<const std::byte> decompressed() const;

 private:
  std::filesystem::path path_;
  const ImportOptions& options_;
  mutable std::optional<std::vector<std::byte>> stored_, decompressed_;
};

// What a writer is given.
struct WriteRequest {
  const CallTree& tree;
  // Chunks written after the tree by a format that keeps a whole recording (native: the
  // per-sample records, encoded for the tree as written, sample_records.h); empty otherwise.
  std::span<const AncillaryChunk> ancillary;
  // Written through base::OutputFile: replaced atomically, a device in place, "-" to stdout.
  std::filesystem::path output;
  Compression compression = Compression::none;  // as output_compression chose
  ProgressFn progress{};                        // told the bytes written, by the formats written as a stream
};

struct FileExtension {
  std::string_view suffix;  // with its dot: ".pb"
  // How a name ending in it is written without a .gz or .zst: a bare .pprof is gzipped, as pprof
  // itself writes it.
  Compression bare = Compression::none;
};

struct ProfileFormat {
  std::string_view name;         // as `info` prints it and --to takes it: "native", "collapsed"
  std::string_view title;        // in prose and docs/formats.md's heading: "collapsed stacks"
  std::string_view description;  // one line: what it is, which tools write it
  // Whether a file's first bytes are this format's. Null for the fallback, the last row, which
  // takes whatever no row before it recognised.
  bool (*sniff)(const ProfileHead& head) = nullptr;
  // The fallback only: why a file its reader would take is no profile at all, rather than one of
  // its own with an error further in (collapsed stacks: the first line is no stack); nullopt
  // when the file may be one. open_profile then names every format it tried.
  std::optional<std::string> (*refuse)(const ProfileHead& head) = nullptr;
  // Throws bn::Error naming the file.
  LoadedProfile (*read)(const std::filesystem::path& path, const OpenOptions& options) = nullptr;
  // Null where the tool cannot write the format.
  void (*write)(const WriteRequest& request) = nullptr;
  // The names the format's files usually have: `convert` picks the format of an output name by
  // them (a writable row's), and docs/formats.md lists them.
  std::span<const FileExtension> extensions;
  // Set for a format compressed inside (native: "zstd chunks"): an output name ending in .gz or
  // .zst is refused rather than compressed twice.
  std::string_view compressed_inside;
  // The writer keeps a whole recording, every metric and the per-sample records of the file as
  // read (WriteRequest::ancillary), not the tree searched: so it writes no view, whose costs are
  // fractions.
  bool whole_recording = false;
};

// Every format, in the order open_profile tries them; the fallback is last.
std::span<const ProfileFormat> profile_formats();
// The row named `name`, or null.
const ProfileFormat* find_profile_format(std::string_view name);
// The format `convert` writes to `output` without --to: a writable row one of whose extensions
// the name ends in once a .gz or .zst is set aside, else the fallback.
const ProfileFormat& format_for_output(const std::filesystem::path& output);
// How `format` is compressed when written to `output`: as a .gz or .zst name says, else as its
// extension's `bare`. Throws bn::Error for a .gz or .zst name of a format compressed inside.
Compression output_compression(const ProfileFormat& format, const std::filesystem::path& output);

}  // namespace bn::calltree
