// SPDX-License-Identifier: BSD-3-Clause
// A round's phase-3 operands packed once for all its products, where the tile operations ask
// for it (Ops::kPacksRounds: the CPU backends). Phase 3 multiplies every tile of the pivot column
// (A operands) with every tile of the pivot row (Bk operands): packed per product, each A was
// packed once per tile of its row and each Bk once per tile of its column, and on a 2-core Zen 3
// packing took 18 % of a product at B = 256 once the matrix no longer fitted in the caches.
// Packed per round they cost about 14 V B bytes of memory and a pass over 2 V B entries.
//
// Where the tile operations instead mark the round's operands (Ops::kMarksOperands: every GPU
// backend), the same pass only notes, per tile of the pivot column and row, what the products
// may skip (gpu/operand_marks.hpp); sixteen sets of marks, by the round modulo 16, because a GPU's
// look-ahead opens the next block of rounds (up to eight: k + 2 to k + 9 after a pair) while the
// phase 3 of the current block still reads the marks of its rounds (blocked_fw.hpp,
// gpu/pair_kernels.hpp, gpu/round_block_kernels.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "apsp/core/sizes.hpp"
#include "apsp/solver/gpu/operand_marks.hpp"
#include "apsp/solver/round_storage.hpp"
#include "apsp/solver/row_block.hpp"

namespace apsp {

/// Where one round's packed operands are, as the phase-3 kernels carry them: the A operand of
/// tile row i of the kernel's rows at `a + i * a_ints`, the Bk operand of tile column j at
/// `bk + j * bk_ints` (in the layout of the backend's tile operations). Null: none, each product
/// packs its own.
struct PackedRound {
  int32_t* a = nullptr;
  int32_t* bk = nullptr;
  int64_t a_ints = 0, bk_ints = 0;
  int64_t vertices = 0;  ///< V: rows and columns from V on (padding) are not computed
  int first_tile = 0;    ///< global tile row of the kernel's first row
  /// (Ops::kMarksOperands) per tile row i of the kernel's rows the OperandMark bits of tile
  /// (i, k), and per tile column j those of tile (k, j); null: not marked.
  const int32_t* marks_a = nullptr;
  const int32_t* marks_bk = nullptr;
  int64_t least = 0;  ///< ints from each mark to its tile's least entry (OperandMarks::least)
  /// (Ops::kPacksRounds) Whether the operands are packed in 16-bit lanes too (RoundOperands::
  /// layout decides per round), and where products note that blocks of C took them or would.
  int lanes16 = 1;
  std::atomic<int>* qualified = nullptr;
  /// (Ops::kPacksRounds) Where products note a block of C with an entry of 2^15 or more (or
  /// one they did not test): the matrix is not yet for the 16-bit stage (host/sixteen.hpp).
  std::atomic<int>* far = nullptr;
  /// (host code) A product's note: a block took 16-bit lanes, or would have.
  void note_qualified() const { note(qualified); }
  /// (host code) A product's note: a block of C held an entry of 2^15 or more.
  void note_far() const { note(far); }
  static void note(std::atomic<int>* flag) {
    if (flag != nullptr && flag->load(std::memory_order_relaxed) == 0) flag->store(1, std::memory_order_relaxed);
  }
  KOKKOS_INLINE_FUNCTION explicit operator bool() const { return a != nullptr; }
  /// The marks of tile (i, j)'s operands (i: of the kernel's rows).
  KOKKOS_INLINE_FUNCTION OperandMarks marks(int i, int j) const {
    return marks_a != nullptr ? OperandMarks{marks_a + i, marks_bk + j, nullptr, nullptr, least} : OperandMarks{};
  }
  /// The same for a product of this round and then round `then`'s (both kept the least entries
  /// in the same place: the same RoundOperands).
  KOKKOS_INLINE_FUNCTION OperandMarks marks(int i, int j, const PackedRound& then) const {
    return marks_a != nullptr && then.marks_a != nullptr
               ? OperandMarks{marks_a + i, marks_bk + j, then.marks_a + i, then.marks_bk + j,
                              least == then.least ? least : 0}
               : OperandMarks{};
  }
  /// The same round for a kernel whose rows start `tiles` tile rows further on.
  PackedRound from_row(int tiles) const {
    PackedRound r = *this;
    if (a != nullptr) r.a += tiles * a_ints;
    if (marks_a != nullptr) r.marks_a += tiles;
    r.first_tile += tiles;
    return r;
  }
  /// Entries of tile row (or column) t, global, that are vertices: B but in the last one.
  KOKKOS_INLINE_FUNCTION int extent(int t, int B) const {
    const int64_t left = vertices - int64_t(t) * B;
    return left < B ? int(left) : B;
  }
};

/// Holds the packed operands of a round for the tile rows `rb` holds, and packs them (`Ops`: the
/// tile operations, with kPacksRounds, a_ints(B), bk_ints(B), pack_a(...), pack_bk(...)); or
/// marks them (kMarksOperands, small_entry(v)).
template <class ExecSpace, class Ops>
class RoundOperands {
 public:
  /// (kMarksOperands) Sets of marks, by the round modulo this: a GPU's look-ahead marks
  /// the next block's rounds while the products of the current block read theirs
  /// (gpu/pair_rounds.hpp): a pair's two rounds beside the next pair's, or a wide block's opening,
  /// one set per round (up to sixteen), beside products that read only the strips' marks.
  static constexpr int kMarkSets = 16;
  /// Bytes for `row_tiles` tile rows of a padded n x n matrix.
  static int64_t bytes(int64_t n, int block, int64_t row_tiles) {
    if constexpr (Ops::kPacksRounds)
      return size_mul(
          size_add(size_mul(row_tiles, int64_t(Ops::a_ints(block))), size_mul(n / block, int64_t(Ops::bk_ints(block)))),
          int64_t(sizeof(int32_t)));
    else if constexpr (Ops::kMarksOperands)  // the marks, then their tiles' least entries (kKeepsLeast)
      return size_mul(int64_t((Ops::kKeepsLeast ? 2 : 1) * kMarkSets) * (row_tiles + n / block),
                      int64_t(sizeof(int32_t)));
    else
      return 0;
  }

  using Storage = RoundStorage<typename ExecSpace::memory_space>;

  template <class Block>  // a RowBlockOf any entry type (none but int32 ones are packed)
  explicit RoundOperands(const Block& rb) : storage_(Storage::allocate(ints(rb))) {}
  /// The same in `earlier`'s storage where it is large enough (the CPU's 16-bit stage takes the
  /// int32 rounds' operands': no new pages to fault in when its first round packs).
  template <class Block>
  RoundOperands(const Block& rb, const Storage& earlier)
      : storage_(int64_t(earlier.view.extent(0)) >= ints(rb) ? earlier : Storage::allocate(ints(rb))) {}
  /// Where the operands are packed.
  const Storage& storage() const { return storage_; }

  /// Packs round k's operands: tile (i, k) of every tile row held, and tile (k, j) of every tile
  /// column from `pivot_row` (the pivot row block, ld n). Enqueued on `exec`; the phase-3
  /// kernels enqueued after it on the same instance may read the result.
  PackedRound pack(const RowBlock& rb, int k, const int32_t* pivot_row, const ExecSpace& exec) const {
    if constexpr (Ops::kPacksRounds) return pack_now(rb, k, pivot_row, exec);
    if constexpr (Ops::kMarksOperands) return mark_now(rb, k, pivot_row, exec);
    return {};
  }

  /// The same where phase 2 has marked the operands already (into marks_of(rb, k)): nothing is
  /// enqueued for the marks.
  PackedRound pack_marked(const RowBlock& rb, int k, const int32_t* pivot_row, const ExecSpace& exec) const {
    if constexpr (Ops::kPacksRounds) return pack_now(rb, k, pivot_row, exec);
    if constexpr (Ops::kMarksOperands) return marks(rb, k);
    return {};
  }

  /// Where round k's marks go, for a phase 2 that marks the tiles it computes (none where Ops
  /// does not mark). On one device phase 2 computes every operand of phase 3, and marking there
  /// saves the marking kernel, which sat on the look-ahead queue between phase 2 and the rest of
  /// phase 3 (blocked_fw.hpp).
  MarkTargets marks_of(const RowBlock& rb, int k) const {
    if constexpr (Ops::kMarksOperands) {
      int32_t* flags = storage_.view.data() + (k % kMarkSets) * (rb.row_tiles + rb.n / rb.block);
      return {flags, flags + rb.row_tiles, least_offset(rb)};
    }
    return {};
  }

  /// (kPacksRounds) Where the operands of the rows of `rb` go, packed by nothing yet, for round
  /// k: called once per round, before its packing and after the products of the round before.
  /// Whether the round packs 16-bit forms too: rounds 0 and 1, and any round after a product
  /// noted a block of C that took 16-bit lanes or, sampled, would have. Without them
  /// (a graph whose distances all passed 2^15) the products run int32 lanes without the
  /// per-block test: on the Zen 5 EPYC both cost such a graph 3.4-3.8 % of its solve
  /// (docs/results.md). Entries only fall, so blocks that qualify keep qualifying.
  template <class Block>
  PackedRound layout(const Block& rb, int k) const {
    const int B = rb.block;
    PackedRound p{storage_.view.data(),
                  storage_.view.data() + rb.row_tiles * int64_t(Ops::a_ints(B)),
                  int64_t(Ops::a_ints(B)),
                  int64_t(Ops::bk_ints(B)),
                  rb.vertices,
                  rb.first_tile};
    const bool seen = qualified_->exchange(0, std::memory_order_relaxed) != 0;
    p.lanes16 = int(seen || k <= 1);
    p.qualified = qualified_.get();
    far_->store(0, std::memory_order_relaxed);
    p.far = far_.get();
    return p;
  }
  /// (kPacksRounds) Whether a product of the round last laid out noted a block of C with an
  /// entry of 2^15 or more (PackedRound::note_far); read after its products.
  bool far_seen() const { return far_->load(std::memory_order_relaxed) != 0; }
  /// (kPacksRounds) Packs operand t of round k into `p`: tile (t, k) of the `rows` tile rows
  /// at `rows_base` for t < rows, else tile (k, t - rows) of the pivot row block.
  template <class Value>  // the matrix's entries: int32, or uint16 (host/ops16.hpp)
  KOKKOS_INLINE_FUNCTION static void pack_one(const PackedRound& p, const Value* rows_base, const Value* pivot_row,
                                              int64_t n, int B, int k, int rows, int pivots, int t) {
    if (t < rows)
      Ops::pack_a(p.a + t * p.a_ints, rows_base + int64_t(t) * B * n + int64_t(k) * B, n, B, pivots, p.lanes16 != 0);
    else
      Ops::pack_bk(p.bk + (t - rows) * p.bk_ints, pivot_row + int64_t(t - rows) * B, n, B, pivots, p.lanes16 != 0);
  }

  // The kernels' functors are public: nvcc's generated launch stubs name them from outside.
  using Member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  /// One team per operand tile, as PackKernel's items: flags[t] = the tile's OperandMark bits.
  /// Whole B x B tiles: the marked products are whole rounds.
  struct MarkKernel {
    int32_t* flags;
    const int32_t* rows_base;
    const int32_t* pivot_row;
    int64_t n;
    int B, k, rows;
    int64_t least;
    KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
      const int t = team.league_rank();
      const int32_t* tile =
          t < rows ? rows_base + int64_t(t) * B * n + int64_t(k) * B : pivot_row + int64_t(t - rows) * B;
      mark_operand_tile<Ops>(team, tile, n, B, flags + t, least);
    }
  };

 private:
  /// Where the least entries are kept: behind every set of marks, at the same distance from each
  /// (0: not kept, Ops::kKeepsLeast).
  static int64_t least_offset(const RowBlock& rb) {
    return Ops::kKeepsLeast ? kMarkSets * (rb.row_tiles + rb.n / rb.block) : 0;
  }

  PackedRound mark_now(const RowBlock& rb, int k, const int32_t* pivot_row, const ExecSpace& exec) const {
    const MarkTargets to = marks_of(rb, k);
    Kokkos::parallel_for("apsp::round_operands_marks",
                         Kokkos::TeamPolicy<ExecSpace>(exec, rb.row_tiles + int(rb.n / rb.block), Kokkos::AUTO),
                         MarkKernel{to.a, rb.rows, pivot_row, rb.n, rb.block, k, rb.row_tiles, to.least});
    return marks(rb, k);
  }

  /// Round k's marks as the phase-3 kernels carry them.
  PackedRound marks(const RowBlock& rb, int k) const {
    const MarkTargets to = marks_of(rb, k);
    PackedRound p;
    p.vertices = rb.vertices;
    p.first_tile = rb.first_tile;
    p.marks_a = to.a;
    p.marks_bk = to.bk;
    p.least = to.least;
    return p;
  }

  /// Packs one operand per item: tile (i, k) of the rows held for i < rows, else tile (k, j).
  struct PackKernel {
    PackedRound p;
    const int32_t* rows_base;
    const int32_t* pivot_row;
    int64_t n;
    int B, k, rows, pivots;
    KOKKOS_INLINE_FUNCTION void operator()(const int t) const {
      pack_one(p, rows_base, pivot_row, n, B, k, rows, pivots, t);
    }
  };

  PackedRound pack_now(const RowBlock& rb, int k, const int32_t* pivot_row, const ExecSpace& exec) const {
    const PackedRound p = layout(rb, k);
    const int rows = rb.row_tiles;
    Kokkos::parallel_for("apsp::round_operands", Kokkos::RangePolicy<ExecSpace>(exec, 0, rows + int(rb.n / rb.block)),
                         PackKernel{p, rb.rows, pivot_row, rb.n, rb.block, k, rows, rb.pivots(k)});
    return p;
  }

  template <class Block>
  static int64_t ints(const Block& rb) {
    return bytes(rb.n, rb.block, rb.row_tiles) / int64_t(sizeof(int32_t));
  }

  Storage storage_;
  /// (kPacksRounds) Noted by products (PackedRound::note_qualified), read and cleared by layout().
  std::shared_ptr<std::atomic<int>> qualified_ = std::make_shared<std::atomic<int>>(0);
  /// (kPacksRounds) Noted by products (PackedRound::note_far), cleared by layout().
  std::shared_ptr<std::atomic<int>> far_ = std::make_shared<std::atomic<int>>(0);
};

}  // namespace apsp
