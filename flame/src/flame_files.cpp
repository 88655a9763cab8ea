#include <array>

#include "bn/flame/writers.h"

namespace bn::flame {
namespace {

struct FlameExtension {
  std::string_view extension;  // with its dot: ".svg"
  FlameFile file;
};

constexpr std::array kExtensions = {FlameExtension{".html", FlameFile::html}, FlameExtension{".htm", FlameFile::html},
                                    FlameExtension{".svg", FlameFile::svg}};

}  // namespace

std::optional<FlameFile> flame_file_for(std::string_view extension) {
  for (const FlameExtension& e : kExtensions)
    if (e.extension == extension) return e.file;
  return std::nullopt;
}

std::string flame_extensions_text() {
  std::string out;
  for (std::size_t i = 0; i < kExtensions.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == kExtensions.size() ? " or " : ", ").append(kExtensions[i].extension);
  return out;
}

}  // namespace bn::flame
