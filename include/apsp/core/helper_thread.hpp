// SPDX-License-Identifier: BSD-3-Clause
// Threads of the program's own (reading, preparing and writing files, the self-check) on the
// CPUs of the process's threads. A new thread inherits its creator's CPUs, and where the user
// binds OpenMP, OpenMP has bound the main thread to a single CPU before main(): every helper
// would share that one CPU with the thread that drives the device (measured on 2 x H200 with
// OMP_PROC_BIND=spread: a 2.4 s solve took 4.9 s while the output was prepared beside it).
#pragma once

#include <thread>
#include <utility>

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

}  // namespace apsp
