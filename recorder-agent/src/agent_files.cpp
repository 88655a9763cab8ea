#include "agent_files.h"

#include <dlfcn.h>
#include <unistd.h>

#include <string_view>

namespace bn::agent {
namespace {

bool readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

}  // namespace

Status find_agent_files(AgentFiles& out) {
  Dl_info info{};
  // Any address inside this shared object names it.
  if (dladdr(reinterpret_cast<void*>(&find_agent_files), &info) == 0 || info.dli_fname == nullptr)
    return Status::error("cannot find where the agent is installed (dladdr failed)");
  std::string dir(info.dli_fname);
  const std::size_t slash = dir.rfind('/');
  dir = slash == std::string::npos ? std::string(".") : dir.substr(0, slash);
  out.runtime_jar = dir + "/bottlenecks-runtime.jar";
  const std::string transformer = dir + "/bottlenecks-transformer.jar";
  for (const std::string* jar : {static_cast<const std::string*>(&out.runtime_jar), &transformer})
    if (!readable(*jar)) return Status::error("mode=calltree needs '" + *jar + "' beside the agent");
  out.transformer_path = transformer;
  std::string_view asm_jars = BN_ASM_JARS;
  while (!asm_jars.empty()) {
    const std::size_t colon = asm_jars.find(':');
    const std::string jar(asm_jars.substr(0, colon));
    if (!readable(jar)) return Status::error("mode=calltree needs ASM's '" + jar + "' (Debian package libasm-java)");
    out.transformer_path += ":" + jar;
    asm_jars = colon == std::string_view::npos ? std::string_view() : asm_jars.substr(colon + 1);
  }
  return Status();
}

}  // namespace bn::agent
