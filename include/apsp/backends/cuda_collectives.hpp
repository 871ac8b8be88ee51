// SPDX-License-Identifier: BSD-3-Clause
// Collectives between the GPUs of an MPI job through NCCL (NVLink, PCIe or the network,
// whichever NCCL finds fastest), ordered on a CUDA stream so that the host never waits for
// them: the one place the distributed solver touches NCCL. Built when CMake finds NCCL
// (APSP_WITH_NCCL). NVLink multicast (NVLS) is NCCL's to choose from its environment; this
// code never asks for it.
#pragma once

#if defined(KOKKOS_ENABLE_CUDA) && defined(APSP_HAVE_NCCL)
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "apsp/backends/backend_runtime.hpp"  // the template specialised here
#include "apsp/backends/gpu_runtime.hpp"

namespace apsp {

/// NCCL's results, for APSP_GPU_CHECK.
struct NcclApi {
  using Error = ncclResult_t;
  static constexpr Error kSuccess = ncclSuccess;
  static constexpr const char* kName = "NCCL";
  static const char* error_string(Error r) { return ncclGetErrorString(r); }
};

template <>
class DeviceCollectives<Kokkos::Cuda> {
 public:
  static constexpr bool available = true;
  static constexpr const char* name = "NCCL";

  /// One communicator over `ranks` processes, each on the GPU it made current (Kokkos did);
  /// `share_id(bytes, size)` gives rank 0's bytes to every rank (MPI_Bcast). Collective.
  template <class ShareId>
  DeviceCollectives(int rank, int ranks, ShareId&& share_id) {
    ncclUniqueId id{};
    if (rank == 0) APSP_GPU_CHECK(NcclApi, ncclGetUniqueId(&id));
    share_id(&id, sizeof id);
    const ncclResult_t made = ncclCommInitRank(&comm_, ranks, id, rank);
    if (made == ncclInvalidUsage)  // what NCCL answers when two ranks share a GPU
      throw std::runtime_error(
          "NCCL refused the communicator (invalid usage; two ranks on one GPU?): NCCL needs a GPU per rank, "
          "use --pivot-rows=mpi where ranks share GPUs");
    APSP_GPU_CHECK(NcclApi, made);
  }
  ~DeviceCollectives() {
    if (comm_ != nullptr) (void)ncclCommDestroy(comm_);
  }
  DeviceCollectives(const DeviceCollectives&) = delete;
  DeviceCollectives& operator=(const DeviceCollectives&) = delete;

  /// `count` int32 at `data` from rank `root` to every rank's `data`, on `exec`'s stream.
  void broadcast(int32_t* data, size_t count, int root, const Kokkos::Cuda& exec) const {
    APSP_GPU_CHECK(NcclApi, ncclBroadcast(data, data, count, ncclInt32, root, comm_, exec.cuda_stream()));
  }

 private:
  ncclComm_t comm_ = nullptr;
};

}  // namespace apsp
#endif
