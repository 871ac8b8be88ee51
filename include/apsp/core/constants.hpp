// SPDX-License-Identifier: BSD-3-Clause
// Constants of the file format (docs/graphs.md).
#pragma once

#include <cstdint>

namespace apsp {

/// Distance of a pair with no path (spec: 2^30 - 1). INF + INF still fits in int32, so a
/// relaxation of two INF entries cannot overflow.
inline constexpr int32_t kInf = 1073741823;

/// Largest weight for which every path among `vertices` vertices stays below INF:
/// (V - 1) * w < INF.
inline constexpr int32_t max_weight_allowed(int64_t vertices) {
  return vertices <= 1 ? INT32_MAX : static_cast<int32_t>((int64_t(kInf) - 1) / (vertices - 1));
}

}  // namespace apsp
