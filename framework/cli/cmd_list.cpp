#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/spaces.hpp"
#include "puzzle_flags.hpp"

namespace kpz::cli {
namespace {

struct Row {
  std::string puzzle, variant, summary, status;
  bool bug_hunt = false;
};

// Runs the learner's version of one variant with its default options.
std::string learner_status(const PuzzleSpec& spec, const VariantSpec& v) {
  // Bug hunts pass by luck: only a trace can tell. (The trace build traces every variant.)
  if (const std::string traced = traced_status(spec, v); !traced.empty()) return traced;
  RunRequest req;
  req.variant = v.name;
  req.impl = Impl::exercise;
  req.space = default_space_name();
  req.params = default_params(v);
  req.keep_arrays = false;
  try {
    return spec.run(req).pass ? "solved" : "pending";
  } catch (const UsageError& e) {
    return std::string("cannot run here: ") + e.what();
  }
}

}  // namespace

int cmd_list(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args, {{"json", false, "print JSON"}}, "'kpuzzles list'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles list' takes no arguments");
  std::vector<Row> rows;
  int solved = 0;
  for (const auto& spec : Registry::instance().all())
    for (const auto& v : spec.variants) {
      rows.push_back({spec.name, v.name, v.summary, learner_status(spec, v), v.bug_hunt});
      solved += rows.back().status == "solved";
    }
  const std::string backend = default_space_name();
  if (flags.has("json")) {
    Json list = Json::array();
    for (const auto& r : rows) {
      Json e = Json::object();
      e.set("puzzle", r.puzzle).set("variant", r.variant).set("summary", r.summary).set("status", r.status);
      e.set("bug_hunt", r.bug_hunt);
      list.push(std::move(e));
    }
    Json j = Json::object();
    j.set("backend", backend).set("solved", solved).set("total", rows.size()).set("exercises", std::move(list));
    std::cout << j.dump() << '\n';
    return 0;
  }
  std::cout << "backend " << backend << ": " << solved << " of " << rows.size() << " exercises solved\n";
  for (const auto& r : rows) {
    char line[512];
    std::snprintf(line, sizeof line, "  %-12s --%-18s %-10s %s\n", r.puzzle.c_str(), r.variant.c_str(),
                  r.status.c_str(), r.summary.c_str());
    std::cout << line;
  }
  return 0;
}

}  // namespace kpz::cli
