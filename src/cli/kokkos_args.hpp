// SPDX-License-Identifier: BSD-3-Clause
// The command line as Kokkos and CLI11 each get it. Kokkos takes its own --kokkos-* options
// first; under MPI each rank's device and thread count are chosen here, before Kokkos starts.
#pragma once

#include <string>
#include <vector>

#include "apsp/mpi/runtime.hpp"

namespace apsp::cli {

class KokkosArguments {
 public:
  /// Splits argv: --help/-h are kept away from Kokkos (3.x answers an un-prefixed --help);
  /// with several ranks on a node, each takes the GPU of its node-local rank (a device chosen
  /// on the command line would put them all on one GPU: said on rank 0) and, unless threads
  /// were asked for, a share of the node's cores for its host threads.
  KokkosArguments(int argc, char* argv[], const mpi::Runtime& mpi);

  /// For Kokkos::initialize: argc (updated by Kokkos as it removes its options) and argv.
  int& argc() { return kokkos_argc_; }
  char** argv() { return kokkos_args_.data(); }

  /// What Kokkos left, plus any --help, for CLI11. Valid after Kokkos is initialised.
  std::vector<char*> remaining();

  /// "N ranks on this node share G GPUs" where ranks outnumber several GPUs (one visible GPU
  /// per rank, as `srun --gpus-per-task=1` gives, is not sharing) and `backend` ("" = Kokkos'
  /// default) computes on a GPU, else "". Valid after Kokkos is initialised.
  std::string gpu_sharing(const std::string& backend) const;

  /// The device the user chose (--kokkos-device-id=N, else KOKKOS_DEVICE_ID), or -1 where none
  /// is chosen (Kokkos' own: device 0). With several ranks on a node each rank takes its
  /// node-local rank's GPU instead, but a choice that names no GPU is still refused: it is a
  /// mistake in one process or many.
  int asked_device_id() const { return asked_device_; }

  /// --kokkos-help was given: Kokkos printed its options during initialisation; the run is over.
  bool kokkos_help() const { return kokkos_help_; }
  /// --kokkos-print-configuration was given to a Kokkos (3.x) that lacks it: print it here.
  bool print_configuration() const { return print_configuration_; }

 private:
  std::vector<std::string> kokkos_strings_, help_strings_;
  std::string gpu_sharing_;
  bool kokkos_help_ = false, print_configuration_ = false;
  std::vector<char*> kokkos_args_;
  int kokkos_argc_ = 0;
  int asked_device_ = -1;
};

}  // namespace apsp::cli
