#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every relative link in README.md, CONTRIBUTING.md, docs/ and packaging/ points at a file of the repository,
and every #anchor at a heading of its page (GitHub's rule for anchors: lower case, punctuation
but '-' and '_' dropped, spaces to '-', a repeated heading numbered -1, -2, ...).

    tests/check_doc_links.py [REPOSITORY_ROOT]
Prints one line per broken link and exits 1 when there is any."""
import pathlib
import re
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text, keep_code=False):
    """The lines outside fenced code blocks, with inline code removed unless `keep_code`."""
    inside = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line if keep_code else re.sub(r"`[^`]*`", "", line)


def slug(heading):
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for _, line in prose_lines(path.read_text(encoding="utf-8"), keep_code=True):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1]).resolve()
    pages = [root / "README.md", root / "CONTRIBUTING.md", *sorted((root / "docs").glob("*.md")), *sorted((root / "packaging").glob("*.md"))]
    cache, broken, links = {}, [], 0
    for page in pages:
        for number, line in prose_lines(page.read_text(encoding="utf-8")):
            for target in LINK.findall(line) + IMAGE.findall(line):
                if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                    continue
                links += 1
                file_part, _, anchor = target.partition("#")
                dest = (page.parent / file_part).resolve() if file_part else page
                where = f"{page.relative_to(root)}:{number}: {target}"
                if not dest.exists():
                    broken.append(f"{where}: no such file")
                    continue
                if anchor and dest.suffix == ".md":
                    if dest not in cache:
                        cache[dest] = anchors(dest)
                    if anchor not in cache[dest]:
                        broken.append(f"{where}: no heading with that anchor in {dest.relative_to(root)}")
    for b in broken:
        print(b)
    print(f"{links} relative links in {len(pages)} pages, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
