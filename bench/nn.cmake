# Per-example gradient throughput of the network presets (core/nn).
epsilon_add_bench(bench_per_example ${CMAKE_CURRENT_SOURCE_DIR}/bench_per_example.cpp epsilon::nn)
