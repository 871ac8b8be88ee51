// SPDX-License-Identifier: BSD-3-Clause
// The CPU's vector registers for the host tile product (host_microkernel.hpp) and the ceiling
// microbenchmark (scripts/cpu_ceiling.cpp): two lane types of the same register, I32 (int32
// lanes: add, signed min) and U16 (uint16 lanes: add, unsigned min), on the widest
// instruction set the build targets (host_simd_isa.hpp).
#pragma once

#include "apsp/backends/host_simd_i32.hpp"
#include "apsp/backends/host_simd_isa.hpp"
#include "apsp/backends/host_simd_u16.hpp"
