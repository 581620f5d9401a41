# Scattering features (core/nn/scattering) for the 70,000 Fashion-MNIST images and a DP-SGD
# epoch of scatter-linear on them (issue 14: ≤ 15 s and ≤ 0.3 s on 2 cores).
epsilon_add_bench(bench_scattering ${CMAKE_CURRENT_SOURCE_DIR}/bench_scattering.cpp epsilon::train)
