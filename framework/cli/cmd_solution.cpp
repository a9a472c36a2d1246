#include <iostream>

#include "cli.hpp"
#include "docs_text.hpp"
#include "exercises.hpp"
#include "kpz/errors.hpp"
#include "learner.hpp"
#include "puzzle_flags.hpp"
#include "skeleton.hpp"
#include "terminal.hpp"
#include "time_limit.hpp"

namespace kpz::cli {

// kpuzzles solution <puzzle> [--force] [--json]: the reference and the docs page's "The
// solution explained", once every variant of the puzzle passes with the learner's code (now,
// or recorded earlier). --force opens it anyway and is recorded in the progress file.
int cmd_solution(const std::vector<std::string>& args) {
  const PuzzleSpec& spec = find_puzzle(args, "solution");
  const ParsedFlags flags = parse_flags({args.begin() + 1, args.end()}, {{"force", false}, {"json", false}},
                                        "'kpuzzles solution " + spec.name + "'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles solution' takes one puzzle");
  const LearnerPaths& paths = learner_paths();

  std::vector<std::string> variants;
  for (const VariantSpec* v : variants_in_learning_order(spec)) variants.push_back(v->name);
  // Run the learner's code only for variants not already recorded as solved.
  const LearnerState before = load_state();
  std::vector<std::pair<Exercise, bool>> passes;
  auto passes_now = [&](const std::string& name) {
    const VariantSpec* v = find_variant(spec, name);
    const ExerciseResult r = [&] {
      const TimeLimit watchdog(kDefaultTimeLimit, spec.name + " --" + v->name);
      return check_exercise(spec, *v, Impl::exercise, "", false);
    }();
    passes.emplace_back(Exercise{&spec, v}, r.proven_pass());  // a bug hunt's lucky pass is not recorded
    return r.pass;
  };
  const SolutionGate gate = solution_gate(before, spec.name, variants, passes_now, flags.has("force"));
  record_passes(passes);
  const bool json = flags.has("json");
  if (!gate.allowed) {
    std::vector<std::string> todo;
    for (const auto& v : gate.unsolved) todo.push_back("--" + v);
    if (json) {
      Json j = Json::object();
      j.set("puzzle", spec.name).set("allowed", false).set("unsolved", Json::array_of(gate.unsolved));
      std::cout << j.dump() << '\n';
    } else {
      std::cout << "The solution of " << spec.name
                << " opens once every variant passes with your code: " << variants.size() - gate.unsolved.size()
                << " of " << variants.size() << " do (still to do: " << join(todo, ", ") << ").\n"
                << "Stuck? `kpuzzles hint " << spec.name << "` gives hints one tier at a time. `kpuzzles solution "
                << spec.name << " --force` opens it anyway, and the progress file records that you did.\n"
                << "(This checks the code kpuzzles was built from: rebuild after your last edit.)\n";
    }
    return 1;
  }
  require_source_tree(paths, "solution");
  update_state([&](LearnerState& s) {
    s.record_solution(spec.name, gate.forced);
    return true;
  });
  const std::string doc = paths.docs_file(spec.doc_page());
  const std::string explained = markdown_section(read_text_file(doc), "The solution explained");
  const auto pairs = skeleton_pairs(paths.source_dir, spec.name);
  if (json) {
    Json files = Json::array();
    for (const auto& p : pairs) {
      Json f = Json::object();
      f.set("path", relative_to_source(p.reference)).set("text", read_text_file(p.reference));
      files.push(std::move(f));
    }
    Json j = Json::object();
    j.set("puzzle", spec.name).set("allowed", true).set("forced", gate.forced);
    j.set("files", std::move(files)).set("explanation", explained).set("doc", relative_to_source(doc));
    std::cout << j.dump() << '\n';
    return 0;
  }
  const Style style{use_color()};
  if (gate.forced)
    std::cout << style.yellow("Opened with --force before every variant passes; the progress file records it.")
              << "\n\n";
  for (const auto& p : pairs) {
    std::cout << style.bold("== " + relative_to_source(p.reference) + " ==") << '\n'
              << read_text_file(p.reference) << '\n';
  }
  if (!explained.empty())
    std::cout << style.bold("== The solution explained (" + relative_to_source(doc) + ") ==") << "\n\n"
              << render_markdown(explained);
  return 0;
}

}  // namespace kpz::cli
