#pragma once
// Keeps the transformer's own code (bottlenecks.transform, with ASM relocated inside) out of C2,
// HotSpot's optimising JIT: C1 compiles it (profiled first, then without profiling once C2
// refuses a method), and C2 never does. The transformer runs once per class loaded, so what C2
// would gain on it is small, while compiling ASM's large methods (ClassReader.readCode,
// MethodWriter.visitFrame) cost C2 about 2 s of CPU per javac run (bench/LOG.md,
// "Eighth round"). The directive goes through the DiagnosticCommand
// `Compiler.directives_add`, as `jcmd` would add it.

#include <jni.h>

#include <string>
#include <string_view>

namespace bn::agent {

// Whether a method C2 may not compile is compiled by C1 instead, given the JVM's non-default
// flags as the diagnostic command VM.flags prints them: not with -XX:-TieredCompilation or
// -XX:CompilationMode=high-only (C2 alone), where such a method would stay interpreted.
bool c1_takes_what_c2_may_not(std::string_view vm_flags);

// Adds the directive if c1_takes_what_c2_may_not; returns what became of it, for the profile's
// metadata ("C1 only ..." or "C1 and C2: " and why). Never leaves a Java exception pending.
std::string keep_transformer_out_of_c2(JNIEnv* jni);

}  // namespace bn::agent
