// SPDX-License-Identifier: BSD-3-Clause
// A backend's runtime services, apart from its kernel tuning (backend_traits.hpp): what the
// pipeline and the round driver ask of the machine rather than of a kernel.
//
// BackendRuntime<ExecSpace> provides:
// - `HostStagingSpace`: where the result lands on the host before it is written (the
//   matrix's own memory when the host can read it; pinned memory for a GPU).
// - `device_name()`: e.g. "NVIDIA H200 (device 0)", or the CPU model.
// - `visible_devices()`: accelerators a process may choose among (0 for the host); callable
//   before Kokkos is initialised, so that each MPI rank can pick its own.
// - `visible_device_names()`: "0: NVIDIA H200, 1: ..." ("" for the host), as callable.
// - `device_memory_available()`: free device memory in bytes (INT64_MAX when the host is the
//   device: the pipeline checks host memory instead).
// - `pin_host_memory(p, bytes)`, `unpin_host_memory(p)`, `copy_rows_to_host(...)`: page-lock
//   host memory so that the device writes the result into it directly (false: not possible).
// - `kMpiDeviceApi`: "CUDA" or "ROCm", the device-aware MPI that may read the device's memory
//   (mpi::device_aware); nullptr for the host.
// - `side_instance()`, `Event`, `record(e, exec)`, `wait(exec, e)`: a second work queue and
//   the events that order work across the two (the look-ahead); on the host one instance and
//   events that do nothing.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace apsp {

template <class ExecSpace>
struct BackendRuntime;

/// True when the host reads and writes ExecSpace's memory itself (a CPU backend): the result
/// is written from where it was computed, and host memory is the device memory.
template <class ExecSpace>
constexpr bool host_is_device() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

/// True when ExecSpace's kernels read host memory (a CPU backend): the edge list is used in
/// place instead of being copied over.
template <class ExecSpace>
constexpr bool device_reads_host() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
}

/// Host memory page-locked for a device's copies while this object lives (`Runtime`: a
/// BackendRuntime); empty where the backend cannot or need not lock it (pin_host_memory said no).
template <class Runtime>
class PinnedHostRange {
 public:
  PinnedHostRange() = default;
  PinnedHostRange(void* p, size_t bytes) : p_(Runtime::pin_host_memory(p, bytes) ? p : nullptr) {}
  PinnedHostRange(PinnedHostRange&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  PinnedHostRange& operator=(PinnedHostRange&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  PinnedHostRange(const PinnedHostRange&) = delete;
  PinnedHostRange& operator=(const PinnedHostRange&) = delete;
  ~PinnedHostRange() { reset(); }
  explicit operator bool() const { return p_ != nullptr; }
  /// The locked memory, or null.
  void* get() const { return p_; }
  void reset() {
    if (p_ != nullptr) Runtime::unpin_host_memory(std::exchange(p_, nullptr));
  }

 private:
  void* p_ = nullptr;
};

/// Collectives between the devices of several processes, ordered on a device queue so that
/// the host does not wait for them (NCCL for CUDA: cuda_collectives.hpp). None by default:
/// the distributed solver then moves pivot rows with MPI.
template <class ExecSpace>
class DeviceCollectives {
 public:
  static constexpr bool available = false;
};

/// The devices of one node's processes copying from each other's memory with their copy
/// engines (CUDA or HIP IPC: gpu_peers.hpp). None by default (a host backend: MPI reads the
/// matrix where it lies).
template <class ExecSpace>
class DevicePeers {
 public:
  static constexpr bool available = false;
};

}  // namespace apsp

#include "apsp/backends/host_runtime.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "apsp/backends/cuda_collectives.hpp"
#include "apsp/backends/cuda_runtime.hpp"
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include "apsp/backends/hip_runtime.hpp"
#endif
