#!/usr/bin/env python3
"""Writes the golden files Tests/LearningTests/Goldens/*.json from scikit-learn.

Each case is a small design matrix with a target. For every case the script records what scikit-learn
computes, and the Swift tests in Tests/LearningTests/ParityTests.swift compare the Learning module with it:

- `standardization`: StandardScaler's mean_ and scale_ (population standard deviation, constant columns
  scaled by 1). When a case is `standardized`, every model below is fitted on the scaled matrix, which is
  what Learning does (scaling happens before the ridge, and Ridge then centres, as scikit-learn does).
- `ridge`: Ridge(alpha, fit_intercept=True, solver="cholesky") for each alpha of the spec's grid.
- `ridgecv`: RidgeCV(alphas=grid, fit_intercept=True) with the default gcv_mode, i.e. exact leave-one-out
  from one eigendecomposition (X'X when rows > columns, XX' otherwise), its alpha_, coef_, intercept_ and
  best_score_ (the negated mean squared leave-one-out error).
- `logistic`: LogisticRegression(C, solver="newton-cholesky", tol=1e-12, max_iter=1000) on flare labels
  (target >= threshold), or the error scikit-learn raises (a single class).

Inputs are rounded to 4 decimals so the files stay small and both sides read the same doubles.

Run from the repository root:
    python3 -m venv scripts/reference/.venv
    scripts/reference/.venv/bin/pip install -r scripts/reference/requirements.txt
    scripts/reference/.venv/bin/python scripts/reference/make_goldens.py
"""

import json
import os
import sys

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression, Ridge, RidgeCV
from sklearn.preprocessing import StandardScaler

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = json.load(open(os.path.join(ROOT, "Models", "symptom-forecast.json")))
ALPHAS = [float(a) for a in SPEC["ridge"]["alphas"]]
C = float(SPEC["flare"]["inverseRegularization"])
THRESHOLD = float(SPEC["flare"]["threshold"])
OUT = os.path.join(ROOT, "Tests", "LearningTests", "Goldens")


def rounded(a):
    return np.round(np.asarray(a, dtype=np.float64), 4)


def severity(raw):
    """Rounds and clamps to the 0...10 scale the app logs."""
    return np.clip(np.round(raw), 0, 10)


def case(name, x, y, standardized, note):
    x = rounded(x)
    y = rounded(y)
    record = {
        "name": name,
        "note": note,
        "standardized": standardized,
        "x": x.tolist(),
        "y": y.tolist(),
        "alphas": ALPHAS,
        "C": C,
        "threshold": THRESHOLD,
    }
    design = x
    if standardized:
        scaler = StandardScaler().fit(x)
        record["standardization"] = {"means": scaler.mean_.tolist(), "scales": scaler.scale_.tolist()}
        design = scaler.transform(x)
    record["ridge"] = []
    for alpha in ALPHAS:
        model = Ridge(alpha=alpha, fit_intercept=True, solver="cholesky").fit(design, y)
        record["ridge"].append(
            {"alpha": alpha, "coefficients": model.coef_.tolist(), "intercept": float(model.intercept_)}
        )
    cv = RidgeCV(alphas=ALPHAS, fit_intercept=True).fit(design, y)
    record["ridgecv"] = {
        "alpha": float(cv.alpha_),
        "coefficients": cv.coef_.tolist(),
        "intercept": float(cv.intercept_),
        "meanSquaredError": -float(cv.best_score_),
    }
    labels = (y >= THRESHOLD).astype(np.float64)
    try:
        model = LogisticRegression(C=C, solver="newton-cholesky", tol=1e-12, max_iter=1000).fit(design, labels)
        record["logistic"] = {
            "coefficients": model.coef_[0].tolist(),
            "intercept": float(model.intercept_[0]),
            "iterations": int(model.n_iter_[0]),
        }
    except ValueError as error:
        record["logistic"] = {"error": str(error)}
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        json.dump(record, f, separators=(",", ":"))
        f.write("\n")
    print(f"{path}: {x.shape[0]}x{x.shape[1]}, alpha_={cv.alpha_}, logistic={'error' not in record['logistic']}")


def weekday_one_hot(n, start):
    w = np.zeros((n, 7))
    w[np.arange(n), (np.arange(n) + start) % 7] = 1
    return w


def main():
    rng = np.random.default_rng(20260301)
    os.makedirs(OUT, exist_ok=True)

    # A well-posed tall problem.
    n, p = 80, 6
    x = rng.normal(size=(n, p)) * [1, 2, 0.5, 3, 1, 10] + [0, 5, -1, 2, 0, 100]
    y = severity(4 + x @ [0.8, -0.3, 0.5, 0.2, 0, 0.02] + rng.normal(scale=1.5, size=n))
    case("tall", x, y, standardized=True, note="80 days, 6 features, scaled before the ridge")

    # The same shape without scaling: the ridge core alone (scikit-learn centres, does not scale).
    case("tall_unscaled", x, y, standardized=False, note="the ridge core on raw columns")

    # A feature the user never varies: StandardScaler gives it scale 1, the ridge a zero coefficient.
    x2 = np.column_stack([x[:, :4], np.full(n, 5.0), x[:, 4:]])
    case("constant_column", x2, y, standardized=True, note="column 4 is constant")

    # More features than days: RidgeCV switches to the n x n Gram eigendecomposition.
    n, p = 12, 30
    x = rng.normal(size=(n, p))
    y = severity(5 + x[:, :3] @ [1.5, -1.0, 0.7] + rng.normal(scale=0.8, size=n))
    case("wide", x, y, standardized=True, note="12 days, 30 features")

    # A user whose target never changes: every penalty has zero error, so the first alpha wins,
    # and there is no flare class to learn.
    n, p = 40, 5
    x = rng.normal(size=(n, p))
    y = np.full(n, 4.0)
    case("equal_targets", x, y, standardized=True, note="severity 4 every day; logistic has one class")

    # Design-shaped: severity and its lags, correlated value and deviation columns, a missingness
    # indicator, weekday one-hot (collinear with the intercept), a never-logged column.
    n = 150
    sleep = rng.normal(7, 1, size=n + 31)
    hrv = rng.normal(50, 12, size=n + 31)
    sev = np.zeros(n + 31)
    sev[0] = 4
    for t in range(1, n + 31):
        sev[t] = severity(5 + 0.45 * (sev[t - 1] - 4) - 0.5 * (sleep[t - 1] - 7) - 0.03 * (hrv[t - 1] - 50)
                          + rng.normal(scale=1.2))
    t = np.arange(30, n + 30)
    baseline = np.array([sleep[i - 28:i].mean() for i in t])
    missing = (rng.uniform(size=n) < 0.1).astype(float)
    x = np.column_stack([
        sev[t], sev[t - 1], sev[t - 2], np.array([sev[i - 6:i + 1].mean() for i in t]),
        sleep[t], sleep[t - 1], sleep[t] - baseline, hrv[t], missing,
        np.full(n, 3.0), weekday_one_hot(n, 2),
    ])
    y = sev[t + 1]
    case("design", x, y, standardized=True, note="shaped like a symptom-forecast design matrix")

    # Flare days perfectly separated by one feature: the penalty alone keeps the logistic finite.
    n = 50
    x = rng.normal(size=(n, 3))
    y = np.where(x[:, 0] > 0.3, 8.0, 3.0)
    case("separable_flares", x, y, standardized=True, note="flare iff column 0 > 0.3")

    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
