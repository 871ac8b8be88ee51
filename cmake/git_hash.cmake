# SPDX-License-Identifier: BSD-3-Clause
# Run at every build (cmake -P): writes OUT with the current commit, touching it only when the
# commit changes, so that the program reports the commit it was built from. A build from a
# source archive (no .git) or from a copy of the tree names its commit in APSP_SOURCE_COMMIT.
if(DEFINED ENV{APSP_SOURCE_COMMIT})
  set(hash "$ENV{APSP_SOURCE_COMMIT}")
else()
  execute_process(COMMAND git describe --always --dirty --abbrev=12 WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT hash)
  set(hash "unknown")
endif()
set(text "#pragma once\n#define APSP_GIT_HASH \"${hash}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
