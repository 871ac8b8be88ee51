# SPDX-License-Identifier: BSD-3-Clause
# Host code tuning: portable by default, -march=native on request (APSP_NATIVE). Defines for
# `target` APSP_HOST_TUNING (a line for the banner and the record) and, for a native build on
# x86, APSP_NEEDS_<EXTENSION> for each extension -march=native turns on, which
# src/core/cpu_check.cpp (compiled for plain x86-64 itself) checks at start-up.
function(apsp_host_tuning target)
  set(tuning "portable (no -march, APSP_NATIVE=ON tunes for the building machine)")
  set(needs "")
  if(APSP_NATIVE)
    include(CheckCXXCompilerFlag)
    check_cxx_compiler_flag(-march=native APSP_HAVE_MARCH_NATIVE)
    if(APSP_HAVE_MARCH_NATIVE)
      if(Kokkos_ENABLE_CUDA)
        target_compile_options(${target} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-Xcompiler=-march=native>)
      else()
        target_compile_options(${target} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
      endif()
      set(model "this machine's CPU")
      if(EXISTS /proc/cpuinfo)
        file(STRINGS /proc/cpuinfo model_line REGEX "^model name" LIMIT_COUNT 1)
        string(REGEX REPLACE "^model name[ \t]*:[ \t]*" "" model "${model_line}")
      endif()
      set(tuning "-march=native on ${model}")
      # The extensions -march=native enables, from the host compiler's predefined macros (for
      # a CUDA build, nvcc's host compiler: g++ unless NVCC_WRAPPER_DEFAULT_COMPILER says).
      set(host_cxx ${CMAKE_CXX_COMPILER})
      if(Kokkos_ENABLE_CUDA)
        set(host_cxx $ENV{NVCC_WRAPPER_DEFAULT_COMPILER})
        if(NOT host_cxx)
          set(host_cxx g++)
        endif()
      endif()
      execute_process(COMMAND ${host_cxx} -march=native -dM -E -x c++ /dev/null OUTPUT_VARIABLE macros
                      ERROR_QUIET RESULT_VARIABLE failed)
      if(NOT failed AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
        foreach(ext AVX512F AVX512BW AVX512DQ AVX512VL AVX2 AVX FMA BMI2 SSE4_2)
          if(macros MATCHES "#define __${ext}__ 1")
            list(APPEND needs APSP_NEEDS_${ext})
            string(APPEND tuning_isa " ${ext}")
          endif()
        endforeach()
        string(APPEND tuning " (uses${tuning_isa})")
        # The check itself must run on any x86-64: compiled without the native flags (the
        # last -march wins).
        set_source_files_properties(${PROJECT_SOURCE_DIR}/src/core/cpu_check.cpp PROPERTIES
                                    COMPILE_OPTIONS "$<IF:$<BOOL:${Kokkos_ENABLE_CUDA}>,-Xcompiler=-march=x86-64,-march=x86-64>"
                                    COMPILE_DEFINITIONS "${needs}")
      endif()
    endif()
  endif()
  message(STATUS "Host code: ${tuning}")
  if(NOT APSP_NATIVE AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
    message(STATUS "Host code: portable x86-64 kernels use SSE2 only; the OpenMP solve measured 7.8x slower "
                   "than -march=native with AVX-512 (docs/results.md). Configure with -DAPSP_NATIVE=ON to build "
                   "for the machine that runs it.")
  endif()
  set_property(SOURCE ${PROJECT_SOURCE_DIR}/src/core/cpu_check.cpp APPEND PROPERTY COMPILE_DEFINITIONS
               "APSP_HOST_TUNING=\"${tuning}\"")
endfunction()
