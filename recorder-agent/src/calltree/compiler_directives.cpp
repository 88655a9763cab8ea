#include "calltree/compiler_directives.h"

#include <sys/mman.h>
#include <unistd.h>

#include "core/jvm_text.h"
#include "core/local_frame.h"

namespace bn::agent {
namespace {

// The directive (HotSpot's JSON-like directive format, src/hotspot/share/compiler/
// directivesParser.cpp): the transformer's classes, C2 excluded. A class pattern ending in '*'
// matches by prefix, so ASM, relocated into the transformer's jar as bottlenecks/transform/asm
// (recorder-agent/java/relocate), is in with its subpackages (commons, tree). A pattern matches
// class names, whatever the loader: naming org/objectweb/asm would keep out of C2 the ASM of a
// program that uses it (cglib, Gradle, JRuby), the very program we measure.
constexpr std::string_view kDirective = R"([{ match: ["bottlenecks/transform/*.*"], c2: { Exclude: true } }])";

// Runs a diagnostic command the way jcmd's would run (com.sun.management.internal's
// DiagnosticCommandImpl, which the JDK's DiagnosticCommand MBean is: a few milliseconds, where the
// platform MBean server takes a tenth of a second of CPU to start). JNI calls its private native
// directly; its library, management_ext, is loaded by PlatformMBeanProviderImpl's initialiser.
class DiagnosticCommands {
 public:
  explicit DiagnosticCommands(JNIEnv* jni) : jni_(jni) {
    const jclass impl = jni->FindClass("com/sun/management/internal/PlatformMBeanProviderImpl") == nullptr
                            ? nullptr
                            : jni->FindClass("com/sun/management/internal/DiagnosticCommandImpl");
    const jmethodID get = impl == nullptr ? nullptr
                                          : jni->GetStaticMethodID(impl, "getDiagnosticCommandMBean",
                                                                   "()Lcom/sun/management/DiagnosticCommandMBean;");
    execute_ = get == nullptr
                   ? nullptr
                   : jni->GetMethodID(impl, "executeDiagnosticCommand", "(Ljava/lang/String;)Ljava/lang/String;");
    // Null where the JVM offers no such commands.
    mbean_ = execute_ == nullptr ? nullptr : jni->CallStaticObjectMethod(impl, get);
    if (jni->ExceptionCheck()) fail();
  }
  bool available() const { return mbean_ != nullptr; }
  // The command's output; empty if it failed.
  std::string run(const std::string& command) {
    if (mbean_ == nullptr) return {};
    const jstring line = jni_->NewStringUTF(command.c_str());
    const auto out = line == nullptr ? nullptr : static_cast<jstring>(jni_->CallObjectMethod(mbean_, execute_, line));
    const char* chars = out == nullptr || jni_->ExceptionCheck() ? nullptr : jni_->GetStringUTFChars(out, nullptr);
    if (chars == nullptr) {
      fail();
      return {};
    }
    std::string text = standard_utf8(chars);
    jni_->ReleaseStringUTFChars(out, chars);
    return text;
  }

 private:
  void fail() {
    jni_->ExceptionClear();
    mbean_ = nullptr;
  }
  JNIEnv* jni_;
  jmethodID execute_ = nullptr;
  jobject mbean_ = nullptr;
};

// The directive in an anonymous in-memory file the JVM reads by its /proc path: nothing to write
// on disk or clean up.
class DirectiveFile {
 public:
  DirectiveFile() : fd_(memfd_create("bottlenecks-compiler-directive", MFD_CLOEXEC)) {
    if (fd_ >= 0 && write(fd_, kDirective.data(), kDirective.size()) != static_cast<ssize_t>(kDirective.size())) {
      close(fd_);
      fd_ = -1;
    }
  }
  DirectiveFile(const DirectiveFile&) = delete;
  DirectiveFile& operator=(const DirectiveFile&) = delete;
  ~DirectiveFile() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace

bool c1_takes_what_c2_may_not(std::string_view vm_flags) {
  return vm_flags.find("-XX:-TieredCompilation") == std::string_view::npos &&
         vm_flags.find("-XX:CompilationMode=high-only") == std::string_view::npos;
}

std::string keep_transformer_out_of_c2(JNIEnv* jni) {
  const LocalFrame frame(jni);
  if (!frame) return "C1 and C2: out of JNI local references";
  DiagnosticCommands commands(jni);
  if (!commands.available()) return "C1 and C2: the JVM offers no diagnostic commands (jdk.management)";
  const std::string flags = commands.run("VM.flags");
  if (flags.empty()) return "C1 and C2: VM.flags failed";
  if (!c1_takes_what_c2_may_not(flags))
    return "C1 and C2: C2 compiles alone here (-XX:-TieredCompilation or CompilationMode=high-only)";
  const DirectiveFile file;
  if (!file.ok()) return "C1 and C2: cannot write the directive (memfd_create)";
  const std::string added = commands.run("Compiler.directives_add " + file.path());
  if (added.find("1 compiler directives added") == std::string::npos)
    return "C1 and C2: Compiler.directives_add said '" + added.substr(0, added.find('\n')) + "'";
  return "C1 only: compiler directive " + std::string(kDirective);
}

}  // namespace bn::agent
