"""The page's home-screen icons (``web/static/icon-192.png``, ``icon-512.png``): a heart and
"400" on the page's green, drawn with matplotlib. ``python -m web.icons`` writes them again."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).with_name("static")
GREEN = "#123b2e"
SIZES = (192, 512)


def draw(size: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    fig = plt.figure(figsize=(1, 1), dpi=size)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")
    # the maskable safe zone is the inner 80%: everything that matters sits inside it
    ax.add_patch(FancyBboxPatch((0, 0), 1, 1, boxstyle="square,pad=0", color=GREEN))
    ax.text(0.5, 0.6, "\u2665", color="#e04f3f", fontsize=0.42 * 72, ha="center", va="center")
    ax.text(0.5, 0.27, "400", color="white", fontsize=0.22 * 72, ha="center", va="center", fontweight="bold")
    fig.savefig(path, dpi=size, facecolor=GREEN)
    plt.close(fig)


def main() -> None:
    for size in SIZES:
        draw(size, STATIC / f"icon-{size}.png")


if __name__ == "__main__":
    main()
