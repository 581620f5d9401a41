#!/usr/bin/python3
"""EpsilonLab's non-private training epoch beside PyTorch's on the same networks (issue 29, item 2).

One epoch of Fashion-MNIST (60000 images, lot 256, 234 steps of SGD at learning rate 0.15) for
mlp 784-256-10 and the Report CNN (tfp-cnn: 16@8x8 /2 same, max-pool 2 /1, 32@4x4 /2 valid,
max-pool 2 /1, dense 32, dense 10, ReLU), on the same number of threads, timed as training work
only (batches, forward, backward, update; no evaluation, no data loading). EpsilonLab's side
is bench_train's BM_EpochThreads (variant 0 = non-private); PyTorch's runs in a child process
of this script so both get the same environment. The two sides alternate, round by round, and
the medians are compared: ratio = PyTorch's time / EpsilonLab's (>= 1: EpsilonLab is faster).

A benchmark, not a test: nothing runs it in CI, and it never fails on a time.

Needs Debian's python3-torch (apt-get install python3-torch) and Fashion-MNIST in
/usr/share/datasets/fashion-mnist (dataset-fashion-mnist). PyTorch's BLAS is whatever
libblas.so.3 points at; for OpenBLAS: apt-get install libopenblas0-pthread, which becomes
libblas.so.3 through update-alternatives (check with
update-alternatives --display libblas.so.3-x86_64-linux-gnu). Convolutions go through
oneDNN (libdnnl2) either way.

Run (from the source tree, after building bench_train):
  /usr/bin/python3 bench/torch_side_by_side.py --bench-train build/release/bench/bench_train \
      --rounds 5 --threads 2
"""
import argparse
import gzip
import os
import statistics
import subprocess
import sys
import time

DATA = "/usr/share/datasets/fashion-mnist"
LOT = 256
LEARNING_RATE = 0.15
MODELS = {"mlp": "mlp_784_256_10", "tfp-cnn": "tfp_cnn"}


def read_idx_images(path):
    import numpy as np
    with gzip.open(path, "rb") as f:
        raw = f.read()
    count, rows, cols = (int.from_bytes(raw[i:i + 4], "big") for i in (4, 8, 12))
    pixels = np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(count, 1, rows, cols)
    return pixels.astype(np.float32) / 255.0


def read_idx_labels(path):
    import numpy as np
    with gzip.open(path, "rb") as f:
        raw = f.read()
    return np.frombuffer(raw, dtype=np.uint8, offset=8).astype(np.int64)


def torch_network(name):
    import torch.nn as nn
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    # TensorFlow's "same" padding of an 8x8 kernel at stride 2 on 28x28 pads 3 on each side.
    return nn.Sequential(
        nn.Conv2d(1, 16, 8, stride=2, padding=3), nn.ReLU(), nn.MaxPool2d(2, 1),
        nn.Conv2d(16, 32, 4, stride=2), nn.ReLU(), nn.MaxPool2d(2, 1), nn.Flatten(),
        nn.Linear(32 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, 10))


def torch_epochs(name, threads, epochs):
    """Seconds per epoch of PyTorch's training loop (child process)."""
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    x = torch.from_numpy(read_idx_images(os.path.join(DATA, "train-images-idx3-ubyte.gz")))
    y = torch.from_numpy(read_idx_labels(os.path.join(DATA, "train-labels-idx1-ubyte.gz")))
    model = torch_network(name)
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    loss = torch.nn.CrossEntropyLoss()
    steps = x.shape[0] // LOT
    seconds = []
    for _ in range(epochs):
        start = time.perf_counter()
        order = torch.randperm(x.shape[0])
        for s in range(steps):
            rows = order[s * LOT:(s + 1) * LOT]
            optimizer.zero_grad(set_to_none=True)
            loss(model(x[rows]), y[rows]).backward()
            optimizer.step()
        seconds.append(time.perf_counter() - start)
    return sum(seconds) / len(seconds)


def ours(bench, name, threads):
    """Seconds per non-private epoch from bench_train (mean of its 2 epochs)."""
    pattern = f"BM_EpochThreads/{MODELS[name]}/variant:0/threads:{threads}/"
    out = subprocess.run([bench, f"--benchmark_filter={pattern}", "--benchmark_format=csv"],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith('"BM_EpochThreads'):
            fields = line.split(",")
            real, unit = float(fields[2]), fields[4]
            return real * {"s": 1.0, "ms": 1e-3, "us": 1e-6}[unit]
    raise SystemExit(f"bench_train printed no result for {pattern}:\n{out}")


def torch_environment():
    """PyTorch's child environment. OpenBLAS 0.3.21 does not recognise every recent Xeon and
    then runs its generic SSE3 kernel (sgemm_kernel_PRESCOTT in a profile, 5x slower): on an
    AVX-512 CPU it is told the core type. OpenMP's threads spin while they wait by default,
    which on a machine shared with other work cost PyTorch 20x (140 ms for an mlp step
    instead of 6 ms); they sleep instead, as oneTBB's do. Either is kept when already set."""
    env = dict(os.environ)
    with open("/proc/cpuinfo") as f:
        avx512 = " avx512f" in f.read()
    if avx512:
        env.setdefault("OPENBLAS_CORETYPE", "SKYLAKEX")
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def theirs(name, threads):
    out = subprocess.run([sys.executable, __file__, "--torch-child", name, "--threads",
                          str(threads)], check=True, capture_output=True, text=True,
                         env=torch_environment()).stdout
    return float(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench-train", default="build/release/bench/bench_train")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--models", default="mlp,tfp-cnn")
    parser.add_argument("--torch-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_child:
        print(torch_epochs(args.torch_child, args.threads, 2))
        return
    if not os.path.isfile(os.path.join(DATA, "train-images-idx3-ubyte.gz")):
        raise SystemExit(f"Fashion-MNIST is not in {DATA} (Debian package dataset-fashion-mnist)")
    if not os.access(args.bench_train, os.X_OK):
        raise SystemExit(f"--bench-train: no executable at {args.bench_train[:80]}")
    env = torch_environment()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {args.threads} threads; "
          f"{args.rounds} rounds, the two sides alternating; PyTorch with "
          f"OPENBLAS_CORETYPE={env.get('OPENBLAS_CORETYPE', '(detected)')} "
          f"OMP_WAIT_POLICY={env['OMP_WAIT_POLICY']}")
    for name in args.models.split(","):
        if name not in MODELS:
            raise SystemExit(f"--models: expected mlp or tfp-cnn, found {name[:80]}")
        mine, torch_times = [], []
        for r in range(args.rounds):
            torch_times.append(theirs(name, args.threads))
            mine.append(ours(args.bench_train, name, args.threads))
            print(f"  {name} round {r + 1}: PyTorch {torch_times[-1]:.3f} s, "
                  f"EpsilonLab {mine[-1]:.3f} s", flush=True)
        a, b = statistics.median(torch_times), statistics.median(mine)
        print(f"{name}: non-private epoch, medians: PyTorch {a:.3f} s, EpsilonLab {b:.3f} s, "
              f"ratio PyTorch/EpsilonLab {a / b:.2f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
