# Cost of LiRA's shadow models (core/audit/lira.h): 16 shadows of mnist-10k's MLP and of the
# report's CNN on a 2-thread arena (fewer for the CNN, extrapolated).
epsilon_add_bench(bench_lira ${CMAKE_CURRENT_SOURCE_DIR}/bench_lira.cpp epsilon::audit)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(bench_lira PRIVATE -Wno-maybe-uninitialized)  # see core/nn/CMakeLists.txt
endif()
