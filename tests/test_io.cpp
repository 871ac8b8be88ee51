// SPDX-License-Identifier: BSD-3-Clause
// Reader and writer: round trips, and every rule of ../shared/spec.md for bad input.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include "apsp/io/output_file.hpp"
#include "apsp/pipeline/pipeline.hpp"
#include "backends_under_test.hpp"
#include "enabled_backends.hpp"
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
    EXPECT_EQ(f.edge_data()[3 * i], g.edges[i].src);
    EXPECT_EQ(f.edge_data()[3 * i + 1], g.edges[i].dst);
    EXPECT_EQ(f.edge_data()[3 * i + 2], g.edges[i].w);
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
      out.reserve_rows(0, rows);
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
      if (reserved) out.reserve_rows(0, rows);
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
    out.reserve_rows(0, 1);
    out.write_rows(x, 0, 1, 2);
  }  // no commit: as when a run fails half way
  EXPECT_FALSE(exists(temp));
  const auto bytes = read_bytes(path);
  ASSERT_EQ(bytes.size(), 4u);
  EXPECT_EQ(*reinterpret_cast<const int32_t*>(bytes.data()), 42);
}

TEST(OutputFileTest, BadOutputPathsAreRefusedUpFront) {
  TempDir dir;
  expect_input_error([&] { OutputFile::check_writable(dir.file("nodir/out")); }, {"nodir", "does not exist"});
  write_raw(dir.file("plain"), {1});
  expect_input_error([&] { OutputFile::check_writable(dir.file("plain/out")); }, {"does not exist"});
  expect_input_error([&] { OutputFile::check_writable(dir.path()); }, {"is a directory"});
  if (::geteuid() != 0) {  // root may write anywhere
    ::mkdir(dir.file("ro").c_str(), 0555);
    expect_input_error([&] { OutputFile::check_writable(dir.file("ro/out")); }, {"not writable"});
  }
}

TEST(PipelineTest, AProblemTooLargeForMemoryIsRefusedWithTheFigures) {
  TempDir dir;
  write_graph(dir.file("g"), random_graph(300, 0.01, 0, 10, 3));
  RunOptions opt;
  opt.input = dir.file("g");
  opt.output = dir.file("out");
  opt.host_memory_limit = 100000;  // bytes
  expect_input_error([&] { run_pipeline(opt); }, {"V = 300", "needs", "GB", "available"});
  EXPECT_FALSE(exists(opt.output));
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
