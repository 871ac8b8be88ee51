#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The limits that keep the project readable, checked on every test run:

- README.md at most 10 KB (a front page), every page under docs/ at most 40 KB but the log of
  earlier measurements (docs/results-log.md, which no change appends to);
- no file of src/ or include/ over 300 lines, no function there over 80 lines, counted as
  `ctags --fields=+ne` counts them (first line to last, comments included);
- nothing in the build, the tests or the scripts reads a path outside the repository.

Each breach is one line naming the file and the limit; exit status 1 if there is any.

  check_repository_shape.py ROOT [--ctags PATH]
"""
import argparse
import os
import re
import subprocess
import sys

README_BYTES = 10_000
PAGE_BYTES = 40_000
PAGES_EXEMPT = {"docs/results-log.md"}
FILE_LINES = 300
FUNCTION_LINES = 80
SOURCE_DIRS = ("src", "include")
SOURCE_EXT = (".hpp", ".cpp", ".h", ".cc")
# Files whose text names where the tests, builds and scripts read from.
CODE_DIRS = ("src", "include", "tests", "scripts", "cmake", ".ci", "packaging")
OUTSIDE = re.compile(r"\.\./shared\b|/work/")


def files_under(root, folder, ext):
    for base, dirs, names in os.walk(os.path.join(root, folder)):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in sorted(names):
            if name.endswith(ext):
                yield os.path.join(base, name)


def rel(root, path):
    return os.path.relpath(path, root)


def page_sizes(root):
    out = []
    size = os.path.getsize(os.path.join(root, "README.md"))
    if size > README_BYTES:
        out.append(f"README.md: {size} bytes, over the front page's limit of {README_BYTES}")
    for path in files_under(root, "docs", ".md"):
        name = rel(root, path)
        size = os.path.getsize(path)
        if name not in PAGES_EXEMPT and size > PAGE_BYTES:
            out.append(f"{name}: {size} bytes, over a page's limit of {PAGE_BYTES}")
    return out


def file_lengths(root, sources):
    out = []
    for path in sources:
        with open(path, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        if lines > FILE_LINES:
            out.append(f"{rel(root, path)}: {lines} lines, over a source file's limit of {FILE_LINES}")
    return out


def function_lengths(root, sources, ctags):
    """Functions (ctags' kind f, with their end line) longer than the limit."""
    p = subprocess.run([ctags, "--fields=+ne", "--kinds-c++=f", "--language-force=C++", "-o", "-", *sources],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return [f"ctags failed ({p.returncode}): {p.stderr.strip()[:300]}"]
    out = []
    for line in p.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) < 4:
            continue
        extra = dict(f.split(":", 1) for f in fields[3:] if ":" in f)
        if "line" not in extra or "end" not in extra:
            continue
        n = int(extra["end"]) - int(extra["line"]) + 1
        if n > FUNCTION_LINES:
            out.append(f"{rel(root, fields[1])}:{extra['line']}: function {fields[0]} is {n} lines, "
                       f"over a function's limit of {FUNCTION_LINES}")
    return out


def outside_paths(root):
    out = []
    me = os.path.abspath(__file__)
    for folder in CODE_DIRS:
        for path in files_under(root, folder, ""):
            if os.path.abspath(path) == me or path.endswith((".bin", ".png")):
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if OUTSIDE.search(line):
                    out.append(f"{rel(root, path)}:{n}: names a path outside the repository: {line.strip()[:100]}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--ctags", default="ctags")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    sources = [p for d in SOURCE_DIRS for p in files_under(root, d, SOURCE_EXT)]
    breaches = (page_sizes(root) + file_lengths(root, sources) + function_lengths(root, sources, a.ctags)
                + outside_paths(root))
    for b in breaches:
        print(b)
    print(f"repository shape: {len(sources)} source files, {len(breaches)} breach(es) of its limits")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
