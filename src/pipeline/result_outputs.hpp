// SPDX-License-Identifier: BSD-3-Clause
// The files a run writes, as one list (run_stages.hpp): the distances and, with --predecessors,
// the predecessors. Refusing their paths, opening them, preparing their pages while a device
// computes, writing the rows a process holds and committing them loop over the list, so an
// output more is an entry more.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "apsp/backends/backend_runtime.hpp"
#include "apsp/core/errors.hpp"
#include "apsp/io/output_file.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "background_task.hpp"
#include "ready_rows.hpp"
#include "write_rows.hpp"

namespace apsp::Impl {

template <class ExecSpace>
class ResultOutputs {
  using Runtime = BackendRuntime<ExecSpace>;

 public:
  /// The distances (`opt.output`, or none with --no-output), then the predecessors when asked;
  /// into memory where `opt.memory` says so.
  explicit ResultOutputs(const RunOptions& opt) {
    if (opt.memory) {
      add("distances", "", false, opt.memory->distances);
      if (opt.memory->predecessors) add("predecessors", "", false, opt.memory->predecessors);
      return;
    }
    add("output", opt.output, opt.no_output);
    if (!opt.predecessors.empty()) add("predecessor output", opt.predecessors, false);
  }

  /// Refuses what the rules refuse: anything but a regular file or a discarding device, the
  /// input, one output as another, the record as an output.
  void refuse(const RunOptions& opt) {
    std::vector<std::string> taken{opt.input};
    if (opt.memory) return;  // nothing of the file system's is touched
    for (auto& o : list_) {
      if (!o->target.discard) o->target = check_output_path(o->path, o->what, taken);
      if (o != list_.front()) refuse_same(*o, *list_.front(), opt.record_path);
      taken.push_back(o->path);
    }
    if (!opt.record_path.empty())
      check_record_path(opt.record_path, opt.output, list_.front()->target.discard, opt.input);
  }

  /// The temporary files, from here on removed again on any failure.
  template <class Procs>
  void open(const Procs& procs, int64_t vertices, int threads) {
    for (auto& o : list_) o->file = o->make ? o->make(vertices) : procs.open_output(o->target, vertices, threads);
  }

  /// What goes into output `i` (0: the distances).
  void set_rows(size_t i, const DistanceMatrix<ExecSpace>& rows) { list_.at(i)->rows = &rows; }

  /// A device run prepares the files' pieces (rows [first_row, first_row + rows)) on a thread
  /// while it computes, pinning those in memory (run_stages.hpp says why).
  void reserve(int64_t first_row, int64_t rows, int64_t vertices) {
    if (host_is_device<ExecSpace>()) return;
    if (std::all_of(list_.begin(), list_.end(), [](const auto& o) { return o->file->discards(); })) return;
    reserve_.emplace([this, first_row, rows, vertices](const std::atomic<bool>& stop) {
      struct Finish {  // every output's pieces end, whatever happens
        const std::vector<std::unique_ptr<Output>>& list;
        ~Finish() {
          for (const auto& o : list) o->ready.finish();
        }
      } finish{list_};
      for (auto& o : list_) {
        if (o->file->discards()) continue;
        o->file->reserve_rows(first_row, rows, [&](int64_t first, int64_t count, char* memory) {
          if (stop) throw std::runtime_error("the run ended before its output was prepared");
          return o->ready.add(first, count, memory, vertices * int64_t(sizeof(int32_t)));
        });
      }
    });
  }

  /// Writes this process's rows into every file; returns the seconds spent waiting for the
  /// pieces and the device copies.
  double write(int64_t chunk_bytes) {
    double copy_wait = 0;
    try {
      for (auto& o : list_)
        if (!o->file->discards()) copy_wait += write_held_rows(*o->rows, *o->file, o->ready, chunk_bytes);
    } catch (...) {
      if (reserve_) reserve_->wait();  // the preparation's own error first, when it failed
      throw;
    }
    if (reserve_) reserve_->wait();
    for (auto& o : list_) o->ready.unpin_all();
    return copy_wait;
  }

  void commit() {
    for (auto& o : list_) o->file->commit();
  }
  bool distances_discarded() const { return list_.front()->file->discards(); }
  /// Whether the distances' output takes the solver's matrix in 16 bits (ResultFile::takes_rows16).
  bool distances_take_rows16() const { return list_.front()->file->takes_rows16(); }

 private:
  struct Output {
    const char* what;
    std::string path;
    OutputTarget target;  ///< discard: --no-output (then never checked)
    std::unique_ptr<ResultFile> file;
    ReadyRows<Runtime> ready;  ///< its pieces, as a device run prepares them
    const DistanceMatrix<ExecSpace>* rows = nullptr;
    MemoryResults::Make make;  ///< in memory: what the rows go into
  };

  void add(const char* what, const std::string& path, bool discard, const MemoryResults::Make& make = {}) {
    list_.push_back(std::make_unique<Output>());
    Output& o = *list_.back();
    o.what = what;
    o.path = path;
    o.target.discard = discard;
    o.make = make;
  }
  static void refuse_same(const Output& o, const Output& distances, const std::string& record) {
    if (!distances.target.discard && !o.target.discard && o.target.path == distances.target.path)
      throw InputError(o.path + ": the " + o.what + " is the distance output");
    if (!record.empty() && !o.target.discard && (record == o.path || same_file(record, o.path)))
      throw InputError(record + ": the JSON record would overwrite the " + o.what);
  }

  std::vector<std::unique_ptr<Output>> list_;
  std::optional<BackgroundTask> reserve_;  // joined before the files and their pieces go
};

}  // namespace apsp::Impl
