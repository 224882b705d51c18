"""Statistics every Monte Carlo figure uses: ratio estimates with cluster standard errors,
self-normalised weighted means, Wilson intervals and the probability that a candidate is best."""

from __future__ import annotations

import math

import numpy as np

from kernels.core.estimates import BINS_PER_TRICK, N_BINS

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


class RatioSums:
    """Mergeable sums for ``k`` ratio estimates over clusters (matches), block by block: per
    ratio, the sums of num, den, num^2, den^2 and num*den. :meth:`estimate` gives what
    :func:`ratio` gives on all the clusters at once, without keeping them."""

    def __init__(self, k: int):
        self.n = 0
        self.sums = np.zeros((k, 5))

    def add(self, num: np.ndarray, den: np.ndarray) -> None:
        """Add a block: ``num`` and ``den`` are float64[k, clusters]."""
        num = np.asarray(num, dtype=np.float64)
        den = np.asarray(den, dtype=np.float64)
        self.n += num.shape[1]
        self.sums += np.stack(
            [num.sum(1), den.sum(1), (num * num).sum(1), (den * den).sum(1), (num * den).sum(1)], 1
        )

    def estimate(self, j: int) -> tuple[float, float]:
        """(ratio, standard error with clusters) of ratio ``j``; NaN where undefined."""
        value, zz = self._zz(j)
        if value != value:
            return math.nan, math.nan
        se = math.sqrt(max(zz, 0.0) / (self.n - 1)) / math.sqrt(self.n) if self.n > 1 else math.nan
        return value, se

    def _zz(self, j: int) -> tuple[float, float]:
        """The ratio and the sum of squares of the linearised values z (see :func:`ratio`)."""
        sn, sd, snn, sdd, snd = self.sums[j]
        if self.n == 0 or sd == 0:
            return math.nan, math.nan
        r = sn / sd
        return float(r), float((snn - 2 * r * snd + r * r * sdd) * (self.n / sd) ** 2)

    def paired_se(self, j: int, base: RatioSums, cross: np.ndarray) -> float:
        """SE of (ratio ``j`` here - ratio ``j`` of ``base``) measured on the same clusters;
        ``cross`` is [sum num*num_b, sum num*den_b, sum den*num_b, sum den*den_b]."""
        r, zz = self._zz(j)
        rb, zzb = base._zz(j)
        if r != r or rb != rb or self.n < 2:
            return math.nan
        sd, sdb = self.sums[j, 1], base.sums[j, 1]
        nn, nd, dn, dd = cross
        zzb_cross = (self.n / sd) * (self.n / sdb) * (nn - rb * nd - r * dn + r * rb * dd)
        v = zz + zzb - 2 * zzb_cross
        if v <= 1e-12 * (abs(zz) + abs(zzb)):  # rounding left by the cancellation: no variance
            v = 0.0
        return math.sqrt(v / (self.n - 1)) / math.sqrt(self.n)


class RatioMoments:
    """Mergeable sums for ``k`` ratio estimates over the same samples, block by block, keeping
    their covariance: the sums of num and den and the cross sums num*num', num*den', den*den'
    between every two ratios. :meth:`estimate` gives what :func:`ratio` gives on all the samples
    at once, and :meth:`covariance` what ``np.cov`` of their linearisations over ``n`` gives, so a
    run keeps k x k numbers instead of its samples."""

    def __init__(self, k: int):
        self.n = 0
        self.sn = np.zeros(k)
        self.sd = np.zeros(k)
        self.snn = np.zeros((k, k))
        self.snd = np.zeros((k, k))
        self.sdd = np.zeros((k, k))

    def add(self, num: np.ndarray, den: np.ndarray) -> None:
        """Add a block: ``num`` and ``den`` are float64[k, samples] (``den`` may be [samples],
        one denominator for every ratio)."""
        # contiguous rows: a ratio whose num equals its den sums alike and gives exactly 1
        num = np.ascontiguousarray(num, dtype=np.float64)
        den = np.ascontiguousarray(np.broadcast_to(np.asarray(den, dtype=np.float64), num.shape))
        self.n += num.shape[1]
        self.sn += num.sum(1)
        self.sd += den.sum(1)
        self.snn += num @ num.T
        self.snd += num @ den.T
        self.sdd += den @ den.T

    def values(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.sd != 0, self.sn / np.where(self.sd != 0, self.sd, 1), np.nan)

    def _zz(self) -> np.ndarray:
        """Sums of products of the linearised values z (see :func:`ratio`) of every two ratios."""
        r = np.nan_to_num(self.values())
        scale = np.where(self.sd != 0, self.n / np.where(self.sd != 0, self.sd, 1), 0.0)
        inner = self.snn - self.snd * r[None, :] - self.snd.T * r[:, None] + self.sdd * np.outer(r, r)
        return inner * np.outer(scale, scale)

    def estimate(self, j: int) -> tuple[float, float]:
        """(ratio, standard error) of ratio ``j``, as :func:`ratio` gives them; NaN where undefined."""
        value = float(self.values()[j])
        if value != value:
            return math.nan, math.nan
        if self.n < 2:
            return value, math.nan
        return value, math.sqrt(max(float(self._zz()[j, j]), 0.0) / (self.n - 1) / self.n)

    def covariance(self) -> np.ndarray:
        """The estimates' covariance (k x k): ``np.cov`` of the linearisations, over ``n``."""
        if self.n < 2:
            return np.zeros_like(self.snn)
        return self._zz() / (self.n - 1) / self.n


def cross_sums(num: np.ndarray, den: np.ndarray, num_b: np.ndarray, den_b: np.ndarray) -> np.ndarray:
    """float64[k, 4]: per ratio, the sums num*num_b, num*den_b, den*num_b, den*den_b of a block."""
    return np.stack(
        [(num * num_b).sum(1), (num * den_b).sum(1), (den * num_b).sum(1), (den * den_b).sum(1)], 1
    )


def percentiles_of_counts(counts: np.ndarray, qs) -> list[float]:
    """``numpy.percentile`` (linear) of the data whose value ``v`` occurs ``counts[v]`` times."""
    counts = np.asarray(counts)
    n = int(counts.sum())
    cum = np.cumsum(counts)
    out = []
    for q in qs:
        pos = q / 100 * (n - 1)
        lo = int(math.floor(pos))
        hi = min(lo + 1, n - 1)
        a = float(np.searchsorted(cum, lo, side="right"))
        b = float(np.searchsorted(cum, hi, side="right"))
        t = pos - lo
        out.append(a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t))
    return out


def trick_table(est: np.ndarray, tricks: np.ndarray, neighbours: int) -> np.ndarray:
    """P(tricks >= k) for each quarter-trick estimate bin, from the ``neighbours`` samples whose
    estimates are nearest the bin (their residuals, shifted to the bin's centre)."""
    order = np.argsort(est, kind="stable")
    est_sorted = est[order]
    resid = tricks[order] - est_sorted
    n = len(est_sorted)
    k = min(neighbours, n)
    cum = np.zeros((N_BINS, 15))
    for b in range(N_BINS):
        centre = b / BINS_PER_TRICK
        i = int(np.searchsorted(est_sorted, centre))
        lo = max(0, min(i - k // 2, n - k))
        t = np.clip(np.rint(centre + resid[lo : lo + k]), 0, 13).astype(np.int64)
        p = np.bincount(t, minlength=14) / len(t)
        cum[b, :14] = p[::-1].cumsum()[::-1]
    return cum
