// SPDX-License-Identifier: BSD-3-Clause
// DIMACS shortest-path files (9th challenge): "c ..." comments, "p sp N M", then M arcs
// "a U V W" (1-based).
#include <string>

#include "text_reader.hpp"

namespace apsp::text {

void read_dimacs(TextGraphReader& in) {
  std::string_view line;
  int64_t declared = -1, seen = 0;
  while (in.next_line(line)) {
    Fields f(line);
    if (f.done()) continue;
    const std::string_view kind = f.next();
    if (kind == "c") continue;
    if (kind == "p") {
      if (declared >= 0) in.fail("a second problem line");
      if (f.next() != "sp") in.fail("problem line is not 'p sp N M'");
      const int64_t n = in.integer(f.next(), "vertex count");
      declared = in.integer(f.next(), "arc count");
      if (!f.done()) in.fail("more than four fields in the problem line");
      in.declare_vertices(n);
      if (declared < 0) in.fail("negative arc count");
      continue;
    }
    if (kind != "a") in.fail("line type '" + std::string(kind) + "': expected c, p or a");
    if (declared < 0) in.fail("an arc before the problem line 'p sp N M'");
    const int32_t s = in.vertex(f.next(), 1, "tail"), t = in.vertex(f.next(), 1, "head");
    const int32_t w = in.weight(f.next(), false);
    if (!f.done()) in.fail("more than four fields in an arc line");
    if (++seen > declared) in.fail("more arcs than the " + std::to_string(declared) + " declared");
    in.add_edge(s, t, w, in.options().undirected);
  }
  if (declared < 0) in.fail("no problem line 'p sp N M'");
  if (seen != declared)
    in.fail(std::to_string(declared) + " arcs declared, " + std::to_string(seen) + " present (file truncated?)");
}

}  // namespace apsp::text
