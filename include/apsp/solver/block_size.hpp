// SPDX-License-Identifier: BSD-3-Clause
// Which block sizes a backend takes: whole thread tiles and staging runs, and on a GPU a
// power of two whose staged slices fit the team scratch and whose team fits the launch bounds.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/backends/backend_traits.hpp"
#include "apsp/solver/tile_ops.hpp"

namespace apsp {

/// Throws std::invalid_argument unless `block` suits the backend's thread-tile shape and
/// the staged operand slices fit the team scratch memory of this device.
template <class ExecSpace>
void check_block_size(int block) {
  using Policy = Kokkos::TeamPolicy<ExecSpace, typename BackendTraits<ExecSpace>::LaunchBounds>;
  using T = BackendTraits<ExecSpace>;
  const int step = T::kBlockMultiple;
  const std::string rule = (T::kRegisterTiles ? "it must be a power of two from " : "it must be a multiple of ") +
                           std::to_string(step) + (T::kRegisterTiles ? " to " : " up to ") +
                           std::to_string(T::kLargestBlock);
  if (block <= 0 || block % T::kBlockMultiple != 0 || block < T::kMinBlock || block > T::kLargestBlock ||
      (T::kMaxBlock > 0 && block > T::kMaxBlock) || (T::kRegisterTiles && (block & (block - 1)) != 0))
    throw std::invalid_argument("block size " + std::to_string(block) + " is not supported by the " +
                                ExecSpace::name() + " backend: " + rule);
  // A GPU's shared memory is a hard limit; host backends allocate scratch as needed
  // (Kokkos 3.4's OpenMP reports 32 KiB here yet serves more).
  constexpr bool on_host = host_is_device<ExecSpace>();
  const size_t need = Impl::TileOps<ExecSpace>::product_scratch(block), have = Policy::scratch_size_max(0);
  if (!on_host && need > have)
    throw std::invalid_argument("block size " + std::to_string(block) + " needs " + std::to_string(need) +
                                " bytes of team scratch on the " + ExecSpace::name() + " backend, which has " +
                                std::to_string(have));
  const int threads = T::team_size(block) * T::vector_length(block);
  if (!on_host && threads > T::kMaxTeamThreads)
    throw std::invalid_argument("block size " + std::to_string(block) + " needs " + std::to_string(threads) +
                                " threads per team with this thread tile; the " + ExecSpace::name() + " build allows " +
                                std::to_string(T::kMaxTeamThreads));
}

}  // namespace apsp
