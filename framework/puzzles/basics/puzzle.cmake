# basics is the course's first puzzle (spec.cpp: course_position 0): where puzzles are modules,
# the `learner` target builds its module with kpuzzles, and the others are built when first used
# (cmake/KpzPuzzleModules.cmake). tests/cli checks that the course really starts here.
set_property(GLOBAL PROPERTY KPZ_COURSE_START basics)
