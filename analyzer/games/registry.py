"""The games, found by name: the one way the commands and the page reach a game.

``get("tarneeb")`` is the Tarneeb family's :class:`~analyzer.games.interface.Game`;
``for_variant(v)`` the game of a variant; ``for_preset("egyptian")`` the game whose preset a
name is. The built-in games load on first use; :func:`register` adds another (a house game,
or a test's minimal one).
"""

from __future__ import annotations

from analyzer.core.errors import T400Error
from analyzer.games.interface import Game

_GAMES: dict[str, Game] = {}


def _builtin() -> None:
    if _GAMES:
        return
    from analyzer.games.t400.game import GAME as FOUR_HUNDRED
    from analyzer.games.tarneeb.game import GAME as TARNEEB

    for game in (FOUR_HUNDRED, TARNEEB):  # the first is the default game
        _GAMES.setdefault(game.name, game)


def register(game: Game) -> Game:
    """Add ``game`` under ``game.name`` (a name already taken is an error); returns it."""
    _builtin()
    if not game.name or game.name in _GAMES:
        raise T400Error(f"game {game.name!r}: no name, or the name of a game already registered")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game :func:`register` added (the built-in games stay)."""
    _builtin()
    if name in (g.name for g in list(_GAMES.values())[:2]):
        raise T400Error(f"game {name!r} is built in")
    _GAMES.pop(name, None)


def names() -> tuple[str, ...]:
    """The games' names, the default first."""
    _builtin()
    return tuple(_GAMES)


def games() -> tuple[Game, ...]:
    _builtin()
    return tuple(_GAMES.values())


def default() -> Game:
    """The game a question plays when neither ``--game`` nor a preset says (400)."""
    return games()[0]


def get(name: str | None) -> Game:
    """The game called ``name`` (``None``: the default game)."""
    if name is None:
        return default()
    _builtin()
    game = _GAMES.get(str(name).strip().lower())
    if game is None:
        raise T400Error(f"game {name!r}: expected {' or '.join(_GAMES)}")
    return game


def for_variant(variant) -> Game:
    """The game ``variant`` belongs to (every variant carries its game's name)."""
    return get(variant.game)


def for_preset(name: str | None) -> Game | None:
    """The game whose preset ``name`` (or a spec on it) is, or ``None``."""
    return next((g for g in games() if g.owns(name)), None)


def read_records(text: str):
    """The hand records in ``text`` (see :mod:`analyzer.core.records`), each game's fields read
    by its game."""
    from analyzer.core.records import read_records as read

    return read(text, get)
