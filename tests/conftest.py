"""Helpers the test files share."""

import math
import random

import numba
import pytest
from click.testing import CliRunner

from cli import cli
from kernels.policies import play as kp


def run(*args, input=None):
    """``t400 ARGS`` as a user types it, in this process (click's runner): the result holds the
    exit code, stdout and stderr apart. Arguments may be numbers or paths."""
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def page_app(**options):
    """The app of ``t400 serve`` over this CLI's commands (``options`` as :func:`web.app.create_app`)."""
    from commands.base import error_line, run_json
    from web.app import Api, create_app

    return create_app(Api(cli.commands, run_json, error_line), **options)


#: Every play policy, for tests that hold them all to a property.
POLICY_IDS = [kp.GREEDY, kp.STANDARD, kp.BASIC, kp.TEAM, kp.TEAM1, kp.STANDARD1]
TWO_THREADS = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 kernel threads")


def chi2_critical(df: int, z: float = 3.29) -> float:
    """Upper critical value of chi-square (Wilson-Hilferty); z = 3.29 is p = 0.0005."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def random_deal(rng_: random.Random, size: int = 13) -> list[int]:
    deck = [16 * s + r for s in range(4) for r in range(13)]
    rng_.shuffle(deck)
    return [sum(1 << c for c in deck[k * size : (k + 1) * size]) for k in range(4)]


def swap_one_card(rng_: random.Random, bits: list[int]) -> tuple[int, int, list[int]]:
    """Two players ``a`` and ``b`` and the deal with one random card of each swapped between them."""
    a, b = rng_.sample(range(4), 2)
    ca = rng_.choice(sorted(c for c in range(64) if (bits[a] >> c) & 1))
    cb = rng_.choice(sorted(c for c in range(64) if (bits[b] >> c) & 1))
    swapped = list(bits)
    swapped[a] = bits[a] ^ (1 << ca) | (1 << cb)
    swapped[b] = bits[b] ^ (1 << cb) | (1 << ca)
    return a, b, swapped
