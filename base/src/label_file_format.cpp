#include "bn/base/label_file_format.h"

#include <cstdio>
#include <fstream>
#include <system_error>

#include "bn/base/error.h"
#include "bn/base/output_file.h"

namespace bn::base {
namespace {

constexpr std::string_view kHeaderPrefix = "# bottlenecks labels v";
constexpr int kVersion = 2;
constexpr std::string_view kLabelKeyword = "label ";
constexpr std::string_view kViewKeyword = "view ";
constexpr std::string_view kAspectKeyword = "aspect ";
constexpr std::string_view kIndent = "  ";
// Label files are small; anything larger is not one of ours and is refused before reading.
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

// A name that a line of its own cannot hold as it is: empty, blank at either end (editors trim
// it, the reader would take it for indentation), a control character (a newline would end the
// line), or a leading '"' (it would read as quoted).
bool needs_quotes(std::string_view name) {
  if (name.empty() || name.front() == ' ' || name.front() == '\t' || name.front() == '"' || name.back() == ' ' ||
      name.back() == '\t')
    return true;
  for (const char c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

// Version 2 writes such a name in double quotes with C escapes (\\ \" \n \r \t \xNN); every
// other name stays as it is, so ordinary files read the same as version 1.
std::string field(std::string_view name) {
  if (!needs_quotes(name)) return std::string(name);
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out = "\"";
  for (const char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (b < 0x20 || b == 0x7f) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xf];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The name a field of a version-2 file holds; throws a bare reason (the caller adds file:line).
std::string unquote_field(std::string_view text) {
  if (!text.starts_with('"')) return std::string(text);
  std::string out;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      if (i + 1 != text.size()) throw Error("text after the closing quote of a quoted name");
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == text.size()) break;
    switch (text[i]) {
      case '\\':
      case '"':
        out += text[i];
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'x': {
        const int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
        const int low = high >= 0 ? hex_digit(text[i + 2]) : -1;
        if (low < 0) throw Error("\\x in a quoted name must be followed by two hexadecimal digits");
        out += static_cast<char>(high * 16 + low);
        i += 2;
        break;
      }
      default:
        throw Error("unknown escape \\" + std::string(1, text[i]) +
                    " in a quoted name (known: \\\\ \\\" \\n \\r \\t \\xNN)");
    }
  }
  throw Error("a quoted name without its closing quote");
}

}  // namespace

void write_label_file(const std::filesystem::path& file, const std::string& view, const std::vector<SavedLabel>& labels,
                      const std::vector<SavedAspect>& aspects) {
  std::string text(kHeaderPrefix);
  text += std::to_string(kVersion);
  text +=
      "\n# Each `label NAME` line starts a summary; its call sequence follows, outermost first, one method per line.\n";
  text.append(kViewKeyword).append(field(view)) += '\n';
  for (const SavedAspect& aspect : aspects)
    text.append(kAspectKeyword).append(aspect.name + " = " + aspect.pattern) += '\n';
  for (const SavedLabel& label : labels) {
    text.append(kLabelKeyword).append(field(label.label)) += '\n';
    for (const std::string& m : label.calls) text.append(kIndent).append(field(m)) += '\n';
  }
  base::OutputFile out(file);  // replaced atomically; errors name the file
  if (std::fwrite(text.data(), 1, text.size(), out.stream()) != text.size())
    throw Error("cannot write labels to " + quoted(file) + ": write failed");
  out.commit();
}

LabelFile read_label_file(const std::filesystem::path& file) {
  // Checked before opening: opening a FIFO would wait for a writer that may never come.
  std::error_code status_error;
  const std::filesystem::file_status status = std::filesystem::status(file, status_error);
  if (status.type() == std::filesystem::file_type::not_found || status_error)
    throw Error("cannot read labels from " + quoted(file) + ": cannot open it");
  std::error_code size_error;
  const std::uintmax_t bytes =
      std::filesystem::is_regular_file(status) ? std::filesystem::file_size(file, size_error) : 0;
  if (!std::filesystem::is_regular_file(status) || size_error || bytes > kMaxFileBytes)
    throw Error("cannot read labels from " + quoted(file) + ": not a regular file of at most 64 MiB");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot read labels from " + quoted(file) + ": cannot open it");
  LabelFile result;
  std::vector<SavedLabel>& out = result.labels;
  bool view_seen = false;
  bool quoting = false;  // version 2 and later: quoted names (version 1 files hold names as they are)
  std::string line;
  int number = 0;
  auto fail = [&](const std::string& what) { throw Error(file.string() + ":" + std::to_string(number) + ": " + what); };
  auto name = [&](std::string_view text) {
    try {
      return quoting ? unquote_field(text) : std::string(text);
    } catch (const Error& e) {
      fail(e.what());
    }
    return std::string();
  };
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1 && line.starts_with(kHeaderPrefix)) {
      const std::string_view version = std::string_view(line).substr(kHeaderPrefix.size());
      if (version != "1" && version != "2")
        fail("label file version " + std::string(version) + "; this bottlenecks reads versions 1 and 2");
      quoting = version != "1";
    }
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with(kIndent)) {
      if (out.empty()) fail("method line before the first `label NAME` line");
      const std::string_view method = std::string_view(line).substr(kIndent.size());
      if (method.empty() || method.front() == ' ') fail("expected a method name indented by two spaces");
      out.back().calls.push_back(name(method));
    } else if (line.starts_with(kViewKeyword) && line.size() > kViewKeyword.size()) {
      if (view_seen || !out.empty()) fail("a `view NAME` line must come once, before the first label");
      result.view = name(std::string_view(line).substr(kViewKeyword.size()));
      view_seen = true;
    } else if (line.starts_with(kAspectKeyword)) {
      if (!out.empty()) fail("an `aspect NAME = PATTERN` line must come before the first label");
      const std::size_t equals = line.find(" = ");
      if (equals == std::string::npos || equals <= kAspectKeyword.size() || equals + 3 >= line.size())
        fail("expected `aspect NAME = PATTERN`");
      result.aspects.push_back(
          {line.substr(kAspectKeyword.size(), equals - kAspectKeyword.size()), line.substr(equals + 3), number});
    } else if (line.starts_with(kLabelKeyword) && line.size() > kLabelKeyword.size()) {
      if (!out.empty() && out.back().calls.empty()) fail("label '" + out.back().label + "' has no call sequence");
      out.push_back({name(std::string_view(line).substr(kLabelKeyword.size())), {}, number});
    } else {
      fail("expected `view NAME`, `aspect NAME = PATTERN`, `label NAME` or an indented method name");
    }
  }
  if (in.bad()) fail("read error");
  if (!out.empty() && out.back().calls.empty()) fail("label '" + out.back().label + "' has no call sequence");
  return result;
}

}  // namespace bn::base
