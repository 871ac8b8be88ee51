// SPDX-License-Identifier: BSD-3-Clause
#include "apsp/graph/vertex_order.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>

namespace apsp {
namespace {

/// The undirected graph's adjacency (each edge both ways, self-loops and edges out of range
/// left out), from the edge list in chunks (the cache where the graph read it ahead).
struct Adjacency {
  std::vector<int64_t> start;  ///< V + 1
  std::vector<int32_t> next;

  explicit Adjacency(const GraphFile& g) : start(size_t(g.vertices()) + 1, 0) {
    const int32_t v = g.vertices();
    auto each_edge = [&](const std::function<void(int32_t, int32_t)>& f) {
      constexpr int64_t kChunk = int64_t(1) << 20;
      std::vector<int32_t> buffer;
      for (int64_t first = 0; first < g.edges(); first += kChunk) {
        const int64_t count = std::min(kChunk, g.edges() - first);
        const int32_t* e = g.cached_edges(first, count);
        if (e == nullptr) {
          buffer.resize(size_t(3 * count));
          g.read_edges(first, count, buffer.data());
          e = buffer.data();
        }
        for (int64_t i = 0; i < count; ++i) {
          const int32_t s = e[3 * i], t = e[3 * i + 1];
          if (s != t && s >= 0 && s < v && t >= 0 && t < v) f(s, t);
        }
      }
    };
    each_edge([&](int32_t s, int32_t t) { ++start[size_t(s) + 1], ++start[size_t(t) + 1]; });
    std::partial_sum(start.begin(), start.end(), start.begin());
    next.resize(size_t(start.back()));
    std::vector<int64_t> at(start.begin(), start.end() - 1);
    each_edge([&](int32_t s, int32_t t) { next[size_t(at[size_t(s)]++)] = t, next[size_t(at[size_t(t)]++)] = s; });
  }
};

/// The recursion. A part is the vertices that hold its tag; a search visits only those and
/// gives what it reaches a new tag, so the vertices of a separator (tag 0) divide the parts on
/// either side of it.
class Dissection {
 public:
  Dissection(const Adjacency& g, int32_t v, int leaf) : g_(g), tag_(size_t(v), 1), level_(size_t(v), 0), leaf_(leaf) {
    out_.reserve(size_t(v));
  }

  /// The components, the largest one's size and its first separator are reported in `order`.
  std::vector<int32_t> run(VertexOrder& order) {
    std::vector<int32_t> all(tag_.size());
    std::iota(all.begin(), all.end(), 0);
    top_ = &order;
    order.largest = int64_t(all.size());
    split(std::move(all), 1, true);
    return std::move(out_);
  }

 private:
  /// Breadth-first from `from` over the vertices tagged `tag`, which take `into`; their levels
  /// in level_. Returns them in the order visited.
  std::vector<int32_t> search(int32_t from, int32_t tag, int32_t into) {
    std::vector<int32_t> seen{from};
    tag_[size_t(from)] = into;
    level_[size_t(from)] = 0;
    for (size_t head = 0; head < seen.size(); ++head) {
      const int32_t x = seen[head];
      for (int64_t e = g_.start[size_t(x)]; e < g_.start[size_t(x) + 1]; ++e) {
        const int32_t y = g_.next[size_t(e)];
        if (tag_[size_t(y)] != tag) continue;
        tag_[size_t(y)] = into;
        level_[size_t(y)] = level_[size_t(x)] + 1;
        seen.push_back(y);
      }
    }
    return seen;
  }

  /// `report`: the part is the graph or its largest component (what VertexOrder describes).
  void split(std::vector<int32_t> part, int32_t tag, bool report) {
    if (int64_t(part.size()) <= leaf_) {
      out_.insert(out_.end(), part.begin(), part.end());
      return;
    }
    std::vector<int32_t> reached = search(part.front(), tag, ++tags_);
    if (reached.size() < part.size()) {  // components: each in turn
      std::vector<std::vector<int32_t>> components{std::move(reached)};
      std::vector<int32_t> component_tags{tags_};
      for (const int32_t x : part)
        if (tag_[size_t(x)] == tag) {
          components.push_back(search(x, tag, ++tags_));
          component_tags.push_back(tags_);
        }
      size_t largest = 0;
      for (size_t c = 1; c < components.size(); ++c)
        if (components[c].size() > components[largest].size()) largest = c;
      if (report) top_->components = int64_t(components.size()), top_->largest = int64_t(components[largest].size());
      for (size_t c = 0; c < components.size(); ++c)
        split(std::move(components[c]), component_tags[c], report && c == largest);
      return;
    }
    // From the last vertex reached (far from the first), by levels.
    const int32_t connected = tags_;
    reached = search(reached.back(), connected, ++tags_);
    const int32_t levels = level_[size_t(reached.back())] + 1;
    std::vector<int64_t> per_level(size_t(levels), 0);
    for (const int32_t x : reached) ++per_level[size_t(level_[size_t(x)])];
    int32_t middle = 0;
    for (int64_t below = 0; below + per_level[size_t(middle)] < int64_t(reached.size()) / 2;)
      below += per_level[size_t(middle++)];
    if (middle == 0 || middle == levels - 1) {  // no level splits it: in search order
      if (report) top_->separator = int64_t(reached.size());
      out_.insert(out_.end(), reached.begin(), reached.end());
      return;
    }
    std::vector<int32_t> before, after, separator;
    const int32_t before_tag = ++tags_, after_tag = ++tags_;
    for (const int32_t x : reached) {
      const int32_t l = level_[size_t(x)];
      auto& to = l < middle ? before : l > middle ? after : separator;
      tag_[size_t(x)] = l < middle ? before_tag : l > middle ? after_tag : 0;
      to.push_back(x);
    }
    if (report) top_->separator = int64_t(separator.size());
    split(std::move(before), before_tag, false);
    split(std::move(after), after_tag, false);
    out_.insert(out_.end(), separator.begin(), separator.end());
  }

  const Adjacency& g_;
  std::vector<int32_t> tag_, level_, out_;
  int32_t tags_ = 1;
  int leaf_;
  VertexOrder* top_ = nullptr;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

VertexOrder nested_dissection(const GraphFile& graph, int leaf) {
  const auto t0 = std::chrono::steady_clock::now();
  VertexOrder order;
  const int32_t v = graph.vertices();
  const Adjacency g(graph);
  order.original = Dissection(g, v, std::max(leaf, 1)).run(order);
  order.label.assign(size_t(v), 0);
  for (int32_t i = 0; i < v; ++i) order.label[size_t(order.original[size_t(i)])] = i;
  order.seconds = seconds_since(t0);
  return order;
}

VertexOrder choose_order(const GraphFile& graph, int leaf, OrderChoice choice) {
  const auto t0 = std::chrono::steady_clock::now();
  const int64_t v = graph.vertices();
  VertexOrder none;
  if (choice == OrderChoice::natural) {
    none.why = "the file's (--order natural)";
    return none;
  }
  if (choice == OrderChoice::automatic && graph.edges() > kSparseDegree * v) {
    none.why = "the file's (more than " + std::to_string(kSparseDegree) + " edges per vertex)";
    none.seconds = seconds_since(t0);
    return none;
  }
  VertexOrder order = nested_dissection(graph, leaf);
  const bool splits = order.components > 1 || (order.separator > 0 && order.separator * kSeparatorShare <= v);
  const std::string split = order.components > 1 ? std::to_string(order.components) + " components"
                                                 : "first separator " + std::to_string(order.separator) + " vertices";
  if (choice == OrderChoice::automatic && !splits) {
    none.why = "the file's (no small separator: " + split + ")";
    none.seconds = seconds_since(t0);
    return none;
  }
  order.why = "nested dissection (" + split + ")";
  order.seconds = seconds_since(t0);
  return order;
}

}  // namespace apsp
