// FileLock: the one flock behind the progress file's lock and the module build's lock.
#include "file_lock.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

namespace {

namespace fs = std::filesystem;
using kpz::cli::FileLock;

std::string lock_path() {
  const std::string dir = testing::TempDir() + "kpz_file_lock_test";
  fs::create_directories(dir);
  const std::string path = dir + "/the.lock";
  fs::remove(path);
  return path;
}

TEST(FileLock, OneHolderAtATimeAndReleasedWhenItEnds) {
  const std::string path = lock_path();
  {
    const FileLock first(path, 0);
    EXPECT_TRUE(first.held());
    EXPECT_FALSE(first.busy());
    // flock belongs to an open file: a second open, even in this process, must wait for it.
    const FileLock second(path, 0);
    EXPECT_FALSE(second.held());
    EXPECT_TRUE(second.busy());
  }
  const FileLock again(path, 0);
  EXPECT_TRUE(again.held());
}

TEST(FileLock, WaitsUntilTheTimeoutSayingSoOnce) {
  const std::string path = lock_path();
  const FileLock holder(path, 0);
  int told = 0;
  const auto start = std::chrono::steady_clock::now();
  const FileLock waiter(path, 0.2, [&] { ++told; });
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(waiter.busy());
  EXPECT_FALSE(waiter.held());
  EXPECT_EQ(told, 1);
  EXPECT_GE(waited, 0.2);
}

TEST(FileLock, WhereNoFileCanBeMadeNothingIsLockedAndNothingIsBusy) {
  const FileLock lock(testing::TempDir() + "kpz_no_such_folder/deeper/the.lock", -1);
  EXPECT_FALSE(lock.held());
  EXPECT_FALSE(lock.busy());
}

}  // namespace
