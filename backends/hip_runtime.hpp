// SPDX-License-Identifier: BSD-3-Clause
// Runtime services of the HIP backend: device queries, pinned host memory, streams and events
// (the CUDA runtime's, in HIP's names). Compiled, never run: no AMD GPU was at hand.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "backend_runtime.hpp"  // the template specialised here

#include "hip_space.hpp"

namespace apsp {

template <>
struct BackendRuntime<hip::Space> {
  using HostStagingSpace = hip::HostPinnedSpace;
  /// Which flavour of device-aware MPI can take this backend's memory (mpi::device_aware).
  static constexpr const char* kMpiDeviceApi = "ROCm";
  /// e.g. "AMD Instinct MI250X gfx90a:sramecc+:xnack- (device 0)".
  static std::string device_name() {
    int id = 0;
    hipDeviceProp_t prop{};
    if (hipGetDevice(&id) != hipSuccess || hipGetDeviceProperties(&prop, id) != hipSuccess) return "HIP device";
    return std::string(prop.name) + " " + prop.gcnArchName + " (device " + std::to_string(id) + ")";
  }
  /// GPUs this process can see (callable before Kokkos is initialised: ranks pick theirs).
  static int visible_devices() {
    int count = 0;
    return hipGetDeviceCount(&count) == hipSuccess ? count : 0;
  }
  static int64_t device_memory_available() {
    size_t free_bytes = 0, total_bytes = 0;
    if (hipMemGetInfo(&free_bytes, &total_bytes) != hipSuccess) return INT64_MAX;
    return static_cast<int64_t>(free_bytes);
  }
  static void check(hipError_t rc, const char* what) {
    if (rc != hipSuccess) throw std::runtime_error(std::string("HIP ") + what + " failed: " + hipGetErrorString(rc));
  }
  /// Page-locks host memory that the device may then write by DMA (false when refused).
  static bool pin_host_memory(void* p, size_t bytes) {
    if (hipHostRegister(p, bytes, hipHostRegisterDefault) == hipSuccess) return true;
    (void)hipGetLastError();  // clear the error: the caller falls back to staged copies
    return false;
  }
  static void unpin_host_memory(void* p) { (void)hipHostUnregister(p); }
  /// rows x width bytes from device memory (row pitch src_pitch) to pinned host memory (row
  /// pitch dst_pitch), on `exec`'s stream: drops the padding columns on the way.
  static void copy_rows_to_host(const hip::Space& exec, void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                                size_t width, size_t rows) {
    check(hipMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, rows, hipMemcpyDeviceToHost, exec.hip_stream()),
          "device-to-host copy");
  }
  /// A second work queue of the highest priority (see the CUDA runtime: the next round's small
  /// kernels go ahead of the pending teams of phase 3). Kokkos before 4.2 cannot own a
  /// stream: one queue there.
  static hip::Space side_instance() {
#if KOKKOS_VERSION >= 40200
    int least = 0, greatest = 0;
    hipStream_t stream = nullptr;
    check(hipDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
    check(hipStreamCreateWithPriority(&stream, hipStreamNonBlocking, greatest), "stream creation");
    return hip::Space(stream, Kokkos::Impl::ManageStream::yes);
#else
    return hip::Space();
#endif
  }
  /// Orders work across the two queues: wait(q, e) holds q's later work until the work
  /// enqueued before the last record(e, ...) is done.
  class Event {
   public:
    Event() { check(hipEventCreateWithFlags(&event_, hipEventDisableTiming), "event creation"); }
    ~Event() { (void)hipEventDestroy(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    hipEvent_t get() const { return event_; }

   private:
    hipEvent_t event_ = nullptr;
  };
  static void record(Event& e, const hip::Space& exec) {
    check(hipEventRecord(e.get(), exec.hip_stream()), "event record");
  }
  static void wait(const hip::Space& exec, const Event& e) {
    check(hipStreamWaitEvent(exec.hip_stream(), e.get(), 0), "stream wait");
  }
};

}  // namespace apsp
