// SPDX-License-Identifier: BSD-3-Clause
// Constants of the file format (../shared/spec.md).
#pragma once

#include <cstdint>

namespace apsp {

/// Distance of a pair with no path (spec: 2^30 - 1). INF + INF still fits in int32, so a
/// relaxation of two INF entries cannot overflow.
inline constexpr int32_t kInf = 1073741823;

}  // namespace apsp
