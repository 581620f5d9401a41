# Abadi et al.'s pca-mlp at the paper's three noise levels on mnist-10k (accuracy and ε as
# counters), and the time to compute the DP-PCA projection (issue 15).
epsilon_add_bench(bench_pca ${CMAKE_CURRENT_SOURCE_DIR}/bench_pca.cpp epsilon::train)
