#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# How fast this host gives a new output file its pages: for a fresh file of SIZE_GB in FOLDER,
# the seconds to allocate it (posix_fallocate), to make every page of a shared mapping
# resident with 1, 2, 4, 8 and 16 threads (MADV_POPULATE_WRITE where the kernel has it, else a
# write per page), and to unlink it. The floor a whole run pays for its output without
# overlap is size / rate.
#   scripts/page_rate.sh [FOLDER=/dev/shm] [SIZE_GB=6.4]
set -euo pipefail
folder=${1:-/dev/shm}
size=${2:-6.4}
src=$(mktemp --suffix=.c)
bin=$(mktemp)
trap 'rm -f "$src" "$bin"' EXIT
cat >"$src" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
struct job { char* p; size_t bytes; long page; int madv; };
static void* touch(void* a) {
  struct job* j = a;
  if (j->madv && madvise(j->p, j->bytes, MADV_POPULATE_WRITE) == 0) return NULL;
  j->madv = 0;
  for (size_t o = 0; o < j->bytes; o += j->page) j->p[o] = 0;
  return NULL;
}
int main(int argc, char** argv) {
  const char* dir = argv[1];
  const size_t bytes = (size_t)(atof(argv[2]) * 1e9);
  const long page = sysconf(_SC_PAGESIZE);
  int counts[] = {1, 2, 4, 8, 16};
  for (int c = 0; c < 5; ++c) {
    char path[4096];
    snprintf(path, sizeof path, "%s/apsp_page_rate.%d", dir, (int)getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    double t0 = now();
    if (ftruncate(fd, bytes) || posix_fallocate(fd, 0, bytes)) { perror("allocate"); return 1; }
    double t1 = now();
    char* p = mmap(NULL, bytes, PROT_WRITE, MAP_SHARED, fd, 0);
    int n = counts[c];
    pthread_t th[16];
    struct job jobs[16];
    size_t per = (bytes / n) / page * page;
    for (int i = 0; i < n; ++i) {
      jobs[i] = (struct job){p + i * per, i == n - 1 ? bytes - i * per : per, page, 1};
      pthread_create(&th[i], NULL, touch, &jobs[i]);
    }
    for (int i = 0; i < n; ++i) pthread_join(th[i], NULL);
    double t2 = now();
    munmap(p, bytes);
    double t3 = now();
    close(fd);
    unlink(path);
    double t4 = now();
    printf("%s %.2f GB: fallocate %.3f s; %2d thread(s) %s %.3f s (%.2f GB/s); munmap %.3f s; unlink %.3f s\n", dir,
           bytes / 1e9, t1 - t0, n, jobs[0].madv ? "MADV_POPULATE_WRITE" : "page writes", t2 - t1,
           bytes / 1e9 / (t2 - t1), t3 - t2, t4 - t3);
    fflush(stdout);
  }
  return 0;
}
C
cc -O2 -pthread -o "$bin" "$src"
"$bin" "$folder" "$size"
