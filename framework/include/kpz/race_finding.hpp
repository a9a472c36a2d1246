#pragma once
// One bug the race check found, and its JSON form: what kpz-verify-<puzzle> prints
// (kpz/trace/verdict.hpp) and `kpuzzles check` reads back (framework/cli/race_check.hpp), in one
// place so that the two sides cannot drift.
#include <string>
#include <vector>

#include "kpz/json.hpp"

namespace kpz {

struct RaceFinding {
  std::string kind;      // race, uninitialised-scratch, scratch-request, out-of-bounds, team-api, wrong-result
                         // (and, from the CLI, hang and crash of the traced run)
  std::string headline;  // one line: what, where, and the likely fix
  std::string details;   // the tracer's report of the problem (several lines)
};

// [{"kind","headline","details"}, ...]
inline Json findings_to_json(const std::vector<RaceFinding>& findings) {
  Json list = Json::array();
  for (const RaceFinding& f : findings) {
    Json e = Json::object();
    e.set("kind", f.kind).set("headline", f.headline).set("details", f.details);
    list.push(std::move(e));
  }
  return list;
}

inline std::vector<RaceFinding> findings_from_json(const Json& list) {
  std::vector<RaceFinding> out;
  for (const Json& f : list.items())
    out.push_back({f["kind"].as_string(), f["headline"].as_string(), f["details"].as_string()});
  return out;
}

// Whether findings stop the real run before it starts (kpuzzles run/check/list, and the tests
// that run exercises): any finding but a wrong result alone, which the real run's own report
// shows better (expected values, owners). A crash or hang of the traced run is a finding too.
inline bool findings_stop_the_run(const std::vector<RaceFinding>& findings) {
  for (const RaceFinding& f : findings)
    if (f.kind != "wrong-result") return true;
  return false;
}

}  // namespace kpz
