#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>
#include <thread>

#include "cli.hpp"
#include "doctor_verdict.hpp"
#include "exercises.hpp"
#include "kokkos_kernels_info.hpp"
#include "kpz/errors.hpp"
#include "kpz/json.hpp"
#include "kpz/launch_shape.hpp"
#include "kpz/spaces.hpp"
#include "paths.hpp"
#include "process.hpp"
#include "rank_launch.hpp"
#include "terminal.hpp"

#if defined(KPZ_TRACE)
#include "kpz/trace/puzzle.hpp"
#endif

namespace kpz::cli {
namespace {

namespace fs = std::filesystem;

// Kokkos' CUDA architecture options by compute capability (10 * major + minor).
struct CudaArch {
  int cc;
  const char* option;  // Kokkos_ARCH_<option>
};
constexpr CudaArch kCudaArchs[] = {{120, "BLACKWELL120"}, {100, "BLACKWELL100"}, {90, "HOPPER90"}, {89, "ADA89"},
                                   {87, "AMPERE87"},      {86, "AMPERE86"},      {80, "AMPERE80"}, {75, "TURING75"},
                                   {72, "VOLTA72"},       {70, "VOLTA70"}};

// "" for a compute capability the table does not name.
[[maybe_unused]] std::string arch_option(int cc) {
  for (const CudaArch& a : kCudaArchs)
    if (a.cc == cc) return a.option;
  return "";
}

// The CUDA architecture this build compiled for (0: none, or one the table does not name).
[[maybe_unused]] int compiled_cuda_arch() {
#if defined(KOKKOS_IMPL_ARCH_NVIDIA_GPU)
  // Kokkos_Macros.hpp turns the build's one KOKKOS_ARCH_<option> into its compute capability.
  return arch_option(KOKKOS_IMPL_ARCH_NVIDIA_GPU).empty() ? 0 : KOKKOS_IMPL_ARCH_NVIDIA_GPU;
#else
  return 0;
#endif
}

// One enabled space as doctor shows it: its limits (for the findings and puzzles' advice), its
// JSON object, and its lines of text.
struct SpaceFacts {
  SpaceLimits limits;
  Json json;
  std::string text;
};

std::vector<SpaceFacts> space_facts() {
  std::vector<SpaceFacts> out;
  for (const auto& name : enabled_space_names()) {
    with_space(name, [&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      const SpaceLimits limits{.space = name,
                               .concurrency = space.concurrency(),
                               .team_size_max = team_size_max(space),
                               .scratch0_max = scratch_size_max<Space>(0)};
      // The framework's launch shapes for a generic team kernel (kpz/launch_shape.hpp); each
      // run's and bench's JSON `config` shows the shape its kernel really got.
      const LaunchShape check = launch_shape(space, KernelNeeds{}, ShapeRequest{}, Purpose::check);
      const LaunchShape speed = launch_shape(space, KernelNeeds{}, ShapeRequest{}, Purpose::speed);
      Json s = Json::object();
      s.set("name", name).set("concurrency", limits.concurrency).set("team_size_max", limits.team_size_max);
      s.set("scratch_level0_max_bytes", limits.scratch0_max);
      s.set("scratch_level1_max_bytes", scratch_size_max<Space>(1));
      s.set("vector_length_max", vector_length_max<Space>());
      Json shapes = Json::object();
      shapes.set("check", check.to_json()).set("speed", speed.to_json());
      s.set("launch_shapes", std::move(shapes));
      std::ostringstream text;
      text << "  " << name << ": concurrency " << limits.concurrency << ", team_size_max " << limits.team_size_max
           << ", scratch level 0 " << limits.scratch0_max << " B, level 1 " << scratch_size_max<Space>(1)
           << " B, vector length up to " << vector_length_max<Space>();
#if defined(KOKKOS_ENABLE_CUDA)
      if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
        const auto& prop = space.cuda_device_prop();
        s.set("device", std::string(prop.name));
        s.set("compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor));
        s.set("multiprocessors", prop.multiProcessorCount);
        text << ", device " << prop.name;
      }
#endif
      text << "\n    launch shapes: run/check teams of " << check.team_size
           << (check.team_size > 1 ? " (to show races)" : "") << ", bench teams of " << speed.team_size
           << (is_gpu_v<Space> ? "" : " (Kokkos' team_size_recommended)")
           << "; --team-size / --vector-length override both\n";
      out.push_back({.limits = limits, .json = std::move(s), .text = text.str()});
      return 0;
    });
  }
  return out;
}

std::vector<Finding> setup_findings(const std::vector<SpaceLimits>& limits) {
  std::vector<Finding> f;
  const LearnerPaths& paths = learner_paths();
  std::vector<std::string> names;
  for (const auto& s : limits) names.push_back(s.space);
  const bool parallel =
      std::any_of(limits.begin(), limits.end(), [](const SpaceLimits& s) { return s.space != "serial"; });
  // The race check traces teams of four on any backend; the real runs only have Serial's one member.
  const bool traced = !paths.verify_dir.empty();
  f.push_back({"backends", parallel, join(names, ", "),
               parallel ? ""
                        : std::string("only Serial, where every team has one member: ") +
                              (traced ? "the race check still traces teams of 4, but no run is parallel"
                                      : "races cannot show") +
                              "; configure with `cmake --preset openmp` (OpenMP: g++, or clang with libomp), or "
                              "`cmake --preset threads` where there is no OpenMP (macOS' Apple clang); docs/setup.md"});
  // The thread count of the host-parallel backend: OpenMP reads OMP_NUM_THREADS (or
  // KOKKOS_NUM_THREADS), Threads only KOKKOS_NUM_THREADS (kpuzzles defaults it to the cores).
  // OpenMP's waiting threads sleep, so 8 threads on 2 cores only check slower; Threads' barriers
  // spin, and more threads than cores made bin-extract's tests 50 times slower on 2 cores.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (const auto& s : limits) {
    if (s.space != "openmp" && s.space != "threads") continue;
    const bool omp = s.space == "openmp";
    const char* var = omp ? "OMP_NUM_THREADS" : "KOKKOS_NUM_THREADS";
    const char* env = std::getenv(var);
    const std::string threads = std::string(var) + (env ? std::string("=") + env : std::string(" unset"));
    const std::string detail = "teams of up to " + std::to_string(s.team_size_max) + " members (" + threads + ", " +
                               std::to_string(cores) + " cores)";
    // The race check traces teams of four under both TeamThreadRange distributions, whatever the
    // thread count: with it, small teams hide no bug between members.
    if (omp) {
      const bool ok = s.team_size_max >= 4 || traced;
      f.push_back({"openmp teams", ok,
                   detail + (traced && s.team_size_max < 4 ? "; the race check traces teams of 4, so no bug between "
                                                             "members hides"
                                                           : ""),
                   ok ? ""
                      : "bugs between team members (a missing barrier) may hide with so few: export OMP_NUM_THREADS=8 "
                        "(more threads than cores is fine for checking)"});
    } else if (s.team_size_max > cores) {
      f.push_back({"threads teams", false, detail,
                   "more threads than cores: the Threads backend's barriers spin, so every run is many times slower; "
                   "export KOKKOS_NUM_THREADS=" +
                       std::to_string(cores) + " (or unset it: one per core)"});
    } else {
      const bool few = s.team_size_max < std::min(4, cores);
      const bool ok = !few || traced;
      f.push_back(
          {"threads teams", ok,
           detail + (traced && few ? "; the race check traces teams of 4, so no bug between members hides" : ""),
           ok ? ""
              : "bugs between team members (a missing barrier) may hide with so few: export KOKKOS_NUM_THREADS=" +
                    std::to_string(cores) + " (one per core; more makes Threads' spinning barriers slow)"});
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  {
    const auto& prop = Kokkos::Cuda{}.cuda_device_prop();
    const int device = prop.major * 10 + prop.minor, built = compiled_cuda_arch();
    const std::string detail =
        "built for " + (built ? "sm_" + std::to_string(built) : std::string("an unknown architecture")) + ", GPU " +
        prop.name + " is " + std::to_string(prop.major) + "." + std::to_string(prop.minor);
    std::string fix;
    if (built && built != device) {
      const std::string want = arch_option(device);
      fix = "reconfigure for this GPU: cmake --preset cuda --fresh -DKokkos_ARCH_" + arch_option(built) + "=OFF" +
            (want.empty() ? " -DKokkos_ARCH_<yours>=ON" : " -DKokkos_ARCH_" + want + "=ON") +
            (built > device ? " (this build cannot run its kernels here)"
                            : " (kernels are JIT-compiled from PTX, slowly)");
    }
    f.push_back({"cuda architecture", fix.empty(), detail, fix});
  }
#endif
  // CMake: kpuzzles watch rebuilds with it; the presets need 3.25.
  {
    const ProcessResult r = run_process({paths.cmake, "--version"}, {}, 20);
    std::smatch m;
    const std::string out = r.output;
    static const std::regex version_re(R"(cmake version (\d+)\.(\d+)(\.\d+)?)");
    if (!r.ok() || !std::regex_search(out, m, version_re)) {
      f.push_back({"cmake", false, "cannot run " + paths.cmake,
                   "install CMake 3.25 or newer (`pip install cmake`, or cmake.org/download); `kpuzzles watch` "
                   "rebuilds with it"});
    } else {
      const int major = std::stoi(m[1]), minor = std::stoi(m[2]);
      const bool ok = major > 3 || (major == 3 && minor >= 25);
      f.push_back({"cmake", ok, m[0].str().substr(14) + " (" + paths.cmake + ")",
                   ok ? ""
                      : "CMake " + m[0].str().substr(14) +
                            " is too old for the presets (3.25 or newer): `pip install cmake` or cmake.org/download"});
    }
  }
  const bool source_ok = fs::is_directory(paths.exercises_dir()) && fs::is_directory(paths.source_dir + "/reference");
  f.push_back({"source tree", source_ok, paths.source_dir,
               source_ok
                   ? ""
                   : "exercises/ and reference/ not found there: set KPZ_SOURCE_DIR to your Kokkos Puzzles checkout"});
  const bool build_ok = fs::exists(paths.build_dir + "/CMakeCache.txt");
  f.push_back({"build tree", build_ok, paths.build_dir,
               build_ok ? "" : "not a configured build tree: run `cmake --preset openmp`, or set KPZ_BUILD_DIR"});
  f.push_back(trace_build_finding(paths));
  {
    const int fd = inotify_init1(IN_CLOEXEC);
    const bool ok = fd >= 0;
    if (fd >= 0) close(fd);
    f.push_back({"file watching", true, ok ? "inotify" : "polling (inotify unavailable)", ""});
  }
  f.push_back({"progress file", true, paths.state_file, ""});
  return f;
}

// Runs every variant's reference with its defaults on one space: which can run here.
Json puzzle_report(const PuzzleSpec& spec, const SpaceLimits& limits) {
  Json variants = Json::array();
  int runs = 0, team = 0;
  for (const VariantSpec* v : variants_in_learning_order(spec)) {
    RunRequest req;
    req.variant = v;
    req.impl = Impl::reference;
    req.space = limits.space;
    req.params = default_params(*v);
    req.keep_arrays = false;
    req.ranks = spec.ranks.fallback;
    Json j = Json::object();
    j.set("variant", v->name);
#if defined(KPZ_TRACE)
    // The trace build records every access (kpuzzles trace): each reference runs in its small
    // trace configuration, and a variant the tracer cannot record (a Kokkos built-in, a raw
    // View::data()) is listed with the reason. Full-size runs took 272 s there, and stopped at
    // the first such kernel.
    try {
      trace::TraceOptions o;
      o.impl = Impl::reference;
      o.distributions = {trace::Distribution::blockwise};
      const trace::VariantTrace t = trace::trace_variant(spec, *v, o);
      if (!t.not_traceable.empty()) {
        j.set("runs", false).set("reason", "not in the trace build: " + t.not_traceable);
      } else {
        j.set("runs", true).set("reference_passes", t.correct()).set("traced", true);
        team = std::max(team, t.request.team_size);
        ++runs;
      }
    } catch (const std::exception& e) {
      j.set("runs", false).set("reason", std::string("not in the trace build: ") + e.what());
    }
    variants.push(std::move(j));
    continue;
#endif
    try {
      const RunReport r = run_case(spec, req, 60);  // on its ranks, for a puzzle that spans them
      j.set("runs", true).set("reference_passes", r.pass);
      team = std::max<int>(team, static_cast<int>(r.config["team_size"].as_int(0)));
      ++runs;
    } catch (const UsageError& e) {
      j.set("runs", false).set("reason", e.what());
    } catch (const RanksFailed& e) {  // an MPI that cannot start its ranks here
      j.set("runs", false).set("reason", e.what());
    }
    variants.push(std::move(j));
  }
  Json advice = Json::array();
  if (spec.advice)
    for (const auto& line : spec.advice(limits)) advice.push(line);
  Json j = Json::object();
  j.set("space", limits.space).set("variants_run", runs).set("variants", static_cast<int>(spec.variants.size()));
  j.set("team_size", team).set("details", std::move(variants)).set("advice", std::move(advice));
  return j;
}

}  // namespace

int cmd_doctor(const std::vector<std::string>& args) {
  const ParsedFlags flags = parse_flags(args, {{"json", false}}, "'kpuzzles doctor'");
  if (!flags.positional.empty()) throw UsageError("'kpuzzles doctor' takes no arguments");
  const std::vector<SpaceFacts> facts = space_facts();
  std::vector<SpaceLimits> limits;
  for (const auto& f : facts) limits.push_back(f.limits);
  Json j = Json::object();
  j.set("kokkos_version", std::to_string(KOKKOS_VERSION_MAJOR) + "." + std::to_string(KOKKOS_VERSION_MINOR) + "." +
                              std::to_string(KOKKOS_VERSION_PATCH));
  j.set("default_space", default_space_name());
  const KokkosKernelsInfo kk = kokkos_kernels_info();
  Json kk_json = Json::object();
  kk_json.set("in_build", kk.in_build).set("source", kk.source);
  if (kk.in_build) kk_json.set("version", kk.version);
  j.set("kokkos_kernels", std::move(kk_json));
  Json spaces = Json::array();
  for (const auto& f : facts) spaces.push(f.json);
  j.set("spaces", spaces);
  const std::vector<Finding> findings = setup_findings(limits);
  Json setup = Json::array();
  for (const auto& f : findings) {
    Json s = Json::object();
    s.set("check", f.check).set("ok", f.ok).set("detail", f.detail);
    if (!f.fix.empty()) s.set("fix", f.fix);
    setup.push(std::move(s));
  }
  j.set("setup", std::move(setup));
  Json puzzles = Json::array();
  for (const PuzzleSpec* p : puzzles_in_course_order()) {
    Json per = Json::array();
    for (const auto& l : limits) per.push(puzzle_report(*p, l));
    Json e = Json::object();
    e.set("puzzle", p->name).set("spaces", std::move(per));
    puzzles.push(std::move(e));
  }
  j.set("puzzles", puzzles);
  const Verdict verdict = doctor_verdict(findings, puzzles);
  Json missing = Json::array();
  for (const auto& m : verdict.missing) missing.push(m);
  j.set("ready", verdict.ready).set("missing", std::move(missing)).set("verdict", verdict_line(verdict));
  if (flags.has("json")) {
    std::cout << j.dump() << '\n';
    return 0;
  }
  const Style style{use_color()};
  std::cout << "Kokkos " << KOKKOS_VERSION_MAJOR << '.' << KOKKOS_VERSION_MINOR << '.' << KOKKOS_VERSION_PATCH
            << ", default execution space " << default_space_name() << '\n';
  std::cout << "Kokkos Kernels " << (kk.in_build ? kk.version + ", " : std::string()) << kk.source << '\n';
  for (const auto& f : facts) std::cout << f.text;
  std::cout << "\nsetup\n";
  for (const auto& f : findings) {
    std::cout << "  " << (f.ok ? style.green("ok  ") : style.yellow("fix ")) << "  " << f.check << ": " << f.detail
              << '\n';
    if (!f.fix.empty()) std::cout << "        " << f.fix << '\n';
  }
  std::cout << "\npuzzles on this build\n";
  for (const auto& p : puzzles.items()) {
    std::cout << "  " << p["puzzle"].as_string() << '\n';
    for (const auto& s : p["spaces"].items()) {
      const auto run = s["variants_run"].as_int(), all = s["variants"].as_int();
      std::cout << "    " << s["space"].as_string() << ": ";
      if (run == all)
        std::cout << "all " << all << " variants run";
      else
        std::cout << style.yellow(std::to_string(run) + " of " + std::to_string(all) + " variants run");
      std::cout << ", teams of " << s["team_size"].as_int() << '\n';
      for (const auto& v : s["details"].items())
        if (!v["runs"].as_bool())
          std::cout << "      --" << v["variant"].as_string() << ": " << v["reason"].as_string() << '\n';
      for (const auto& a : s["advice"].items()) std::cout << "      - " << a.as_string() << '\n';
    }
  }
  const std::string line = verdict_line(verdict);
  std::cout << '\n' << (verdict.ready ? style.green(line) : style.yellow(line)) << '\n';
  return 0;
}

}  // namespace kpz::cli
