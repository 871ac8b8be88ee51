// SPDX-License-Identifier: BSD-3-Clause
// Reader and writer: round trips, and every rule of the file format (docs/graphs.md) for bad input.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

#include "apsp/backends/enabled_backends.hpp"
#include "apsp/core/cpus.hpp"
#include "apsp/core/helper_thread.hpp"
#include "apsp/core/huge_page_array.hpp"
#include "apsp/core/sizes.hpp"
#include "apsp/graph/random_graph.hpp"
#include "apsp/io/input_prefetch.hpp"
#include "apsp/io/mapped_file_range.hpp"
#include "apsp/io/output_file.hpp"
#include "apsp/io/output_path.hpp"
#include "apsp/io/temp_file.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "backends_under_test.hpp"
#include "reference.hpp"

namespace apsp::test {
namespace {

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(f), {});
}
bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Expects `f` to throw InputError whose message contains every one of `parts`.
template <class F>
void expect_input_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "message must be one line: " << msg;
    for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

TEST(GraphFileTest, RoundTripOfHeaderAndEdges) {
  TempDir dir;
  const Graph g = random_graph(50, 0.1, 0, 1000, 1);
  write_graph(dir.file("g"), g);
  const GraphFile f = GraphFile::open(dir.file("g"));
  EXPECT_EQ(f.vertices(), 50);
  ASSERT_EQ(f.edges(), int64_t(g.edges.size()));
  for (size_t i = 0; i < g.edges.size(); ++i) {
    int32_t e[3];
    f.read_edges(int64_t(i), 1, e);
    EXPECT_EQ(e[0], g.edges[i].src);
    EXPECT_EQ(e[1], g.edges[i].dst);
    EXPECT_EQ(e[2], g.edges[i].w);
  }
}

TEST(GraphFileTest, NoEdgesAndOneVertexAreValid) {
  TempDir dir;
  write_raw(dir.file("g"), {1, 0});
  EXPECT_EQ(GraphFile::open(dir.file("g")).edges(), 0);
  write_raw(dir.file("h"), {7, 0});
  EXPECT_EQ(GraphFile::open(dir.file("h")).vertices(), 7);
}

TEST(GraphFileTest, HeaderRulesAreEnforced) {
  TempDir dir;
  const auto open = [&](const std::string& name) { return [&dir, name] { GraphFile::open(dir.file(name)); }; };
  expect_input_error(open("missing"), {"missing", "cannot open"});
  ::mkdir(dir.file("adir").c_str(), 0755);
  expect_input_error(open("adir"), {"adir", "not a regular file"});
  write_raw(dir.file("short"), {5});
  expect_input_error(open("short"), {"short", "4 bytes", "8-byte header"});
  write_raw(dir.file("v0"), {0, 0});
  expect_input_error(open("v0"), {"V = 0", "at least 1"});
  write_raw(dir.file("vneg"), {-3, 0});
  expect_input_error(open("vneg"), {"V = -3"});
  write_raw(dir.file("eneg"), {4, -1});
  expect_input_error(open("eneg"), {"E = -1", "negative"});
  write_raw(dir.file("etoomany"), {3, 7});
  expect_input_error(open("etoomany"), {"E = 7", "V*(V-1) = 6"});
  write_raw(dir.file("trunc"), {3, 2, 0, 1, 5, 1});
  expect_input_error(open("trunc"), {"24 bytes", "32", "truncated"});
  write_raw(dir.file("long"), {3, 1, 0, 1, 5, 9});
  expect_input_error(open("long"), {"24 bytes", "20", "trailing"});
}

template <class ExecSpace>
class EdgeRules : public ::testing::Test {
 protected:
  // Builds the matrix of a 4-vertex graph whose edge 2 is `bad`.
  static void build_with(Edge bad, int32_t v = 4) {
    TempDir dir;
    Graph g{v, {{0, 1, 3}, {1, 2, 4}, bad, {2, 3, 1}}};
    write_graph(dir.file("g"), g);
    const GraphFile f = GraphFile::open(dir.file("g"));
    DistanceMatrix<ExecSpace> d(v, BackendTraits<ExecSpace>::default_block);
    initialise_from_edges(d, f);
  }
};
TYPED_TEST_SUITE(EdgeRules, Backends, BackendName);

TYPED_TEST(EdgeRules, EveryBadEdgeIsNamed) {
  expect_input_error([] { TestFixture::build_with({4, 1, 1}); }, {"edge 2", "src = 4", "outside [0, V)"});
  expect_input_error([] { TestFixture::build_with({-1, 1, 1}); }, {"edge 2", "src = -1"});
  expect_input_error([] { TestFixture::build_with({1, 9, 1}); }, {"edge 2", "dst = 9"});
  expect_input_error([] { TestFixture::build_with({1, -2, 1}); }, {"edge 2", "dst = -2"});
  expect_input_error([] { TestFixture::build_with({1, 3, -7}); }, {"edge 2", "negative weight -7"});
  // V = 4: (V-1) * w < INF allows w up to (INF-1)/3 = 357913940.
  expect_input_error([] { TestFixture::build_with({1, 3, 357913941}); }, {"edge 2", "357913941", "357913940"});
  EXPECT_NO_THROW(TestFixture::build_with({1, 3, 357913940}));
}

TEST(OutputFileTest, WritesRowsOfAPaddedMatrixWithSeveralThreads) {
  TempDir dir;
  const int64_t rows = 37, cols = 37, ld = 40;
  std::vector<int32_t> m(size_t(rows * ld));
  for (size_t i = 0; i < m.size(); ++i) m[i] = int32_t(i * 7919 % 100003);
  for (int threads : {1, 3, 8}) {
    const std::string path = dir.file("out" + std::to_string(threads));
    {
      OutputFile out(path, cols, threads);
      out.reserve_rows(0, rows, {});
      out.write_rows(m.data(), 0, rows, ld);
      out.commit();
    }
    const auto bytes = read_bytes(path);
    ASSERT_EQ(bytes.size(), size_t(rows * cols * 4));
    const auto* got = reinterpret_cast<const int32_t*>(bytes.data());
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) ASSERT_EQ(got[r * cols + c], m[size_t(r * ld + c)]);
  }
  // Rows can come in several calls, at any offset and in any order, padded or not.
  // Both write paths: copies into the reserved, mapped file, and pwrite without reserve_rows().
  for (const bool reserved : {true, false})
    for (const int64_t pitch : {cols, ld}) {
      const std::string path = dir.file("parts" + std::to_string(pitch) + (reserved ? "r" : "p"));
      std::vector<int32_t> src(size_t(rows * pitch));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) src[size_t(r * pitch + c)] = m[size_t(r * ld + c)];
      OutputFile out(path, cols, 3);
      if (reserved) out.reserve_rows(0, rows, {});
      out.write_rows(src.data() + 20 * pitch, 20, rows - 20, pitch);
      out.write_rows(src.data() + 5 * pitch, 5, 15, pitch);
      out.write_rows(src.data(), 0, 5, pitch);
      out.commit();
      const auto bytes = read_bytes(path);
      ASSERT_EQ(bytes.size(), size_t(rows * cols * 4));
      const auto* got = reinterpret_cast<const int32_t*>(bytes.data());
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) ASSERT_EQ(got[r * cols + c], m[size_t(r * ld + c)]) << "pitch " << pitch;
    }
}

// Whether the page holding `p` is mapped in this process (/proc/self/pagemap, bit 63); none
// where the system does not say (no pagemap, as in some sandboxes).
std::optional<bool> page_mapped(const void* p) {
  const int fd = ::open("/proc/self/pagemap", O_RDONLY);
  if (fd < 0) return std::nullopt;
  uint64_t entry = 0;
  const off_t at = off_t(reinterpret_cast<uintptr_t>(p) / uintptr_t(::sysconf(_SC_PAGESIZE)) * sizeof(entry));
  const bool read = ::pread(fd, &entry, sizeof(entry), at) == ssize_t(sizeof(entry));
  ::close(fd);
  if (!read) return std::nullopt;
  return (entry >> 63) != 0;
}

// The reserved rows come ready piece by piece (several threads), each piece whole rows and
// whole pages, every row once; on tmpfs a piece's memory is the file itself, so what is
// copied there (as a device does) is the output, also when it is written after the piece was
// taken and this process's view of its pages dropped (as a device's copy lands after).
TEST(OutputFileTest, ReservedRowsComeReadyInPiecesThatCoverEveryRowOnce) {
  for (const std::string& folder : {std::string("/dev/shm"), std::string()}) {
    if (!folder.empty() && !exists(folder)) continue;
    TempDir scratch;
    const std::string path =
        (folder.empty() ? scratch.path() : folder) + "/apsp_test_pieces_" + std::to_string(::getpid());
    for (const int64_t cols : {int64_t(1000), int64_t(1024), int64_t(37)}) {
      OutputFile out(path, cols, 4);
      std::mutex lock;
      std::vector<int> seen(size_t(cols), 0);
      int pieces = 0, with_memory = 0;
      const auto fill = [cols](char* memory, int64_t first, int64_t rows) {
        for (int64_t r = first; r < first + rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            reinterpret_cast<int32_t*>(memory)[(r - first) * cols + c] = int32_t(r * cols + c);
      };
      struct Taken {
        char* memory;
        int64_t first, rows;
      };
      std::vector<Taken> taken;  // every other piece: written once its view is dropped
      out.reserve_rows(0, cols, [&](int64_t first, int64_t rows, char* memory) {
        std::lock_guard<std::mutex> g(lock);
        ++pieces;
        for (int64_t r = first; r < first + rows; ++r) ++seen[size_t(r)];
        EXPECT_EQ(first * cols * 4 % ::sysconf(_SC_PAGESIZE), 0) << "a piece starts inside a page";
        if (memory == nullptr) return false;
        ++with_memory;
        if (pieces % 2 == 0) {
          taken.push_back({memory, first, rows});
          return true;
        }
        fill(memory, first, rows);
        return false;
      });
      for (const Taken& t : taken) {
        if (t.rows * cols * 4 >= 2 * ::sysconf(_SC_PAGESIZE)) {
          EXPECT_NE(page_mapped(t.memory + t.rows * cols * 2), std::optional<bool>(true))
              << "the view of a taken piece was kept";
        }
        fill(t.memory, t.first, t.rows);
      }
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), cols) << "every row exactly once";
      if (cols >= 1000) {
        EXPECT_GT(pieces, 1);
      }
      if (folder.empty()) continue;  // memory only where the file lives in memory
      EXPECT_EQ(with_memory, pieces);
      out.commit();
      const auto bytes = read_bytes(path);
      ASSERT_EQ(bytes.size(), size_t(cols * cols * 4));
      const auto* got = reinterpret_cast<const int32_t*>(bytes.data());
      for (int64_t i = 0; i < cols * cols; ++i) ASSERT_EQ(got[i], int32_t(i)) << "cols " << cols;
    }
    ::unlink(path.c_str());
  }
}

TEST(OutputFileTest, AnUncommittedFileLeavesNothingAndKeepsTheOldOutput) {
  TempDir dir;
  const std::string path = dir.file("out");
  write_raw(path, {42});
  std::string temp;
  {
    OutputFile out(path, 2, 1);
    temp = out.temp_path();
    EXPECT_TRUE(exists(temp));
    const int32_t x[2] = {1, 2};
    out.reserve_rows(0, 1, {});
    out.write_rows(x, 0, 1, 2);
  }  // no commit: as when a run fails half way
  EXPECT_FALSE(exists(temp));
  const auto bytes = read_bytes(path);
  ASSERT_EQ(bytes.size(), 4u);
  EXPECT_EQ(*reinterpret_cast<const int32_t*>(bytes.data()), 42);
}

// A file cut short after it was opened and checked (another process truncating it) is an
// error naming the file, never a crash (a mapped file would raise SIGBUS).
TEST(GraphFileTest, AFileThatShrinksWhileReadIsAnError) {
  TempDir dir;
  const Graph g = random_graph(40, 0.5, 0, 9, 2);
  write_graph(dir.file("g"), g);
  const GraphFile f = GraphFile::open(dir.file("g"));
  ASSERT_EQ(::truncate(dir.file("g").c_str(), 8 + 12 * 10), 0);
  std::vector<int32_t> buf(size_t(3 * f.edges()));
  EXPECT_NO_THROW(f.read_edges(0, 10, buf.data()));
  expect_input_error([&] { f.read_edges(0, f.edges(), buf.data()); },
                     {"shrank to 128 bytes", "while it was being read"});
  DistanceMatrix<Kokkos::DefaultHostExecutionSpace> d(g.vertices, 16);
  expect_input_error([&] { initialise_from_edges(d, f); }, {"shrank"});
}

// The matrix built from edges the graph read ahead is the one built from the file: every
// edge cached, some, or none; and with every edge cached the build no longer touches the file
// (it has been cut short meanwhile, which a read would report).
TEST(GraphFileTest, TheBuildTakesCachedEdgesInsteadOfTheFile) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  TempDir dir;
  const Graph g = random_graph(90, 0.2, 0, 50, 4);
  write_graph(dir.file("g"), g);
  auto build = [&](const GraphFile& f) {
    DistanceMatrix<Host> d(g.vertices, 16);
    initialise_from_edges(d, f);
    return std::vector<int32_t>(d.data.data(), d.data.data() + d.data.size());
  };
  const std::vector<int32_t> expected = build(GraphFile::open(dir.file("g")));
  const std::atomic<bool> go{false};
  for (const int64_t cached : {int64_t(0), int64_t(100), int64_t(g.edges.size())}) {
    GraphFile f = GraphFile::open(dir.file("g"));
    f.cache_edges(cached, go);
    EXPECT_EQ(f.cached_edges(0, cached) != nullptr, cached > 0);
    EXPECT_EQ(f.cached_edges(0, cached + 1), nullptr) << "more than was cached";
    if (cached > 0) {
      std::vector<int32_t> direct(size_t(3 * cached));
      f.read_edges(0, cached, direct.data());
      EXPECT_EQ(std::memcmp(f.cached_edges(0, cached), direct.data(), direct.size() * 4), 0);
    }
    EXPECT_EQ(build(f), expected) << cached << " edges cached";
  }
  GraphFile f = GraphFile::open(dir.file("g"));
  f.cache_edges(f.edges(), go);
  ASSERT_EQ(::truncate(dir.file("g").c_str(), 8), 0);
  EXPECT_EQ(build(f), expected);
  f.drop_cache();
  expect_input_error([&] { build(f); }, {"shrank"});
  const std::atomic<bool> stop{true};
  write_graph(dir.file("g"), g);
  GraphFile stopped = GraphFile::open(dir.file("g"));
  stopped.cache_edges(stopped.edges(), stop);
  EXPECT_EQ(stopped.cached_edges(0, 1), nullptr) << "a stopped read caches nothing";
}

TEST(GraphFileTest, ASharedCacheOutlivesTheGraphsRelease) {
  TempDir dir;
  const Graph g = random_graph(40, 0.2, 0, 50, 5);
  write_graph(dir.file("g"), g);
  GraphFile f = GraphFile::open(dir.file("g"));
  const std::atomic<bool> go{false};
  f.cache_edges(f.edges(), go);
  const GraphFile::SharedEdges share = f.share_cache();
  ASSERT_EQ(share.count, f.edges());
  std::vector<int32_t> direct(size_t(3 * f.edges()));
  f.read_edges(0, f.edges(), direct.data());
  f.release_cache().reset();  // the graph's own handle gone
  EXPECT_EQ(f.cached_count(), 0);
  EXPECT_EQ(f.share_cache().data, nullptr);
  EXPECT_EQ(std::memcmp(share.data.get(), direct.data(), direct.size() * 4), 0);
}

// The edges read ahead (the build pins them for a device) are such an array.
TEST(GraphFileTest, EdgesReadAheadAreInHugePageMemory) {
  TempDir dir;
  Graph g;
  g.vertices = 1000;
  for (int32_t i = 0; i < 200000; ++i) g.edges.push_back({i % 1000, (i * 7 + 1) % 1000, i % 100});
  write_graph(dir.file("g"), g);
  GraphFile f = GraphFile::open(dir.file("g"));
  const std::atomic<bool> go{false};
  f.cache_edges(f.edges(), go);
  ASSERT_EQ(f.cached_count(), f.edges());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f.cached_edges(0, 1)) % (size_t(2) << 20), 0u);
  std::vector<int32_t> from_file(size_t(3 * f.edges()));
  f.read_edges(0, f.edges(), from_file.data());
  EXPECT_EQ(std::memcmp(f.cached_edges(0, f.edges()), from_file.data(), from_file.size() * 4), 0);
  EXPECT_EQ(from_file[3 * 199999 + 2], 199999 % 100);
}

// Cores as the OS reports them: hardware threads with the same (package, core) are one core;
// a CPU whose topology is missing counts as a core of its own.
TEST(CpuTopologyTest, HardwareThreadsOfOneCoreCountOnce) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("apsp_topology_" + std::to_string(getpid()));
  // cpu0..7: two packages of two cores of two hardware threads (cpu4 shares cpu0's core id in
  // the other package).
  for (int c = 0; c < 8; ++c) {
    std::filesystem::create_directories(root / ("cpu" + std::to_string(c)) / "topology");
    std::ofstream(root / ("cpu" + std::to_string(c)) / "topology" / "physical_package_id") << c / 4 << "\n";
    std::ofstream(root / ("cpu" + std::to_string(c)) / "topology" / "core_id") << (c % 4) / 2 << "\n";
  }
  EXPECT_EQ(cores_of({0, 1, 2, 3, 4, 5, 6, 7}, root.string()), 4);
  EXPECT_EQ(cores_of({0, 1}, root.string()), 1);
  EXPECT_EQ(cores_of({0, 2, 4, 6}, root.string()), 4);
  EXPECT_EQ(cores_of({0, 9}, root.string()), 2);  // cpu9 reports nothing: every CPU a core
  std::filesystem::remove_all(root);
}

// The node's CPUs from sysfs' "online" list; a GPU rank bound to one CPU takes its share of
// them, any other binding is kept.
TEST(CpuTopologyTest, OnlineCpusAndTheGpuRankShare) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("apsp_online_" + std::to_string(getpid()));
  std::filesystem::create_directories(root);
  std::ofstream(root / "online") << "0-3,8-11,16\n";
  const std::vector<int> node = online_cpus(root.string());
  EXPECT_EQ(node, (std::vector<int>{0, 1, 2, 3, 8, 9, 10, 11, 16}));
  EXPECT_EQ(cpu_list(node), "0-3,8-11,16");
  std::ofstream(root / "online") << "garbage\n";
  EXPECT_EQ(int(online_cpus(root.string()).size()), int(std::thread::hardware_concurrency()));
  std::filesystem::remove_all(root);

  std::vector<int> all(32);
  for (int c = 0; c < 32; ++c) all[size_t(c)] = c;
  EXPECT_EQ(share_of(all, 1, 2).front(), 16);
  EXPECT_EQ(share_of(all, 1, 2).back(), 31);
  EXPECT_EQ(share_of({0, 1}, 3, 4), std::vector<int>{1});  // more ranks than CPUs: one each, in turn
  // Open MPI's default for -np 2: rank 1 on CPU 1 alone -> CPUs 16-31.
  EXPECT_EQ(gpu_rank_cpus({1}, all, 1, 2), share_of(all, 1, 2));
  EXPECT_EQ(gpu_rank_cpus({0, 1}, all, 0, 2), (std::vector<int>{0, 1}));  // a binding of several CPUs stays
  EXPECT_EQ(gpu_rank_cpus({1}, {0, 1}, 1, 2), std::vector<int>{1});       // a share of one CPU gains nothing
}

// A model string without a number gets the family and model numbers (a VM's "AMD EPYC" names
// Zen 3, 4 and 5 alike); one with a number stays as it is; no model name: "CPU".
TEST(CpuTopologyTest, AModelNameWithoutANumberGetsTheFamilyAndModel) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("apsp_cpuinfo_" + std::to_string(getpid()));
  auto model_of = [&](const std::string& text) {
    std::ofstream(file) << text;
    return cpu_model(file.string());
  };
  EXPECT_EQ(model_of("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
                     "model name\t: AMD EPYC\nstepping\t: 1\nprocessor\t: 1\nmodel\t\t: 9\n"),
            "AMD EPYC (family 26 model 2)");
  EXPECT_EQ(model_of("cpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"),
            "AMD EPYC 9654 96-Core Processor");
  EXPECT_EQ(model_of("model name\t: Intel(R) Xeon(R) Processor\n"), "Intel(R) Xeon(R) Processor");  // no numbers
  EXPECT_EQ(model_of("processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n"), "CPU");  // Arm: no model name
  std::filesystem::remove(file);
  EXPECT_EQ(cpu_model(file.string()), "CPU");  // no file
}

// Threads' shares cover [0, n) once, in order, their sizes differing by at most one.
TEST(HelperThreadsTest, SharesCoverEveryItemOnceInOrder) {
  for (const int64_t n : {int64_t(0), int64_t(1), int64_t(7), int64_t(1000), int64_t(1) << 40})
    for (const int threads : {1, 3, 8, 16}) {
      int64_t at = 0, smallest = INT64_MAX, largest = 0;
      for (int t = 0; t < threads; ++t) {
        const auto [b, e] = thread_share(n, t, threads);
        EXPECT_EQ(b, at) << n << " " << threads << " " << t;
        smallest = std::min(smallest, e - b);
        largest = std::max(largest, e - b);
        at = e;
      }
      EXPECT_EQ(at, n);
      EXPECT_LE(largest - smallest, 1);
    }
}

TEST(HelperThreadsTest, EveryThreadRunsAndTheFirstErrorIsRethrown) {
  std::vector<int> ran(5, 0);
  on_threads(5, [&](int t) { ran[size_t(t)] = 1; });
  EXPECT_EQ(ran, std::vector<int>(5, 1));
  std::atomic<int> count{0};
  expect_input_error(
      [&] {
        on_threads(4, [&](int t) {
          ++count;
          if (t >= 2) throw InputError("thread " + std::to_string(t));
        });
      },
      {"thread 2"});
  EXPECT_EQ(count, 4) << "the others ran to their end";
}

// The generated graph (--generate): rows made in any split, on any number of threads, are the
// same rows; every edge obeys the format's rules; the count is near its expectation; and the
// build, the self-check and a later drop of the cache all see the same edges.
TEST(GeneratedGraphTest, RowsAreTheSameHoweverTheyAreSplit) {
  RandomGraphSpec spec = parse_random_graph_spec("700,30000,9");
  EXPECT_EQ(spec.expected_edges(), 30000);
  const GraphFile whole = GraphFile::generate(spec, 0, 700, 3);
  EXPECT_FALSE(whole.partial());
  const int64_t e = whole.edges();
  // Binomial(V (V - 1), p): within 6 standard deviations of E (about 170 here).
  EXPECT_NEAR(double(e), 30000.0, 6 * std::sqrt(30000.0));
  std::vector<int32_t> all(size_t(3 * e));
  whole.read_edges(0, e, all.data());
  int64_t previous_src = -1, previous_dst = -1;
  for (int64_t i = 0; i < e; ++i) {
    const int32_t s = all[size_t(3 * i)], t = all[size_t(3 * i + 1)], w = all[size_t(3 * i + 2)];
    ASSERT_TRUE(s >= 0 && s < 700 && t >= 0 && t < 700 && s != t && w >= 0 && w <= 1000) << i;
    ASSERT_TRUE(s > previous_src || (s == previous_src && t > previous_dst)) << "rows in order, dst ascending";
    previous_src = s;
    previous_dst = t;
  }
  // Rows [100, 333) made alone, on one thread, are that slice of the whole.
  const GraphFile part = GraphFile::generate(spec, 100, 333, 1);
  EXPECT_TRUE(part.partial());
  size_t begin = 0;
  while (begin < all.size() && all[begin] < 100) begin += 3;
  std::vector<int32_t> slice(size_t(3 * part.edges()));
  part.read_edges(0, part.edges(), slice.data());
  ASSERT_LE(begin + slice.size(), all.size());
  EXPECT_TRUE(std::equal(slice.begin(), slice.end(), all.begin() + std::ptrdiff_t(begin)));
  EXPECT_TRUE(begin + slice.size() == all.size() || all[begin + slice.size()] == 333);
  // A generated graph keeps its edges when the build drops the cache.
  GraphFile kept = GraphFile::generate(spec, 0, 700, 2);
  kept.drop_cache();
  std::vector<int32_t> again(all.size());
  kept.read_edges(0, e, again.data());
  EXPECT_EQ(again, all);
  // Another seed, another graph.
  const GraphFile other = GraphFile::generate(parse_random_graph_spec("700,30000,10"), 0, 700, 3);
  std::vector<int32_t> others(size_t(3 * other.edges()));
  other.read_edges(0, other.edges(), others.data());
  EXPECT_NE(others, all);
  // Weights shrink where V is so large that 1000 would break the bound (V - 1) w < 2^30 - 1.
  EXPECT_EQ(parse_random_graph_spec("2000000,10").max_weight, (kInf - 1) / 1999999);
  for (const char* bad : {"", "x", "10,", "10,5,", "0", "10,91", "10,-1", "10,5,-2", "1,2,3,4", "3000000000"})
    EXPECT_THROW(parse_random_graph_spec(bad), std::invalid_argument) << bad;
}

// Reading ahead: the graph comes back with its edges in memory, and an error opening the file
// is thrown where the pipeline takes the graph, as if it had opened it there.
TEST(InputPrefetchTest, TakesTheReadGraphOrThrowsItsError) {
  TempDir dir;
  const Graph g = random_graph(60, 0.1, 1, 9, 5);
  write_graph(dir.file("g"), g);
  {
    InputPrefetch ahead(dir.file("g"), int64_t(1) << 20);
    const GraphFile f = ahead.take();
    EXPECT_EQ(f.vertices(), 60);
    EXPECT_NE(f.cached_edges(0, f.edges()), nullptr);
  }
  {
    InputPrefetch small(dir.file("g"), int64_t(12) * 7);  // room for 7 edges only
    const GraphFile f = small.take();
    EXPECT_NE(f.cached_edges(0, 7), nullptr);
    EXPECT_EQ(f.cached_edges(0, 8), nullptr);
  }
  {
    InputPrefetch missing(dir.file("none"), int64_t(1) << 20);
    expect_input_error([&] { missing.take(); }, {dir.file("none"), "cannot open input"});
  }
  { InputPrefetch unused(dir.file("g"), int64_t(1) << 20); }  // never taken: ends without a hang
  // The pipeline takes the graph read ahead when given it.
  InputPrefetch ahead(dir.file("g"), int64_t(1) << 20);
  GraphFile read_ahead = ahead.take();
  ASSERT_EQ(::truncate(dir.file("g").c_str(), 8), 0);  // its edges can now come from memory only
  RunOptions opt;
  opt.input = dir.file("g");
  opt.output = dir.file("out");
  opt.open_input = [&] { return std::move(read_ahead); };
  opt.verify_rows = -1;  // the check reads the (now cut) file again: that is the file's rule, not this test's
  run_pipeline(opt);
  const auto expected = dijkstra_apsp(g);
  const auto bytes = read_bytes(opt.output);
  ASSERT_EQ(bytes.size(), expected.size() * 4);
  EXPECT_EQ(std::memcmp(bytes.data(), expected.data(), bytes.size()), 0);
}

// Several threads dropping a shared mapping's pages leave the file's bytes as they were.
TEST(MappedFileRangeTest, UnmappingWithSeveralThreadsKeepsTheFile) {
  const std::string folder = exists("/dev/shm") ? "/dev/shm" : "/tmp";
  const std::string path = folder + "/apsp_test_unmap_" + std::to_string(::getpid());
  const int64_t bytes = int64_t(256) << 20, words = bytes / 4;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, bytes), 0);
  {
    MappedFileRange map(fd, 0, bytes, path);
    ASSERT_TRUE(map);
    std::vector<int32_t> row(1 << 16);
    for (int64_t r = 0; r < words / int64_t(row.size()); ++r) {
      for (size_t c = 0; c < row.size(); ++c) row[c] = int32_t(r * 7 + int64_t(c));
      map.copy_rows(row.data(), r, 1, int64_t(row.size()), int64_t(row.size()), 1);
    }
    map.unmap(4);
    EXPECT_FALSE(map);
  }
  std::vector<int32_t> row(1 << 16);
  for (int64_t r = 0; r < words / int64_t(row.size()); ++r) {
    ASSERT_EQ(::pread(fd, row.data(), row.size() * 4, off_t(r * int64_t(row.size()) * 4)), ssize_t(row.size() * 4));
    for (size_t c = 0; c < row.size(); ++c) ASSERT_EQ(row[c], int32_t(r * 7 + int64_t(c))) << r;
  }
  ::close(fd);
  ::unlink(path.c_str());
}

// On tmpfs the range's blocks are allocated by prepare(), on several threads, not up front: every
// byte of it is the file's after prepare() (the blocks counted by stat), holding what was
// copied in; and a range larger than the file system's free space is refused up front, with
// the usual line, before anything is allocated.
TEST(MappedFileRangeTest, TmpfsBlocksComeFromPrepareAndTheSpaceIsCheckedFirst) {
  struct statfs fs {};
  if (::statfs("/dev/shm", &fs) != 0 || long(fs.f_type) != 0x01021994) GTEST_SKIP() << "no tmpfs at /dev/shm";
  const std::string path = "/dev/shm/apsp_test_prepare_" + std::to_string(::getpid());
  const int64_t bytes = int64_t(64) << 20, page = ::sysconf(_SC_PAGESIZE);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, bytes), 0);
  {
    MappedFileRange map(fd, 0, bytes, path);
    ASSERT_TRUE(map);
    struct stat st {};
    ASSERT_EQ(::fstat(fd, &st), 0);
    EXPECT_LT(int64_t(st.st_blocks) * 512, bytes / 2);  // not allocated up front
    std::atomic<int64_t> seen{0};
    map.prepare(4, 16, page, [&](int64_t b, int64_t e) { seen += e - b; });
    EXPECT_EQ(seen.load(), bytes);
    ASSERT_EQ(::fstat(fd, &st), 0);
    EXPECT_GE(int64_t(st.st_blocks) * 512, bytes);
    std::vector<int32_t> row(1 << 14);
    for (int64_t r = 0; r < bytes / 4 / int64_t(row.size()); ++r) {
      for (size_t c = 0; c < row.size(); ++c) row[c] = int32_t(r * 3 + int64_t(c));
      map.copy_rows(row.data(), r, 1, int64_t(row.size()), int64_t(row.size()), 2);
    }
  }
  std::vector<int32_t> row(1 << 14);
  for (int64_t r = 0; r < bytes / 4 / int64_t(row.size()); ++r) {
    ASSERT_EQ(::pread(fd, row.data(), row.size() * 4, off_t(r * int64_t(row.size()) * 4)), ssize_t(row.size() * 4));
    for (size_t c = 0; c < row.size(); ++c) ASSERT_EQ(row[c], int32_t(r * 3 + int64_t(c))) << r;
  }
  // More than the file system has free: refused before a block is taken.
  ASSERT_EQ(::fstatfs(fd, &fs), 0);
  const int64_t too_big = int64_t(fs.f_bavail) * int64_t(fs.f_bsize) + (int64_t(1) << 30);
  ASSERT_EQ(::ftruncate(fd, too_big), 0);
  try {
    MappedFileRange huge(fd, 0, too_big, path);
    ADD_FAILURE() << "a range past the free space was taken";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    for (const std::string& part : {path, std::string("cannot allocate"), std::string("for the output")})
      EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
  }
  struct stat st {};
  ASSERT_EQ(::fstat(fd, &st), 0);
  EXPECT_LT(int64_t(st.st_blocks) * 512, int64_t(65) << 20);  // nothing taken beyond the 64 MiB written
  ::close(fd);
  ::unlink(path.c_str());
}

TEST(OutputPathTest, BadOutputPathsAreRefusedUpFront) {
  TempDir dir;
  const auto check = [](const std::string& p) { return [p] { check_output_path(p, "output"); }; };
  expect_input_error(check(""), {"output path is empty"});
  expect_input_error(check(dir.file("nodir/out")), {"nodir", "does not exist"});
  write_raw(dir.file("plain"), {1});
  expect_input_error(check(dir.file("plain/out")), {"does not exist"});
  expect_input_error(check(dir.path()), {"is a directory"});
  if (::geteuid() != 0) {  // root may write anywhere
    ::mkdir(dir.file("ro").c_str(), 0555);
    expect_input_error(check(dir.file("ro/out")), {"not writable"});
  }
}

// Nothing but a regular file is ever replaced: devices, FIFOs, sockets and directories (and
// symlinks to them) are refused; a device that discards is "no output" and stays a device; a
// symlink to a regular file is written through. The nodes are made here, never in /dev.
TEST(OutputPathTest, OnlyRegularFilesAreReplaced) {
  TempDir dir;
  const auto check = [](const std::string& p) { return [p] { check_output_path(p, "output"); }; };
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  expect_input_error(check(dir.file("fifo")), {"fifo", "a FIFO", "only a regular file"});
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", dir.file("sock").c_str());
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  expect_input_error(check(dir.file("sock")), {"a socket"});
  ::close(sock);
  ::symlink(dir.path().c_str(), dir.file("to_dir").c_str());
  expect_input_error(check(dir.file("to_dir")), {"symbolic link to a directory"});
  ::symlink(dir.file("fifo").c_str(), dir.file("to_fifo").c_str());
  expect_input_error(check(dir.file("to_fifo")), {"symbolic link to a FIFO"});
  ::symlink(dir.file("missing").c_str(), dir.file("dangling").c_str());
  expect_input_error(check(dir.file("dangling")), {"symbolic link to a missing file"});
  write_raw(dir.file("target"), {7});
  ::symlink(dir.file("target").c_str(), dir.file("link").c_str());
  const OutputTarget through = check_output_path(dir.file("link"), "output");
  EXPECT_FALSE(through.discard);
  EXPECT_TRUE(same_file(through.path, dir.file("target")));
  if (::geteuid() == 0) {  // device nodes need root (CI and containers run as root)
    ASSERT_EQ(::mknod(dir.file("null").c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    ASSERT_EQ(::mknod(dir.file("zero").c_str(), S_IFCHR | 0666, makedev(1, 5)), 0);
    ASSERT_EQ(::mknod(dir.file("block").c_str(), S_IFBLK | 0600, makedev(7, 0)), 0);
    EXPECT_TRUE(check_output_path(dir.file("null"), "output").discard);
    ::symlink(dir.file("null").c_str(), dir.file("to_null").c_str());
    EXPECT_TRUE(check_output_path(dir.file("to_null"), "output").discard);
    expect_input_error(check(dir.file("zero")), {"a character device"});
    expect_input_error(check(dir.file("block")), {"a block device"});
  }
  // The input is never the output, by any name.
  write_raw(dir.file("in"), {1, 0});
  ::link(dir.file("in").c_str(), dir.file("hard").c_str());
  ::symlink(dir.file("in").c_str(), dir.file("soft").c_str());
  for (const char* name : {"in", "hard", "soft"})
    expect_input_error([&] { check_output_path(dir.file(name), "output", {dir.file("in")}); },
                       {"same file as", "overwritten"});
}

// A name of the file system's full length works (the temporary name does not grow with it);
// one character more is refused before any work.
TEST(OutputPathTest, LongNamesUpToTheFileSystemLimit) {
  TempDir dir;
  const long name_max = ::pathconf(dir.path().c_str(), _PC_NAME_MAX);
  ASSERT_GT(name_max, 16);
  const std::string longest = dir.file(std::string(size_t(name_max), 'o'));
  const OutputTarget t = check_output_path(longest, "output");
  {
    OutputFile out(t.path, 2, 1);
    const int32_t x[4] = {1, 2, 3, 4};
    out.write_rows(x, 0, 2, 2);
    out.commit();
  }
  EXPECT_EQ(read_bytes(longest).size(), 16u);
  expect_input_error([&] { check_output_path(longest + "o", "output"); }, {"file name is", "allows"});
}

// Temporary files of processes that no longer run (killed with -9) are removed by the next
// output made in their folder; those of live processes, and other files, are kept.
TEST(OutputPathTest, StaleTemporaryFilesOfDeadProcessesAreRemoved) {
  TempDir dir;
  const std::string live = temp_file_name(dir.path());
  write_raw(live, {1});
  // The same name with the start time of a process that is gone (pid reused, or dead).
  std::string dead = live;
  const auto dot = dead.rfind('.');
  const auto start = dead.rfind('.', dot - 1);
  dead.replace(start + 1, dot - start - 1, "1");
  write_raw(dead, {1});
  write_raw(dir.file(".apsp_kokkos.notours"), {1});
  write_raw(dir.file("other"), {1});
  EXPECT_EQ(remove_stale_temp_files(dir.path()), 1);
  EXPECT_FALSE(exists(dead));
  EXPECT_TRUE(exists(live));
  EXPECT_TRUE(exists(dir.file(".apsp_kokkos.notours")));
  EXPECT_TRUE(exists(dir.file("other")));
}

TEST(SizesTest, ProductsSaturateAndPrintAndParseWithUnits) {
  EXPECT_EQ(size_mul(int64_t(1) << 31, int64_t(1) << 31), int64_t(1) << 62);
  EXPECT_EQ(size_mul(int64_t(2147483647), 2147483647, 4), kTooLarge);
  EXPECT_EQ(matrix_bytes(2147483647, 64), kTooLarge);
  EXPECT_EQ(size_add(kTooLarge, 1), kTooLarge);
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(16777216), "16.8 MB");
  EXPECT_EQ(format_bytes(int64_t(6400000000)), "6.40 GB");
  EXPECT_EQ(format_bytes(int64_t(160) * 1000 * 1000 * 1000 * 1000), "160 TB");
  EXPECT_EQ(format_bytes(kTooLarge), "more than 9.2 EB");
  EXPECT_EQ(parse_bytes("64GB", "x"), int64_t(64000000000));
  EXPECT_EQ(parse_bytes("512MiB", "x"), int64_t(512) << 20);
  EXPECT_EQ(parse_bytes("1.5 t", "x"), int64_t(1500000000000));
  EXPECT_EQ(parse_bytes("4096", "x"), 4096);
  for (const char* bad : {"", "0", "-1", "abc", "12 parsecs", "1e30", "nan"})
    EXPECT_THROW(parse_bytes(bad, "--max-host-memory"), std::invalid_argument) << bad;
}

TEST(PipelineTest, AProblemTooLargeForMemoryIsRefusedWithTheFigures) {
  TempDir dir;
  write_graph(dir.file("g"), random_graph(300, 0.01, 0, 10, 3));
  RunOptions opt;
  opt.input = dir.file("g");
  opt.output = dir.file("out");
  opt.host_memory_limit = 100000;  // bytes
  expect_input_error([&] { run_pipeline(opt); }, {"V = 300", "needs", "kB", "only 100 kB", "available"});
  EXPECT_FALSE(exists(opt.output));
}

// Headers whose V overflows every size product (V^2 * 4 > 2^63 from V = 1518500250) are
// refused by the memory check with the figures, on every backend, leaving nothing behind.
TEST(PipelineTest, HugeVerticesAreRefusedNotOverflowed) {
  TempDir dir;
  for (const int32_t v : {1518500249, 1518500250, 2147483647}) {
    write_raw(dir.file("g"), {v, 0});
    for (const auto& backend : enabled_backend_names()) {
      RunOptions opt;
      opt.input = dir.file("g");
      opt.output = dir.file("out");
      opt.backend = backend;
      expect_input_error([&] { run_pipeline(opt); }, {"V = " + std::to_string(v), "needs", "B of", "memory"});
      EXPECT_FALSE(exists(opt.output));
    }
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename(), "g") << "left behind: " << entry.path();
}

TEST(PipelineTest, BadEdgeLeavesAnExistingOutputUntouched) {
  TempDir dir;
  write_graph(dir.file("g"), Graph{3, {{0, 1, 1}, {1, 5, 1}}});
  write_raw(dir.file("out"), {7, 7});
  RunOptions opt;
  opt.input = dir.file("g");
  opt.output = dir.file("out");
  expect_input_error([&] { run_pipeline(opt); }, {"edge 1", "dst = 5"});
  const auto bytes = read_bytes(dir.file("out"));
  EXPECT_EQ(bytes.size(), 8u);
}

TEST(PipelineTest, WholeRunMatchesDijkstraOnEveryBackend) {
  TempDir dir;
  const Graph g = random_graph(150, 0.03, 0, 1000, 77);
  write_graph(dir.file("g"), g);
  const auto expected = dijkstra_apsp(g);
  for (const auto& backend : enabled_backend_names()) {
    RunOptions opt;
    opt.input = dir.file("g");
    opt.output = dir.file("out_" + backend);
    opt.backend = backend;
    opt.result_chunk_bytes = int64_t(7) * 192 * 4;  // a device backend brings the result back in many chunks
    const RunReport r = run_pipeline(opt);
    EXPECT_EQ(r.vertices, 150);
    EXPECT_EQ(r.backend, backend);
    const auto bytes = read_bytes(opt.output);
    ASSERT_EQ(bytes.size(), expected.size() * 4);
    EXPECT_EQ(std::memcmp(bytes.data(), expected.data(), bytes.size()), 0) << backend;
  }
}

}  // namespace
}  // namespace apsp::test
