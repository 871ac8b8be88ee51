// SPDX-License-Identifier: BSD-3-Clause
// The CPU calibration's cache (report/ceiling.hpp): read whole, updated by writing a new file
// beside it and renaming it into place, so that runs started together never see half a file.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "apsp/io/temp_file.hpp"
#include "apsp/report/ceiling.hpp"

namespace apsp {

namespace {

nlohmann::json read_cache(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    return j.is_object() ? j : nlohmann::json::object();
  } catch (const std::exception&) {
    return nlohmann::json::object();  // damaged: measured again and replaced
  }
}

// The rates cached under `key`, if they are there and are numbers.
std::optional<LaneRates> rates_in(const nlohmann::json& cache, const std::string& key) {
  const auto it = cache.find(key);
  if (it == cache.end() || !it->is_object()) return std::nullopt;
  LaneRates r;
  try {
    r.int32 = it->value("int32_relax_per_s", 0.0);
    r.lanes16 = it->value("uint16_relax_per_s", 0.0);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a figure that is not a number: measured again and replaced
  }
  if (!(r.int32 > 0) || !(r.lanes16 >= 0)) return std::nullopt;
  return r;
}

}  // namespace

std::string calibration_cache_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  std::string dir;
  if (xdg != nullptr && *xdg == '/')
    dir = xdg;
  else if (home != nullptr && *home != '\0')
    dir = std::string(home) + "/.cache";
  else
    return "";
  return dir + "/apsp_kokkos/cpu_ceiling.json";
}

std::optional<LaneRates> cached_calibration(const std::string& key) {
  const std::string path = calibration_cache_path();
  if (path.empty()) return std::nullopt;
  return rates_in(read_cache(path), key);
}

LaneRates store_calibration(const std::string& key, const LaneRates& measured) {
  const std::string path = calibration_cache_path();
  if (path.empty()) return measured;
  nlohmann::json cache = read_cache(path);
  LaneRates rates = measured;
  if (const auto cached = rates_in(cache, key)) {
    rates.int32 = std::max(rates.int32, cached->int32);
    rates.lanes16 = std::max(rates.lanes16, cached->lanes16);
  }
  const std::string dir = path.substr(0, path.rfind('/'));
  ::mkdir(dir.substr(0, dir.rfind('/')).c_str(), 0755);  // ~/.cache may not exist yet
  ::mkdir(dir.c_str(), 0755);
  cache[key] = {{"int32_relax_per_s", rates.int32}, {"uint16_relax_per_s", rates.lanes16}};
  remove_stale_temp_files(dir);  // those of a run killed while writing
  const std::string temp = temp_file_name(dir);
  {
    std::ofstream out(temp);
    out << cache.dump(2) << '\n';
    if (!out) {
      std::remove(temp.c_str());
      return rates;
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) std::remove(temp.c_str());
  return rates;
}

}  // namespace apsp
