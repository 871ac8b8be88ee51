// SPDX-License-Identifier: BSD-3-Clause
// The host tuning's line, and for a -march=native build the check that this CPU has every
// extension the build was compiled for. Compiled for plain x86-64 itself (cmake/host_tuning.cmake)
// and run as a constructor ahead of every other (priority 101), before main() and before any
// code that may use the extensions: on another CPU the program stops with one line instead of
// dying with SIGILL somewhere.
#include "apsp/core/host_tuning.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace apsp {

const char* host_tuning() { return APSP_HOST_TUNING; }

namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Appends the name of each extension the build needs and this CPU lacks to `out`.
void missing_extensions(char* out, size_t size) {
  __builtin_cpu_init();
  auto need = [&](bool has, const char* name) {
    if (!has) std::snprintf(out + std::strlen(out), size - std::strlen(out), " %s", name);
  };
  (void)need;
#if defined(APSP_NEEDS_AVX512F)
  need(__builtin_cpu_supports("avx512f"), "AVX512F");
#endif
#if defined(APSP_NEEDS_AVX512BW)
  need(__builtin_cpu_supports("avx512bw"), "AVX512BW");
#endif
#if defined(APSP_NEEDS_AVX512DQ)
  need(__builtin_cpu_supports("avx512dq"), "AVX512DQ");
#endif
#if defined(APSP_NEEDS_AVX512VL)
  need(__builtin_cpu_supports("avx512vl"), "AVX512VL");
#endif
#if defined(APSP_NEEDS_AVX2)
  need(__builtin_cpu_supports("avx2"), "AVX2");
#endif
#if defined(APSP_NEEDS_AVX)
  need(__builtin_cpu_supports("avx"), "AVX");
#endif
#if defined(APSP_NEEDS_FMA)
  need(__builtin_cpu_supports("fma"), "FMA");
#endif
#if defined(APSP_NEEDS_BMI2)
  need(__builtin_cpu_supports("bmi2"), "BMI2");
#endif
#if defined(APSP_NEEDS_SSE4_2)
  need(__builtin_cpu_supports("sse4.2"), "SSE4_2");
#endif
}

__attribute__((constructor(101))) void stop_on_a_cpu_without_the_extensions() {
  char missing[128] = "";
  missing_extensions(missing, sizeof missing);
  if (missing[0] == '\0') return;
  std::fprintf(stderr,
               "apsp_kokkos: error: this binary was built with -march=native for a CPU with%s, which this CPU "
               "lacks; build it on this machine, or configure with -DAPSP_NATIVE=OFF for a portable binary\n",
               missing);
  ::_exit(1);
}
#endif

}  // namespace

}  // namespace apsp
