"""Statistics every Monte Carlo figure uses: ratio estimates with cluster standard errors,
self-normalised weighted means, Wilson intervals and the probability that a candidate is best."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def ratio(num: np.ndarray, den: np.ndarray) -> tuple[float, float, np.ndarray]:
    """A ratio of per-match sums, its standard error (matches as clusters) and its
    linearisation (per-match influence values whose mean's SE is the ratio's SE)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    n = len(num)
    total = den.sum()
    if n == 0 or total == 0:
        return math.nan, math.nan, np.zeros(n)
    r = num.sum() / total
    z = (num - r * den) / (total / n)
    se = float(z.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return float(r), se, z


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if n == 0:
        return math.nan, math.nan
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def ratio_se(sum_w, sum_w2, sum_wx, sum_w2x, sum_w2x2):
    """Mean and standard error of a self-normalised weighted mean."""
    if sum_w <= 0:
        return float("nan"), float("nan")
    mu = float(sum_wx / sum_w)
    var = float((sum_w2x2 - 2 * mu * sum_w2x + mu * mu * sum_w2) / (sum_w * sum_w))
    return mu, math.sqrt(max(var, 0.0))


def probability_best(mu: np.ndarray, cov: np.ndarray, seed: int, draws: int = 20_000) -> np.ndarray:
    """P(each candidate has the highest true EV), over the sampling noise of the estimates."""
    m = len(mu)
    if m == 1:
        return np.ones(1)
    rng = np.random.default_rng([seed, 0x7E4])
    vals, vecs = np.linalg.eigh((cov + cov.T) / 2)
    root = vecs * np.sqrt(np.clip(vals, 0, None))
    z = rng.standard_normal((draws, m))
    sims = mu + z @ root.T
    winners = np.argmax(sims + 1e-9 * np.arange(m)[::-1], axis=1)  # ties to the lower bid
    return np.bincount(winners, minlength=m) / draws
