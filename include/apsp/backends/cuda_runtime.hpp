// SPDX-License-Identifier: BSD-3-Clause
// Runtime services of the CUDA backend: gpu_runtime.hpp's shape over the CUDA runtime API.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "apsp/backends/backend_runtime.hpp"  // the template specialised here
#include "apsp/backends/backend_traits.hpp"
#include "apsp/backends/gpu_peers.hpp"
#include "apsp/backends/gpu_runtime.hpp"

namespace apsp {

/// The CUDA runtime calls gpu::Runtime makes, under its names.
struct CudaApi {
  using Space = Kokkos::Cuda;
  using HostPinnedSpace = Kokkos::CudaHostPinnedSpace;
  using Error = cudaError_t;
  using DeviceProp = cudaDeviceProp;
  using Stream = cudaStream_t;
  using Event = cudaEvent_t;
  static constexpr Error kSuccess = cudaSuccess;
  static constexpr const char* kName = "CUDA";
  static constexpr const char* kMpiDeviceApi = "CUDA";
  static const char* error_string(Error rc) { return cudaGetErrorString(rc); }
  static std::string describe(const DeviceProp& p) { return p.name; }
  static Error get_device(int* id) { return cudaGetDevice(id); }
  static Error get_device_properties(DeviceProp* p, int id) { return cudaGetDeviceProperties(p, id); }
  static Error get_device_count(int* n) { return cudaGetDeviceCount(n); }
  static constexpr const char* kUnit = "SMs";
  static Error multiprocessors(int* n, int id) { return cudaDeviceGetAttribute(n, cudaDevAttrMultiProcessorCount, id); }
  static Error clock_khz(int* khz, int id) { return cudaDeviceGetAttribute(khz, cudaDevAttrClockRate, id); }
  /// Relaxations one SM retires per clock, by compute capability. sm_90 and later: the fused
  /// add-min VIADDMNMX, 64 lanes per clock on the ALU pipe (4 x 16); with part of the int32 work
  /// in the paired form (BackendTraits::kPairedEntries: adds on the FMA pipe) the mix measured
  /// up to 71.3 per clock in registers (scripts/minplus_mix.sh, H200 and H100), which is the
  /// int32 figure; VIADDMNMX.U16x2 does two relaxations per lane: 128. Before sm_90: an add and
  /// a min on the ALU pipe, 32; no 16-bit product.
  static gpu::PerClock relax_per_clock(int id) {
    int major = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, id) != cudaSuccess) return {0, 0, "unknown"};
    using Traits = BackendTraits<Kokkos::Cuda>;
    if (major >= 9)
      return {Traits::kPairedEntries > 0 ? 71.3 : 64.0, Traits::kPackedTiles ? 128.0 : 0.0,
              "sm_90 and later: VIADDMNMX, VIADDMNMX.U16x2"};
    if (major >= 7) return {32.0, 0.0, "sm_70 to sm_89: IADD3 and IMNMX"};
    return {0, 0, "before sm_70"};
  }
  static Error mem_get_info(size_t* free_bytes, size_t* total) { return cudaMemGetInfo(free_bytes, total); }
  static Error host_register(void* p, size_t bytes) { return cudaHostRegister(p, bytes, cudaHostRegisterDefault); }
  static Error host_unregister(void* p) { return cudaHostUnregister(p); }
  static Error get_last_error() { return cudaGetLastError(); }
  static Stream stream(const Space& exec) { return exec.cuda_stream(); }
  static Error copy_2d_to_host(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows,
                               Stream s) {
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDeviceToHost, s);
  }
  static Error stream_priority_range(int* least, int* greatest) {
    return cudaDeviceGetStreamPriorityRange(least, greatest);
  }
  static Error create_stream(Stream* s, int priority) {
    return cudaStreamCreateWithPriority(s, cudaStreamNonBlocking, priority);
  }
  static Error create_event(Event* e) { return cudaEventCreateWithFlags(e, cudaEventDisableTiming); }
  static Error destroy_event(Event e) { return cudaEventDestroy(e); }
  static Error record_event(Event e, Stream s) { return cudaEventRecord(e, s); }
  static Error stream_wait_event(Stream s, Event e) { return cudaStreamWaitEvent(s, e, 0); }
  // Buffers lent to the node's other processes (gpu_peers.hpp).
  using IpcHandle = cudaIpcMemHandle_t;
  static constexpr const char* kIpcName = "CUDA IPC";
  static Error malloc_device(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
  static Error free_device(void* p) { return cudaFree(p); }
  static Error ipc_get_handle(IpcHandle* h, void* p) { return cudaIpcGetMemHandle(h, p); }
  static Error ipc_open(void** p, IpcHandle h) { return cudaIpcOpenMemHandle(p, h, cudaIpcMemLazyEnablePeerAccess); }
  static Error ipc_close(void* p) { return cudaIpcCloseMemHandle(p); }
  static Error copy_async(void* dst, const void* src, size_t bytes, Stream s) {
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s);
  }
};

template <>
struct BackendRuntime<Kokkos::Cuda> : gpu::Runtime<CudaApi> {};

template <>
class DevicePeers<Kokkos::Cuda> : public gpu::Peers<CudaApi> {
 public:
  using gpu::Peers<CudaApi>::Peers;
};

}  // namespace apsp
