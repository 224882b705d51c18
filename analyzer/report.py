"""Figures and report files. One shared matplotlib style for every figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

STYLE = {
    "figure.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.size": 10,
}
MAIN = "#2f6f9f"
ACCENT = "#d9822b"


def plot_bid(result, path: str) -> None:
    """Trick distribution (left) and expected value per bid with 95% intervals (right)."""
    with plt.style.context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        k = np.arange(14)
        p = np.nan_to_num(np.array(result.tricks))
        se = np.nan_to_num(np.array(result.tricks_se))
        left.bar(k, 100 * p, yerr=196 * se, color=MAIN, capsize=2)
        left.set_xlabel("own tricks")
        left.set_ylabel("probability (%)")
        left.set_xticks(k)
        left.set_title(f"Tricks if you bid {result.recommended} (mean {result.tricks_mean:.2f})")
        bids = [r.bid for r in result.rows]
        ev = [r.ev for r in result.rows]
        err = [1.96 * r.ev_se for r in result.rows]
        colors = [ACCENT if b == result.recommended else MAIN for b in bids]
        right.bar(bids, ev, yerr=err, color=colors, capsize=2)
        right.axhline(0, color="black", linewidth=0.8)
        right.set_xlabel("bid")
        right.set_ylabel("expected points")
        right.set_xticks(bids)
        right.set_title(f"EV per bid (recommended: {result.recommended})")
        fig.suptitle(
            f"{result.hand}  seat {result.seat}  {result.variant}  ({result.model}, {result.samples:,} deals)"
        )
        fig.tight_layout()
        fig.savefig(path, format="png")
        plt.close(fig)
