// SPDX-License-Identifier: BSD-3-Clause
// The runtime services both GPU backends give the pipeline (backend_runtime.hpp lists them):
// device queries, pinned host memory, a second stream of the highest priority, and events, in
// one shape over a vendor's runtime API (`Api`: cuda_runtime.hpp's CudaApi, hip_runtime.hpp's
// HipApi, the same calls in each vendor's names). Every call whose failure ends the run goes
// through APSP_GPU_CHECK, which names the call, the file and the line.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "apsp/report/ceiling.hpp"

namespace apsp::gpu {

/// Relaxations one multiprocessor retires per clock in each lane type (0: no such product), and
/// the instructions that figure is for: what each Api's relax_per_clock(id) gives.
struct PerClock {
  double int32, lanes16;
  const char* what;
};

/// Throws for a failed runtime call, naming it and where it was made.
template <class Api>
void check(typename Api::Error rc, const char* call, const char* file, int line) {
  if (rc == Api::kSuccess) return;
  std::string where = file;
  where = where.substr(where.find_last_of('/') + 1);
  throw std::runtime_error(std::string(Api::kName) + " call " + call + " failed (" + where + ":" +
                           std::to_string(line) + "): " + Api::error_string(rc));
}

}  // namespace apsp::gpu

#define APSP_GPU_CHECK(Api, call) ::apsp::gpu::check<Api>((call), #call, __FILE__, __LINE__)

namespace apsp::gpu {

template <class Api>
struct Runtime {
  using Space = typename Api::Space;
  using HostStagingSpace = typename Api::HostPinnedSpace;
  /// Which flavour of device-aware MPI can take this backend's memory (mpi::device_aware).
  static constexpr const char* kMpiDeviceApi = Api::kMpiDeviceApi;

  /// e.g. "NVIDIA H200 (device 0)".
  static std::string device_name() {
    int id = 0;
    typename Api::DeviceProp prop{};
    if (Api::get_device(&id) != Api::kSuccess || Api::get_device_properties(&prop, id) != Api::kSuccess)
      return std::string(Api::kName) + " device";
    return Api::describe(prop) + " (device " + std::to_string(id) + ")";
  }
  /// The device's add-min rates (report/ceiling.hpp): multiprocessors x peak clock x what one
  /// multiprocessor retires per clock in each lane type (Api::relax_per_clock, per architecture).
  static DeviceCeiling ceiling(const CeilingOptions& options, bool /*measure*/) {
    if (options.skip) return {};
    int id = 0, units = 0, khz = 0;
    if (Api::get_device(&id) != Api::kSuccess || Api::multiprocessors(&units, id) != Api::kSuccess ||
        Api::clock_khz(&khz, id) != Api::kSuccess || units <= 0 || khz <= 0) {
      (void)Api::get_last_error();
      return {{}, "the device's attributes could not be read", {}};
    }
    const PerClock per = Api::relax_per_clock(id);
    if (per.int32 <= 0) return {{}, std::string("no add-min figures for this architecture (") + per.what + ")", {}};
    const double hz = double(khz) * 1e3;
    char basis[256];
    std::snprintf(basis, sizeof basis, "%d %s x %.2f GHz x %.1f int32 / %.1f 16-bit relaxations per clock each (%s)",
                  units, Api::kUnit, hz / 1e9, per.int32, per.lanes16, per.what);
    return {{per.int32 * units * hz, per.lanes16 * units * hz}, basis, {}};
  }
  /// GPUs this process can see (callable before Kokkos is initialised: ranks pick theirs).
  static int visible_devices() {
    int count = 0;
    if (Api::get_device_count(&count) == Api::kSuccess) return count;
    (void)Api::get_last_error();  // no driver or no device: none visible
    return 0;
  }
  /// "0: NVIDIA H200, 1: NVIDIA H200" (what a device id chooses among), as callable.
  static std::string visible_device_names() {
    std::string names;
    for (int id = 0; id < visible_devices(); ++id) {
      typename Api::DeviceProp prop{};
      const bool known = Api::get_device_properties(&prop, id) == Api::kSuccess;
      names += (id > 0 ? ", " : "") + std::to_string(id) + ": " + (known ? Api::describe(prop) : "?");
    }
    return names;
  }
  static int64_t device_memory_available() {
    size_t free_bytes = 0, total_bytes = 0;
    if (Api::mem_get_info(&free_bytes, &total_bytes) != Api::kSuccess) return INT64_MAX;
    return static_cast<int64_t>(free_bytes);
  }
  /// Page-locks host memory that the device may then write by DMA (false when the system
  /// refuses, e.g. for memory it cannot pin).
  static bool pin_host_memory(void* p, size_t bytes) {
    if (Api::host_register(p, bytes) == Api::kSuccess) return true;
    (void)Api::get_last_error();  // clear the error: the caller falls back to staged copies
    return false;
  }
  static void unpin_host_memory(void* p) { (void)Api::host_unregister(p); }
  /// rows x width bytes from device memory (row pitch src_pitch) to pinned host memory (row
  /// pitch dst_pitch), on `exec`'s stream: drops the padding columns on the way.
  static void copy_rows_to_host(const Space& exec, void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                                size_t width, size_t rows) {
    APSP_GPU_CHECK(Api, Api::copy_2d_to_host(dst, dst_pitch, src, src_pitch, width, rows, Api::stream(exec)));
  }
  /// A second work queue: a stream of the highest priority, so that the block scheduler serves
  /// its small kernels (the next round's phases 1 and 2) ahead of the pending teams of the big
  /// one beside them. Kokkos before 4.2 cannot own a stream: one queue there.
  static Space side_instance() {
#if KOKKOS_VERSION >= 40200
    int least = 0, greatest = 0;
    typename Api::Stream stream = nullptr;
    APSP_GPU_CHECK(Api, Api::stream_priority_range(&least, &greatest));
    APSP_GPU_CHECK(Api, Api::create_stream(&stream, greatest));
    return Space(stream, Kokkos::Impl::ManageStream::yes);
#else
    return Space();
#endif
  }
  /// Orders work across the two queues: wait(q, e) holds q's later work until the work
  /// enqueued before the last record(e, ...) is done.
  class Event {
   public:
    Event() { APSP_GPU_CHECK(Api, Api::create_event(&event_)); }
    ~Event() { (void)Api::destroy_event(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    typename Api::Event get() const { return event_; }

   private:
    typename Api::Event event_ = nullptr;
  };
  static void record(Event& e, const Space& exec) {
    APSP_GPU_CHECK(Api, Api::record_event(e.get(), Api::stream(exec)));
  }
  static void wait(const Space& exec, const Event& e) {
    APSP_GPU_CHECK(Api, Api::stream_wait_event(Api::stream(exec), e.get()));
  }
};

}  // namespace apsp::gpu
