// distributed's registration: the variants, their options, checks and estimates, and how
// kpuzzles starts the ranks (RanksSpec). The run is run.cpp.
#include <unistd.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "distributed/spec.hpp"
#include "kpz/registry.hpp"

namespace kpz::distributed {
namespace {

// The launcher's words: this build's mpiexec, then its flags (with Open MPI "--oversubscribe", so
// that a 2-core laptop runs 4 ranks, and "--bind-to none": cmake/KpzMPI.cmake), one word each.
std::vector<std::string> launcher() {
  std::vector<std::string> words{KPZ_MPIEXEC};
  std::istringstream flags(KPZ_MPIEXEC_FLAGS);
  for (std::string word; flags >> word;) words.push_back(word);
  return words;
}

// Open MPI refuses to start as root unless both are set; containers and CI runners often run as
// root, a learner's laptop never does, so they are set only there (other MPIs ignore them).
std::vector<std::pair<std::string, std::string>> root_environment() {
  if (geteuid() != 0) return {};
  return {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
}

PuzzleSpec make_spec() {
  const OptionSpec uneven{"uneven", "1: slices cut at seeded random points (empty ranks, short slices)", 0, 0, 1};
  const auto size = [](std::int64_t fallback) {
    return OptionSpec{"size", "global elements N (random inputs when given)", fallback, 1, kMaxSize};
  };
  const auto n = [](std::int64_t size, int ranks) { return CheckCase{{"size", size}}.ranks(ranks); };
  const auto nu = [](std::int64_t size, int ranks) { return CheckCase{{"size", size}, {"uneven", 1}}.ranks(ranks); };
  const auto nk = [](std::int64_t size, std::int64_t k, int ranks, int cut = 0) {
    return CheckCase{{"size", size}, {"kernel-size", k}, {"uneven", cut}}.ranks(ranks);
  };
  // kpuzzles check and list say why a pass is not race-checked: the tracer runs one process.
  const TraceSpec on_ranks{.not_traceable_reason =
                               "its cases run on several MPI ranks and the race check traces one process; its checks "
                               "run every rank count, with three seeds on a host"};
  // Workshop estimates (docs/instructor/estimates.md): 10 minutes to read, build and run, 1.5 per
  // line to write, 5 per concept new at that step; rounded to 5 minutes. All stretch: the course
  // runs without MPI, and a build without it leaves the puzzle out.
  return {
      .name = "distributed",
      .summary = "MPI + Kokkos: a global sum, a halo exchange that overlaps compute, a segmented scan across ranks",
      .variants = {{.name = "halo",
                    .id = int(Variant::halo),
                    .summary = "conv1d over ranks: a = 0..15, b = 0..3; each rank gets K - 1 halo inputs from the "
                               "next ranks while its interior computes",
                    .options = {size(16), {"kernel-size", "K (the worked example: b = 0..K-1)", 4, 1, 1 << 16}, uneven},
                    .functions = {"halo_conv"},
                    // One rank; K larger than a slice (the halo spans ranks, and reaches past N);
                    // empty ranks and short slices; K = 1 (no halo); N = the ranks.
                    .checks = {nk(16, 4, 1), nk(5, 3, 3), nk(12, 9, 4), nk(40, 17, 3, 1), nk(9, 30, 4, 1),
                               nk(100, 1, 3), nk(3, 2, 3, 1), nk(1000, 6, 4, 1), nk(333, 5, 2, 1)},
                    .trace = on_ranks,
                    .minutes = 40,  // 10 lines; new: Isend/Irecv/Waitall, a halo over several ranks, overlap
                    .track = Track::stretch},
                   {.name = "global-sum",
                    .id = int(Variant::global_sum),
                    .summary = "values 1..100 over the ranks: a Kokkos reduction per rank, then MPI_Allreduce",
                    .options = {size(100), uneven},
                    .functions = {"global_sum"},
                    .checks = {n(1, 1), n(7, 3), n(4, 4), nu(3, 4), nu(1000, 3), n(100000, 4), n(999, 2)},
                    .trace = on_ranks,
                    .minutes = 25,  // 4 lines; new: ranks and slices, MPI_Allreduce
                    .track = Track::stretch},
                   {.name = "segmented-scan",
                    .id = int(Variant::segmented_scan),
                    .summary = "keys {0,0,0,1,1,1,2,2,2,3}, values 0..9 over the ranks: the carry by MPI_Exscan with "
                               "the segmented operator",
                    .options = {size(10), uneven},
                    .functions = {"segmented_scan", "combine_pairs"},
                    // Segments spanning ranks, empty ranks, one element, one rank.
                    .checks = {n(10, 1), n(10, 3), n(10, 4), nu(5, 4), nu(300, 3), n(4, 4), nu(1, 3), n(5000, 4),
                               nu(77, 2)},
                    .trace = on_ranks,
                    .minutes = 40,  // 12 lines; new: a user-defined non-commutative MPI_Op, MPI_Exscan
                    .track = Track::stretch}},
      .run = run,
      .course_position = 70,  // the last puzzle: it takes conv1d's halo, reduce and segscan across ranks
      .learning_order = {"global-sum", "halo", "segmented-scan"},
      .advice =
          [](const SpaceLimits& s) {
            std::vector<std::string> lines{"MPI library: " + mpi_library_version()};
            int major = 0, minor = 0;
            MPI_Get_version(&major, &minor);
            lines.push_back("MPI standard version " + std::to_string(major) + "." + std::to_string(minor));
            lines.push_back(std::string("CUDA-aware: ") + (mpi_is_cuda_aware() ? "yes" : "no") +
                            (s.space == "cuda" && !mpi_is_cuda_aware()
                                 ? " (--halo stages its messages through host mirrors on cuda)"
                                 : ""));
            return lines;
          },
      .ranks = RanksSpec{.launcher = launcher(), .fallback = 2, .max = 16, .environment = root_environment()},
  };
}

}  // namespace

KPZ_REGISTER_PUZZLE(make_spec);

}  // namespace kpz::distributed
