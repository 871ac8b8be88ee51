#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""clang-tidy with the repository's .clang-tidy over every project source in a build's
compile_commands.json (src/, tests/); fails on any finding in the project's own files.

The tests' own files take every check but the static analyzer's (clang-analyzer-*): its path
search over GoogleTest's typed-test expansions took 157 s for tests/test_solver.cpp against 16 s
without it, most of the test command's clang-tidy time; src/ keeps it, and the headers the tests
include are analysed through src/.

A file found clean is remembered: its key is the SHA-256 of clang-tidy's version, .clang-tidy,
the checks, the compile command and the contents of the file and of every header it includes
(the build's dependency list, `ninja -t deps`), with the repository's path taken out so that
every clone shares the verdicts. A later run checks only files whose key is new. The verdicts lie
in $APSP_CACHE_DIR/tidy (scripts/deps.sh's cache); APSP_TIDY_CACHE=0 checks every file.

  scripts/check_tidy.py BUILD_DIR
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NO_ANALYZER = "--checks=-clang-analyzer-*"


def cache_dir():
    base = os.environ.get("APSP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "apsp_kokkos")
    return os.path.join(base, "tidy")


def header_deps(build):
    """{object path relative to the build: [headers]} from ninja's dependency log."""
    p = subprocess.run(["ninja", "-C", build, "-t", "deps"], capture_output=True, text=True)
    deps, current = {}, None
    for line in p.stdout.splitlines():
        m = re.match(r"^(\S.*): #deps \d+, deps mtime \d+ \((\w+)\)", line)
        if m:
            current = m.group(1) if m.group(2) == "VALID" else None
            if current:
                deps[current] = []
        elif current and line.strip():
            deps[current].append(line.strip())
    return deps


def digest_of(path, memo):
    if path not in memo:
        try:
            with open(path, "rb") as f:
                memo[path] = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            memo[path] = "missing"
    return memo[path]


def object_of(entry):
    """The object file a compile command writes (its -o), as ninja names it."""
    if entry.get("output"):
        return entry["output"]
    m = re.search(r"\s-o\s+(\S+)", entry.get("command", ""))
    return m.group(1) if m else None


def key_of(entry, extra, deps, memo, base):
    """The verdict's key, or None where the build has no dependency list for the file."""
    obj = object_of(entry)
    if obj not in deps:
        return None
    build = entry["directory"]
    h = hashlib.sha256(base.encode())
    h.update(" ".join(extra).encode())
    h.update(entry.get("command", " ".join(entry.get("arguments", []))).replace(HERE, "<root>").encode())
    for path in [entry["file"]] + sorted(os.path.normpath(os.path.join(build, d)) for d in deps[obj]):
        h.update(path.replace(HERE, "<root>").encode())
        h.update(digest_of(path, memo).encode())
    return h.hexdigest()


def run_tidy(tidy, build, path, extra):
    cmd = [tidy, "-p", build, "--quiet", *extra, "--extra-arg=-Wno-unknown-warning-option",
           "--extra-arg=-Wno-ignored-optimization-argument", path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    text = p.stdout + p.stderr
    findings = [line for line in text.splitlines()
                if re.search(r"(warning|error):", line) and not line.startswith("Suppressed")]
    return path, findings, text


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "build"))
    tidy = os.environ.get("CLANG_TIDY") or shutil.which("clang-tidy")
    if not tidy:
        sys.exit("clang-tidy not found")
    commands = os.path.join(build, "compile_commands.json")
    if not os.path.exists(commands):
        sys.exit(f"{commands} missing (configure first)")
    entries, seen = [], set()
    for e in json.load(open(commands)):
        f = e["file"]
        if (f.startswith(HERE + "/src/") or f.startswith(HERE + "/tests/")) and f not in seen:
            seen.add(f)
            entries.append(e)
    version = subprocess.run([tidy, "--version"], capture_output=True, text=True).stdout
    with open(os.path.join(HERE, ".clang-tidy")) as f:
        base = version + f.read()
    use_cache = os.environ.get("APSP_TIDY_CACHE", "1") != "0"
    deps = header_deps(build) if use_cache else {}
    memo, todo, remembered = {}, [], 0
    folder = cache_dir()
    for e in entries:
        extra = [NO_ANALYZER] if e["file"].startswith(HERE + "/tests/") else []
        key = key_of(e, extra, deps, memo, base) if use_cache else None
        if key and os.path.exists(os.path.join(folder, key)):
            remembered += 1
        else:
            todo.append((e["file"], extra, key))
    found = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        jobs = {pool.submit(run_tidy, tidy, build, path, extra): key for path, extra, key in todo}
        for job in concurrent.futures.as_completed(jobs):
            path, findings, text = job.result()
            if findings:
                found.append(text)
            elif jobs[job]:
                os.makedirs(folder, exist_ok=True)
                open(os.path.join(folder, jobs[job]), "w").close()
    for text in found:
        print(text)
    verdict = f"{len(found)} file(s) with findings" if found else "no findings"
    print(f"clang-tidy: {len(entries)} files ({len(todo)} checked, {remembered} unchanged since a clean "
          f"check), {verdict}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
