// SPDX-License-Identifier: BSD-3-Clause
// Work on a host thread beside the device's (allocating the output while the GPU computes).
#pragma once

#include <atomic>
#include <exception>
#include <thread>
#include <type_traits>
#include <utility>

#include "apsp/core/helper_thread.hpp"

namespace apsp::Impl {

/// Runs f() or, where f takes it, f(stop) on a helper thread. wait() joins the thread and
/// rethrows what it threw. The destructor sets `stop` first, so that work a failed run no
/// longer needs can end early, then joins.
class BackgroundTask {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, BackgroundTask>>>
  explicit BackgroundTask(F&& f)
      : thread_(helper_thread([this, f = std::forward<F>(f)]() mutable {
          try {
            if constexpr (std::is_invocable_v<F&, const std::atomic<bool>&>)
              f(std::as_const(stop_));
            else
              f();
          } catch (...) {
            error_ = std::current_exception();
          }
        })) {}
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;
  ~BackgroundTask() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  void wait() {
    if (thread_.joinable()) thread_.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  std::exception_ptr error_;  // before thread_: set by it
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace apsp::Impl
