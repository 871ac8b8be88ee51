// SPDX-License-Identifier: BSD-3-Clause
// Runtime services of the CUDA backend: device queries, pinned host memory, streams and events.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "backend_runtime.hpp"  // the template specialised here

namespace apsp {

template <>
struct BackendRuntime<Kokkos::Cuda> {
  using HostStagingSpace = Kokkos::CudaHostPinnedSpace;
  /// Which flavour of device-aware MPI can take this backend's memory (mpi::device_aware).
  static constexpr const char* kMpiDeviceApi = "CUDA";
  static std::string device_name() {
    int id = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&id) != cudaSuccess || cudaGetDeviceProperties(&prop, id) != cudaSuccess) return "CUDA device";
    return std::string(prop.name) + " (device " + std::to_string(id) + ")";
  }
  /// GPUs this process can see (callable before Kokkos is initialised: ranks pick theirs).
  static int visible_devices() {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
  }
  static int64_t device_memory_available() {
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return INT64_MAX;
    return static_cast<int64_t>(free_bytes);
  }
  static void check(cudaError_t rc, const char* what) {
    if (rc != cudaSuccess) throw std::runtime_error(std::string("CUDA ") + what + " failed: " + cudaGetErrorString(rc));
  }
  /// Page-locks host memory that the device may then write by DMA (false when the system
  /// refuses, e.g. for memory it cannot pin).
  static bool pin_host_memory(void* p, size_t bytes) {
    if (cudaHostRegister(p, bytes, cudaHostRegisterDefault) == cudaSuccess) return true;
    (void)cudaGetLastError();  // clear the error: the caller falls back to staged copies
    return false;
  }
  static void unpin_host_memory(void* p) { (void)cudaHostUnregister(p); }
  /// rows x width bytes from device memory (row pitch src_pitch) to pinned host memory (row
  /// pitch dst_pitch), on `exec`'s stream: drops the padding columns on the way.
  static void copy_rows_to_host(const Kokkos::Cuda& exec, void* dst, size_t dst_pitch, const void* src,
                                size_t src_pitch, size_t width, size_t rows) {
    check(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, rows, cudaMemcpyDeviceToHost, exec.cuda_stream()),
          "device-to-host copy");
  }
  /// A second work queue: a stream of the highest priority, so that the block scheduler serves
  /// its small kernels (the next round's phases 1 and 2) ahead of the pending teams of the big
  /// one beside them. Kokkos before 4.2 cannot own a stream: one queue there.
  static Kokkos::Cuda side_instance() {
#if KOKKOS_VERSION >= 40200
    int least = 0, greatest = 0;
    cudaStream_t stream = nullptr;
    check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "stream priorities");
    check(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest), "stream creation");
    return Kokkos::Cuda(stream, Kokkos::Impl::ManageStream::yes);
#else
    return Kokkos::Cuda();
#endif
  }
  /// Orders work across the two queues: wait(q, e) holds q's later work until the work
  /// enqueued before the last record(e, ...) is done.
  class Event {
   public:
    Event() { check(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming), "event creation"); }
    ~Event() { (void)cudaEventDestroy(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return event_; }

   private:
    cudaEvent_t event_ = nullptr;
  };
  static void record(Event& e, const Kokkos::Cuda& exec) {
    check(cudaEventRecord(e.get(), exec.cuda_stream()), "event record");
  }
  static void wait(const Kokkos::Cuda& exec, const Event& e) {
    check(cudaStreamWaitEvent(exec.cuda_stream(), e.get(), 0), "stream wait");
  }
};

}  // namespace apsp
