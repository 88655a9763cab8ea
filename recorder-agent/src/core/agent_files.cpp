#include "core/agent_files.h"

#include <dlfcn.h>
#include <unistd.h>

namespace bn::agent {
namespace {

bool readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

}  // namespace

Status find_agent_files(const std::string& mode, AgentFiles& out) {
  Dl_info info{};
  // Any address inside this shared object names it.
  if (dladdr(reinterpret_cast<void*>(&find_agent_files), &info) == 0 || info.dli_fname == nullptr)
    return Status::error("cannot find where the agent is installed (dladdr failed)");
  std::string dir(info.dli_fname);
  const std::size_t slash = dir.rfind('/');
  dir = slash == std::string::npos ? std::string(".") : dir.substr(0, slash);
  out.runtime_jar = dir + "/bottlenecks-runtime.jar";
  out.transformer_jar = dir + "/bottlenecks-transformer.jar";
  for (const std::string* jar : {&out.runtime_jar, &out.transformer_jar})
    if (!readable(*jar)) return Status::error("mode=" + mode + " needs '" + *jar + "' beside the agent");
  return Status();
}

}  // namespace bn::agent
