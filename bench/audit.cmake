# Cost of the privacy audit (core/audit): one DP-SGD epoch with and without 1000 canaries on
# mnist-10k and Fashion-MNIST, and the attack itself (scoring, ROC, bound) after training.
epsilon_add_bench(bench_audit ${CMAKE_CURRENT_SOURCE_DIR}/bench_audit.cpp epsilon::audit)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(bench_audit PRIVATE -Wno-maybe-uninitialized)  # see core/nn/CMakeLists.txt
endif()
