// kpz-verify-<puzzle>: the race check of one variant, run by `kpuzzles check` in host builds
// (cmake/KpzVerify.cmake). This program is the puzzle compiled with the tracer (KPZ_TRACE): it
// runs the variant's trace configuration under both TeamThreadRange distributions and prints the
// verdict as one JSON line (kpz/trace/verdict.hpp), or with --report the tracer's whole report.
// Exit codes: 0 race-free, in bounds, within its scratch and correct (or not traceable: the JSON
// says why); 1 a bug; 2 bad usage.
#include <Kokkos_Core.hpp>

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "kpz/errors.hpp"
#include "kpz/registry.hpp"
#include "kpz/trace/verdict.hpp"

namespace {

constexpr const char* kUsage =
    "usage: kpz-verify-<puzzle> <variant> [--reference] [--seed S] [--report]\n"
    "  the variant's trace configuration, traced under both TeamThreadRange distributions;\n"
    "  prints the verdict as one JSON line (--report: the tracer's report instead).\n"
    "  `kpuzzles check` runs it; exit 0 clean or not traceable, 1 a bug, 2 bad usage\n";

int verify(const std::vector<std::string>& args) {
  std::string variant_name;
  kpz::trace::TraceOptions options;
  bool report = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--reference") {
      options.impl = kpz::Impl::reference;
    } else if (a == "--report") {
      report = true;
    } else if (a == "--seed" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18)
        throw kpz::UsageError("--seed expects a non-negative integer, got '" + text + "'");
      options.seed = std::stoull(text);
    } else if (a.rfind("--", 0) != 0 && variant_name.empty()) {
      variant_name = a;
    } else {
      throw kpz::UsageError("unknown argument '" + a + "'\n" + kUsage);
    }
  }
  const auto& puzzles = kpz::Registry::instance().all();
  if (puzzles.size() != 1) throw std::logic_error("a verifier holds exactly one puzzle");
  const kpz::PuzzleSpec& spec = puzzles.front();
  const kpz::VariantSpec* variant = nullptr;
  for (const auto& v : spec.variants)
    if (v.name == variant_name) variant = &v;
  if (!variant) throw kpz::UsageError("no variant '" + variant_name + "' in " + spec.name + "\n" + kUsage);
  const kpz::trace::VariantTrace t = kpz::trace::trace_variant(spec, *variant, options);
  const kpz::trace::Verdict verdict = kpz::trace::verdict_of(t);
  if (report)
    std::cout << kpz::trace::render_report(t, kpz::trace::DiagramOptions{});
  else
    std::cout << verdict.to_json().dump() << '\n';
  return verdict.findings.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    // One host thread is all the tracer uses; no warnings on the verdict's channel.
    Kokkos::ScopeGuard kokkos(Kokkos::InitializationSettings().set_num_threads(1).set_disable_warnings(true));
    return verify(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const kpz::UsageError& e) {
    std::cerr << "kpz-verify: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kpz-verify: error: " << e.what() << '\n';
    return 3;
  }
}
