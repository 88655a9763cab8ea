// Reading collapsed stacks (collapsed.h): `frame;frame;...;frame COUNT` per line.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/collapsed.h"
#include "bn/calltree/decompress.h"
#include "bn/calltree/tree_builder.h"
#include "bn/iface/call_sequence_text.h"
#include "input_limits.h"

namespace bn::calltree {
namespace {

// Caps that keep hostile input from turning into unbounded allocation: lines are a few hundred
// kilobytes at most (and stacks kMaxDepth frames, input_limits.h).
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
constexpr std::size_t kLineReadChunk = std::size_t{64} << 10;
// Offending text quoted in an error message is cut to this many bytes to keep it one line.
constexpr std::size_t kQuoteBytes = 40;

// Some editors and Windows tools start UTF-8 text with U+FEFF; it is no part of the first frame.
constexpr std::string_view kByteOrderMark = "\xef\xbb\xbf";

std::string_view trim_blanks(std::string_view s) {
  const std::size_t first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

std::string quote(std::string_view s) {
  std::string q = "'";
  q.append(s.substr(0, kQuoteBytes));
  if (s.size() > kQuoteBytes) q += "...";
  return q + "'";
}

// Splits decompressed input into lines. The buffer holds one line plus one chunk and grows with
// the longest line seen, up to the line cap.
class LineReader {
 public:
  explicit LineReader(DecompressingInput& input) : input_(input), buffer_(2 * kLineReadChunk) {}

  // The next line without its '\n'; false at the end of the input.
  bool next(std::string_view& line) {
    for (;;) {
      const char* first = buffer_.data() + begin_;
      if (const void* nl = std::memchr(first, '\n', end_ - begin_)) {
        const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - first);
        return take(line, len, len + 1);
      }
      if (end_ - begin_ > kMaxLineBytes) too_long();
      if (eof_) return end_ > begin_ && take(line, end_ - begin_, end_ - begin_);
      if (begin_ > 0) {
        std::memmove(buffer_.data(), first, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
      }
      if (buffer_.size() - end_ < kLineReadChunk)
        buffer_.resize(std::min(2 * buffer_.size(), kMaxLineBytes + kLineReadChunk + 1));
      const std::size_t got = input_.read(std::span(buffer_).subspan(end_));
      if (got == 0) eof_ = true;
      end_ += got;
    }
  }

  // Number of the line last returned by next(), counting from 1.
  std::size_t line_number() const { return line_number_; }

 private:
  bool take(std::string_view& line, std::size_t len, std::size_t advance) {
    if (len > kMaxLineBytes) too_long();
    ++line_number_;
    line = std::string_view(buffer_.data() + begin_, len);
    begin_ += advance;
    return true;
  }
  [[noreturn]] void too_long() const {
    throw Error(input_.source_name() + ":" + std::to_string(line_number_ + 1) + ": line longer than " +
                std::to_string(kMaxLineBytes) + " bytes");
  }

  DecompressingInput& input_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::size_t line_number_ = 0;
};

class CollapsedParser {
 public:
  // `source` names the input in errors; `file_name` is recorded in the metadata.
  CollapsedParser(std::string source, std::string file_name, const CollapsedOptions& options)
      : source_(std::move(source)), file_name_(std::move(file_name)), options_(options) {}

  void parse_line(std::string_view line, std::size_t line_number) {
    line_number_ = line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // Windows line ends
    if (line_number == 1 && line.starts_with(kByteOrderMark)) line.remove_prefix(kByteOrderMark.size());
    if (line.find_first_not_of(" \t") == std::string_view::npos) return;
    if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos)
      fail("NUL byte at column " + std::to_string(nul + 1));

    // Frames may contain spaces (`[main tid=1]`, C++ signatures), so the count is what follows
    // the LAST space.
    const std::size_t space = line.rfind(' ');
    if (space == std::string_view::npos) fail("missing sample count (expected 'frame;frame;... COUNT')");
    const Cost count = parse_count(line.substr(space + 1));
    const std::string_view stack = line.substr(0, space);
    if (stack.empty()) fail("empty stack before the sample count");

    split_frames(stack);
    try {
      builder_.add_stack(frames_, count);
    } catch (const Error& e) {  // node-count or per-node cost overflow, reported with the line
      fail(e.what());
    }
  }

  CallTree finish() && {
    Metadata metadata;
    metadata.mode = "collapsed";
    metadata.metric = "samples";
    metadata.unit = "samples";
    metadata.set_extra("source", file_name_);
    try {
      return std::move(builder_).build(std::move(metadata));
    } catch (const Error& e) {  // the total over all lines overflows
      throw Error(source_ + ": " + e.what());
    }
  }

 private:
  // frames_ := the methods of `stack`'s frames, split as `path` splits what users type
  // (call_sequence_text.h; blanks around a frame are no part of it, so every frame can be typed).
  // Collapsed files list stacks sorted, so a stack mostly repeats the previous one's first frames:
  // those whose text and separator lie in the common prefix of the two lines are kept, and only
  // the rest is split and looked up (hashing every frame was most of an import).
  void split_frames(std::string_view stack) {
    const bool balanced = iface::parentheses_balance(stack);
    std::size_t kept = 0;
    if (balanced == previous_balanced_) {
      const std::size_t common = common_prefix(stack, previous_stack_);
      while (kept < frame_ends_.size() && frame_ends_[kept] < common) ++kept;
    }
    frames_.resize(kept);
    frame_ends_.resize(kept);
    const std::size_t start = kept == 0 ? 0 : frame_ends_[kept - 1] + 1;
    iface::for_each_frame_from(stack, start, balanced, [&](std::string_view raw) {
      const std::string_view frame = trim_blanks(raw);
      if (frame.empty())
        fail("empty frame " + std::to_string(frames_.size() + 1) + " (two adjacent ';' or one at an end)");
      if (frames_.size() == kMaxDepth) fail("stack deeper than " + std::to_string(kMaxDepth) + " frames");
      frames_.push_back(method_of(frame));
      frame_ends_.push_back(static_cast<std::size_t>(raw.data() + raw.size() - stack.data()));
    });
    previous_stack_.assign(stack);
    previous_balanced_ = balanced;
  }

  static std::size_t common_prefix(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t x, y;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) break;
    }
    while (i < n && a[i] == b[i]) ++i;
    return i;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(source_ + ":" + std::to_string(line_number_) + ": " + what);
  }

  Cost parse_count(std::string_view text) const {
    if (text.empty()) fail("missing sample count after the last space");
    if (text[0] == '+' || text[0] == '-')
      fail("sample count " + quote(text) + " has a sign; expected a non-negative integer");
    Cost value = 0;
    for (char c : text) {
      if (c < '0' || c > '9') fail("sample count " + quote(text) + " is not a non-negative integer");
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, c - '0', &value))
        fail("sample count " + quote(text) + " exceeds the 64-bit range");
    }
    return value;
  }

  // Normalising is the expensive part of a line; each distinct raw frame is normalised once.
  MethodId method_of(std::string_view raw) {
    if (auto it = methods_.find(raw); it != methods_.end()) return it->second;
    const MethodId id =
        options_.normalize ? builder_.intern(normalize_frame(raw, options_.keep_signatures)) : builder_.intern(raw);
    methods_.emplace(std::string(raw), id);
    return id;
  }

  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };

  std::string source_;
  std::string file_name_;
  CollapsedOptions options_;
  TreeBuilder builder_;
  std::unordered_map<std::string, MethodId, Hash, std::equal_to<>> methods_;
  std::vector<MethodId> frames_;
  // The previous stack's text, and where each of its frames ends (the offset of its separator).
  std::string previous_stack_;
  std::vector<std::size_t> frame_ends_;
  bool previous_balanced_ = true;
  std::size_t line_number_ = 0;
};

CallTree read_all(DecompressingInput input, std::string file_name, const CollapsedOptions& options) {
  LineReader lines(input);
  CollapsedParser parser(input.source_name(), std::move(file_name), options);
  std::string_view line;
  while (lines.next(line)) parser.parse_line(line, lines.line_number());
  return std::move(parser).finish();
}

}  // namespace

std::optional<std::string> first_line_not_a_stack(std::span<const std::byte> head, std::string_view source) {
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  CollapsedParser parser{std::string(source), std::string(source), {}};
  std::size_t start = 0;
  for (std::size_t number = 1;; ++number) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) return std::nullopt;  // the line goes on past the head
    const std::string_view line = text.substr(start, end - start);
    try {
      parser.parse_line(line, number);
    } catch (const Error& e) {
      return e.what();
    }
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) return std::nullopt;
    start = end + 1;
  }
}

CallTree read_collapsed(const std::filesystem::path& path, const CollapsedOptions& options) {
  return read_all(DecompressingInput::open_file(path, options.max_decompressed_bytes, options.progress),
                  path.filename().string(), options);
}

CallTree read_collapsed_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                              const CollapsedOptions& options) {
  return read_all(DecompressingInput::from_bytes(bytes, std::string(source_name), options.max_decompressed_bytes),
                  std::string(source_name), options);
}

}  // namespace bn::calltree
