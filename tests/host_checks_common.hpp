// SPDX-License-Identifier: BSD-3-Clause
// What host_tiles_checks.cpp (the int32 matrix) and host_tiles16_checks.cpp (the 16-bit one)
// share: a matrix with guard entries, 64-byte aligned scratch, a product case's tiles, the naive
// references in int64 (the product of two tiles, the closure of one, a pivot tile closed in
// place) and the message of a mismatch. Compiled into each ISA's check object: nothing here runs before the CPU check.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace apsp::test_checks {

/// n x n entries in rows of ld = n + 3 (rows not aligned to a vector), the 3 extra entries of
/// each row a guard value that nothing may write.
template <class Entry>
struct GuardedMatrix {
  int n;
  int64_t ld;
  Entry guard;
  std::vector<Entry> v;
  GuardedMatrix(int size, Entry guard_value)
      : n(size), ld(size + 3), guard(guard_value), v(size_t(ld) * size_t(size), guard_value) {}
  Entry* at(int i, int j) { return v.data() + i * ld + j; }
  bool guards_intact() const {
    for (int i = 0; i < n; ++i)
      for (int64_t j = n; j < ld; ++j)
        if (v[size_t(i * ld + j)] != guard) return false;
    return true;
  }
};

/// The first 64-byte aligned entry of `v` (scratch as Kokkos gives it: 64 bytes of slack).
inline int32_t* aligned64(std::vector<int32_t>& v) {
  const auto misaligned = reinterpret_cast<uintptr_t>(v.data()) % 64;
  return v.data() + (misaligned == 0 ? 0 : (64 - misaligned) / sizeof(int32_t));
}

inline std::string where(const char* what, int i, int j, int64_t got, int64_t want) {
  return std::string(what) + ": entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is " +
         std::to_string(got) + ", expected " + std::to_string(want);
}

/// The B x B tile at `p` (ld) with a zero diagonal, closed in place under all B pivots: the
/// pivot tile of phase 2, whose product with a tile in its row or column may write that tile.
template <class Entry>
void close_in_place(Entry* p, int64_t ld, int B) {
  for (int i = 0; i < B; ++i) p[i * ld + i] = 0;
  for (int k = 0; k < B; ++k)
    for (int i = 0; i < B; ++i)
      for (int j = 0; j < B; ++j)
        p[i * ld + j] = Entry(std::min<int64_t>(p[i * ld + j], int64_t(p[i * ld + k]) + p[k * ld + j]));
}

/// The tiles of a product case on a 3B x 3B matrix: C = tile (1, 2), A = tile (1, 0), Bk =
/// tile (0, 2); alias 1: A = C (C (min,+) P, P = tile (2, 2) closed in place), alias 2: Bk = C
/// (P (min,+) C, P = tile (1, 1) closed in place), as phase 2 multiplies a tile of the pivot's
/// column or row.
template <class Entry>
struct ProductTiles {
  Entry* c;
  const Entry* a;
  const Entry* bk;
};
template <class Entry>
ProductTiles<Entry> product_tiles(GuardedMatrix<Entry>& m, int B, int alias) {
  ProductTiles<Entry> t{m.at(B, 2 * B), m.at(B, 0), m.at(0, 2 * B)};
  if (alias != 0) {
    Entry* p = alias == 1 ? m.at(2 * B, 2 * B) : m.at(B, B);
    close_in_place(p, m.ld, B);
    t.a = alias == 1 ? t.c : p;
    t.bk = alias == 1 ? p : t.c;
  }
  return t;
}

/// min(C, A (min,+) Bk) in int64 for the B x B tile C (ld) over `pivots` pivots, its entries
/// past `rows` and `cols` as C holds them.
template <class Entry>
std::vector<int64_t> naive_product(const Entry* c, const Entry* a, const Entry* bk, int64_t ld, int B, int rows,
                                   int cols, int pivots) {
  std::vector<int64_t> want(size_t(B) * size_t(B));
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j) {
      int64_t best = c[i * ld + j];
      if (i < rows && j < cols)
        for (int p = 0; p < pivots; ++p) best = std::min(best, int64_t(a[i * ld + p]) + bk[p * ld + j]);
      want[size_t(i) * B + j] = best;
    }
  return want;
}

/// Floyd-Warshall in int64 on the B x B tile at `t` (ld) over its first `pivots` pivots.
template <class Entry>
std::vector<int64_t> naive_closure(const Entry* t, int64_t ld, int B, int pivots) {
  std::vector<int64_t> want(size_t(B) * size_t(B));
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j) want[size_t(i) * B + j] = t[i * ld + j];
  for (int p = 0; p < pivots; ++p)
    for (int i = 0; i < B; ++i)
      for (int j = 0; j < B; ++j)
        want[size_t(i) * B + j] = std::min(want[size_t(i) * B + j], want[size_t(i) * B + p] + want[size_t(p) * B + j]);
  return want;
}

/// "" where the B x B tile at `got` (ld) equals `want`, and its matrix's guards are intact.
template <class Entry>
std::string first_mismatch(const char* what, const GuardedMatrix<Entry>& m, const Entry* got,
                           const std::vector<int64_t>& want, int B) {
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j)
      if (got[i * m.ld + j] != want[size_t(i) * B + j])
        return where(what, i, j, got[i * m.ld + j], want[size_t(i) * B + j]);
  return m.guards_intact() ? "" : std::string(what) + ": wrote outside the matrix";
}

}  // namespace apsp::test_checks
