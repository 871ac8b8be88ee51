// SPDX-License-Identifier: BSD-3-Clause
// Failures that every rank agrees on. A stage runs on every rank; if it throws on any, every
// rank throws the error of the lowest failing rank, so that all of them leave the same way
// (one message from rank 0, the same exit status everywhere, no rank left waiting in a
// collective).
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "apsp/core/errors.hpp"
#include "apsp/mpi/runtime.hpp"

namespace apsp::mpi {

template <class Stage>
void collectively(MPI_Comm comm, Stage&& stage) {
  enum Kind : int { kNone = 0, kInput = 1, kArgument = 2, kOther = 3 };
  int kind = kNone;
  std::string message;
  try {
    stage();
  } catch (const InputError& e) {
    kind = kInput;
    message = e.what();
  } catch (const std::invalid_argument& e) {
    kind = kArgument;
    message = e.what();
  } catch (const std::exception& e) {
    kind = kOther;
    message = e.what();
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = kind != kNone ? rank : size, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int header[2] = {kind, static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  std::vector<char> text(message.begin(), message.end());
  text.resize(static_cast<size_t>(header[1]));
  MPI_Bcast(text.data(), header[1], MPI_CHAR, first, comm);
  std::string what(text.begin(), text.end());
  if (first != 0 && size > 1) what = "rank " + std::to_string(first) + ": " + what;
  set_failure_agreed();
  if (header[0] == kInput) throw InputError(what);
  if (header[0] == kArgument) throw std::invalid_argument(what);
  throw std::runtime_error(what);
}

}  // namespace apsp::mpi
