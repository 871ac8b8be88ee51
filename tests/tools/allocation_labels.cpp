// SPDX-License-Identifier: BSD-3-Clause
// A Kokkos Tools library for the tests: prints every allocation's memory space, label and size
// to stderr ("apsp-test: allocation SPACE 'LABEL' BYTES"), so that a test can see that each
// one is labelled (Kokkos Tools report unlabelled ones as "[unlabeled]"). The hooks are the
// C interface of Kokkos Tools (the same in Kokkos 3.x and 4.x); nothing else is needed.
#include <cinttypes>
#include <cstdint>
#include <cstdio>

struct SpaceHandle {
  char name[64];
};

extern "C" {

void kokkosp_init_library(int /*level*/, uint64_t /*interface_version*/, uint32_t /*devices*/, void* /*info*/) {}

void kokkosp_finalize_library() {}

void kokkosp_allocate_data(SpaceHandle space, const char* label, const void* /*ptr*/, uint64_t size) {
  std::fprintf(stderr, "apsp-test: allocation %s '%s' %" PRIu64 "\n", space.name, label, size);
}

}  // extern "C"
