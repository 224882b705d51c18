"""Figures and report files. One shared matplotlib style for every figure."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from analyzer.core.errors import T400Error  # noqa: E402
from analyzer.core.output import open_output  # noqa: E402

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


#: File types a figure may be written as (by the file name's suffix).
FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg", ".pdf": "pdf"}


def figure_format(path: str) -> str:
    """The figure format for ``path`` from its suffix; an error naming the choices otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise T400Error(f"{path}: a figure is written as {', '.join(FORMATS)} (by the file name's suffix)")
    return FORMATS[suffix]


def _save(fig, path: str) -> None:
    """Write ``fig`` through :func:`analyzer.core.output.open_output` (never a half-written file,
    a device or a pipe written into, a failure one line)."""
    fmt = figure_format(path)
    try:
        with open_output(path, binary=True) as fh:
            fig.savefig(fh, format=fmt)
    finally:
        plt.close(fig)


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
        shown = getattr(result, "tricks_bid", None) or result.recommended
        left.set_title(f"Tricks if you bid {shown} (mean {result.tricks_mean:.2f})")
        bids = [r.bid for r in result.rows]
        ev = [r.ev for r in result.rows]
        err = [1.96 * r.ev_se for r in result.rows]
        colors = [ACCENT if b == result.recommended else MAIN for b in bids]
        right.bar(bids, ev, yerr=err, color=colors, capsize=2)
        right.axhline(0, color="black", linewidth=0.8)
        right.set_xlabel("bid")
        if max(abs(e) for e in ev) > 20:  # -40s would squash the small bids: compress the far range
            right.set_yscale("symlog", linthresh=5)
            right.set_ylabel("expected points (log scale beyond ±5)")
        else:
            right.set_ylabel("expected points")
        right.set_xticks(bids)
        right.set_title(f"EV per bid (recommended: {result.recommended})")
        fig.suptitle(
            f"{result.hand}  seat {result.seat}  {result.variant}  ({result.model}, {result.samples:,} deals)"
        )
        fig.tight_layout()
        _save(fig, path)


def plot_call(result, path: str) -> None:
    """Tarneeb: the team's trick distribution per strain (left) and, per call with 95% intervals
    (right), the expected points, or P(win the match) when that is the objective."""
    with plt.style.context(STYLE):
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
        k = np.arange(14)
        for letter, p in result.strains.items():
            mean = result.strain_means[letter][0]
            left.plot(k, 100 * np.array(p), marker="o", markersize=3, label=f"{letter} (mean {mean:.2f})")
        left.set_xlabel("team tricks (you declare and lead)")
        left.set_ylabel("probability (%)")
        left.set_xticks(k)
        left.legend(fontsize=8)
        left.set_title("Team tricks by strain")
        calls = [r.call for r in result.rows]
        win = result.objective == "win"
        if win:
            value = [100 * r.p_win for r in result.rows]
            err = [196 * r.p_win_se for r in result.rows]
        else:
            value = [r.ev for r in result.rows]
            err = [1.96 * r.ev_se for r in result.rows]
        colors = [ACCENT if c == result.recommended else MAIN for c in calls]
        x = np.arange(len(calls))
        right.bar(x, value, yerr=err, color=colors, capsize=2)
        right.axhline(0, color="black", linewidth=0.8)
        right.set_xticks(
            x, calls, rotation=90 if len(calls) > 12 else 0, fontsize=7 if len(calls) > 12 else 9
        )
        right.set_ylabel("P(team wins the match) (%)" if win else "expected points for the team")
        right.set_title(f"{'P(win) ' if win else 'EV '}per call (recommended: {result.recommended})")
        model = "double dummy" if result.model == "dd" else "rollout"
        scores = f"  scores {result.scores[0]}-{result.scores[1]}" if any(result.scores) else ""
        fig.suptitle(
            f"{result.hand}  seat {result.seat}  {result.variant}{scores}  ({model}, {result.samples:,} deals)"
        )
        fig.tight_layout()
        _save(fig, path)


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
    :func:`analyzer.games.t400.matches.compare`'s table."""
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
            ax.set_xticklabels(_short_labels(list(part["variant"])), fontsize=7, rotation=35, ha="right")
            panel = metric + (" (%)" if scale == 100.0 else "")
            low = (scale * (part["value"] - 2.5 * part["se"].fillna(0))).min()
            high = (scale * (part["value"] + 2.5 * part["se"].fillna(0))).max()
            if low > 0 and (high - low) < 0.5 * high:
                bottom = low - 0.3 * (high - low)
                ax.set_ylim(bottom, high + 0.3 * (high - low))
                panel += f"\naxis from {bottom:.3g}, not 0"
            ax.set_title(panel, fontsize=9)
        for ax in list(axes.flat)[len(metrics) :]:
            ax.axis("off")
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        _save(fig, path)


def _short_labels(labels: list[str]) -> list[str]:
    """Tick labels: when every variant is one preset with switches, the first keeps its name
    and the others show only their switches (one line each, so rotated labels do not collide)."""
    presets = {label.split()[0] for label in labels}
    if len(presets) != 1:
        return labels
    return [labels[0]] + [" ".join(label.split()[1:]) or label for label in labels[1:]]


def plot_heatmaps(panels, path: str, x: str, y: str, value: str, title: str, label: str,
                  annotate: str | None = None, fmt: str = "{:.0f}") -> None:  # fmt: skip
    """A grid of heatmaps: ``panels`` maps (row title, column title) to a DataFrame with
    columns ``x``, ``y``, ``value`` (and ``annotate``, the number written in each cell; NaN
    or negative cells are left blank)."""
    rows = sorted({r for r, _ in panels}, key=list(dict.fromkeys(r for r, _ in panels)).index)
    cols = sorted({c for _, c in panels}, key=list(dict.fromkeys(c for _, c in panels)).index)
    xs = sorted({int(v) for df in panels.values() for v in df[x]})
    ys = sorted({int(v) for df in panels.values() for v in df[y]})
    values = [df[value][df[value] >= 0].to_numpy() for df in panels.values()]
    shown = [v for v in values if len(v)]
    vmin = min(v.min() for v in shown) if shown else 0.0  # nothing to show: empty panels
    vmax = max(v.max() for v in shown) if shown else 1.0
    with plt.style.context({**STYLE, "axes.grid": False}):
        size = (max(3.3 * len(cols), 7.0), max(2.6 * len(rows), 4.2) + 0.6)
        fig, axes = plt.subplots(len(rows), len(cols), figsize=size,
                                 squeeze=False, sharex=True, sharey=True)  # fmt: skip
        image = None
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                ax = axes[i, j]
                df = panels.get((r, c))
                grid = np.full((len(ys), len(xs)), np.nan)
                notes = np.full((len(ys), len(xs)), np.nan)
                if df is not None:
                    for rec in df.itertuples(index=False):
                        v = getattr(rec, value)
                        if v is None or v != v or v < 0:
                            continue
                        yi, xi = ys.index(int(getattr(rec, y))), xs.index(int(getattr(rec, x)))
                        grid[yi, xi] = v
                        notes[yi, xi] = getattr(rec, annotate or value)
                image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=vmin, vmax=vmax, aspect="auto")
                for yi in range(len(ys)):
                    for xi in range(len(xs)):
                        if notes[yi, xi] == notes[yi, xi]:
                            shade = (grid[yi, xi] - vmin) / max(vmax - vmin, 1e-9)
                            ax.text(xi, yi, fmt.format(notes[yi, xi]), ha="center", va="center", fontsize=7,
                                    color="white" if shade < 0.6 else "black")  # fmt: skip
                ax.set_xticks(range(len(xs)))
                ax.set_xticklabels(
                    [f"{v}+" if v == xs[-1] and x == "hearts" and v >= 8 else str(v) for v in xs]
                )
                ax.set_yticks(range(len(ys)))
                ax.set_yticklabels([str(v) for v in ys])
                ax.set_title(f"{c}, {r}", fontsize=9)
                if i == len(rows) - 1:
                    ax.set_xlabel(x.replace("_", " "))
                if j == 0:
                    ax.set_ylabel(y.replace("_", " "))
        fig.suptitle(title)
        fig.tight_layout(rect=(0, 0, 0.93, 1))
        cax = fig.add_axes((0.94, 0.15, 0.012, 0.7))
        fig.colorbar(image, cax=cax, label=label)
        fig.savefig(path, format="png")
        plt.close(fig)


def plot_trick_distributions(examples, path: str, cols: int = 4) -> None:
    """One panel per example hand: P(own tricks = k) at the recommended bid, with 95% bars."""
    rows = (len(examples) + cols - 1) // cols
    with plt.style.context(STYLE):
        fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols, 2.6 * rows), squeeze=False, sharey=True)
        for ax, a in zip(axes.flat, examples):
            k = np.arange(14)
            p = np.nan_to_num(np.array(a.tricks))
            se = np.nan_to_num(np.array(a.tricks_se))
            ax.bar(k, 100 * p, yerr=196 * se, color=MAIN, capsize=1.5)
            ax.axvline(a.recommended - 0.5, color=ACCENT, linewidth=1.2)
            ax.set_title(f"{a.hand}\nbid {a.recommended}, mean {a.tricks_mean:.2f}", fontsize=8)
            ax.set_xticks(k[::2])
        for ax in axes[:, 0]:
            ax.set_ylabel("P(tricks) (%)")
        for ax in list(axes.flat)[len(examples) :]:
            ax.axis("off")
        fig.suptitle("Own tricks of example hands (seat 1, scores 0; orange line: the recommended bid)")
        fig.tight_layout()
        fig.savefig(path, format="png")
        plt.close(fig)


def plot_lines(series, path: str, xlabel: str, ylabel: str, title: str) -> None:
    """Lines with 95% bands: ``series`` maps a label to (x, y, se) arrays."""
    with plt.style.context(STYLE):
        fig, ax = plt.subplots(figsize=(7.5, 4.2))
        for label, (x, y, se) in series.items():
            x, y, se = (np.asarray(v, dtype=float) for v in (x, y, se))
            ax.plot(x, y, marker="o", markersize=3, label=label)
            ax.fill_between(x, y - 1.96 * se, y + 1.96 * se, alpha=0.2)
        ax.axhline(0, color="black", linewidth=0.7)
        ax.set_xlabel(xlabel)
        _finish(fig, ax, ylabel, title, path)


def plot_grouped_bars(groups, path: str, ylabel: str, title: str) -> None:
    """Grouped bars with 95% intervals: ``groups`` maps a series label to {category: (y, se)}."""
    labels = list(groups)
    cats = list(dict.fromkeys(c for g in groups.values() for c in g))
    width = 0.8 / max(len(labels), 1)
    with plt.style.context(STYLE):
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        for i, label in enumerate(labels):
            y = [groups[label].get(c, (np.nan, 0))[0] for c in cats]
            se = [groups[label].get(c, (np.nan, 0))[1] for c in cats]
            ax.bar(np.arange(len(cats)) + (i - (len(labels) - 1) / 2) * width, y, width, yerr=1.96 * np.array(se),
                   capsize=2, label=label, color=[MAIN, ACCENT, "#5a9e5a", "#9e5a9e"][i % 4])  # fmt: skip
        ax.set_xticks(np.arange(len(cats)))
        ax.set_xticklabels(cats)
        _finish(fig, ax, ylabel, title, path)


def _finish(fig, ax, ylabel: str, title: str, path: str) -> None:
    """Label, legend, save as PNG and close one-panel figure."""
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
