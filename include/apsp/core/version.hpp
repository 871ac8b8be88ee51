// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#ifndef APSP_VERSION
#define APSP_VERSION "0.1.0"
#endif
// APSP_GIT_HASH: the commit, written at build time by cmake/git_hash.cmake.
#if __has_include("apsp/git_hash.hpp")
#include "apsp/git_hash.hpp"
#endif
#ifndef APSP_GIT_HASH
#define APSP_GIT_HASH "unknown"
#endif
