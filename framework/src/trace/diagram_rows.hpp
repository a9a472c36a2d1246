#pragma once
// What the race check, the text report and the SVG diagram share (private to src/trace/): the
// kinds of access, and a Recording cut into rows per team and barrier epoch for the diagrams.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kpz/trace/analysis.hpp"

namespace kpz::trace::rows {

inline bool writes(Access k) {
  return k != Access::read;
}
inline bool reads(Access k) {
  return k != Access::write;
}

// The cells one row of a diagram shows: per element, which members touched it.
struct Row {
  std::int32_t view;
  Access kind;
  std::map<std::int64_t, std::set<int>> cells;
  std::set<std::int64_t> raced;
};

struct Block {  // one team, one epoch
  std::int32_t epoch;
  std::vector<Row> rows;
};

struct TeamBlocks {
  const TeamInfo* team;
  std::vector<Block> epochs;
};

// "0".."9", "a".."z", then '#': one character per member in a diagram cell.
char member_char(int rank);
const char* kind_word(Access k);
// "global  a    read ", "scratch s_a  write"
std::string row_label(const Recording& rec, const Row& r);
// Elements of the view (0 when it has no extents).
std::int64_t view_span(const Recording& rec, std::int32_t view);
// Per team, per epoch, the rows of accesses; raced cells marked in the rows of both accesses.
std::vector<TeamBlocks> blocks_of(const Recording& rec, const Analysis& a);
// "epoch 1: after team_barrier (file:line) -> end"
std::string epoch_title(const Recording& rec, const TeamInfo& t, int epoch);
// "team 0 of 4, kernel "k", 8 members, TeamThreadRange cyclic (as on CUDA)", or for a flat
// kernel "flat kernel "k", RangePolicy [0, 12): 12 iterations, ..."
std::string team_title(const Recording& rec, const TeamInfo& t);
bool is_flat(const Recording& rec, const TeamInfo& t);
// "(2 more teams and 1 flat kernel not drawn" for the blocks from `from` on.
std::string not_drawn(const Recording& rec, const std::vector<TeamBlocks>& blocks, std::size_t from);

}  // namespace kpz::trace::rows
