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


#: The comparisons ``t400 variants --plot`` draws, in order.
VARIANT_PLOTS = (
    "hands per match",
    "dead-hand rate",
    "mean bid",
    "make rate",
    "first partnership wins",
    "ended by tie-break",
)


def plot_variants(table, path: str, title: str = "", metrics=VARIANT_PLOTS) -> None:
    """Bars per variant with 95% intervals, one panel per metric, from
    :func:`analyzer.matches.compare`'s table."""
    metrics = [m for m in metrics if m in set(table["metric"])]
    cols = 3
    rows = (len(metrics) + cols - 1) // cols
    with plt.style.context(STYLE):
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
        for ax, metric in zip(axes.flat, metrics):
            part = table[table["metric"] == metric]
            scale = 100.0 if part["kind"].iloc[0] == "rate" else 1.0
            x = np.arange(len(part))
            colors = [MAIN] + [ACCENT] * (len(part) - 1)
            ax.bar(
                x, scale * part["value"], yerr=scale * 1.96 * part["se"].fillna(0), color=colors, capsize=3
            )
            ax.set_xticks(x)
            ax.set_xticklabels([_wrap(v) for v in part["variant"]], fontsize=7)
            ax.set_title(metric + (" (%)" if scale == 100.0 else ""))
            low = (scale * (part["value"] - 2.5 * part["se"].fillna(0))).min()
            high = (scale * (part["value"] + 2.5 * part["se"].fillna(0))).max()
            if low > 0 and (high - low) < 0.5 * high:
                ax.set_ylim(low - 0.3 * (high - low), high + 0.3 * (high - low))
        for ax in list(axes.flat)[len(metrics) :]:
            ax.axis("off")
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        fig.savefig(path, format="png")
        plt.close(fig)


def _wrap(label: str, width: int = 16) -> str:
    words, lines, line = label.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return "\n".join(lines)
