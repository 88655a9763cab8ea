#include "bn/calltree/collapsed.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/tree_builder.h"
#include "bn/calltree/utf8.h"
#include "compress_util.h"
#include "stack_counts.h"

using namespace bn::calltree;
using bn::calltree::testing::StackCounts;
using bn::calltree::testing::stacks_of;
using bn::test::bytes_of;

namespace {

CallTree parse(std::string_view text, const CollapsedOptions& options = {}) {
  const auto bytes = bytes_of(text);
  return read_collapsed_bytes(bytes, "t.collapsed", options);
}

// Every node with nonzero self cost as "a;b;c" → cost: the multiset the format represents.
std::string written(const CallTree& tree) {
  std::ostringstream out;
  write_collapsed(tree, out);
  return out.str();
}

std::string error_of(std::string_view text) {
  try {
    parse(text);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("the figure 2 sample reads as the paper's tree: 7 nodes, total cost 100") {
  const CallTree t = read_collapsed(std::filesystem::path(BN_SOURCE_DIR) / "samples/figure2/figure2.collapsed");
  CHECK(t.node_count() == 7);
  CHECK(t.total_cost() == 100);
  CHECK(t.metadata().mode == "collapsed");
  CHECK(t.metadata().metric == "samples");
  CHECK(t.metadata().unit == "samples");
  CHECK(t.metadata().find_extra("source") == "figure2.collapsed");
  CHECK(stacks_of(t) == StackCounts{{"a", 1}, {"a;b", 2}, {"a;b;c", 10}, {"a;b;c;d", 50}, {"a;c", 5}, {"a;c;e", 32}});
  CHECK(written(t) == "a 1\na;b 2\na;b;c 10\na;b;c;d 50\na;c 5\na;c;e 32\n");
}

TEST_CASE("lines are split at the last space, CRLF and blank lines are accepted, equal stacks add up") {
  const CallTree t =
      parse("\r\n[main tid=7];Foo.bar 3\r\n\n  \nx;y 007\n[main tid=7];Foo.bar 4\nx;y 0\nz 1");  // no final newline
  CHECK(stacks_of(t) == StackCounts{{"[main tid=7];Foo.bar", 7}, {"x;y", 7}, {"z", 1}});
  CHECK(t.node_count() == 6);
  CHECK(parse("z 9223372036854775807\n").total_cost() == 9223372036854775807);
  CHECK(parse("").node_count() == 1);
}

TEST_CASE("frames split at ';' outside parentheses, as `path` splits what users type") {
  CollapsedOptions raw;
  raw.normalize = false;
  const CallTree t = parse("T.main(Ljava/lang/String;)V;T.f(I)V 2\n", raw);
  CHECK(stacks_of(t) == StackCounts{{"T.main(Ljava/lang/String;)V;T.f(I)V", 2}});
  CHECK(t.node_count() == 3);  // the root and two frames
  // Unbalanced parentheses split at every ';', so one stray '(' cannot swallow a stack.
  CHECK(parse("a(;b 1\n", raw).node_count() == 3);
  // With signatures kept, the normalised name keeps its ';' too.
  CollapsedOptions signatures;
  signatures.keep_signatures = true;
  const CallTree j = parse("org/x/T.main(Ljava/lang/String;)V_[j];org/x/T.f(I)V_[j] 1\n", signatures);
  CHECK(j.node_count() == 3);
  CHECK(j.find_method("org.x.T.main(Ljava/lang/String|)V").has_value());  // as async-profiler writes it
}

TEST_CASE("a byte-order mark, blanks around frames and stray bytes are not part of any name") {
  CHECK(stacks_of(parse("\xef\xbb\xbf"
                        "a;b 1\n")) == StackCounts{{"a;b", 1}});
  CHECK(stacks_of(parse(" a ;\tb  1\n")) == StackCounts{{"a;b", 1}});
  // Bytes that are not UTF-8 become U+FFFD, so the tree can be written in the native format.
  const CallTree t = parse("a\xff;b 1\n");
  CHECK(t.find_method("a\xef\xbf\xbd").has_value());
  for (NodeId n = 1; n < t.node_count(); ++n) CHECK(is_valid_utf8(t.node_name(n)));
}

TEST_CASE("every malformed line is reported with file, line and what is wrong") {
  CHECK(error_of("a 1\n\nab\n") == "t.collapsed:3: missing sample count (expected 'frame;frame;... COUNT')");
  CHECK(error_of("a 1 ") == "t.collapsed:1: missing sample count after the last space");
  CHECK(error_of("a +1") == "t.collapsed:1: sample count '+1' has a sign; expected a non-negative integer");
  CHECK(error_of("a -1") == "t.collapsed:1: sample count '-1' has a sign; expected a non-negative integer");
  CHECK(error_of("a 1.5") == "t.collapsed:1: sample count '1.5' is not a non-negative integer");
  CHECK(error_of("a b") == "t.collapsed:1: sample count 'b' is not a non-negative integer");
  CHECK(error_of("a 9223372036854775808") ==
        "t.collapsed:1: sample count '9223372036854775808' exceeds the 64-bit range");
  CHECK(error_of(" 5") == "t.collapsed:1: empty stack before the sample count");
  CHECK(error_of("a;;b 5") == "t.collapsed:1: empty frame 2 (two adjacent ';' or one at an end)");
  CHECK(error_of(";a 5") == "t.collapsed:1: empty frame 1 (two adjacent ';' or one at an end)");
  CHECK(error_of("a; 5") == "t.collapsed:1: empty frame 2 (two adjacent ';' or one at an end)");
  CHECK(error_of(std::string_view("a\0b 5", 5)) == "t.collapsed:1: NUL byte at column 2");
  CHECK(error_of("a 9223372036854775807\na 1") == "t.collapsed:2: cost of a call-tree node exceeds the 64-bit range");
  CHECK(error_of("a 9223372036854775807\nb 1") ==
        "t.collapsed: invalid call tree: costs add up to more than a 64-bit total");
}

TEST_CASE("over-long lines and over-deep stacks are refused, not buffered") {
  std::string long_line(std::size_t{1} << 20, 'x');
  CHECK(error_of("a 1\n" + long_line + " 1\n") == "t.collapsed:2: line longer than 1048576 bytes");
  CHECK(error_of("a 1\n" + long_line + long_line) == "t.collapsed:2: line longer than 1048576 bytes");
  std::string deep;
  for (int i = 0; i < 65537; ++i) deep += "f;";
  deep.back() = ' ';
  CHECK(error_of(deep + "1") == "t.collapsed:1: stack deeper than 65536 frames");
  deep.erase(0, 2);
  CHECK(parse(deep + "1").node_count() == 65537);
}

TEST_CASE("a missing file or a directory is reported by name") {
  CHECK_THROWS_WITH_AS(read_collapsed("/nonexistent/x.collapsed"),
                       "cannot open '/nonexistent/x.collapsed': No such file or directory", bn::Error);
  const std::string dir = std::filesystem::temp_directory_path().string();
  const std::string expected = dir + ": read error after byte 0: Is a directory";
  CHECK_THROWS_WITH_AS(read_collapsed(dir), expected.c_str(), bn::Error);
}

TEST_CASE("a hand-written async-profiler profile imports with normalised, comparable names") {
  const std::string text =
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeQuery_[j];"
      "org/h2/Select.query_[j];org/h2/Select.queryFlat_[i] 120\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeQuery_[j];"
      "org/h2/Select.query_[j];org/h2/Select.queryFlat_[j];org/h2/Index.find_[j] 300\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeQuery_[j];"
      "org/h2/Select.query_[j];org/h2/Select.queryFlat_[j];org/h2/Index.find_[j];java/util/HashMap.get_[i] 45\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeUpdate_[0] 7\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeUpdate_[1];"
      "org/h2/Log.write_[j];java/io/FileOutputStream.writeBytes_[j];writeBytes;__GI___libc_write;"
      "entry_SYSCALL_64_after_hwframe_[k];do_syscall_64_[k];ksys_write_[k];vfs_write_[k] 60\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeUpdate_[j];"
      "org/h2/Log.write_[j];java/io/FileOutputStream.writeBytes_[j];writeBytes;__GI___libc_write 5\n"
      "[pool-1-thread-1 tid=2];java/lang/Thread.run_[j];java/util/concurrent/ThreadPoolExecutor$Worker.run_[j];"
      "org/h2/Task$$Lambda$14/0x0000000800c02a00.run_[j];org/h2/Task.lambda$submit$0_[j] 80\n"
      "[pool-1-thread-1 tid=2];java/lang/Thread.run_[j];java/util/concurrent/ThreadPoolExecutor$Worker.run_[j];"
      "org/h2/Task$$Lambda$15/0x0000000800c02c40.run_[j];org/h2/Task.lambda$submit$0_[j] 20\n"
      "[pool-1-thread-1 tid=2];java/lang/Thread.run_[j];java/util/concurrent/ThreadPoolExecutor$Worker.run_[j];"
      "org/h2/Task$$Lambda.0x000000080106d800.run_[j];org/h2/Task.lambda$submit$1_[j];"
      "jdk/internal/reflect/GeneratedMethodAccessor31.invoke_[j];org/h2/Api.call_[j] 11\n"
      "[pool-1-thread-1 tid=2];java/lang/Thread.run_[j];java/util/concurrent/ThreadPoolExecutor$Worker.run_[j];"
      "org/h2/Task$$Lambda.0x000000080106d800.run_[j];org/h2/Task.lambda$submit$1_[j];"
      "jdk/proxy2/$Proxy12.call_[j];java/lang/invoke/LambdaForm$MH/0x0000000800c0c400.invoke_[j] 9\n"
      "[pool-1-thread-1 tid=2];java/lang/Thread.run_[j];java/util/concurrent/ThreadPoolExecutor$Worker.run_[j];"
      "java/util/concurrent/LinkedBlockingQueue.take_[j];jdk/internal/misc/Unsafe.park_[j];"
      "Unsafe_Park;Parker::park(bool, long);__pthread_cond_wait;futex_wait_[k] 2\n"
      "[GC Thread#0 tid=3];GCTaskThread::run();G1ParTask::work(unsigned int);"
      "G1ParScanThreadState::trim_queue() 30\n"
      "[GC Thread#0 tid=3];GCTaskThread::run();G1ParTask::work(unsigned int);"
      "G1ParScanThreadState::trim_queue();G1ParScanThreadState::copy_to_survivor_space(G1HeapRegionAttr, oopDesc*, "
      "markWord) 25\n"
      "[C2 CompilerThread0 tid=4];thread_native_entry(Thread*);JavaThread::run();"
      "CompileBroker::compiler_thread_loop();C2Compiler::compile_method(ciEnv*, ciMethod*, int, bool, DirectiveSet*) "
      "40\n"
      "[C2 CompilerThread0 tid=4];thread_native_entry(Thread*);JavaThread::run();"
      "CompileBroker::compiler_thread_loop();C2Compiler::compile_method(ciEnv*, ciMethod*, int, bool, DirectiveSet*);"
      "PhaseIdealLoop::build_and_optimize() 35\n"
      "[unknown];[unknown_Java] 3\n"
      "[tid=99];start_thread;/usr/lib/jvm/lib/server/libjvm.so 1\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeQuery_[j];"
      "org/h2/Select.query_[j];java/util/ArrayList.sort_[j];java/util/TimSort.sort_[j];"
      "java/util/TimSort.binarySort_[j] 33\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeQuery_[j];"
      "org/h2/Select.query_[j];java/util/ArrayList.sort_[j];java/util/TimSort.sort_[j];"
      "java/util/TimSort.binarySort_[j];org/h2/Select$$Lambda$40/0x0000000800d1a000.compare_[i] 14\n"
      "[main tid=1];java/lang/Thread.run_[j];org/h2/Server.loop_[j];org/h2/Command.executeQuery_[j];"
      "org/h2/Select.query_[j];java/util/ArrayList.sort_[j];java/util/TimSort.sort_[j];"
      "java/util/TimSort.binarySort_[j];org/h2/Select$$Lambda$40/0x0000000800d1a000.compare_[j] 6\n";
  const CallTree t = parse(text);
  CHECK(t.total_cost() == 846);
  for (const char* name :
       {"java.lang.Thread.run", "org.h2.Select.queryFlat", "org.h2.Task$$Lambda.run", "org.h2.Task.lambda$submit$0",
        "jdk.internal.reflect.GeneratedMethodAccessor.invoke", "jdk.proxy.$Proxy.call",
        "java.lang.invoke.LambdaForm$MH.invoke", "org.h2.Select$$Lambda.compare", "do_syscall_64", "futex_wait",
        "Parker::park(bool, long)", "G1ParTask::work(unsigned int)", "[GC Thread#0 tid=3]", "__GI___libc_write",
        "/usr/lib/jvm/lib/server/libjvm.so", "[unknown_Java]"}) {
    CAPTURE(name);
    CHECK(t.find_method(name).has_value());
  }
  for (const char* raw : {"java/lang/Thread.run_[j]", "java/lang/Thread.run", "do_syscall_64_[k]",
                          "org/h2/Task$$Lambda$14/0x0000000800c02a00.run_[j]"}) {
    CAPTURE(raw);
    CHECK(!t.find_method(raw).has_value());
  }
  // Inlined and compiled copies of one method merge, and two lambda instances share a node.
  const StackCounts s = stacks_of(t);
  const std::string pool =
      "[pool-1-thread-1 tid=2];java.lang.Thread.run;java.util.concurrent.ThreadPoolExecutor$Worker.run;";
  CHECK(s.at(pool + "org.h2.Task$$Lambda.run;org.h2.Task.lambda$submit$0") == 100);
  CHECK(s.at("[main tid=1];java.lang.Thread.run;org.h2.Server.loop;org.h2.Command.executeQuery;org.h2.Select.query;"
             "java.util.ArrayList.sort;java.util.TimSort.sort;java.util.TimSort.binarySort;"
             "org.h2.Select$$Lambda.compare") == 20);
  CHECK(t.nodes_of(*t.find_method("org.h2.Command.executeUpdate")).size() == 1);
  // Written back and read again, nothing changes.
  CHECK(stacks_of(parse(written(t))) == s);
  // Verbatim names when normalisation is off.
  const CallTree raw = parse(text, {.normalize = false});
  CHECK(raw.find_method("org/h2/Task$$Lambda$14/0x0000000800c02a00.run_[j]").has_value());
  CHECK(raw.node_count() > t.node_count());
}

TEST_CASE("signatures are dropped unless the options keep them") {
  const std::string text = "Main.main([Ljava/lang/String|)V;Foo.f(I)V 1\nMain.main([Ljava/lang/String|)V;Foo.f(J)V 2\n";
  CHECK(stacks_of(parse(text)) == StackCounts{{"Main.main;Foo.f", 3}});
  const CallTree kept = parse(text, {.keep_signatures = true});
  CHECK(stacks_of(kept) == StackCounts{{"Main.main([Ljava/lang/String|)V;Foo.f(I)V", 1},
                                       {"Main.main([Ljava/lang/String|)V;Foo.f(J)V", 2}});
}

TEST_CASE("writing refuses names and costs the format cannot represent") {
  auto tree_with = [](std::string_view name, Cost cost) {
    TreeBuilder b;
    const std::vector<MethodId> stack{b.intern("ok"), b.intern(name)};
    b.add_stack(stack, cost);
    return std::move(b).build({});
  };
  CHECK_THROWS_WITH_AS(written(tree_with("a;b", 1)),
                       "cannot write collapsed stacks: the name of node 2 contains ';' outside parentheses", bn::Error);
  CHECK_THROWS_WITH_AS(written(tree_with(" a", 1)),
                       "cannot write collapsed stacks: the name of node 2 starts with a blank", bn::Error);
  // A JVM signature keeps its ';' inside parentheses, unless another frame leaves one open.
  CHECK(written(tree_with("T.f(Ljava/lang/String;)V", 1)) == "ok;T.f(Ljava/lang/String;)V 1\n");
  {
    TreeBuilder b;
    const std::vector<MethodId> stack{b.intern("open("), b.intern("T.f(Ljava/lang/String;)V")};
    b.add_stack(stack, 1);
    CHECK_THROWS_WITH_AS(written(std::move(b).build({})),
                         doctest::Contains("the stack of node 2 would not split back into its frames"), bn::Error);
  }
  CHECK_THROWS_WITH_AS(written(tree_with("a\nb", 1)),
                       "cannot write collapsed stacks: the name of node 2 contains a newline", bn::Error);
  CHECK_THROWS_WITH_AS(written(tree_with(std::string_view("a\0", 2), 1)),
                       "cannot write collapsed stacks: the name of node 2 contains a NUL byte", bn::Error);
  CHECK_THROWS_WITH_AS(written(tree_with("", 1)), "cannot write collapsed stacks: the name of node 2 is empty",
                       bn::Error);
  CHECK_THROWS_WITH_AS(written(tree_with("x", -4)), "cannot write collapsed stacks: node 2 has negative cost -4",
                       bn::Error);
  TreeBuilder b;
  b.add_stack({}, 3);
  CHECK_THROWS_WITH_AS(written(std::move(b).build({})),
                       "cannot write collapsed stacks: the synthetic root has cost 3 (an empty stack)", bn::Error);
  CHECK(written(tree_with("a b", 0)) == "");  // zero-cost nodes have no line
}

TEST_CASE("no written file can start like compressed data: names are UTF-8, and the magics are not") {
  // Found by the fuzzer when names could hold any bytes: a first line "\x1f\x8b\x08x;y 1" was
  // read back as gzip. Such bytes now become U+FFFD as they are read.
  const CallTree t = parse("a 0\n\x1f\x8b\x08x;y 1\n(\xb5/\xfd 2\n");
  const std::string out = written(t);
  CHECK(out == "\x1f\xef\xbf\xbd\x08x;y 1\n(\xef\xbf\xbd/\xef\xbf\xbd 2\n");
  CHECK(stacks_of(parse(out)) == stacks_of(t));
  // A plain file cannot start with a magic itself: it is taken for compressed data.
  CHECK_THROWS_WITH_AS(parse("(\xb5/\xfd 2\n"), "t.collapsed: truncated zstd data (7 compressed bytes)", bn::Error);
}

TEST_CASE("write then read gives back the same stacks (random stacks, names with spaces)") {
  // As read: blanks around a frame dropped, stray bytes as U+FFFD.
  auto as_read = [](std::string_view name) {
    const std::size_t first = name.find_first_not_of(" \t");
    return repaired_utf8(name.substr(first, name.find_last_not_of(" \t") - first + 1));
  };
  const std::vector<std::string> names = {"a",
                                          "b c",
                                          " lead",
                                          "trail ",
                                          "x\ty",
                                          "Foo.bar",
                                          "org/h2/Foo.bar_[j]",
                                          "T$$Lambda$3/0x12.run",
                                          "[main tid=1]",
                                          "ns::f(int, char)",
                                          "\xc3\xa9t\xc3\xa9",
                                          "\xff\xfe",
                                          "12",
                                          "a b 7",
                                          "r\rr"};
  std::mt19937 rng(2004);
  for (int round = 0; round < 200; ++round) {
    std::string text;
    StackCounts expected;
    const int lines = std::uniform_int_distribution<int>(0, 40)(rng);
    for (int l = 0; l < lines; ++l) {
      std::string stack, read_stack;
      const int depth = std::uniform_int_distribution<int>(1, 8)(rng);
      for (int d = 0; d < depth; ++d) {
        const std::string& name = names[std::uniform_int_distribution<std::size_t>(0, names.size() - 1)(rng)];
        stack += (d ? ";" : "") + name;
        read_stack += (d ? ";" : "") + as_read(name);
      }
      const Cost count = std::uniform_int_distribution<Cost>(0, 1000)(rng);
      text += stack + " " + std::to_string(count) + (l % 3 == 0 ? "\r\n" : "\n");
      if (count != 0) expected[read_stack] += count;
    }
    CAPTURE(text);
    const CallTree verbatim = parse(text, {.normalize = false});
    CHECK(stacks_of(verbatim) == expected);
    CHECK(stacks_of(parse(written(verbatim), {.normalize = false})) == expected);
    const CallTree normalised = parse(text);
    CHECK(stacks_of(parse(written(normalised))) == stacks_of(normalised));
  }
}

TEST_CASE("gzip and zstd files are recognised by content whatever their extension") {
  const std::string text = "a 1\na;b 2\na;b;c 10\na;b;c;d 50\na;c 5\na;c;e 32\n";
  const auto dir = std::filesystem::temp_directory_path() / ("bn_collapsed_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& [name, bytes] :
       {std::pair{"gz.txt", bn::test::gzip(text)}, std::pair{"zst.gz", bn::test::zstd(text)},
        std::pair{"plain.zst", bytes_of(text)}}) {
    // A copy: clang 14 cannot capture a structured binding in CAPTURE's lambda (C++20 allows it).
    const std::string file = name;
    CAPTURE(file);
    const auto path = dir / file;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    const CallTree t = read_collapsed(path);
    CHECK(t.total_cost() == 100);
    CHECK(t.node_count() == 7);
    CHECK(t.metadata().find_extra("source") == file);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a compressed bomb stops at the cap with an error naming it") {
  // 96 MiB of valid lines in a few kilobytes; the cap is lowered so the test stays fast, and the
  // reader's memory stays at one line buffer whatever the expansion.
  const std::string line = "java/lang/Thread.run;Foo.bar 1\n";
  const std::size_t copies = (std::size_t{96} << 20) / line.size();
  const CollapsedOptions capped{.max_decompressed_bytes = std::uint64_t{32} << 20};
  for (const auto& bomb : {bn::test::gzip(line, copies), bn::test::zstd(line, copies)}) {
    CHECK(bomb.size() < (std::size_t{1} << 20));
    CHECK_THROWS_WITH_AS(read_collapsed_bytes(bomb, "bomb", capped),
                         doctest::Contains("data expands beyond the cap of 33554432 bytes (a decompression bomb?)"),
                         bn::Error);
  }
  const auto small = bn::test::zstd(line, 1000);
  CHECK(read_collapsed_bytes(small, "ok", capped).total_cost() == 1000);
}

TEST_CASE("an annotation after a blank is dropped with the blank, so the tree writes back (fuzzer)") {
  // fuzz_collapsed_reader: `q3 _[j]` read as `q3 `, which the writer refused (a name ending with a
  // blank).
  const CallTree t = parse("main;q3 _[j] 2\nmain;q3 1\n");
  CHECK(written(t) == "main;q3 3\n");
  CHECK(written(parse(written(t))) == written(t));
}
