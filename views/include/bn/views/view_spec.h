#pragma once
// What a user asks to see of one recording (seed 000 sec. 4, "Views and Typed Time"): the call
// tree as recorded (optionally only its runnable or running threads), the Server View (CPU time
// of all threads) or the Thread View of one thread class (all the time of its instances), under
// a model of how runnable threads share the CPUs (sec. 5.2, Table 1, and its generalisations).
// docs/views.md describes each for users.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bn::views {

enum class ViewKind { tree, server, thread };

// A filter of the tree view by thread state: every record, only runnable threads (one sample
// each), or only running time (each runnable thread's share of a CPU, as the Server View counts
// it, without the view's normalisation).
enum class States { all, runnable, running };

// How threads form classes: the Thread object's class (seed 000's definition), the thread's name
// with every run of digits folded to '#' (pool-3-thread-17 -> pool-#-thread-#), or by kind: the
// program's own Thread subclasses by class and every other thread by its folded name. Most
// servers run plain java.lang.Threads told apart only by name, and the JDK's own subclasses
// (InnocuousThread, ForkJoinWorkerThread) say nothing of what a thread does, while a subclass the
// program wrote is the kind of role seed 000 sec. 4 means (its SMTP_sender). By class, `main`
// and the JVM's Signal Dispatcher would be one class.
enum class Grouping { by_kind, by_class, by_name };

// How a runnable thread's sample is split between :RUN, :LOAD and :PRIO.
//   paper     Table 1 of seed 000: one CPU.
//   cpus N    Table 1 on N CPUs: with h higher-priority and e equal-priority runnable threads
//             (t included), t runs with share min(1, max(0, N - h) / e); :PRIO gets the whole
//             sample when h >= N, else :RUN the share and :LOAD the rest. N = 1 is the paper.
//   measured  the recorded schedstat nanoseconds: time on a CPU is :RUN, time in a run queue
//             :LOAD (or :PRIO when h >= N, N the recorded CPU count), the rest of a runnable
//             interval :WAIT (e.g. blocked in a system call while JVMTI says RUNNABLE).
struct Model {
  enum class Kind { paper, cpus, measured };
  Kind kind = Kind::paper;
  std::uint32_t cpus = 1;  // N; the paper model has 1, measured the recorded count (or 1)

  friend bool operator==(const Model&, const Model&) = default;
};

struct ViewSpec {
  ViewKind kind = ViewKind::tree;
  std::string thread_class;     // thread view: the class, as `grouping` names it
  States states = States::all;  // tree view only
  std::optional<Model> model;   // nullopt: chosen from what the recording holds
  Grouping grouping = Grouping::by_kind;
  // Server and Thread Views as amounts of time, not divided by the recording's duration or the
  // class's instances (seed 000 sec. 5.2): what A minus B subtracts, so that a run that spent
  // less CPU shows less, whatever its duration (docs/compare.md).
  bool amounts = false;

  friend bool operator==(const ViewSpec&, const ViewSpec&) = default;
};

// "paper", "cpus 4", "measured".
std::string to_string(const Model& model);
// What `set model` accepts: "paper", "cpus N" (N from 1 to 4096) or "measured". Throws
// bn::Error naming the text and the accepted forms.
Model parse_model(std::string_view text);

std::string_view to_string(States states);
// "running", "runnable" or "all"; throws bn::Error otherwise.
States parse_states(std::string_view text);

std::string_view to_string(Grouping grouping);  // "kind", "class", "name"
// "kind", "class" or "name"; throws bn::Error otherwise.
Grouping parse_grouping(std::string_view text);

// One line naming the view: "tree", "tree (runnable threads)", "server", "thread Sender".
std::string describe(const ViewSpec& spec);

}  // namespace bn::views
