// The table of profile formats (profile_formats.h) and the few lines that fit each reader and
// writer to a row.

#include "bn/calltree/profile_formats.h"

#include <array>
#include <ostream>

#include "bn/base/error.h"
#include "bn/base/output_file.h"
#include "bn/calltree/collapsed.h"
#include "bn/calltree/compress.h"
#include "bn/calltree/jfr.h"
#include "bn/calltree/pprof.h"

namespace bn::calltree {
namespace {

// A sample type chooses among a file's values; native and collapsed files have one per stack.
void refuse_sample_type(const std::filesystem::path& path, const ImportOptions& options, const char* format) {
  if (!options.sample_type.empty())
    throw Error("cannot open profile '" + path.string() + "': it is " + format +
                ", which has one value per stack; a sample type applies to pprof and JFR files");
}

LoadedProfile read_native(const std::filesystem::path& path, const OpenOptions& options) {
  refuse_sample_type(path, options.import, "a native profile");
  return read_profile(path, LoadOptions{options.accept_unfinished});
}

void write_native(const WriteRequest& request) { write_profile(request.tree, request.output, request.ancillary); }

// A reader of another tool's format: a tree and nothing more.
template <CallTree (*Read)(const std::filesystem::path&, const ImportOptions&)>
LoadedProfile read_import(const std::filesystem::path& path, const OpenOptions& options) {
  return LoadedProfile{Read(path, options.import), false, {}, {}};
}

LoadedProfile read_collapsed_stacks(const std::filesystem::path& path, const OpenOptions& options) {
  refuse_sample_type(path, options.import, "collapsed stacks");
  return read_import<read_collapsed>(path, options);
}

// A writer to a std::ostream, compressed as requested on its way to the file.
template <void (*Write)(const CallTree&, std::ostream&)>
void write_stream(const WriteRequest& request) {
  base::OutputFile file(request.output);
  CompressingStreambuf buffer(file.stream(), request.compression, request.output.string(), request.progress);
  std::ostream out(&buffer);
  try {
    Write(request.tree, out);
  } catch (const Error&) {
    buffer.throw_if_failed();  // the file's own error (e.g. no space left) says more
    throw;
  }
  buffer.finish();
  file.commit();
}

constexpr std::array kNativeExtensions = {FileExtension{".bnp"}};
constexpr std::array kJfrExtensions = {FileExtension{".jfr"}};
constexpr std::array kPprofExtensions = {FileExtension{".pb"}, FileExtension{".pprof", Compression::gzip}};
constexpr std::array kCollapsedExtensions = {FileExtension{".collapsed"}};

const std::array kFormats = {
    ProfileFormat{
        .name = "native",
        .title = "native",
        .description = "this tool's own: the recorder agent's call tree and per-sample records, zstd chunks",
        .sniff = [](const ProfileHead& head) { return is_native_profile(head.stored()); },
        .read = read_native,
        .write = write_native,
        .extensions = kNativeExtensions,
        .compressed_inside = "zstd chunks",
        .whole_recording = true,
    },
    ProfileFormat{
        .name = "jfr",
        .title = "JFR",
        .description = "JDK Flight Recorder recordings, from the JDK or async-profiler",
        .sniff = [](const ProfileHead& head) { return is_jfr(head.decompressed()); },
        .read = read_import<read_jfr>,
        .write = nullptr,
        .extensions = kJfrExtensions,
        .compressed_inside = "",
        .whole_recording = false,
    },
    ProfileFormat{
        .name = "pprof",
        .title = "pprof",
        .description = "pprof's protobuf Profile, from Go, gperftools, Pyroscope, Parca or async-profiler",
        .sniff = [](const ProfileHead& head) { return looks_like_pprof(head.decompressed()); },
        .read = read_import<read_pprof>,
        .write = write_stream<write_pprof>,
        .extensions = kPprofExtensions,
        .compressed_inside = "",
        .whole_recording = false,
    },
    ProfileFormat{
        .name = "collapsed",
        .title = "collapsed stacks",
        .description = "one line per stack with its count, from async-profiler or FlameGraph's stackcollapse",
        .sniff = nullptr,  // the fallback
        .refuse =
            [](const ProfileHead& head) { return first_line_not_a_stack(head.decompressed(), head.path().string()); },
        .read = read_collapsed_stacks,
        .write = write_stream<write_collapsed>,
        .extensions = kCollapsedExtensions,
        .compressed_inside = "",
        .whole_recording = false,
    },
};

const ProfileFormat& fallback() { return kFormats.back(); }

}  // namespace

std::span<const ProfileFormat> profile_formats() { return kFormats; }

const ProfileFormat* find_profile_format(std::string_view name) {
  for (const ProfileFormat& format : kFormats)
    if (format.name == name) return &format;
  return nullptr;
}

const ProfileFormat& format_for_output(const std::filesystem::path& output) {
  const std::filesystem::path extension = uncompressed_name(output).extension();
  for (const ProfileFormat& format : kFormats)
    if (format.write != nullptr)
      for (const FileExtension& e : format.extensions)
        if (extension == e.suffix) return format;
  return fallback();
}

Compression output_compression(const ProfileFormat& format, const std::filesystem::path& output) {
  const Compression named = compression_for_name(output);
  if (named != Compression::none) {
    if (!format.compressed_inside.empty())
      throw Error("cannot write '" + output.string() + "': " + std::string(format.title) +
                  " profiles are compressed already (" + std::string(format.compressed_inside) +
                  "); drop the .gz or .zst");
    return named;
  }
  for (const FileExtension& e : format.extensions)
    if (output.extension() == e.suffix) return e.bare;
  return Compression::none;
}

}  // namespace bn::calltree
