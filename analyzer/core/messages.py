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

LANGUAGES = ("en", "ar")


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
