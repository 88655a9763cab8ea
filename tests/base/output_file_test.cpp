// Every file the tool writes (bn/base/output_file.h): regular targets replaced atomically through
// an exclusively created temporary file, devices and FIFOs written in place, "-" as standard
// output.

#include "bn/base/output_file.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "bn/base/error.h"
#include "temp_dir.h"

using bn::base::OutputFile;
using bn::test::TempDir;

namespace {

std::string content_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write(const std::filesystem::path& target, const std::string& text) {
  OutputFile f(target);
  std::fputs(text.c_str(), f.stream());
  f.commit();
}

}  // namespace

TEST_CASE("a committed output replaces a regular target and leaves nothing beside it") {
  TempDir dir;
  const auto path = dir.path() / "p.txt";
  std::ofstream(path) << "old";
  write(path, "new");
  CHECK(content_of(path) == "new");
  CHECK(dir.entries() == std::vector<std::string>{"p.txt"});
}

TEST_CASE("an output that is not committed leaves the target untouched") {
  TempDir dir;
  const auto path = dir.path() / "p.txt";
  std::ofstream(path) << "old";
  {
    OutputFile f(path);
    std::fputs("new", f.stream());
    CHECK(dir.entries().size() == 2);  // the target and the temporary file beside it
  }
  CHECK(dir.entries() == std::vector<std::string>{"p.txt"});
  CHECK(content_of(path) == "old");
}

TEST_CASE("symlinks planted at the temporary names are neither followed nor truncated") {
  TempDir dir;
  const auto victim = dir.path() / "victim";
  std::ofstream(victim) << "precious";
  const auto target = dir.path() / "labels.txt";
  // Every name this process would try first: the old scheme's and the numbered ones.
  const std::string stem = target.string() + ".tmp." + std::to_string(::getpid());
  std::filesystem::create_symlink(victim, stem);
  for (int n = 0; n < 90; ++n) std::filesystem::create_symlink(victim, stem + "." + std::to_string(n));
  write(target, "labels");
  CHECK(content_of(victim) == "precious");
  CHECK(content_of(target) == "labels");
}

TEST_CASE("a target that is a directory is refused by name") {
  TempDir dir;
  const auto target = dir.path() / "a-directory";
  std::filesystem::create_directory(target);
  CHECK_THROWS_WITH_AS(OutputFile{target}, ("cannot write '" + target.string() + "': it is a directory").c_str(),
                       bn::Error);
  CHECK(dir.entries() == std::vector<std::string>{"a-directory"});
}

TEST_CASE("a failed rename removes the temporary file and names the target") {
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "sub");
  const auto target = dir.path() / "sub" / "p.txt";
  OutputFile f(target);
  std::fputs("x", f.stream());
  std::filesystem::remove_all(dir.path() / "sub");  // the directory vanishes before the rename
  CHECK_THROWS_WITH_AS(f.commit(), doctest::Contains(("cannot write '" + target.string() + "'").c_str()), bn::Error);
  CHECK(dir.entries().empty());
}

TEST_CASE("an existing FIFO is written in place, not replaced by a regular file") {
  TempDir dir;
  const auto fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = content_of(fifo); });
  write(fifo, "through the pipe");
  reader.join();
  CHECK(received == "through the pipe");
  struct stat st {};
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(dir.entries() == std::vector<std::string>{"pipe"});
}

TEST_CASE("a symlink to a device such as /dev/stdout is written through, the link kept") {
  TempDir dir;
  const auto link = dir.path() / "out";
  std::filesystem::create_symlink("/dev/null", link);
  write(link, "discarded");
  CHECK(std::filesystem::is_symlink(link));
  CHECK(dir.entries() == std::vector<std::string>{"out"});
}

TEST_CASE("a symlink to a regular file: the file is replaced atomically and the link kept") {
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "runs");
  const auto file = dir.path() / "runs" / "run3.bnp";
  std::ofstream(file) << "old";
  const auto link = dir.path() / "latest.bnp";
  std::filesystem::create_symlink(file, link);
  write(link, "new");
  CHECK(std::filesystem::is_symlink(link));
  CHECK(content_of(file) == "new");
  CHECK(dir.entries() == std::vector<std::string>{"latest.bnp", "runs"});
}

TEST_CASE("/dev/fd/N writes to the inherited descriptor and leaves it open") {
  int ends[2];
  REQUIRE(::pipe(ends) == 0);
  write("/dev/fd/" + std::to_string(ends[1]), "via the descriptor");
  CHECK(::fcntl(ends[1], F_GETFD) != -1);  // still open
  ::close(ends[1]);
  char buffer[64] = {};
  const ssize_t n = ::read(ends[0], buffer, sizeof buffer);
  ::close(ends[0]);
  CHECK(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0) == "via the descriptor");
}

TEST_CASE("a descriptor that is not open is refused by name") {
  CHECK_THROWS_WITH_AS(OutputFile{"/dev/fd/987"}, doctest::Contains("cannot write '/dev/fd/987': it names no open"),
                       bn::Error);
}

TEST_CASE("'-' and /dev/stdout are standard output, never renamed over") {
  for (const char* name : {"-", "/dev/stdout"}) {
    OutputFile f(name);
    CHECK(f.stream() == stdout);
    f.commit();
  }
  CHECK(OutputFile("-").describe() == "standard output");
  CHECK(std::filesystem::is_symlink("/dev/stdout"));
}
