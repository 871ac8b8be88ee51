// SPDX-License-Identifier: BSD-3-Clause
#include "path_check.hpp"

#include "apsp/core/constants.hpp"

namespace apsp::check {

std::string walk_predecessors(const Csr& csr, int64_t s, const std::vector<int32_t>& d,
                              const std::vector<int32_t>& pred, const std::vector<int32_t>& rule) {
  const int64_t v = int64_t(d.size());
  auto at = [&](int64_t t) {
    return "pred(" + std::to_string(s) + ", " + std::to_string(t) + ") = " + std::to_string(pred[size_t(t)]);
  };
  // The length of the path the chain from t describes, once known (-1: not yet, -2: on the walk now).
  std::vector<int64_t> length(size_t(v), -1);
  length[size_t(s)] = 0;
  if (pred[size_t(s)] != -1) return at(s) + ", expected -1 at the source";
  std::vector<int64_t> chain;
  for (int64_t t0 = 0; t0 < v; ++t0) {
    if (d[size_t(t0)] >= kInf) {
      if (pred[size_t(t0)] != -1) return at(t0) + ", but " + std::to_string(t0) + " is unreachable (expected -1)";
      continue;
    }
    chain.clear();
    int64_t t = t0;
    while (length[size_t(t)] == -1) {  // down the chain to a vertex whose length is known
      const int32_t p = pred[size_t(t)];
      if (p < 0 || p >= v || p == t) return at(t) + ", not a vertex before " + std::to_string(t);
      length[size_t(t)] = -2;
      chain.push_back(t);
      t = p;
    }
    if (length[size_t(t)] == -2) return at(t) + ": the predecessors make a cycle through " + std::to_string(t);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {  // back up, adding each hop
      const int64_t u = *it, p = pred[size_t(u)];
      const int64_t w = edge_weight(csr, p, int32_t(u));
      if (w < 0) return at(u) + ", but the graph has no edge " + std::to_string(p) + " -> " + std::to_string(u);
      length[size_t(u)] = length[size_t(p)] + w;
      if (length[size_t(u)] != d[size_t(u)])
        return at(u) + ": that path from " + std::to_string(s) + " weighs " + std::to_string(length[size_t(u)]) +
               ", d = " + std::to_string(d[size_t(u)]);
    }
  }
  for (int64_t t = 0; t < v; ++t)
    if (pred[size_t(t)] != rule[size_t(t)])
      return at(t) + ", a shortest path, but the tie rule (fewest edges, then the smallest predecessor) gives " +
             std::to_string(rule[size_t(t)]);
  return "";
}

}  // namespace apsp::check
