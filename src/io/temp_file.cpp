// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/io/temp_file.hpp"

#include "apsp/core/errors.hpp"
#include "apsp/core/process_clock.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>

namespace apsp {

namespace {

constexpr char kPrefix[] = ".apsp_kokkos.";

// This host, as 8 hex digits (a file system may be shared by several hosts).
std::string host_tag() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  char tag[16];
  std::snprintf(tag, sizeof tag, "%08x", unsigned(std::hash<std::string>{}(name)) & 0xffffffffu);
  return tag;
}

// The file a signal removes (a fixed buffer: the handler may only make async-signal-safe calls).
char g_path[4096];
std::atomic<bool> g_live{false};

extern "C" void remove_and_reraise(int sig) {
  if (g_live.load()) ::unlink(g_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

std::string temp_file_name(const std::string& dir) {
  static std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string random(8, '0');
  for (char& c : random) c = kDigits[rng() % 36];
  const long pid = long(::getpid());
  return dir + "/" + kPrefix + host_tag() + "." + std::to_string(pid) + "." + process_start_ticks(pid) + "." + random;
}

int remove_stale_temp_files(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return 0;
  const std::string mine = kPrefix + host_tag() + ".";
  int removed = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind(mine, 0) != 0) continue;
    // <pid>.<start>.<random>
    long pid = 0;
    char start[32] = {};
    if (std::sscanf(name.c_str() + mine.size(), "%ld.%31[0-9].", &pid, start) != 2 || pid <= 0) continue;
    if (process_start_ticks(pid) == start) continue;  // its owner still runs
    std::string path = dir;
    path += '/';
    path += name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_uid == ::getuid() || ::getuid() == 0) &&
        ::unlink(path.c_str()) == 0)
      ++removed;
  }
  ::closedir(d);
  return removed;
}

void remove_on_signal(const std::string& path) {
  static const bool installed = [] {
    for (int sig :
         {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup's HUP stays ignored
      struct sigaction sa {};
      sa.sa_handler = remove_and_reraise;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(sig, &sa, nullptr);
    }
    return true;
  }();
  (void)installed;
  g_live.store(false);
  if (path.empty() || path.size() >= sizeof g_path) return;
  std::memcpy(g_path, path.c_str(), path.size() + 1);
  g_live.store(true);
}

TempFile create_temp_file(const std::string& dir, const std::string& target, int flags, unsigned mode) {
  remove_stale_temp_files(dir);  // left by runs that were killed (kill -9) before they could
  // Registered for removal before it exists, so that no signal can find it unregistered.
  TempFile t;
  for (int attempt = 0; t.fd < 0; ++attempt) {
    t.path = temp_file_name(dir);
    remove_on_signal(t.path);
    t.fd = ::open(t.path.c_str(), O_CREAT | O_EXCL | O_CLOEXEC | flags, mode_t(mode));
    if (t.fd < 0 && (errno != EEXIST || attempt == 100)) {
      const int error = errno;
      remove_on_signal("");
      throw InputError(target + ": cannot create output: " + std::strerror(error));
    }
  }
  return t;
}

}  // namespace apsp
