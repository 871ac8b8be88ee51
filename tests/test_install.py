#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cmake --install into a fresh prefix, then a separate project (tests/install_consumer) finds
the package, links apsp::apsp_core and runs the pipeline; its output must equal the installed
program's on the same generated graph, and the program, generator and docs must be in place."""
import argparse
import os
import subprocess
import sys
import tempfile


def run(*cmd, **kw):
    p = subprocess.run(list(cmd), capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--kokkos-dir", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "prefix")
        run(args.cmake, "--install", args.build_dir, "--prefix", prefix)
        for f in ("bin/apsp_kokkos", "bin/apsp_gen", "share/doc/apsp_kokkos/README.md",
                  "share/doc/apsp_kokkos/run_record.md", "include/apsp/pipeline/pipeline.hpp",
                  "include/apsp/backends/backend_traits.hpp"):
            if not os.path.exists(os.path.join(prefix, f)):
                sys.exit(f"not installed: {f}")
        build = os.path.join(tmp, "consumer")
        run(args.cmake, "-S", os.path.join(args.source_dir, "tests", "install_consumer"), "-B", build,
            f"-DCMAKE_PREFIX_PATH={prefix}", f"-DKokkos_DIR={args.kokkos_dir}", f"-DCMAKE_CXX_COMPILER={args.cxx}",
            "-DCMAKE_BUILD_TYPE=Release")
        run(args.cmake, "--build", build)
        env = {**os.environ, "OMP_NUM_THREADS": "1", "OMP_PROC_BIND": "false"}
        ours, theirs = os.path.join(tmp, "consumer.bin"), os.path.join(tmp, "program.bin")
        p = run(os.path.join(build, "consumer"), "300,4000,2", ours, env=env)
        print(p.stdout, end="")
        run(os.path.join(prefix, "bin", "apsp_kokkos"), "--quiet", "--generate", "300,4000,2", theirs, env=env)
        with open(ours, "rb") as a, open(theirs, "rb") as b:
            if a.read() != b.read():
                sys.exit("the consumer's output differs from the installed program's")
    print("install: package found, consumer linked and ran, outputs equal")


if __name__ == "__main__":
    main()
