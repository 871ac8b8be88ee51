# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for apsp_kokkos (Spack 1.x package API, as the builtin recipes of ArborX and
# ExaCA; Spack 0.2x loads it too). The backends are Kokkos': each variant below asks the
# Kokkos it is built against for that backend. Built from a checkout (packaging/README.md).
from spack.package import *

try:  # Spack 1.x: the build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
except ImportError:  # Spack 0.2x: spack.package provides them
    pass


class ApspKokkos(CMakePackage, CudaPackage):
    """All-pairs shortest paths by blocked Floyd-Warshall, written once with Kokkos and built for
    Serial, OpenMP or CUDA, with an MPI layer over several GPUs or nodes; it checks its own
    answer against Dijkstra and can generate its input (a self-contained benchmark)."""

    license("BSD-3-Clause")

    version("0.1.0")

    variant("serial", default=True, description="Kokkos' Serial backend")
    variant("openmp", default=True, description="Kokkos' OpenMP backend")
    variant("mpi", default=True, description="the MPI layer (one rank per GPU, tile rows split across ranks)")
    variant("nccl", default=True, when="+cuda+mpi", description="pivot rows between GPUs through NCCL")
    variant("native", default=False, description="tune host code for the building machine (-march=native)")

    depends_on("cxx", type="build")
    depends_on("c", type="build", when="+mpi")
    depends_on("cmake@3.16:", type="build")

    depends_on("kokkos@3.4:")
    depends_on("kokkos+serial", when="+serial")
    depends_on("kokkos+openmp", when="+openmp")
    # The GPU named once reaches Kokkos and NCCL alike (NCCL refuses cuda_arch=none).
    for arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={arch}", when=f"+cuda cuda_arch={arch}")
        depends_on(f"nccl cuda_arch={arch}", when=f"+nccl cuda_arch={arch}")
    conflicts("+cuda", when="cuda_arch=none", msg="name the GPU: cuda_arch=90 for H100/H200")
    # Kokkos 4.6 and older do not compile with CUDA 13 (runtime API changes).
    conflicts("^kokkos@:4.6", when="+cuda ^cuda@13:")
    depends_on("mpi", when="+mpi")
    depends_on("nccl", when="+nccl")
    depends_on("cli11")
    depends_on("nlohmann-json")

    def cmake_args(self):
        args = [
            self.define("Kokkos_ROOT", self.spec["kokkos"].prefix),
            self.define_from_variant("APSP_WITH_MPI", "mpi"),
            self.define_from_variant("APSP_NATIVE", "native"),
            # The tests need Python with NumPy and SciPy and a real MPI launch: run them from the
            # source tree (scripts/test.sh), not from here.
            self.define("APSP_BUILD_TESTS", False),
        ]
        if self.spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CXX_COMPILER", self.spec["kokkos"].kokkos_cxx))
            args.append(self.define_from_variant("APSP_WITH_NCCL", "nccl"))
        return args
