// SPDX-License-Identifier: BSD-3-Clause
// The whole solver (matrix build + all rounds) against a naive Floyd-Warshall and against
// Dijkstra, on every enabled backend.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "apsp/check/verify.hpp"
#include "apsp/solver/lane_tally.hpp"
#include "backends_under_test.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

template <class ExecSpace>
class Solver : public ::testing::Test {
 protected:
  static int default_block() { return BackendTraits<ExecSpace>::default_block; }

  // Checks the blocked result against both references and returns it.
  static std::vector<int32_t> check(const Graph& g, int block) {
    auto got = blocked_apsp<ExecSpace>(g, block);
    const auto fw = naive_apsp(g);
    const auto dj = dijkstra_apsp(g);
    EXPECT_EQ(first_difference(fw, dj, g.vertices), "") << "the two references disagree";
    EXPECT_EQ(first_difference(got, fw, g.vertices), "") << "V=" << g.vertices << " B=" << block;
    return got;
  }
};
TYPED_TEST_SUITE(Solver, Backends, BackendName);

// The matrix build alone (fill + checked scatter of the edges) against the host adjacency,
// padding included. APSP_TEST_BUILD_V adds a larger size (for GPU runs).
TYPED_TEST(Solver, MatrixBuildMatchesAdjacency) {
  std::vector<int32_t> sizes{1, 65, 1500};
  if (const char* v = std::getenv("APSP_TEST_BUILD_V")) sizes.push_back(std::atoi(v));
  for (int32_t v : sizes) {
    SCOPED_TRACE("V=" + std::to_string(v));
    Graph g = random_graph(v, v > 2000 ? 20.0 / v : 0.05, 0, 1000, 31);
    TempDir dir;
    write_graph(dir.file("g.bin"), g);
    const GraphFile file = GraphFile::open(dir.file("g.bin"));
    DistanceMatrix<TypeParam> d(v, TestFixture::default_block());
    initialise_from_edges(d, file);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.data);
    const auto expected = adjacency(g);
    int64_t wrong = 0;
    for (int64_t i = 0; i < d.n; ++i)
      for (int64_t j = 0; j < d.n; ++j) {
        const int32_t want = (i < v && j < v) ? expected[size_t(i * v + j)] : (i == j ? 0 : kInf);
        wrong += h(i * d.n + j) != want;
      }
    EXPECT_EQ(wrong, 0);
  }
}

TYPED_TEST(Solver, RandomGraphsAroundTheBlockSize) {
  const int b = TestFixture::default_block();
  for (int v : {1, 2, 3, b - 1, b, b + 1, 2 * b + 3}) {
    SCOPED_TRACE("V=" + std::to_string(v));
    TestFixture::check(random_graph(v, 0.1, 0, 1000, 100 + v), b);
  }
}

TYPED_TEST(Solver, RandomGraphNearThousand) {
  TestFixture::check(random_graph(1003, 0.004, 1, 1000, 7), TestFixture::default_block());
}

TYPED_TEST(Solver, OtherBlockSizes) {
  using T = BackendTraits<TypeParam>;
  const int step = T::kBlockMultiple;
  for (int b : {step, 2 * step, 4 * step}) {
    SCOPED_TRACE("B=" + std::to_string(b));
    TestFixture::check(random_graph(3 * b + 5, 0.05, 0, 1000, 11), b);
  }
}

// The CPU's round driver (solver/host/rounds.hpp), which solve() takes from
// kHostRoundsFromThreads threads on, called directly (these tests run at 1 and 2 threads):
// against the naive references, and with the same count of 16-bit relaxations as the separate
// kernels (the same products, so the same per-block decisions). Sparse graphs: unreachable
// pairs, so blocks holding INF too; B = 16 gives many rounds and, at V = 1 and 16, one tile.
TYPED_TEST(Solver, HostRoundsMatchTheReference) {
  using Fw = BlockedFloydWarshall<TypeParam>;
  if constexpr (!Impl::TileOps<TypeParam>::kPacksRounds) {
    GTEST_SKIP() << "not a CPU backend";
  } else {
    const int step = BackendTraits<TypeParam>::kBlockMultiple;
    for (int b : {step, 4 * step})
      for (int v : {1, b, b + 1, 2 * b + 3, 5 * b - 1, 9 * b + 2}) {
        SCOPED_TRACE("V=" + std::to_string(v) + " B=" + std::to_string(b));
        const Graph g = random_graph(v, v < 64 ? 0.2 : 6.0 / v, 0, 1000, 17 + uint32_t(v));
        int64_t lanes[2] = {0, 0}, computed[2] = {0, 0}, left_out[2] = {0, 0};
        const auto got = blocked_apsp<TypeParam>(g, b, [&](const DistanceMatrix<TypeParam>& d) {
          LaneTally<TypeParam> tally;
          Fw::solve_host_rounds(
              d, [](int, int) {}, tally.slots());
          lanes[0] = tally.total();
          computed[0] = tally.computed();
          left_out[0] = tally.left_out();
        });
        EXPECT_EQ(first_difference(got, naive_apsp(g), v), "");
        const auto kernels = blocked_apsp<TypeParam>(g, b, [&](const DistanceMatrix<TypeParam>& d) {
          LaneTally<TypeParam> tally;
          Fw::solve_with_lookahead(
              d, [](int, int) {}, tally.slots());
          lanes[1] = tally.total();
          computed[1] = tally.computed();
          left_out[1] = tally.left_out();
        });
        EXPECT_EQ(first_difference(got, kernels, v), "");
        EXPECT_EQ(lanes[0], lanes[1]);
        EXPECT_EQ(computed[0], computed[1]);
        EXPECT_EQ(left_out[0], left_out[1]);
      }
  }
}

// A GPU's round driver with blocks of four, eight and sixteen rounds
// (solver/gpu/round_block_kernels.hpp), which solve() takes only on large matrices, called directly
// on small ones, against Dijkstra's distances and the driver with pairs alone (the same outputs):
// blocks of four alone, eight first, sixteen first. The blocks, by tile rows nb (the last round
// short of B unless V is a multiple of it): nb = 6 four, then single rounds; nb = 10 (whole
// rounds) four, four, a pair, or eight, a pair; nb = 9 four, four, one, or eight, one; nb = 14
// four three times, or eight then four, then single rounds; nb = 18 four four times or eight
// twice, or sixteen, then single rounds; nb = 24 four six times, eight three times, or sixteen
// then eight. Sparse graphs hold INF (the strips' marks decide), heavy weights take the int32
// product; three components of consecutive vertices have strips of INF alone, whose products are
// left out (counted).
TYPED_TEST(Solver, RoundBlocksMatchTheReference) {
  using Fw = BlockedFloydWarshall<TypeParam>;
  using Ops = Impl::TileOps<TypeParam>;
  if constexpr (!Ops::kHasTuned || Ops::kPacksRounds) {
    GTEST_SKIP() << "not a GPU backend";
  } else {
    using Wide = typename Impl::PairRounds<Fw>::Wide;
    const int b = BackendTraits<TypeParam>::default_block, never = 1 << 30;
    for (const int v : {5 * b + 3, 10 * b, 9 * b - 5, 14 * b - 20, 18 * b - 7, 24 * b})
      for (const bool heavy : {false, true}) {
        SCOPED_TRACE("V=" + std::to_string(v) + (heavy ? ", heavy weights" : ""));
        Graph g = random_graph(v, 3.0 / v, heavy ? 40000 : 0, heavy ? 90000 : 1000, 23 + uint32_t(v));
        if (heavy) {  // the heavy graph in three components: a third, then two thirds less 7
          std::vector<Edge> kept;
          const auto part = [&](int32_t x) { return x < v / 3 ? 0 : x < 2 * v / 3 - 7 ? 1 : 2; };
          for (const auto& e : g.edges)
            if (part(e.src) == part(e.dst)) kept.push_back(e);
          g.edges = kept;
        }
        int64_t left_out = 0;
        auto with = [&](const Wide& wide) {
          return blocked_apsp<TypeParam>(g, b, [&](const DistanceMatrix<TypeParam>& d) {
            ASSERT_TRUE(Impl::PairRounds<Fw>::applies(d));
            LaneTally<TypeParam> tally;
            Impl::PairRounds<Fw>::solve(
                d, [](int, int) {}, tally.slots(), wide);
            left_out = tally.left_out();
          });
        };
        const auto pairs = with(Wide{never, never, never});
        EXPECT_EQ(first_difference(pairs, dijkstra_apsp(g), v), "");
        if (heavy) {
          EXPECT_GT(left_out, 0) << "pairs";
        }
        EXPECT_EQ(first_difference(with(Wide{1, never, never}), pairs, v), "") << "blocks of four";
        if (heavy) {
          EXPECT_GT(left_out, 0) << "blocks of four";
        }
        EXPECT_EQ(first_difference(with(Wide{1, 1, never}), pairs, v), "") << "blocks of eight first";
        if (v >= 16 * b) {
          EXPECT_EQ(first_difference(with(Wide{1, 1, 1}), pairs, v), "") << "blocks of sixteen first";
        }
      }
  }
}

// The lane tally's two counts, which the run's ceiling divides (pipeline/run_stages.hpp): where
// every block may take 16-bit lanes (weights 0..1000, unreachable pairs among them), a CPU's
// 16-bit count equals the count of all its products computed, at a V that is not a multiple of B (so
// with blocks past V); where none may (every weight 2^15 or more), it is 0. Both counts cover
// phases 2 and 3: with the products left out (an operand of INF alone), at least V^3
// less phase 1's nb B^3, at most the padded n^3.
TYPED_TEST(Solver, LaneTallyCountsWhatTheProductsCompute) {
  using Fw = BlockedFloydWarshall<TypeParam>;
  const int b = TestFixture::default_block();
  for (const bool heavy : {false, true}) {
    const int v = 2 * b + 3;
    SCOPED_TRACE(heavy ? "heavy weights" : "light weights");
    const Graph g = heavy ? random_graph(v, 0.02, 40000, 50000, 5) : random_graph(v, 0.02, 0, 1000, 5);
    int64_t lanes = 0, computed = 0, left_out = 0, n = 0;
    const auto got = blocked_apsp<TypeParam>(g, b, [&](const DistanceMatrix<TypeParam>& d) {
      LaneTally<TypeParam> tally;
      Fw::solve(
          d, nullptr, [](int, int) {}, tally.slots());
      lanes = tally.total();
      computed = tally.computed();
      left_out = tally.left_out();
      n = d.n;
    });
    EXPECT_EQ(first_difference(got, naive_apsp(g), v), "");
    const int64_t nb = n / b;
    EXPECT_GE(computed + left_out, int64_t(v) * v * v - nb * b * b * b);
    EXPECT_LE(computed + left_out, n * n * n);
    if (heavy) {
      EXPECT_EQ(lanes, 0);
    } else if constexpr (!BackendTraits<TypeParam>::kRegisterTiles) {
      if (BackendTraits<TypeParam>::kHostLanes16) {
        EXPECT_EQ(lanes, computed);
      }
    } else if constexpr (BackendTraits<TypeParam>::kPackedTiles) {
      EXPECT_GT(lanes, 0);  // a GPU's 16-bit product takes whole rounds only: not the last, of 3 pivots
    }
  }
}

TYPED_TEST(Solver, ZeroWeights) {
  const int b = TestFixture::default_block();
  const auto d = TestFixture::check(random_graph(2 * b + 3, 0.02, 0, 0, 3), b);
  // Sanity of the reference itself: every entry is 0 or INF.
  for (int32_t x : d) ASSERT_TRUE(x == 0 || x == kInf);
}

TYPED_TEST(Solver, UnreachablePairsAcrossComponents) {
  const int b = TestFixture::default_block();
  // Two dense halves with no edge between them: every cross pair stays INF.
  const int32_t v = 2 * b + 3, half = v / 2;
  Graph g = random_graph(v, 0.2, 0, 1000, 5);
  std::vector<Edge> kept;
  for (const auto& e : g.edges)
    if ((e.src < half) == (e.dst < half)) kept.push_back(e);
  g.edges = kept;
  const auto d = TestFixture::check(g, b);
  EXPECT_EQ(d[size_t(0 * v + (v - 1))], kInf);
  EXPECT_EQ(d[size_t((v - 1) * v + 0)], kInf);
}

TYPED_TEST(Solver, LongChainOfHeaviestWeights) {
  const int b = TestFixture::default_block();
  const int32_t v = 3 * b + 7;
  Graph g{v, {}};
  for (int32_t i = 0; i + 1 < v; ++i) g.edges.push_back({i, i + 1, 1000});
  const auto d = TestFixture::check(g, b);
  EXPECT_EQ(d[size_t(v - 1)], 1000 * (v - 1));
  EXPECT_EQ(d[size_t((v - 1) * v)], kInf);
}

TYPED_TEST(Solver, CompleteGraph) {
  const int b = TestFixture::default_block();
  TestFixture::check(random_graph(2 * b + 3, 1.0, 0, 1000, 9), b);
}

TYPED_TEST(Solver, LargestWeightTheBoundAllows) {
  // (V-1) * w_max = INF - 1: the longest possible path is one below INF, no overflow.
  const int32_t v = 3, w = (kInf - 1) / 2;
  Graph g{v, {{0, 1, w}, {1, 2, w}}};
  const auto d = TestFixture::check(g, TestFixture::default_block());
  EXPECT_EQ(d[2], 2 * w);
}

TYPED_TEST(Solver, SelfLoopsAndRepeatedEdgesAreAccepted) {
  const int b = TestFixture::default_block();
  Graph g = random_graph(b + 1, 0.1, 5, 1000, 21);
  for (int32_t i = 0; i < g.vertices; i += 3) g.edges.push_back({i, i, 1});  // never shortens d(i,i)=0
  const auto copy = g.edges;
  for (size_t i = 0; i < copy.size(); i += 2)
    g.edges.push_back({copy[i].src, copy[i].dst, copy[i].w / 2});  // a lighter repeat wins
  for (size_t i = 1; i < copy.size(); i += 2)
    g.edges.push_back({copy[i].src, copy[i].dst, copy[i].w + 1});  // a heavier repeat loses
  const auto d = TestFixture::check(g, b);
  for (int32_t i = 0; i < g.vertices; ++i) EXPECT_EQ(d[size_t(i * g.vertices + i)], 0);
}

TEST(Verify, SourcesCoverSmallGraphsAndSampleLargeOnes) {
  EXPECT_EQ(verify_sources(5, 0), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(verify_sources(512, 0).size(), 512u);
  const auto s = verify_sources(10000, 0);
  ASSERT_EQ(s.size(), 8u);
  EXPECT_EQ(s.front(), 0);
  EXPECT_EQ(s.back(), 9999);
  EXPECT_TRUE(std::adjacent_find(s.begin(), s.end()) == s.end());
  EXPECT_EQ(verify_sources(10000, 30).size(), 30u);
}

TEST(Verify, AcceptsTheTrueDistancesAndCatchesOneWrongEntry) {
  TempDir dir;
  Graph g = random_graph(300, 0.02, 0, 1000, 41);
  g.edges.push_back({5, 5, 3});                            // self-loop: ignored
  g.edges.push_back({g.edges[0].src, g.edges[0].dst, 0});  // lighter repeat
  write_graph(dir.file("g"), g);
  const GraphFile file = GraphFile::open(dir.file("g"));
  auto truth = naive_apsp(g);
  auto row = [&](int64_t s) {
    return std::vector<int32_t>(truth.begin() + s * g.vertices, truth.begin() + (s + 1) * g.vertices);
  };
  const auto all = verify_sources(g.vertices, 0);
  EXPECT_TRUE(verify_rows(file, all, row, 3).passed);
  truth[size_t(123) * size_t(g.vertices) + 45] += 1;
  const VerifyReport bad = verify_rows(file, all, row, 3);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.first_mismatch.rfind("d(123, 45) = ", 0), 0u) << bad.first_mismatch;
  EXPECT_TRUE(verify_rows(file, {0, 1, 2}, row, 1).passed);  // the wrong row is not sampled
}

// The rows of `truth` (V x V) for `sources`.
std::vector<std::vector<int32_t>> rows_of(const std::vector<int32_t>& truth, int64_t v,
                                          const std::vector<int64_t>& sources) {
  std::vector<std::vector<int32_t>> rows;
  rows.reserve(sources.size());
  for (int64_t s : sources) rows.emplace_back(truth.begin() + s * v, truth.begin() + (s + 1) * v);
  return rows;
}

TEST(Verify, ReferenceRowsAreTheSameOnAnyThreadsFromMemoryOrFile) {
  TempDir dir;
  // E ~ 290 000: the CSR is built by 4 threads when asked (one per 65 536 edges at most).
  Graph g = random_graph(700, 0.6, 0, 1000, 43);
  g.edges.push_back({9, 9, 2});                            // self-loop: left out
  g.edges.push_back({g.edges[7].src, g.edges[7].dst, 0});  // lighter repeat
  write_graph(dir.file("g"), g);
  const auto truth = dijkstra_apsp(g);
  const auto sources = verify_sources(g.vertices, 24);
  const auto expected = rows_of(truth, g.vertices, sources);
  std::vector<std::vector<int32_t>> predecessors;  // of the first run with paths
  for (int64_t in_memory : {int64_t(0), int64_t(g.edges.size() / 2), int64_t(g.edges.size())})
    for (int threads : {1, 4})
      for (bool paths : {false, true}) {
        GraphFile file = GraphFile::open(dir.file("g"));
        std::atomic<bool> no_stop{false};
        file.cache_edges(in_memory, no_stop);
        ASSERT_EQ(file.cached_count(), in_memory);
        ReferenceOptions how;
        how.threads = threads;
        how.paths = paths;
        how.in_memory = file.share_cache();
        const ReferenceRows ref = reference_rows(file, sources, how);
        const std::string what = "in memory " + std::to_string(in_memory) + ", threads " + std::to_string(threads) +
                                 (paths ? ", paths" : "");
        EXPECT_EQ(ref.rows, expected) << what;
        if (!paths) continue;
        ASSERT_EQ(ref.predecessors.size(), sources.size()) << what;
        if (predecessors.empty())
          predecessors = ref.predecessors;
        else
          EXPECT_EQ(ref.predecessors, predecessors) << what;
      }
}

TEST(Verify, ReferenceRowsLeaveOutEdgesTheInputRulesRefuse) {
  // A check starts before the build has checked the edges: it must end, whatever they hold.
  TempDir dir;
  const Graph g = random_graph(60, 0.2, 1, 50, 44);
  Graph bad = g;
  bad.edges.push_back({3, 4, -7});  // a negative cycle 3 -> 4 -> 3
  bad.edges.push_back({4, 3, -7});
  bad.edges.push_back({5, 60, 1});  // dst out of range
  bad.edges.push_back({-1, 5, 1});  // src out of range
  bad.edges.push_back({6, 7, max_weight_allowed(60) + 1});
  write_graph(dir.file("bad"), bad);
  const GraphFile file = GraphFile::open(dir.file("bad"));
  const auto sources = verify_sources(g.vertices, 0);
  ReferenceOptions how;
  how.threads = 2;
  EXPECT_EQ(reference_rows(file, sources, how).rows, rows_of(dijkstra_apsp(g), g.vertices, sources));
}

TEST(Verify, ReferenceRowsEndWhenStopped) {
  TempDir dir;
  const Graph g = random_graph(100, 0.1, 1, 50, 45);
  write_graph(dir.file("g"), g);
  const GraphFile file = GraphFile::open(dir.file("g"));
  std::atomic<bool> stop{true};
  ReferenceOptions how;
  how.stop = &stop;
  const ReferenceRows ref = reference_rows(file, verify_sources(g.vertices, 0), how);
  ASSERT_EQ(ref.rows.size(), 100u);
  for (const auto& row : ref.rows) EXPECT_TRUE(row.empty());
}

}  // namespace
}  // namespace apsp::test
