#include "bn/repl/terminal.h"

#include <editline/readline.h>
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "bn/base/interruption.h"
#include "bn/repl/dispatch.h"
#include "bn/repl/step_progress.h"
#include "bn/search/text.h"

namespace bn::repl {
namespace {

constexpr int kHistoryLength = 1000;

// The readline API takes plain C callbacks without a user pointer, so the completer reaches
// the session through these two variables, set only while run_terminal runs.
Context* g_context = nullptr;
std::vector<std::string> g_candidates;

char* next_candidate(const char*, int state) {
  static std::size_t index = 0;
  if (state == 0) index = 0;
  if (index >= g_candidates.size()) return nullptr;
  return strdup(g_candidates[index++].c_str());
}

char** attempt_completion(const char* text, int, int end) {
  const Completion c = complete(*g_context, std::string_view(rl_line_buffer, static_cast<std::size_t>(end)));
  // After a method name the user may type ';' and the next one: a blank there would split the
  // call sequence into two words.
  rl_completion_append_character = c.call_sequence ? 0 : int{' '};
  if (c.files) return nullptr;  // readline falls back to completing file names
  rl_attempted_completion_over = 1;
  g_candidates = c.words;
  if (g_candidates.empty()) return nullptr;
  return rl_completion_matches(text, next_candidate);
}

// Asked when `quit` or Ctrl-D would lose labels. Ctrl-C stays; an end of input here as
// well ends the session without an answer: the caller keeps the labels.
enum class QuitAnswer { kDiscard, kStay, kNoAnswer };
QuitAnswer ask_quit_without_labels() {
  errno = 0;
  char* raw = readline("quit without saving them? [y/N] ");
  if (!raw && errno == EINTR) {
    std::cout << "\n";
    return QuitAnswer::kStay;
  }
  if (!raw) {
    std::cout << "\n";
    return QuitAnswer::kNoAnswer;
  }
  const std::string answer(search::trim(raw));
  std::free(raw);
  return search::equals_nocase(answer, "y") || search::equals_nocase(answer, "yes") ? QuitAnswer::kDiscard
                                                                                    : QuitAnswer::kStay;
}

std::string history_file() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.bottlenecks_history" : std::string();
}

}  // namespace

bool run_terminal(Runner& runner, std::string_view banner) {
  g_context = &runner.context();
  // Blanks alone separate words: a call sequence "a;b;c" completes as one word.
  // libedit's completer reads rl_basic_word_break_characters, GNU readline the other one.
  static char word_breaks[] = " \t";
  rl_basic_word_break_characters = word_breaks;
  rl_completer_word_break_characters = word_breaks;
  rl_attempted_completion_function = attempt_completion;
  const std::string history = history_file();
  stifle_history(kHistoryLength);
  if (!history.empty()) read_history(history.c_str());

  // A stray Ctrl-C must not end the session and lose unsaved labels: at the prompt it abandons
  // the line being typed (readline returns with EINTR), during a command it stops a long search
  // at its next step (base/interruption.h), and `quit` or Ctrl-D end the session.
  struct sigaction interrupt {
  }, previous_sigint{};
  interrupt.sa_handler = [](int) { base::request_interruption(); };
  sigemptyset(&interrupt.sa_mask);
  sigaction(SIGINT, &interrupt, &previous_sigint);
  StepProgress progress(std::cerr);
  base::set_step_listener(
      [&progress](std::string_view what, std::size_t done, std::size_t total) { progress.on_step(what, done, total); });
  runner.set_before_output([&progress] { progress.erase(); });
  std::cout << banner << "\n";
  const std::string prompt(Runner::kPrompt);
  bool discarded = false;
  for (;;) {
    errno = 0;
    char* raw = readline(prompt.c_str());
    if (!raw && errno == EINTR) {
      std::cout << "\n";
      continue;
    }
    const bool typed = raw != nullptr;
    std::string line = "quit";  // end of input (Ctrl-D) ends the session like `quit`
    if (typed) {
      line = raw;
      std::free(raw);
    } else {
      std::cout << "\n";
    }
    if (search::trim(line).empty()) continue;
    if (typed) {
      add_history(line.c_str());
      if (!history.empty()) write_history(history.c_str());
    }
    // Several commands on one line, as in -c; the first that fails ends the line.
    LineResult result = LineResult::kOk;
    for (const std::string_view command : split_commands(line)) {
      base::clear_interruption();
      progress.begin();
      if ((result = runner.run_line(command, "")) != LineResult::kOk) break;
    }
    if (result != LineResult::kQuit) continue;
    if (!runner.context().session().any_labels_dirty()) break;
    const QuitAnswer answer = ask_quit_without_labels();
    if (answer == QuitAnswer::kStay) continue;
    discarded = answer == QuitAnswer::kDiscard;
    break;
  }
  sigaction(SIGINT, &previous_sigint, nullptr);
  base::set_step_listener({});
  runner.set_before_output({});
  g_context = nullptr;
  return discarded;
}

}  // namespace bn::repl
