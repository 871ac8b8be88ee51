// SPDX-License-Identifier: BSD-3-Clause
// The GPUs of one node's processes reading each other's memory (CUDA or HIP IPC), for the
// distributed solver's pivot rows (mpi/distributed_fw.hpp, PivotPath::device_peer): each
// process lends two buffers of its device ("outboxes", one per round parity) to the others,
// which copy from them into their own memory, device to device (NVLink where the GPUs have
// it). Neither the host nor MPI moves those bytes: through pinned host memory each pivot row
// block crossed PCIe twice and MPI's host copy once (docs/results.md, "Several GPUs").
//
// Written once over a vendor's runtime API (`Api`: cuda_runtime.hpp's CudaApi, hip_runtime.hpp's
// HipApi). A node whose processes cannot open each other's buffers (a container without a
// shared IPC namespace, GPUs with no path between them) is told by opened(), the same answer
// on every process: the caller then takes another path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "apsp/backends/gpu_runtime.hpp"

namespace apsp::gpu {

template <class Api>
class Peers {
 public:
  static constexpr bool available = true;
  static constexpr const char* name = Api::kIpcName;

  /// Two outboxes of `bytes` each on this process's device, and every other process's opened
  /// here; `all_gather(mine, all, size)` gives every process's `size` bytes in `all`, in rank
  /// order (MPI_Allgather over processes of one node). Collective; throws nothing between its
  /// collective steps, so that no process is left waiting in one: a failure anywhere shows as
  /// opened() false on every process.
  /// `outboxes`: 1 for a single buffer of `bytes` (outbox(0)) that the others read at any offset.
  template <class AllGather>
  Peers(int rank, int ranks, size_t bytes, AllGather&& all_gather, int outboxes = 2)
      : stride_((bytes + kAlign - 1) / kAlign * kAlign), peer_(size_t(ranks), nullptr), rank_(rank) {
    int ok = Api::malloc_device(&base_, size_t(outboxes) * stride_) == Api::kSuccess ? 1 : 0;
    typename Api::IpcHandle mine{};
    if (ok != 0 && Api::ipc_get_handle(&mine, base_) != Api::kSuccess) ok = 0;
    std::vector<typename Api::IpcHandle> all(static_cast<size_t>(ranks));
    all_gather(&mine, all.data(), sizeof mine);
    std::vector<int> oks(size_t(ranks), 0);
    all_gather(&ok, oks.data(), sizeof ok);
    bool everyone = true;
    for (const int o : oks) everyone = everyone && o != 0;
    ok = everyone ? 1 : 0;
    for (int r = 0; r < ranks && ok != 0; ++r) {
      if (r == rank) continue;
      if (Api::ipc_open(&peer_[size_t(r)], all[size_t(r)]) != Api::kSuccess) {
        peer_[size_t(r)] = nullptr;
        ok = 0;
      }
    }
    if (ok == 0) (void)Api::get_last_error();  // cleared: the caller takes another path
    all_gather(&ok, oks.data(), sizeof ok);
    opened_ = true;
    for (const int o : oks) opened_ = opened_ && o != 0;
  }
  ~Peers() {
    for (void* p : peer_)
      if (p != nullptr) (void)Api::ipc_close(p);
    if (base_ != nullptr) (void)Api::free_device(base_);
  }
  Peers(const Peers&) = delete;
  Peers& operator=(const Peers&) = delete;

  /// Whether every process opened every other's outboxes (the same on every process).
  bool opened() const { return opened_; }
  /// This process's outbox for rounds of parity `parity` (0 or 1), on its device.
  void* outbox(int parity) const { return static_cast<char*>(base_) + size_t(parity) * stride_; }
  /// `bytes` of `src` (this device) into this process's outbox `parity`, on `exec`'s stream.
  void post(const void* src, int parity, size_t bytes, const typename Api::Space& exec) const {
    APSP_GPU_CHECK(Api, Api::copy_async(outbox(parity), src, bytes, Api::stream(exec)));
  }
  /// `bytes` of process `from`'s outbox `parity` into `dst` (this device), on `exec`'s stream.
  void fetch(void* dst, int from, int parity, size_t bytes, const typename Api::Space& exec) const {
    const void* src = static_cast<const char*>(peer_[size_t(from)]) + size_t(parity) * stride_;
    APSP_GPU_CHECK(Api, Api::copy_async(dst, src, bytes, Api::stream(exec)));
  }
  /// `bytes` from `offset` of process `from`'s buffer (this process's own included) into `dst`.
  void fetch_at(void* dst, int from, size_t offset, size_t bytes, const typename Api::Space& exec) const {
    const void* src = static_cast<const char*>(from == rank_ ? base_ : peer_[size_t(from)]) + offset;
    APSP_GPU_CHECK(Api, Api::copy_async(dst, src, bytes, Api::stream(exec)));
  }

 private:
  static constexpr size_t kAlign = 256;  ///< the second outbox's offset: a multiple of this

  size_t stride_;
  void* base_ = nullptr;     ///< both outboxes, one allocation (one handle)
  std::vector<void*> peer_;  ///< every other process's allocation, opened here; null: this one
  int rank_ = 0;
  bool opened_ = false;
};

}  // namespace apsp::gpu
