// SPDX-License-Identifier: BSD-3-Clause
// The matrix built from a graph's edges (solver/build_from_edges.hpp) against a plain loop over
// them: the edges in memory sorted by source (on the host, the one-pass build of
// solver/build_sorted_rows.hpp) and shuffled (the atomic scatter), the whole matrix and blocks of
// its rows; and the first bad edge of a sorted list named as the file's would be.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "apsp/core/constants.hpp"
#include "apsp/core/errors.hpp"
#include "apsp/io/graph_file.hpp"
#include "apsp/solver/build_from_edges.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "backends_under_test.hpp"

namespace apsp::test {
namespace {

using Triples = std::vector<int32_t>;  // (src, dst, w) after one another

/// Edges of a V-vertex graph sorted by source: pairs repeated (the lighter one first, and last),
/// self-loops, zero weights, and vertices with no edge out.
Triples sorted_edges(int32_t v, uint32_t seed) {
  std::mt19937 rng(seed);
  Triples e;
  for (int32_t s = 0; s < v; ++s) {
    if (s % 7 == 3) continue;  // no edge out
    const int out = int(rng() % 9);
    for (int k = 0; k < out; ++k) {
      const auto t = int32_t(rng() % uint32_t(v));
      const auto w = int32_t(rng() % 50);  // zero among them
      e.insert(e.end(), {s, t, w});
      if (k % 3 == 0) e.insert(e.end(), {s, t, w + 5});  // the lighter one came first
      if (k % 4 == 1) e.insert(e.end(), {s, t, w / 2});  // the lighter one comes last
    }
    if (s % 5 == 0) e.insert(e.end(), {s, s, 1});  // a self-loop never shortens d(s, s) = 0
  }
  return e;
}

Triples shuffled(const Triples& e, uint32_t seed) {
  std::vector<size_t> order(e.size() / 3);
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  Triples out;
  for (const size_t i : order) out.insert(out.end(), {e[3 * i], e[3 * i + 1], e[3 * i + 2]});
  return out;
}

/// Rows [first, first + rows) of the padded n x n matrix, by a plain loop over the edges.
Triples plain_rows(int64_t n, int64_t first, int64_t rows, const Triples& e) {
  Triples m(size_t(rows * n), kInf);
  for (int64_t r = 0; r < rows; ++r)
    if (first + r < n) m[size_t(r * n + first + r)] = 0;
  for (size_t i = 0; i < e.size(); i += 3) {
    const int64_t s = e[i] - first, t = e[i + 1];
    if (s >= 0 && s < rows && e[i] != t) m[size_t(s * n + t)] = std::min(m[size_t(s * n + t)], e[i + 2]);
  }
  return m;
}

GraphFile in_memory(int32_t v, const Triples& e) {
  std::shared_ptr<int32_t[]> copy(new int32_t[std::max<size_t>(e.size(), 3)]);
  std::memcpy(copy.get(), e.data(), e.size() * sizeof(int32_t));
  return GraphFile::from_memory(v, copy, int64_t(e.size() / 3), "the graph given");
}

template <class ExecSpace>
Triples host_copy(const DistanceMatrix<ExecSpace>& d) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
  return Triples(h.data(), h.data() + h.size());
}

template <class ExecSpace>
class BuildRows : public ::testing::Test {};
TYPED_TEST_SUITE(BuildRows, Backends, BackendName);

TYPED_TEST(BuildRows, SortedAndShuffledEdgesGiveThePlainLoopsMatrix) {
  constexpr int32_t v = 203;
  constexpr int block = 16;
  const int64_t n = padded_size(v, block);
  const Triples sorted = sorted_edges(v, 7), mixed = shuffled(sorted, 8);
  for (const auto& [first, rows] : {std::pair<int64_t, int64_t>{0, n}, {32, 48}, {n - block, block}}) {
    const Triples expected = plain_rows(n, first, rows, sorted);
    for (const Triples* edges : {&sorted, &mixed}) {
      const DistanceMatrix<TypeParam> d(v, block, first, rows);
      initialise_from_edges(d, in_memory(v, *edges));
      EXPECT_EQ(host_copy(d), expected) << "rows " << first << " + " << rows << (edges == &sorted ? ", sorted" : "");
    }
  }
}

// The one-pass build is the host's, for edges sorted by source; anything else is left to the
// scatter.
TEST(BuildRows, OnlySortedEdgesOnTheHostTakeTheOnePassBuild) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  constexpr int32_t v = 150;
  const Triples sorted = sorted_edges(v, 3);
  const DistanceMatrix<Host> d(v, 16);
  ASSERT_TRUE(build_from_sorted_edges(d, in_memory(v, sorted)));
  EXPECT_EQ(host_copy(d), plain_rows(d.n, 0, d.n, sorted));
  const DistanceMatrix<Host> untouched(v, 16);
  EXPECT_FALSE(build_from_sorted_edges(untouched, in_memory(v, shuffled(sorted, 4))));
  EXPECT_FALSE(build_from_sorted_edges(untouched, in_memory(v, {})));
}

TYPED_TEST(BuildRows, TheFirstBadEdgeOfASortedListIsNamed) {
  constexpr int32_t v = 40;
  Triples e = sorted_edges(v, 5);
  ASSERT_GT(e.size(), 3 * 12u);
  e[3 * 9 + 1] = v;    // dst outside [0, V)
  e[3 * 11 + 2] = -4;  // a negative weight, later
  const DistanceMatrix<TypeParam> d(v, 16);
  try {
    initialise_from_edges(d, in_memory(v, e));
    ADD_FAILURE() << "no InputError thrown";
  } catch (const InputError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("edge 9"), std::string::npos) << what;
    EXPECT_NE(what.find("dst = 40"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace apsp::test
