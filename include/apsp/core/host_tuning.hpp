// SPDX-License-Identifier: BSD-3-Clause
// What the host code was compiled for: portable, or -march=native on the building machine's
// CPU (APSP_NATIVE, cmake/host_tuning.cmake). A native build checks, before anything else
// runs, that this CPU has the extensions it was compiled for (src/core/cpu_check.cpp).
#pragma once

namespace apsp {

/// "portable (...)" or "-march=native on <CPU> (uses AVX512F ...)", for the banner and the record.
const char* host_tuning();

}  // namespace apsp
