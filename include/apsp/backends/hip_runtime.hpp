// SPDX-License-Identifier: BSD-3-Clause
// Runtime services of the HIP backend: gpu_runtime.hpp's shape over the HIP runtime API.
// Compiled, never run: no AMD GPU was at hand.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <string>

#include "apsp/backends/backend_runtime.hpp"  // the template specialised here
#include "apsp/backends/gpu_peers.hpp"
#include "apsp/backends/gpu_runtime.hpp"
#include "apsp/backends/hip_space.hpp"

namespace apsp {

/// The HIP runtime calls gpu::Runtime makes, under its names.
struct HipApi {
  using Space = hip::Space;
  using HostPinnedSpace = hip::HostPinnedSpace;
  using Error = hipError_t;
  using DeviceProp = hipDeviceProp_t;
  using Stream = hipStream_t;
  using Event = hipEvent_t;
  static constexpr Error kSuccess = hipSuccess;
  static constexpr const char* kName = "HIP";
  static constexpr const char* kMpiDeviceApi = "ROCm";
  static const char* error_string(Error rc) { return hipGetErrorString(rc); }
  /// e.g. "AMD Instinct MI250X gfx90a:sramecc+:xnack-".
  static std::string describe(const DeviceProp& p) { return std::string(p.name) + " " + p.gcnArchName; }
  static Error get_device(int* id) { return hipGetDevice(id); }
  static Error get_device_properties(DeviceProp* p, int id) { return hipGetDeviceProperties(p, id); }
  static Error get_device_count(int* n) { return hipGetDeviceCount(n); }
  static constexpr const char* kUnit = "CUs";
  static Error multiprocessors(int* n, int id) {
    return hipDeviceGetAttribute(n, hipDeviceAttributeMultiprocessorCount, id);
  }
  static Error clock_khz(int* khz, int id) { return hipDeviceGetAttribute(khz, hipDeviceAttributeClockRate, id); }
  /// Relaxations one CU retires per clock: 64 vector lanes (4 SIMD16 units), and per two
  /// relaxations two v_add_u32 and one v_min3_i32 (the phase-3 mix, scripts/show_hip_kernel.sh):
  /// 64 x 2 / 3. No 16-bit product.
  static gpu::PerClock relax_per_clock(int /*id*/) {
    return {64.0 * 2.0 / 3.0, 0.0, "CDNA: v_add_u32 x 2, v_min3_i32"};
  }
  static Error mem_get_info(size_t* free_bytes, size_t* total) { return hipMemGetInfo(free_bytes, total); }
  static Error host_register(void* p, size_t bytes) { return hipHostRegister(p, bytes, hipHostRegisterDefault); }
  static Error host_unregister(void* p) { return hipHostUnregister(p); }
  static Error get_last_error() { return hipGetLastError(); }
  static Stream stream(const Space& exec) { return exec.hip_stream(); }
  static Error copy_2d_to_host(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows,
                               Stream s) {
    return hipMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, hipMemcpyDeviceToHost, s);
  }
  static Error stream_priority_range(int* least, int* greatest) {
    return hipDeviceGetStreamPriorityRange(least, greatest);
  }
  static Error create_stream(Stream* s, int priority) {
    return hipStreamCreateWithPriority(s, hipStreamNonBlocking, priority);
  }
  static Error create_event(Event* e) { return hipEventCreateWithFlags(e, hipEventDisableTiming); }
  static Error destroy_event(Event e) { return hipEventDestroy(e); }
  static Error record_event(Event e, Stream s) { return hipEventRecord(e, s); }
  static Error stream_wait_event(Stream s, Event e) { return hipStreamWaitEvent(s, e, 0); }
  // Buffers lent to the node's other processes (gpu_peers.hpp).
  using IpcHandle = hipIpcMemHandle_t;
  static constexpr const char* kIpcName = "HIP IPC";
  static Error malloc_device(void** p, size_t bytes) { return hipMalloc(p, bytes); }
  static Error free_device(void* p) { return hipFree(p); }
  static Error ipc_get_handle(IpcHandle* h, void* p) { return hipIpcGetMemHandle(h, p); }
  static Error ipc_open(void** p, IpcHandle h) { return hipIpcOpenMemHandle(p, h, hipIpcMemLazyEnablePeerAccess); }
  static Error ipc_close(void* p) { return hipIpcCloseMemHandle(p); }
  static Error copy_async(void* dst, const void* src, size_t bytes, Stream s) {
    return hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, s);
  }
};

template <>
struct BackendRuntime<hip::Space> : gpu::Runtime<HipApi> {};

template <>
class DevicePeers<hip::Space> : public gpu::Peers<HipApi> {
 public:
  using gpu::Peers<HipApi>::Peers;
};

}  // namespace apsp
