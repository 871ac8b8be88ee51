// SPDX-License-Identifier: BSD-3-Clause
// The solve that also finds predecessors (--predecessors): the distance matrix built as usual
// is turned into path keys (path_keys.hpp), the keys are solved by the same round driver with
// the path tile operations, and split again into the distance matrix (byte-identical to a
// distance-only solve) and the predecessor matrix, all where the solver runs.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "apsp/core/constants.hpp"
#include "apsp/paths/path_keys.hpp"
#include "apsp/paths/path_tile_ops.hpp"
#include "apsp/solver/blocked_fw.hpp"
#include "apsp/solver/distance_matrix.hpp"

namespace apsp {

/// The round driver over path keys.
template <class ExecSpace>
using PathFloydWarshall = BlockedFloydWarshall<ExecSpace, Impl::PathTileOps<ExecSpace>>;

/// The key matrix: the same rows as the distance matrix, 8 bytes an entry.
template <class ExecSpace>
using PathKeyMatrix = DistanceMatrix<ExecSpace, PathKeys::Key>;

/// Throws std::invalid_argument unless `block` suits the path solve on this backend.
template <class ExecSpace>
void check_path_block_size(int block) {
  const char* rule = "";
  if (!Impl::PathTileOps<ExecSpace>::block_ok(block, rule))
    throw std::invalid_argument("block size " + std::to_string(block) + " is not supported by the " +
                                ExecSpace::name() + " backend with --predecessors: " + rule);
}

namespace Impl {

struct LargestWeight {
  const int32_t* d;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t e, int32_t& m) const {
    if (d[e] < kInf && d[e] > m) m = d[e];
  }
};

struct ToKeys {
  const int32_t* d;
  PathKeys::Key* keys;
  int64_t n, first_row;
  PathKeys codec;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t e) const {
    keys[e] = codec.initial(d[e], first_row + e / n, e % n);
  }
};

struct SplitKeys {
  const PathKeys::Key* keys;
  int32_t* d;
  int32_t* pred;
  PathKeys codec;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t e) const {
    d[e] = codec.distance(keys[e]);
    pred[e] = codec.predecessor(keys[e]);
  }
};

}  // namespace Impl

/// The heaviest edge in the rows `d` holds before the solve (0 when there is none).
template <class ExecSpace>
int32_t largest_weight(const DistanceMatrix<ExecSpace>& d) {
  int32_t m = 0;
  Kokkos::parallel_reduce("apsp::paths::largest_weight", Kokkos::RangePolicy<ExecSpace>(0, int64_t(d.data.size())),
                          Impl::LargestWeight{d.data.data()}, Kokkos::Max<int32_t>(m));
  return m;
}

/// keys = the path keys of the initial distance rows `d`.
template <class ExecSpace>
void to_keys(const DistanceMatrix<ExecSpace>& d, const PathKeyMatrix<ExecSpace>& keys, const PathKeys& codec) {
  Kokkos::parallel_for("apsp::paths::to_keys", Kokkos::RangePolicy<ExecSpace>(0, int64_t(d.data.size())),
                       Impl::ToKeys{d.data.data(), keys.data.data(), d.n, d.first_row, codec});
}

/// d and pred = the distances and predecessors of the solved `keys`.
template <class ExecSpace>
void split_keys(const PathKeyMatrix<ExecSpace>& keys, const PathKeys& codec, const DistanceMatrix<ExecSpace>& d,
                const DistanceMatrix<ExecSpace>& pred) {
  Kokkos::parallel_for("apsp::paths::split_keys", Kokkos::RangePolicy<ExecSpace>(0, int64_t(d.data.size())),
                       Impl::SplitKeys{keys.data.data(), d.data.data(), pred.data.data(), codec});
}

}  // namespace apsp
