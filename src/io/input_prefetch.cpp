// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/input_prefetch.hpp"

#include <stdexcept>

#include <utility>
#include "apsp/core/helper_thread.hpp"

namespace apsp {

InputPrefetch::InputPrefetch(std::string path, int64_t max_bytes) : path_(std::move(path)) {
  thread_ = helper_thread([this, max_bytes] {
    try {
      graph_.emplace(GraphFile::open(path_));
      graph_->cache_edges(max_bytes / 12, stop_);
    } catch (...) {
      error_ = std::current_exception();
    }
  });
}

InputPrefetch::~InputPrefetch() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

GraphFile InputPrefetch::take() {
  if (thread_.joinable()) thread_.join();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  if (!graph_) throw std::logic_error("InputPrefetch::take called twice");
  GraphFile g = std::move(*graph_);
  graph_.reset();
  return g;
}

}  // namespace apsp
