# Source this on a machine where nothing can be installed (the GPU machine): it unpacks Debian's
# Open MPI packages, carried as .deb files, into /tmp/mpiroot and points the environment and the
# project's configure step at them. Here, before the device call:
#   mkdir -p .carry/mpi && (cd .carry/mpi && apt-get download openmpi-bin openmpi-common libopenmpi3 \
#     libopenmpi-dev libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-2.1-7 libfabric1 libhwloc15 \
#     libhwloc-plugins libibverbs1 libmunge2 libnl-3-200 libnl-route-3-200 libnuma1 libpmix2 \
#     libpsm-infinipath1 libpsm2-2 librdmacm1 libucx0 libatomic1 libxnvctrl0)
# There:  source benchmarks/carried_mpi.sh .carry/mpi
# dpkg -x leaves out the alternatives links (mpicxx, mpiexec): the .openmpi names are used. Open MPI
# finds its own files through OPAL_PREFIX; PMIx has its plugin folder compiled in, where the GPU
# machine's image keeps another PMIx's plugins, so it is pointed at the carried ones.
_kpz_debs=${1:?usage: source benchmarks/carried_mpi.sh DIR-OF-DEBS}
rm -rf /tmp/mpiroot && mkdir -p /tmp/mpiroot
for _kpz_deb in "$_kpz_debs"/*.deb; do dpkg -x "$_kpz_deb" /tmp/mpiroot; done
export OPAL_PREFIX=/tmp/mpiroot/usr
export PATH=/tmp/mpiroot/usr/bin:$PATH
export LD_LIBRARY_PATH=/tmp/mpiroot/usr/lib/x86_64-linux-gnu:/tmp/mpiroot/usr/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PMIX_MCA_mca_base_component_path=/tmp/mpiroot/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export PMIX_MCA_pcompress_base_silence_warning=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export KPZ_CMAKE_ARGS="-DKPZ_MPI=ON -DMPI_CXX_COMPILER=/tmp/mpiroot/usr/bin/mpicxx.openmpi -DMPIEXEC_EXECUTABLE=/tmp/mpiroot/usr/bin/mpiexec.openmpi"
/tmp/mpiroot/usr/bin/mpiexec.openmpi --version | head -1
