#pragma once
// Starting and waiting for the programs `record` runs (the JVM, jcmd): the fork and exec, and
// the exit status, in one place.

#include <sys/types.h>

#include <string>
#include <vector>

namespace bn::cli {

// Starts argv[0] (searched on the PATH) with argv. With `output_fd` >= 0 (a helper such as jcmd,
// whose output the caller reads) its standard output and error both go there, and it gets a
// process group of its own: a terminal's Ctrl-C, which `record --pid` handles, must not kill it
// halfway through an attach. Throws Error if no process could be made; a program that cannot be
// run exits 127 after saying why on its standard error.
pid_t start_child(const std::vector<std::string>& argv, int output_fd = -1);

// Waits for the child to end: its exit status, or 128 + the signal that killed it.
int wait_child(pid_t child);

}  // namespace bn::cli
