// `kpuzzles bench` for a puzzle without a bench of its own (PuzzleSpec::bytes_moved): each
// variant's own run at a bench size, its kernel call timed where the run wraps it in `timed`,
// its result checked by the run's oracle, against the device copies of the same bytes.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kpz/bench.hpp"
#include "kpz/params.hpp"

namespace kpz {
namespace {

const OptionSpec* size_option_of(const VariantSpec& variant) {
  for (const OptionSpec& o : variant.options)
    if (o.name == "size") return &o;
  return nullptr;
}

template <class Space>
BenchReport bench_variants(const Space& space, const PuzzleSpec& puzzle, const BenchRequest& req) {
  const auto wanted = static_cast<std::int64_t>(bench_size<Space>(req, std::size_t{1} << 28, std::size_t{1} << 26));
  BenchReport report = start_bench_report(puzzle.name, space, req, static_cast<std::size_t>(wanted));
  for (const VariantSpec* variant : variants_in_learning_order(puzzle)) {
    const OptionSpec* size = size_option_of(*variant);
    if (!size) continue;
    // The bench's --size within the variant's range, and the variant's own options where given
    // (`kpuzzles bench p --tile 256`), checked as `run` checks them.
    OptionValues given{{"size", std::clamp(wanted, size->min, size->max)}};
    for (const OptionSpec& o : variant->options)
      if (o.name != "size" && req.params.given(o.name)) given[o.name] = req.params.get(o.name);
    const Params params = resolve_params(puzzle, *variant, given);
    const double bytes = puzzle.bytes_moved(*variant, params);
    // One copy baseline for the report, of the first variant's bytes to the nearest 8 (a float
    // read and a float written).
    if (report.rows.empty()) {
      add_copy_baselines(report, space, static_cast<std::size_t>(std::llround(bytes / 8)), req.cfg);
      report.config.set("size", params.get("size"));  // as run: within the variant's range
    }
    const std::string name = puzzle.name + " --" + variant->name;
    Timing timing;
    RunRequest run{
        .variant = variant,
        .impl = req.impl,
        .space = report.space,
        .params = params,
        .team_size = req.team_size,
        .vector_length = req.vector_length,
        .purpose = Purpose::speed,
        .seed = req.seed,
        .keep_arrays = false,
        .time_kernel_call = [&](const std::function<void()>& launch) { timing = time_kernel(space, req.cfg, launch); }};
    const RunReport result = puzzle.run(run);
    if (timing.runs == 0)
      throw std::logic_error(name + ": its run calls no kernel through kpz::timed, so `bench` has nothing to time");
    if (!result.pass) {
      std::string where;
      if (!result.mismatches.empty())
        where = " at index " + std::to_string(result.mismatches.front().index) + " (expected " +
                result.mismatches.front().expected + ", got " + result.mismatches.front().actual + ")";
      throw std::runtime_error(name + " gives a wrong result" + where + " with --size " +
                               std::to_string(params.get("size")) + ": refusing to report its time");
    }
    report.rows.push_back({.name = name, .kind = "puzzle", .bytes = bytes, .timing = timing, .portable = true});
  }
  if (report.rows.empty())
    throw std::logic_error("puzzle '" + puzzle.name +
                           "' states bytes_moved but has no variant with a --size option: nothing to bench");
  return report;
}

}  // namespace

BenchSpec bench_from_run(const PuzzleSpec& puzzle) {
  std::int64_t max = 0;
  std::vector<OptionSpec> options{{}};  // --size first, then the variants' other options, each once
  for (const VariantSpec& v : puzzle.variants)
    for (const OptionSpec& o : v.options) {
      const auto seen = [&](const OptionSpec& listed) { return listed.name == o.name; };
      if (o.name == "size")
        max = std::max(max, o.max);
      else if (std::none_of(options.begin(), options.end(), seen))
        options.push_back({.name = o.name, .help = o.help, .fallback = o.fallback, .min = o.min, .max = o.max});
    }
  options.front() = size_option("N (0: 2^28 on a GPU, 2^26 on a host; at most each variant's --size maximum)", max);
  return {
      .puzzle = puzzle.name,
      .summary = "each variant's kernel, timed inside its run and checked by it, vs a device copy of the same bytes",
      .options = std::move(options),
      .run = [&puzzle](const BenchRequest& req) {
        return with_space(req.space, [&](const auto& space) { return bench_variants(space, puzzle, req); });
      }};
}

}  // namespace kpz
