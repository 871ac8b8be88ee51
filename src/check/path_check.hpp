// SPDX-License-Identifier: BSD-3-Clause
// The self-check's path check (src/check/ only): a row of the predecessor matrix walked
// against the graph and the tie rule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "check_graph.hpp"

namespace apsp::check {

/// Walks the predecessor chains of row `s` (distances `d`, already equal to the reference's):
/// every hop an edge of the graph, the weights summing to the distance, every chain ending at s;
/// then the tie rule. Returns the first mismatch, or "".
std::string walk_predecessors(const Csr& csr, int64_t s, const std::vector<int32_t>& d,
                              const std::vector<int32_t>& pred, const std::vector<int32_t>& rule);

}  // namespace apsp::check
