#include "kpz/registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "kpz/errors.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/spaces.hpp"

namespace kpz {

std::string_view to_string(Impl impl) {
  return impl == Impl::reference ? "reference" : "exercise";
}

std::string_view to_string(Track track) {
  return track == Track::stretch ? "stretch" : "core";
}

void Params::set(const std::string& name, std::int64_t value, bool given) {
  values_[name] = value;
  if (given) given_.insert(name);
}

std::int64_t Params::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("puzzle option '" + name + "' was not declared");
  return it->second;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

void Registry::add(PuzzleSpec spec) {
  const auto bug = [&](const std::string& what) { return std::logic_error("puzzle '" + spec.name + "': " + what); };
  if (find(spec.name)) throw bug("registered twice");
  if (spec.variants.empty()) throw bug("no variants");
  for (auto v = spec.variants.begin(); v != spec.variants.end(); ++v)
    for (auto w = spec.variants.begin(); w != v; ++w) {
      if (w->name == v->name) throw bug("two variants named '" + v->name + "'");
      if (w->id == v->id) throw bug("--" + w->name + " and --" + v->name + " have the same id");
    }
  for (const auto& v : spec.variants)
    if (v.minutes < 0) throw bug("--" + v.name + ": minutes must not be negative");
  for (const auto& v : spec.learning_order)
    if (!find_variant(spec, v)) throw bug("learning_order names no variant '" + v + "'");
  // A puzzle's run sees only its own declared variants: anything else is refused here, with the
  // names it could have been (exit code 2).
  if (spec.run) {
    std::vector<std::string> names;
    for (const auto& v : spec.variants) names.push_back(v.name);
    spec.run = [run = std::move(spec.run), puzzle = spec.name, names = std::move(names)](const RunRequest& req) {
      if (!req.variant || std::find(names.begin(), names.end(), req.variant->name) == names.end()) {
        throw UsageError("no variant '" + (req.variant ? req.variant->name : std::string()) + "' in " + puzzle +
                         " (variants: " + join(names, ", ") + ")");
      }
      if (!req.variant->needs) return run(req);
      // The variant's launch, for the request's space, shape overrides and purpose: refused here,
      // before the run allocates anything, when the backend cannot give it.
      RunRequest resolved = req;
      resolved.launch =
          with_space(req.space, [&](const auto& space) { return launch_shape(space, *req.variant->needs, req); });
      return run(resolved);
    };
  }
  puzzles_.push_back(std::move(spec));
  std::sort(puzzles_.begin(), puzzles_.end(), [](const PuzzleSpec& a, const PuzzleSpec& b) { return a.name < b.name; });
}

const PuzzleSpec* Registry::find(std::string_view name) const {
  for (const auto& p : puzzles_)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& p : puzzles_) out.push_back(p.name);
  return out;
}

TraceSpec traceable(std::map<std::string, std::int64_t> options, int team_size,
                    std::function<std::vector<BudgetLimit>(const Params&, const Json& config)> budget) {
  TraceSpec t;
  t.traceable = true;
  t.options = std::move(options);
  t.team_size = team_size;
  t.budget = std::move(budget);
  return t;
}

const VariantSpec* find_variant(const PuzzleSpec& spec, std::string_view name) {
  for (const auto& v : spec.variants)
    if (v.name == name) return &v;
  return nullptr;
}

const std::string& VariantSpec::main_function() const {
  static const std::string none;
  return functions.empty() ? none : functions.front();
}

std::vector<const VariantSpec*> variants_in_learning_order(const PuzzleSpec& spec) {
  std::vector<const VariantSpec*> out;
  for (const auto& name : spec.learning_order)
    if (const VariantSpec* v = find_variant(spec, name); v && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  for (const auto& v : spec.variants)
    if (std::find(out.begin(), out.end(), &v) == out.end()) out.push_back(&v);
  return out;
}

std::vector<const PuzzleSpec*> puzzles_in_course_order() {
  std::vector<const PuzzleSpec*> out;
  for (const auto& p : Registry::instance().all()) out.push_back(&p);
  std::stable_sort(out.begin(), out.end(), [](const PuzzleSpec* a, const PuzzleSpec* b) {
    return a->course_position != b->course_position ? a->course_position < b->course_position : a->name < b->name;
  });
  return out;
}

}  // namespace kpz
