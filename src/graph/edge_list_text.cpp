// SPDX-License-Identifier: BSD-3-Clause
// Text edge lists (SNAP and the like): "# ..." or "% ..." comments, "U V [W]" per line (W
// default 1), vertices from the option's base (0 or 1); V is the largest vertex + 1.
#include "text_reader.hpp"

namespace apsp::text {

void read_edge_list(TextGraphReader& in) {
  std::string_view line;
  const int base = in.options().base;
  while (in.next_line(line)) {
    Fields f(line);
    if (f.done() || line.front() == '#' || line.front() == '%') continue;
    const int32_t s = in.vertex(f.next(), base, "source"), t = in.vertex(f.next(), base, "target");
    const std::string_view w_field = f.next();
    const int32_t w = w_field.empty() ? 1 : in.weight(w_field, true);
    if (!f.done()) in.fail("more than three fields (expected: source target [weight])");
    in.add_edge(s, t, w, in.options().undirected);
  }
}

}  // namespace apsp::text
