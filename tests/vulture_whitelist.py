"""Names that the dead-code check (``test_architecture.py``, vulture) would call unused but
that are used or kept on purpose: members of enums (every rank and seat exists), the named values
of the packed rules' switches and of the search table's bit fields (documentation of a layout the
kernels test by the other value), the data that docs and records name, warm-ups that a
helper process calls by name, settings each report reads by the name it declares
(``SAMPLES_SETTING``), and click's hooks of a parameter type."""

from analyzer.bench import _warm_each
from analyzer.config import Tunables
from analyzer.core.notation import Rank
from analyzer.core.pimc import warm_review
from analyzer.core.policies import warm_play
from analyzer.core.seats import Seat
from analyzer.core.solve import warm_bids_at, warm_search_parts
from analyzer.games.tarneeb.bidders import COUNTING_CHOICES, EV_CHOICES
from analyzer.games.tarneeb.equity import TarneebEquity
from commands.base import GameName
from kernels.core.dd.table import DEPTH_BITS, SPARE
from kernels.t400.rules import REDEAL_SAME, TIE_TOTAL
from kernels.tarneeb.rules import ALL_PASS_REDEAL, FAILED_13_TRICKS, MATCH_PLAY_ON

ENUMS = (
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Seat.ONE,
    Seat.THREE,
    Seat.FOUR,
)
SWITCHES = (TIE_TOTAL, REDEAL_SAME, ALL_PASS_REDEAL, FAILED_13_TRICKS, MATCH_PLAY_ON, SPARE, DEPTH_BITS)
DOCUMENTED = (COUNTING_CHOICES, EV_CHOICES)
BY_NAME = (_warm_each, warm_bids_at, warm_review, warm_play, warm_search_parts)


def _fields(table: TarneebEquity):
    return table.p_points  # a field saved and loaded by name (``_FIELDS``)


BY_SETTING_NAME = (Tunables.report_tarneeb_deals, Tunables.report_samples)
CLICK_HOOKS = (GameName.get_metavar,)
