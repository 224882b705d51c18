"""The message catalogue: every sentence the page shows and every reason or error that has a
key, in English and Arabic, in one file (``analyzer/data/messages.json``).

Python fills a template with :func:`text` (English: the CLI's language); the page fills the same
templates in the reader's language. A template's parameters are ``{name}`` fields, the same in
both languages (tested).
"""

from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def messages() -> dict:
    """The catalogue: ``{"en": {key: template}, "ar": {...}}``."""
    return json.loads((resources.files("analyzer.data") / "messages.json").read_text(encoding="utf-8"))


def text(key: str, lang: str = "en", **params) -> str:
    """The message ``key`` in ``lang`` with its parameters filled in.

    >>> text("err.card_twice", card="C6", where="866")
    "card C6 given twice in '866'"
    """
    return messages()[lang][key].format(**params)


class Said:
    """The catalogue's sentences a description is made of, kept by where they stand: calling
    ``said("match.win", "rules.4.win", target=41)`` returns the English text and records the key
    and parameters under ``"match.win"``, so that the page can say the same in Arabic."""

    def __init__(self):
        self.keys: dict[str, dict] = {}

    def __call__(self, path: str, key: str, **params) -> str:
        self.keys[path] = {"key": key, "params": params}
        return text(key, **params)
