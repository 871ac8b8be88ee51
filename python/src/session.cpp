// SPDX-License-Identifier: BSD-3-Clause
// Kokkos' lifetime in a Python interpreter: one thread of its own starts Kokkos on first use,
// runs every call, and finalises it at the interpreter's exit (the package registers finalize
// with atexit). One thread, because Kokkos' OpenMP backend (3.4) takes parallel work only from
// the thread that started it, and a GPU's context belongs to one; Python calls from any thread.
// Kokkos cannot start again once finalised: a call after that is refused with one line.
#include <Kokkos_Core.hpp>

#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "calls.hpp"

namespace apsp::python {
namespace {

/// The thread every Kokkos call runs on, one job at a time.
class KokkosThread {
 public:
  KokkosThread() : thread_([this] { serve(); }) {}
  std::future<void> post(std::function<void()> job) {
    std::packaged_task<void()> task(std::move(job));
    auto done = task.get_future();
    {
      std::lock_guard<std::mutex> hold(lock_);
      job_ = std::move(task);
    }
    ready_.notify_one();
    return done;
  }
  /// Ends the thread after the job under way (none is: the caller holds the session).
  void stop() {
    post([this] { quit_ = true; }).wait();
    thread_.join();
  }

 private:
  void serve() {
    while (!quit_) {
      std::unique_lock<std::mutex> hold(lock_);
      ready_.wait(hold, [this] { return job_.valid(); });
      auto job = std::move(job_);
      hold.unlock();
      job();
    }
  }
  std::mutex lock_;
  std::condition_variable ready_;
  std::packaged_task<void()> job_;
  bool quit_ = false;  // set and read on the thread
  std::thread thread_;
};

enum class State { before, running, after };
State state = State::before;     // guarded by the caller's lock (module.cpp)
KokkosThread* worker = nullptr;  // from the first call to finalize()

void start_kokkos(int threads, int device_id) {
#if KOKKOS_VERSION >= 40000
  Kokkos::InitializationSettings settings;
  if (threads > 0) settings.set_num_threads(threads);
  if (device_id >= 0) settings.set_device_id(device_id);
  settings.set_disable_warnings(true);  // a library's user did not ask for OMP_PROC_BIND advice
#else
  Kokkos::InitArguments settings;
  if (threads > 0) settings.num_threads = threads;
  if (device_id >= 0) settings.device_id = device_id;
  settings.disable_warnings = true;  // a library's user did not ask for OMP_PROC_BIND advice
#endif
  Kokkos::initialize(settings);
}

}  // namespace

void initialize(int threads, int device_id) {
  if (state == State::running) return;
  if (state == State::after)
    throw std::runtime_error("Kokkos was finalised at interpreter exit; it cannot start again");
  auto thread = std::make_unique<KokkosThread>();
  thread->post([=] { start_kokkos(threads, device_id); }).get();
  worker = thread.release();
  state = State::running;
}

bool initialized() { return state == State::running; }

std::future<void> on_kokkos_thread(std::function<void()> job) {
  if (state != State::running) throw std::runtime_error("Kokkos is not running");
  return worker->post(std::move(job));
}

void finalize() {
  if (state != State::running) return;
  worker->post([] { Kokkos::finalize(); }).get();
  worker->stop();
  delete worker;
  worker = nullptr;
  state = State::after;
}

}  // namespace apsp::python
