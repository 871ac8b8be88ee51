// SPDX-License-Identifier: BSD-3-Clause
// The input graph opened and its edges read into memory on a thread of its own while the rest
// of the process starts: Kokkos and a GPU take 0.2-0.3 s to initialise, about the time a
// 960 MB edge list (V = 40000) takes to read. Only a head start: the pipeline takes the graph
// at its read stage, where an error the opening met is thrown as if it had opened it there.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <thread>

#include "apsp/io/graph_file.hpp"

namespace apsp {

class InputPrefetch {
 public:
  /// Starts opening `path` and reading up to `max_bytes` of its edges.
  InputPrefetch(std::string path, int64_t max_bytes);
  /// Ends the read early (at most one 192 MiB piece more) and waits for it.
  ~InputPrefetch();
  InputPrefetch(const InputPrefetch&) = delete;
  InputPrefetch& operator=(const InputPrefetch&) = delete;

  const std::string& path() const { return path_; }
  /// Waits for the read; the opened graph with its edges in memory, or the error opening it
  /// threw. Once only.
  GraphFile take();

 private:
  std::string path_;
  std::atomic<bool> stop_{false};
  std::optional<GraphFile> graph_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace apsp
