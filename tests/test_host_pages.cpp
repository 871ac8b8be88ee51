// SPDX-License-Identifier: BSD-3-Clause
// Large host arrays (core/huge_page_array.hpp, solver/host_pages.hpp): where they start, what
// they hold, when they are freed, and the pages made resident before a first write: in huge
// pages while they come quickly, in usual ones after a slow one.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "apsp/core/huge_page_array.hpp"
#include "apsp/core/resident_pieces.hpp"
#include "apsp/solver/distance_matrix.hpp"
#include "apsp/solver/host_pages.hpp"

namespace apsp::test {
namespace {

constexpr size_t kHuge = size_t(2) << 20;

// The line `field:` of the mapping (/proc/self/smaps) that holds `p`; none where the system
// does not say (no smaps, or no such field in this kernel's).
std::optional<std::string> smaps_field(const void* p, const std::string& field) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = at >= lo && at < hi;
    } else if (inside && line.rfind(field + ":", 0) == 0) {
      const size_t value = line.find_first_not_of(' ', field.size() + 1);
      return value == std::string::npos ? std::string() : line.substr(value);
    }
  }
  return std::nullopt;
}

// Whether any mapping of this process holds `p` (/proc/self/maps).
bool address_mapped(const void* p) {
  std::ifstream maps("/proc/self/maps");
  const auto at = reinterpret_cast<uintptr_t>(p);
  for (std::string line; std::getline(maps, line);) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) == 2 && at >= lo && at < hi) return true;
  }
  return false;
}

// Large arrays start on a huge page's boundary in a mapping the kernel may back with huge
// pages (where this system grants them at all), hold what is written, and are unmapped with
// their last owner; small ones come from the heap.
TEST(HugePageArrayTest, LargeArraysAreHugePageMappingsFreedWithTheirLastOwner) {
  const size_t count = 3 * kHuge / sizeof(int32_t) + 7;
  std::shared_ptr<int32_t[]> a = huge_page_array<int32_t>(count);
  int32_t* data = a.get();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kHuge, 0u);
  for (size_t i = 0; i < count; ++i) data[i] = int32_t(i * 2654435761u);
  for (size_t i = 0; i < count; ++i) ASSERT_EQ(data[i], int32_t(i * 2654435761u)) << i;
  std::string thp_mode;
  std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), thp_mode);
  if (const auto eligible = smaps_field(data, "THPeligible");
      eligible && thp_mode.find("[never]") == std::string::npos) {
    EXPECT_EQ(*eligible, "1") << "transparent huge pages: " << thp_mode;
  }
  std::shared_ptr<int32_t[]> second_owner = a;
  a.reset();
  EXPECT_TRUE(address_mapped(data));
  second_owner.reset();
  EXPECT_FALSE(address_mapped(data));

  const std::shared_ptr<int32_t[]> small = huge_page_array<int32_t>(1000);
  small[999] = 5;
  EXPECT_EQ(small[999], 5);
  EXPECT_NE(reinterpret_cast<uintptr_t>(small.get()) % kHuge, 0u);                // the heap's,
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.get()) % kHostArrayAlignment, 0u);  // aligned for vector loads
}

// Whether this system backs a mapping asked for huge pages with them (THP not "never").
bool huge_pages_granted() {
  std::string mode;
  std::getline(std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"), mode);
  return !mode.empty() && mode.find("[never]") == std::string::npos;
}

// The pages of [p, p + bytes) resident in memory (mincore), counted; and all of them.
size_t resident_in(const void* p, size_t bytes) {
  const auto page = size_t(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((bytes + page - 1) / page);
  if (::mincore(const_cast<void*>(p), bytes, in.data()) != 0)
    return 0;  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  return size_t(std::count_if(in.begin(), in.end(), [](unsigned char c) { return (c & 1) != 0; }));
}
size_t pages_of(size_t bytes) {
  const auto page = size_t(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page;
}

// Every piece of a fresh mapping made resident, nothing written: a thread alone does the others'
// runs too; with no limit on a huge page's time every piece is quick (the last one short of 2 MiB
// too) and the mapping still asks for huge pages.
TEST(ResidentPagesTest, SharesMakeEveryPageResidentUnchanged) {
  const size_t bytes = 5 * kHuge + 12345;
  const HugePageMapping m = map_huge_pages(bytes);
  ASSERT_NE(m.data, nullptr);
  EXPECT_EQ(resident_in(m.data, bytes), 0u);
  ResidentPieces pieces(m.data, bytes, 3, std::numeric_limits<double>::infinity());
  EXPECT_EQ(pieces.run(1), 6);  // its own run, then what the others left: all
  EXPECT_EQ(pieces.run(0) + pieces.run(2), 0);
  EXPECT_EQ(resident_in(m.data, bytes), pages_of(bytes));
  const auto* bytes_at = static_cast<const unsigned char*>(m.data);
  EXPECT_TRUE(std::all_of(bytes_at, bytes_at + bytes, [](unsigned char b) { return b == 0; }));
  if (const auto eligible = smaps_field(bytes_at + 5 * kHuge, "THPeligible"); eligible && huge_pages_granted()) {
    EXPECT_EQ(*eligible, "1");
  }
  unmap_huge_pages(m);
}

// A piece slower than the limit (here every one: a limit of 0 s) sends the rest of its run to
// usual pages: each run's first piece still asks for huge pages, its later ones do not. Every
// page is resident all the same.
TEST(ResidentPagesTest, ASlowPieceSendsTheRestOfItsShareToUsualPages) {
  const size_t bytes = 6 * kHuge;
  const HugePageMapping m = map_huge_pages(bytes);
  ASSERT_NE(m.data, nullptr);
  ResidentPieces pieces(m.data, bytes, 2, 0.0);
  EXPECT_EQ(pieces.run(0) + pieces.run(1), 0);
  EXPECT_EQ(resident_in(m.data, bytes), pages_of(bytes));
  const auto* at = static_cast<const char*>(m.data);
  if (smaps_field(at, "THPeligible") && huge_pages_granted()) {
    const char* asks[6] = {"1", "0", "0", "1", "0", "0"};  // runs: pieces 0-2 and 3-5
    for (int piece = 0; piece < 6; ++piece)
      EXPECT_EQ(smaps_field(at + piece * kHuge, "THPeligible"), std::optional<std::string>(asks[piece])) << piece;
  }
  EXPECT_TRUE(huge_pages_recently_slow(kHuge));  // the process noted the slow pieces
  unmap_huge_pages(m);
}

// Told that huge pages come slowly, every piece goes to usual pages, the first of each run too.
TEST(ResidentPagesTest, PiecesCanStartInUsualPages) {
  const size_t bytes = 4 * kHuge;
  const HugePageMapping m = map_huge_pages(bytes);
  ASSERT_NE(m.data, nullptr);
  ResidentPieces pieces(m.data, bytes, 2, std::numeric_limits<double>::infinity(), false);
  EXPECT_EQ(pieces.run(0) + pieces.run(1), 4);  // each within its (infinite) limit
  EXPECT_EQ(resident_in(m.data, bytes), pages_of(bytes));
  const auto* at = static_cast<const char*>(m.data);
  if (smaps_field(at, "THPeligible") && huge_pages_granted()) {
    for (int piece = 0; piece < 4; ++piece)
      EXPECT_EQ(smaps_field(at + piece * kHuge, "THPeligible"), std::optional<std::string>("0")) << piece;
  }
  unmap_huge_pages(m);
}

// A slow huge page holds for the mappings that follow it, up to the bytes unmapped since (memory
// freed may give huge pages back) and for kSlowHugePageMemory at most.
TEST(ResidentPagesTest, ASlowHugePageHoldsUntilAsMuchIsUnmappedOrItIsOld) {
  note_slow_huge_page();
  EXPECT_TRUE(huge_pages_recently_slow(kHuge));
  const HugePageMapping m = map_huge_pages(3 * kHuge);
  ASSERT_NE(m.data, nullptr);
  unmap_huge_pages(m);
  EXPECT_FALSE(huge_pages_recently_slow(m.mapped));
  EXPECT_TRUE(huge_pages_recently_slow(m.mapped + 1));
  std::this_thread::sleep_for(kSlowHugePageMemory + std::chrono::milliseconds(20));
  EXPECT_FALSE(huge_pages_recently_slow(size_t(1) << 40));
}

// resident_pages: on return every page is resident (the host space's threads made them so); a
// small array is the heap's.
TEST(ResidentPagesTest, ArraysAndHostMatricesAreResidentBeforeTheirFirstWrite) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const size_t count = 3 * kHuge / sizeof(int32_t) + 1000;
  const std::shared_ptr<int32_t[]> a = resident_pages<Host, int32_t>(count);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.get()) % kHuge, 0u);
  EXPECT_EQ(resident_in(a.get(), count * sizeof(int32_t)), pages_of(count * sizeof(int32_t)));
  const std::shared_ptr<int32_t[]> small = resident_pages<Host, int32_t>(1000);
  small[999] = 5;
  EXPECT_EQ(small[999], 5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.get()) % kHostArrayAlignment, 0u);
  // The solver's host matrix, room to widen included, before the build writes a byte of it.
  const DistanceMatrix<Host> d(1500, 32, 0, padded_size(1500, 32), "test::matrix", int64_t(2) * 1500 * 1500);
  EXPECT_EQ(resident_in(d.host_pages.get(), size_t(d.capacity) * sizeof(int32_t)),
            pages_of(size_t(d.capacity) * sizeof(int32_t)));
}

}  // namespace
}  // namespace apsp::test
