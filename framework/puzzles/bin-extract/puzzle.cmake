# bin-extract's extra build needs: the framework's fast kernels (fast/*.cpp) serve the benchmark
# and the tests only, so they go with the benchmark part (kpuzzles-bench and the tests link it;
# kpuzzles, what the learner target builds, does not). Without benchmarks they stay here.
if(TARGET kpz_bench_bin-extract)
  get_target_property(_kpz_spec kpz_puzzle_bin-extract SOURCES)
  set(_kpz_fast ${_kpz_spec})
  list(FILTER _kpz_fast INCLUDE REGEX "/fast/[^/]*\\.cpp$")
  list(REMOVE_ITEM _kpz_spec ${_kpz_fast})
  set_property(TARGET kpz_puzzle_bin-extract PROPERTY SOURCES ${_kpz_spec})
  target_sources(kpz_bench_bin-extract PRIVATE ${_kpz_fast})
endif()
