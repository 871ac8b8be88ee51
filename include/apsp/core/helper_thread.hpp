// SPDX-License-Identifier: BSD-3-Clause
// Threads of the program's own (reading, preparing and writing files, the self-check) on the
// CPUs of the process's threads. A new thread inherits its creator's CPUs, and where the user
// binds OpenMP, OpenMP has bound the main thread to a single CPU before main(): every helper
// would share that one CPU with the thread that drives the device (measured on 2 x H200 with
// OMP_PROC_BIND=spread: a 2.4 s solve took 4.9 s while the output was prepared beside it).
#pragma once

#include <cstdint>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

#include "apsp/core/cpus.hpp"

namespace apsp {

/// Moves the calling thread onto thread_cpus().
void use_process_cpus();

/// A std::thread running `f` on thread_cpus().
template <class F>
std::thread helper_thread(F&& f) {
  return std::thread([f = std::forward<F>(f)]() mutable {
    use_process_cpus();
    f();
  });
}

/// Thread t's share [begin, end) of n items split into `threads` contiguous ranges, in order,
/// their sizes differing by at most one.
inline std::pair<int64_t, int64_t> thread_share(int64_t n, int t, int threads) {
  return {n * t / threads, n * (t + 1) / threads};
}

/// Runs body(t) for every t in [0, threads) at once: t = 0 on the calling thread, the others
/// on helper threads. Returns when all have ended, rethrowing the first exception (lowest t)
/// any of them threw.
template <class Body>
void on_threads(int threads, Body&& body) {
  std::vector<std::exception_ptr> errors(static_cast<size_t>(threads > 1 ? threads : 1));
  const auto run = [&](int t) {
    try {
      body(t);
    } catch (...) {
      errors[static_cast<size_t>(t)] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(errors.size());
  try {
    for (int t = 1; t < threads; ++t) pool.push_back(helper_thread([&run, t] { run(t); }));
  } catch (...) {  // no thread to be had: the ones started end first
    for (auto& th : pool) th.join();
    throw;
  }
  run(0);
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace apsp
