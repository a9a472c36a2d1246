# The learner environment from Debian packages, for participants who would rather not install
# anything (docs/setup.md, "In a container"). Debian 12 (bookworm): g++ 12, clang 14 with
# libomp, CMake 3.25, make and Ninja, GoogleTest, ccache; Kokkos 5.0.2 installed once in the
# image (OpenMP + Serial), which every build in the container reuses (Kokkos_ROOT below).
#
#   docker build -t kokkos-puzzles .
#   docker run --rm -it -v "$PWD":/puzzles -w /puzzles kokkos-puzzles
#   # inside: cmake --preset openmp && cmake --build --preset openmp --target learner
#
# Offline, or to pin the exact archive, put kokkos-5.0.2.tar.gz next to this file and build
# with --build-arg KOKKOS_ARCHIVE=kokkos-5.0.2.tar.gz (the default downloads the release).
FROM debian:bookworm

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      g++ clang libomp-dev cmake make ninja-build libgtest-dev googletest ccache \
      python3 git ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*

ARG KOKKOS_VERSION=5.0.2
ARG KOKKOS_ARCHIVE=https://github.com/kokkos/kokkos/releases/download/${KOKKOS_VERSION}/kokkos-${KOKKOS_VERSION}.tar.gz
ADD ${KOKKOS_ARCHIVE} /tmp/kokkos.tar.gz
# The same backends as the `openmp` preset; built with g++, which the presets use by default.
# Shared libraries: kpuzzles and the puzzles' modules share them (docs/setup.md, "The first
# build"); a static Kokkos would link every puzzle into kpuzzles.
# (ADD unpacks a local archive into a folder and leaves a downloaded one packed.)
RUN if [ -d /tmp/kokkos.tar.gz ]; then mv /tmp/kokkos.tar.gz/kokkos-* /tmp/kokkos; \
    else mkdir /tmp/kokkos && tar -xzf /tmp/kokkos.tar.gz -C /tmp/kokkos --strip-components=1; fi \
 && cmake -S /tmp/kokkos -B /tmp/kokkos-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
      -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX=/opt/kokkos \
 && cmake --build /tmp/kokkos-build \
 && cmake --install /tmp/kokkos-build \
 && rm -rf /tmp/kokkos /tmp/kokkos-build /tmp/kokkos.tar.gz

# find_package(Kokkos) looks here first (CMake reads <Package>_ROOT from the environment).
ENV Kokkos_ROOT=/opt/kokkos
# Ninja when present (it is here); make otherwise.
ENV CMAKE_GENERATOR=Ninja
# The build tree is in the mounted clone: compiler caches there survive the container.
ENV CCACHE_DIR=/puzzles/build/.ccache
# OpenMP inside a container: more threads than cores is fine for checking team kernels.
ENV OMP_NUM_THREADS=8 OMP_PROC_BIND=false
WORKDIR /puzzles
CMD ["bash"]
