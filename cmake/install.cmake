# SPDX-License-Identifier: BSD-3-Clause
# `cmake --install`: the program, the generator, the converter, the query tool and
# apsp_report.py (bin/), the docs (share/doc/apsp_kokkos), and the core library with its headers
# as a CMake package, so that another project can run the pipeline or the solver itself:
#
#   find_package(apsp_kokkos REQUIRED)   # with CMAKE_PREFIX_PATH (or apsp_kokkos_ROOT) at the prefix
#   target_link_libraries(app PRIVATE apsp::apsp_core)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS apsp_kokkos apsp_gen apsp_convert apsp_query RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS scripts/apsp_report.py DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS apsp_core apsp_graph apsp_files EXPORT apsp_kokkos_targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/apsp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${APSP_GENERATED}/apsp/git_hash.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/apsp)
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")

set(APSP_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/apsp_kokkos)
install(EXPORT apsp_kokkos_targets NAMESPACE apsp:: DESTINATION ${APSP_PACKAGE_DIR})
# What the exported targets need from the consumer's side, as this build found it.
set(APSP_PACKAGE_WITH_MPI ${MPI_C_FOUND})
set(APSP_PACKAGE_WITH_KOKKOS_KERNELS ${KokkosKernels_FOUND})
configure_package_config_file(cmake/apsp_kokkosConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/apsp_kokkosConfig.cmake
                              INSTALL_DESTINATION ${APSP_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/apsp_kokkosConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/apsp_kokkosConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/apsp_kokkosConfigVersion.cmake
        DESTINATION ${APSP_PACKAGE_DIR})
