"""What every game's rule set shares: presets by name, switches changed by keyword, a label."""

from __future__ import annotations

import dataclasses

from analyzer.core.errors import T400Error


class PresetSwitches:
    """For a frozen dataclass of rules with a ``name`` field: :meth:`preset`, :meth:`with_`,
    :attr:`switches` and :attr:`label`. A subclass names its presets in :meth:`_presets` and
    the words its errors use in ``_KIND`` and ``_SWITCH``."""

    _KIND = "variant"
    _SWITCH = "variant switch"

    @classmethod
    def _presets(cls) -> dict:
        raise NotImplementedError

    @classmethod
    def preset(cls, name: str):
        presets = cls._presets()
        key = str(name).strip().lower()
        if key not in presets:
            raise T400Error(f"unknown {cls._KIND} {name!r} (expected one of {', '.join(presets)})")
        return presets[key]

    def with_(self, **switches):
        """This variant with some switches changed (``None`` values are ignored)."""
        changes = {k: v for k, v in switches.items() if v is not None}
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise T400Error(f"unknown {self._SWITCH}(es): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    @property
    def switches(self) -> dict:
        """Every switch as a plain dict (the name included)."""
        return dataclasses.asdict(self)

    @property
    def label(self) -> str:
        """The preset name, plus the switches that differ from it: ``qahwa target=31``."""
        base = self._presets().get(self.name)
        if base is None:
            return self.name
        diff = [
            f"{f.name.replace('_', '-')}={getattr(self, f.name)}"
            for f in dataclasses.fields(self)
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
        ]
        return " ".join([self.name, *diff])
