// SPDX-License-Identifier: BSD-3-Clause
// The whole run over the ranks of an MPI job, each rank with one device and a block of tile
// rows: read the graph (every rank maps the edge list and keeps the edges of its rows), build
// its rows on its device, solve (DistributedFloydWarshall), check sampled rows where they
// live, write each rank's rows into one file with MPI-IO. No rank holds the whole matrix.
#pragma once

#include "apsp/mpi/runtime.hpp"
#include "apsp/pipeline/pipeline.hpp"

namespace apsp::mpi {

/// Collective over MPI_COMM_WORLD. Throws (on every rank alike) what run_pipeline throws; the
/// output file appears only on success.
RunReport run_distributed_pipeline(const RunOptions& options, const Runtime& runtime);

}  // namespace apsp::mpi
