#!/usr/bin/env python3
"""scikit-learn's per-user retrain throughput on the matrices `pipeline features` exported.

Reads a directory of CSV files, one per user: a header of feature names (an optional leading `day`
column is dropped), the last column `target`, and optionally a `flare` column (otherwise flare is
target >= the spec's threshold). For each user it does what Learning's ModelTrainer.fit does on the
same matrix: StandardScaler, RidgeCV over the spec's alpha grid (exact leave-one-out, the default
gcv_mode), and LogisticRegression(solver="newton-cholesky") on the flare labels when both classes occur.

Files are parsed before the clock starts; the timing covers the fits only. BLAS is limited to one thread
(threadpoolctl) so "one core" means one core, as Learning runs one OpenBLAS thread per fit.

Prints one line of JSON: users, seconds (wall, fastest pass), users_per_second, microseconds_per_user,
cpu_microseconds_per_user (process CPU time, steadier on a shared machine), versions.

    scripts/reference/.venv/bin/python scripts/reference/bench_sklearn.py DIR [--repeat N]
"""

import argparse
import json
import os
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression, RidgeCV
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = json.load(open(os.path.join(ROOT, "Models", "symptom-forecast.json")))


def load(path, threshold):
    with open(path) as f:
        header = f.readline().strip().split(",")
    data = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=np.float64,
                         usecols=[i for i, name in enumerate(header) if name != "day"])
    names = [name for name in header if name != "day"]
    if data.ndim == 1:
        data = data[None, :]
    target = data[:, names.index("target")]
    if "flare" in names:
        flare = data[:, names.index("flare")]
    else:
        flare = (target >= threshold).astype(np.float64)
    features = [i for i, name in enumerate(names) if name not in ("target", "flare")]
    x = data[:, features]
    if np.isnan(x).any():  # a missing cell: the column mean, as Learning imputes
        means = np.nanmean(x, axis=0)
        rows, cols = np.where(np.isnan(x))
        x[rows, cols] = np.take(np.nan_to_num(means), cols)
    return x, target, flare


def fit(x, y, flare, alphas, c, tol, max_iter):
    z = StandardScaler().fit_transform(x)
    RidgeCV(alphas=alphas).fit(z, y)
    if 0 < flare.sum() < len(flare):
        LogisticRegression(C=c, solver="newton-cholesky", tol=tol, max_iter=max_iter).fit(z, flare)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--repeat", type=int, default=1, help="passes over the users; the fastest counts")
    args = parser.parse_args()
    alphas = [float(a) for a in SPEC["ridge"]["alphas"]]
    flare_spec = SPEC["flare"]
    files = sorted(f for f in os.listdir(args.directory) if f.endswith(".csv"))
    if not files:
        sys.exit(f"no .csv files in {args.directory}")
    users = [load(os.path.join(args.directory, f), flare_spec["threshold"]) for f in files]
    best = float("inf")
    best_cpu = float("inf")
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            for x, y, flare in users:
                fit(x, y, flare, alphas, flare_spec["inverseRegularization"], flare_spec["tolerance"],
                    flare_spec["maximumIterations"])
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
    print(json.dumps({
        "users": len(users),
        "seconds": round(best, 4),
        "users_per_second": round(len(users) / best, 1),
        "microseconds_per_user": round(best / len(users) * 1e6, 1),
        "cpu_microseconds_per_user": round(best_cpu / len(users) * 1e6, 1),
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
    }))


if __name__ == "__main__":
    main()
