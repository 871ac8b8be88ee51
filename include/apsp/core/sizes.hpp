// SPDX-License-Identifier: BSD-3-Clause
// Byte counts: products that size memory, files or loops are computed here, saturating at
// kTooLarge instead of overflowing (a saturated need is refused by every memory check), and
// printed and parsed with units people read (MB, GB, TB).
#pragma once

#include <cstdint>
#include <string>

namespace apsp {

/// What an overflowing size saturates at: more than any machine has.
inline constexpr int64_t kTooLarge = INT64_MAX;

/// a * b for non-negative a, b, or kTooLarge when the product does not fit in int64.
constexpr int64_t size_mul(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kTooLarge : r;
}
/// a * b * c, saturating.
constexpr int64_t size_mul(int64_t a, int64_t b, int64_t c) { return size_mul(size_mul(a, b), c); }
/// a + b for non-negative a, b, saturating.
constexpr int64_t size_add(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? kTooLarge : r;
}

/// "512 B", "12.3 MB", "1.20 GB", "3.41 TB" (decimal units); "more than 9.2 EB" for kTooLarge.
std::string format_bytes(int64_t bytes);

/// Parses a size such as "64GB", "1.5 TiB", "512M", "4096" (bytes): decimal (kB, MB, GB, TB, PB,
/// also K, M, G, T, P) and binary (KiB, MiB, GiB, TiB, PiB) units, any case. Throws
/// std::invalid_argument naming `what` for anything else, for zero and for negative sizes.
int64_t parse_bytes(const std::string& text, const std::string& what);

}  // namespace apsp
