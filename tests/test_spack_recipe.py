#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Spack recipe (packaging/spack_repo/apsp/packages/apsp_kokkos/package.py) without Spack:
Spack itself is not installed where this suite runs (packaging/README.md says how the recipe
was checked with Spack), so its package API is stood in for by the few names the recipe uses. Checks that the recipe loads, that every variant it reads
is declared, and that the CMake arguments it gives for each combination of variants are the
project's options (with the Kokkos compiler for +cuda)."""
import importlib.util
import itertools
import os
import sys
import types
import unittest

DIRECTIVES = []


def directive(name):
    return lambda *args, **kwargs: DIRECTIVES.append((name, args, kwargs))


class CMakePackage:
    def __init__(self, spec):
        self.spec = spec

    def define(self, name, value):
        kind = "BOOL" if isinstance(value, bool) else "STRING"
        value = ("ON" if value else "OFF") if isinstance(value, bool) else value
        return f"-D{name}:{kind}={value}"

    def define_from_variant(self, name, variant):
        return self.define(name, self.spec.variants[variant])


class CudaPackage:
    cuda_arch_values = ("80", "90")


class Spec:
    def __init__(self, **variants):
        self.variants = variants
        self.deps = {"kokkos": types.SimpleNamespace(prefix="/opt/kokkos", kokkos_cxx="/opt/kokkos/bin/nvcc_wrapper")}

    def satisfies(self, text):
        return all(self.variants.get(t[1:], False) == (t[0] == "+") for t in text.split())

    def __getitem__(self, name):
        return self.deps[name]


def load_recipe(path):
    for name in ("spack_repo", "spack_repo.builtin", "spack_repo.builtin.build_systems", "spack"):
        sys.modules[name] = types.ModuleType(name)
    sys.modules["spack_repo.builtin.build_systems.cmake"] = types.SimpleNamespace(CMakePackage=CMakePackage)
    sys.modules["spack_repo.builtin.build_systems.cuda"] = types.SimpleNamespace(CudaPackage=CudaPackage)
    package = types.ModuleType("spack.package")
    for name in ("license", "version", "variant", "depends_on", "conflicts"):
        setattr(package, name, directive(name))
    package.__all__ = ["license", "version", "variant", "depends_on", "conflicts"]
    sys.modules["spack.package"] = package
    spec = importlib.util.spec_from_file_location("apsp_kokkos_recipe", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ApspKokkos


class Recipe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        cls.package = load_recipe(os.path.join(root, "packaging", "spack_repo", "apsp", "packages", "apsp_kokkos",
                                               "package.py"))
        cls.variants = {args[0] for name, args, _ in DIRECTIVES if name == "variant"}
        with open(os.path.join(root, "CMakeLists.txt")) as f:
            cls.cmake = f.read()

    def test_variants_and_dependencies(self):
        self.assertTrue({"serial", "openmp", "mpi", "nccl", "native"} <= self.variants)
        deps = [args[0] for name, args, _ in DIRECTIVES if name == "depends_on"]
        for needed in ("kokkos@3.4:", "mpi", "cli11", "nlohmann-json", "kokkos+cuda cuda_arch=90", "nccl cuda_arch=90"):
            self.assertIn(needed, deps)
        # The GPU named once reaches every CUDA dependency (Spack's NCCL refuses cuda_arch=none,
        # and without this the concretizer quietly turned +nccl off).
        conditional = {(args[0], kw.get("when")) for name, args, kw in DIRECTIVES if name == "depends_on"}
        for arch in ("80", "90"):
            self.assertIn((f"nccl cuda_arch={arch}", f"+nccl cuda_arch={arch}"), conditional)

    def test_cmake_arguments_for_every_combination(self):
        for cuda, mpi, nccl, native in itertools.product((False, True), repeat=4):
            spec = Spec(cuda=cuda, mpi=mpi, nccl=nccl and cuda and mpi, native=native, serial=True, openmp=True)
            args = self.package(spec).cmake_args()
            self.assertIn("-DKokkos_ROOT:STRING=/opt/kokkos", args)
            self.assertIn(f"-DAPSP_WITH_MPI:BOOL={'ON' if mpi else 'OFF'}", args)
            self.assertIn(f"-DAPSP_NATIVE:BOOL={'ON' if native else 'OFF'}", args)
            self.assertEqual("-DCMAKE_CXX_COMPILER:STRING=/opt/kokkos/bin/nvcc_wrapper" in args, cuda)
            for a in args:  # every option the recipe sets is one the project declares
                name = a[2:].split(":")[0]
                if name.startswith("APSP_"):
                    self.assertRegex(self.cmake, rf"option\({name} ")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
