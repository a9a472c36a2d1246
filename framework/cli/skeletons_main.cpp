// kpz-skeletons: writes and checks the learner skeletons in exercises/ with the generator that
// `kpuzzles reset` uses (skeleton.cpp; the marker syntax is in skeleton.hpp and
// docs/contributing.md). No Kokkos: cmake/kpz-skeletons builds it in seconds, before anything
// else, for CI, .ci/format and contributors.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "skeleton.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: kpz-skeletons [--root DIR] --check | --write [PUZZLE] | --print FILE\n"
    "  --check          exit 1 if any skeleton in exercises/ differs from what its reference gives\n"
    "  --write [PUZZLE] (re)write the skeletons of every puzzle, or of one (overwrites learner work)\n"
    "  --print FILE     print the skeleton of one reference file\n"
    "  --root DIR       the repository (default: the current directory)\n";

struct Usage {
  std::string message;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// reference/<puzzle>/ folders, sorted.
std::vector<std::string> puzzles(const fs::path& root) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(root / "reference"))
    if (entry.is_directory()) names.insert(entry.path().filename().string());
  return {names.begin(), names.end()};
}

std::string skeleton_of(const std::string& reference, const std::string& puzzle) {
  return kpz::cli::skeleton_from_reference(read_file(reference), puzzle, reference);
}

int check(const fs::path& root) {
  int bad = 0;
  for (const auto& puzzle : puzzles(root))
    for (const auto& pair : kpz::cli::skeleton_pairs(root.string(), puzzle)) {
      std::error_code ec;
      if (!fs::exists(pair.exercise, ec) || read_file(pair.exercise) != skeleton_of(pair.reference, puzzle)) {
        std::cout << "skeleton out of date with its reference: " << fs::relative(pair.exercise, root).string()
                  << " (run cmake/kpz-skeletons --write)\n";
        ++bad;
      }
    }
  std::error_code ec;
  for (const auto& dir : fs::directory_iterator(root / "exercises", ec)) {
    if (!dir.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(dir.path()))
      if ((file.path().extension() == ".cpp" || file.path().extension() == ".hpp") &&
          !fs::exists(root / "reference" / dir.path().filename() / file.path().filename())) {
        std::cout << "skeleton without a reference: " << fs::relative(file.path(), root).string() << "\n";
        ++bad;
      }
  }
  return bad ? 1 : 0;
}

int write(const fs::path& root, const std::string& only) {
  const auto names = puzzles(root);
  if (!only.empty() && std::find(names.begin(), names.end(), only) == names.end())
    throw Usage{"no puzzle '" + only + "' in " + (root / "reference").string()};
  for (const auto& puzzle : names) {
    if (!only.empty() && puzzle != only) continue;
    for (const auto& pair : kpz::cli::skeleton_pairs(root.string(), puzzle)) {
      const std::string text = skeleton_of(pair.reference, puzzle);
      // An unchanged skeleton keeps its file and its time: kpuzzles reads a newer exercise file
      // than its build as the learner's unbuilt edit.
      std::error_code ec;
      if (fs::exists(pair.exercise, ec) && read_file(pair.exercise) == text) continue;
      fs::create_directories(fs::path(pair.exercise).parent_path());
      const std::string tmp = pair.exercise + ".kpz-tmp";
      std::ofstream(tmp, std::ios::binary | std::ios::trunc) << text;
      fs::rename(tmp, pair.exercise);  // a reader never sees half a file
      std::cout << "wrote " << fs::relative(pair.exercise, root).string() << "\n";
    }
  }
  return 0;
}

int run(const std::vector<std::string>& args) {
  fs::path root = fs::current_path();
  std::string mode, operand;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--root" && has_value) {
      root = args[++i];
    } else if ((a == "--check" || a == "--write" || a == "--print") && mode.empty()) {
      mode = a;
      if (a != "--check" && has_value) operand = args[++i];
    } else {
      throw Usage{"unexpected argument '" + a + "'"};
    }
  }
  if (mode.empty()) throw Usage{"say --check, --write [PUZZLE] or --print FILE"};
  if (!fs::is_directory(root / "reference") || !fs::is_directory(root / "exercises"))
    throw Usage{root.string() + " holds no reference/ and exercises/: run from the repository, or give --root"};
  if (mode == "--check") return check(root);
  if (mode == "--write") return write(root, operand);
  if (operand.empty()) throw Usage{"--print needs a reference file"};
  const fs::path file = fs::absolute(operand);
  std::cout << skeleton_of(file.string(), file.parent_path().filename().string());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const Usage& u) {
    std::cerr << "kpz-skeletons: " << u.message << " (--help for usage)\n";
    return 2;
  } catch (const kpz::cli::SkeletonError& e) {
    std::cerr << "kpz-skeletons: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "kpz-skeletons: " << e.what() << "\n";
    return 2;
  }
}
