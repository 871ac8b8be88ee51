// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#ifndef APSP_VERSION
#define APSP_VERSION "0.1.0"
#endif
#ifndef APSP_GIT_HASH
#define APSP_GIT_HASH "unknown"
#endif
