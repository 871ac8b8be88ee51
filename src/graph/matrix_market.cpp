// SPDX-License-Identifier: BSD-3-Clause
// Matrix Market coordinate files (SuiteSparse, scipy.io.mmwrite): "%%MatrixMarket matrix
// coordinate FIELD SYMMETRY", comments (%), "ROWS COLS NNZ", then NNZ lines "I J [VALUE]"
// (1-based). Row -> column is the edge.
#include <string>

#include "text_reader.hpp"

namespace apsp::text {

void read_matrix_market(TextGraphReader& in) {
  std::string_view line;
  if (!in.next_line(line) || lower(line.substr(0, 14)) != "%%matrixmarket")
    in.fail(1, "not a Matrix Market file (no %%MatrixMarket header)");
  Fields h(line);
  h.next();
  const std::string object = lower(h.next()), layout = lower(h.next()), field = lower(h.next()),
                    symmetry = lower(h.next());
  if (object != "matrix") in.fail("Matrix Market object '" + object + "': only 'matrix'");
  if (layout != "coordinate") in.fail("Matrix Market format '" + layout + "': only 'coordinate' (sparse)");
  if (field != "integer" && field != "pattern" && field != "real")
    in.fail("Matrix Market field '" + field + "': only integer, pattern, or real (with --scale)");
  if (field == "real" && !in.options().scale) in.fail("real weights need --scale S (w -> round(w * S))");
  if (symmetry != "general" && symmetry != "symmetric")
    in.fail("Matrix Market symmetry '" + symmetry + "': only general or symmetric");
  const bool both = symmetry == "symmetric" || in.options().undirected;
  int64_t declared = -1, seen = 0;
  while (in.next_line(line)) {
    Fields f(line);
    if (f.done() || line.front() == '%') continue;
    if (declared < 0) {  // the size line
      const int64_t rows = in.integer(f.next(), "row count"), cols = in.integer(f.next(), "column count");
      declared = in.integer(f.next(), "entry count");
      if (!f.done()) in.fail("more than three fields in the size line");
      if (rows != cols) in.fail("a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix is not square");
      in.declare_vertices(rows);
      if (declared < 0) in.fail("negative entry count");
      continue;
    }
    const int32_t s = in.vertex(f.next(), 1, "row"), t = in.vertex(f.next(), 1, "column");
    const int32_t w = field == "pattern" ? 1 : in.weight(f.next(), field == "real");
    if (!f.done()) in.fail("more fields than '" + field + "' entries have");
    if (++seen > declared) in.fail("more entries than the " + std::to_string(declared) + " declared");
    in.add_edge(s, t, w, both);
  }
  if (declared < 0) in.fail("no size line");
  if (seen != declared)
    in.fail(std::to_string(declared) + " entries declared, " + std::to_string(seen) + " present (file truncated?)");
}

}  // namespace apsp::text
