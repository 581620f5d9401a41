# Training speed (core/train): seconds per epoch of DP-SGD and of the non-private baseline
# on Fashion-MNIST (tfp-cnn and mlp 784-256-10, lot 256), the step's stages, and the noise.
# Targets from issue 4: DP epoch ≤ 1.5× non-private; tfp-cnn DP epoch < 2.5 s, mlp ≤ 1 s.
epsilon_add_bench(bench_train ${CMAKE_CURRENT_SOURCE_DIR}/bench_train.cpp epsilon::train)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(bench_train PRIVATE -Wno-maybe-uninitialized)  # see core/nn/CMakeLists.txt
endif()
