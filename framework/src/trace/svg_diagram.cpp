// The access diagram of a traced run as an SVG document (for the docs and `kpuzzles trace --svg`).
#include <algorithm>
#include <set>

#include "diagram_rows.hpp"
#include "kpz/trace/analysis.hpp"

namespace kpz::trace {

namespace {

using namespace rows;

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// "member 1", "members 0, 2", "iteration 7", "iterations 0, 1, ... (40 iterations)": a flat
// kernel's list stops after a few (thousands of iterations may share an element).
std::string who_touched(const std::set<int>& ranks, const FlatShape* flat) {
  constexpr std::size_t kListed = 8;
  std::string s = std::string(flat ? "iteration" : "member") + (ranks.size() > 1 ? "s " : " ");
  std::size_t n = 0;
  for (int r : ranks) {
    if (flat && n == kListed) return s + ", ... (" + std::to_string(ranks.size()) + " iterations)";
    const std::string name = flat ? flat->iteration(r).substr(std::string("iteration ").size()) : std::to_string(r);
    s += (n++ ? ", " : "") + name;
  }
  return s;
}

}  // namespace

std::string svg_diagram(const Recording& rec, const Analysis& a, const std::string& title, const DiagramOptions& o) {
  static const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948",
                                  "#76b7b2", "#ff9da7", "#9c755f", "#e15759", "#bab0ac"};
  const auto teams = blocks_of(rec, a);
  const int cell = 16, gap = 2, pad = 12, line_h = 18;
  std::string body;
  int y = pad + 16;
  int max_w = 560;
  auto text = [&](int x, int yy, const std::string& s, const char* extra = "") {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(yy) + "\"" + extra + ">" + xml_escape(s) +
            "</text>\n";
    // Monospace: about 0.6 em per character (14 px titles, 12 px text).
    const bool title_class = std::string(extra).find("title") != std::string::npos;
    max_w = std::max(max_w, x + static_cast<int>(s.size()) * (title_class ? 9 : 8) + pad);
  };
  text(pad, y, title, " class=\"title\"");
  y += line_h + 4;
  // Legend: member colours of the first team.
  const int members = teams.empty() ? 0 : teams.front().team->team_size;
  const bool flat_first = !teams.empty() && is_flat(rec, *teams.front().team);
  int lx = pad;
  text(lx, y + 12, flat_first ? "iteration:" : "member:", " class=\"small\"");
  lx += flat_first ? 80 : 56;
  for (int r = 0; r < std::min(members, 36); ++r) {
    body += "<rect x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) +
            "\" height=\"" + std::to_string(cell) + "\" fill=\"" + palette[r % 10] + "\"/>\n";
    text(lx + cell / 2, y + 12, std::string(1, member_char(r)), " class=\"cell\"");
    lx += cell + gap;
  }
  body += "<rect x=\"" + std::to_string(lx + 8) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) +
          "\" height=\"" + std::to_string(cell) + "\" fill=\"#d0d0d0\"/>\n";
  text(lx + 8 + cell / 2, y + 12, "*", " class=\"cell many\"");
  text(lx + 8 + cell + 6, y + 12, flat_first ? "several iterations" : "several members", " class=\"small\"");
  lx += 8 + cell + 6 + (flat_first ? 150 : 110);
  body += "<rect x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell) +
          "\" height=\"" + std::to_string(cell) + "\" fill=\"#ffffff\" stroke=\"#d62728\" stroke-width=\"2.5\"/>\n";
  text(lx + cell + 6, y + 12, "race", " class=\"small\"");
  y += cell + 14;
  int drawn = 0;
  for (const TeamBlocks& tb : teams) {
    if (drawn == o.max_teams) {
      text(pad, y + 12, not_drawn(rec, teams, static_cast<std::size_t>(drawn)) + ")", " class=\"small\"");
      y += line_h;
      break;
    }
    ++drawn;
    const FlatShape* flat = is_flat(rec, *tb.team) ? &rec.kernels[tb.team->launch].flat : nullptr;
    text(pad, y + 12, team_title(rec, *tb.team), " class=\"team\"");
    y += line_h + 4;
    for (const Block& b : tb.epochs) {
      text(pad + 8, y + 12, epoch_title(rec, *tb.team, b.epoch), " class=\"epoch\"");
      y += line_h;
      if (b.rows.empty()) {
        text(pad + 16, y + 12, "(no accesses)", " class=\"small\"");
        y += line_h;
        continue;
      }
      std::int64_t length = 0;
      std::size_t name_w = 0;
      for (const Row& r : b.rows) {
        length = std::max(length, std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1));
        name_w = std::max(name_w, row_label(rec, r).size());
      }
      const int x0 = pad + 16 + static_cast<int>(name_w) * 8 + 8;
      for (std::int64_t from = 0; from < length; from += o.width) {
        if (from == static_cast<std::int64_t>(o.max_lines) * o.width) {
          text(x0, y + 12,
               "elements " + std::to_string(from) + " .. " + std::to_string(length - 1) +
                   " not drawn (the terminal's diagram shows them; the race check and the budgets cover them)",
               " class=\"small\"");
          y += line_h;
          break;
        }
        const std::int64_t to = std::min(length, from + o.width);
        for (std::int64_t i = from; i < to; ++i)
          if (i % 4 == 0 || i == to - 1 || i == from)
            text(x0 + static_cast<int>(i - from) * (cell + gap) + cell / 2, y + 10, std::to_string(i),
                 " class=\"index\"");
        y += 14;
        for (const Row& r : b.rows) {
          const ViewInfo& v = rec.views[r.view];
          text(pad + 16, y + 12, row_label(rec, r), v.scratch ? " class=\"label scratch\"" : " class=\"label\"");
          const std::int64_t span = std::max(view_span(rec, r.view), r.cells.rbegin()->first + 1);
          for (std::int64_t i = from; i < std::min(to, span); ++i) {
            const int x = x0 + static_cast<int>(i - from) * (cell + gap);
            auto it = r.cells.find(i);
            const bool raced = r.raced.count(i) != 0;
            std::string fill = "#f4f4f4", label, who;
            if (it != r.cells.end()) {
              who = who_touched(it->second, flat);
              if (it->second.size() == 1) {
                fill = palette[*it->second.begin() % 10];
                label = std::string(1, member_char(*it->second.begin()));
              } else {
                fill = "#d0d0d0";
                label = "*";
              }
            }
            body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
                    std::to_string(cell) + "\" height=\"" + std::to_string(cell) + "\" fill=\"" + fill + "\"" +
                    (raced ? " stroke=\"#d62728\" stroke-width=\"2.5\"" : "") + ">";
            body += "<title>" +
                    xml_escape(cell_name(rec, r.view, i) + " " + kind_word(r.kind) +
                               (who.empty() ? std::string(": untouched") : " by " + who) + (raced ? " (race)" : "")) +
                    "</title></rect>\n";
            if (!label.empty())
              text(x + cell / 2, y + 12, label, label == "*" ? " class=\"cell many\"" : " class=\"cell\"");
            max_w = std::max(max_w, x + cell + pad);
          }
          y += cell + gap;
        }
        y += 4;
      }
      y += 4;
    }
    y += 6;
  }
  const std::string problems = problems_text(rec, a, 4, nullptr);
  if (!problems.empty()) {
    std::size_t start = 0;
    while (start < problems.size()) {
      const std::size_t end = problems.find('\n', start);
      text(pad, y + 12, problems.substr(start, end - start), " class=\"problem\"");
      y += line_h;
      start = end == std::string::npos ? problems.size() : end + 1;
    }
  }
  const int height = y + pad;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(max_w) + "\" height=\"" +
                    std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(max_w) + " " +
                    std::to_string(height) + "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n";
  svg +=
      "<style>text{font-size:12px;fill:#222}.title{font-size:14px;font-weight:bold}"
      ".team{font-weight:bold}.epoch{fill:#555}.small{font-size:11px;fill:#555}"
      ".index{font-size:9px;fill:#888;text-anchor:middle}.cell{font-size:11px;fill:#fff;text-anchor:middle}"
      ".many{fill:#333}"
      ".label{fill:#222}.scratch{fill:#6a3d9a}.problem{fill:#d62728;font-size:11px}</style>\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg += body;
  svg += "</svg>\n";
  return svg;
}

}  // namespace kpz::trace
