"""The commands of ``t400``, grouped by what they do; :mod:`cli` is the entry point.

:mod:`commands.base` holds what they share (the group, JSON output, option decorators,
printers); :mod:`commands.rules` the rules and the score, :mod:`commands.bid` the bid, :mod:`commands.card` the card to play,
:mod:`commands.deals` whole deals (solve, play), :mod:`commands.review` a played hand reviewed, :mod:`commands.matches` simulate, variants and
duel, :mod:`commands.tools` bench, compile, the fitted data, report and serve.
"""

from commands import bid, card, deals, matches, review, rules, tools
from commands.base import cli, run_json, to_json

for _module in (rules, bid, card, deals, review, matches, tools):
    for _command in _module.COMMANDS:
        cli.add_command(_command)


def main():
    cli(prog_name="t400")


__all__ = ["cli", "main", "run_json", "to_json"]
