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
    #: The switches a ``NAME:switch=value,...`` spec may set: whole numbers, yes/no, and words
    #: (each with its choices).
    _SPEC_INTS: frozenset = frozenset()
    _SPEC_BOOLS: frozenset = frozenset()
    _SPEC_WORDS: dict = {}

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

    @property
    def spec(self) -> str:
        """The variant as :meth:`parse_spec` reads it back: ``qahwa:target=31``."""
        base = self._presets().get(self.name)
        diff = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "name" or (base is not None and value == getattr(base, f.name)):
                continue
            diff.append(f"{f.name.replace('_', '-')}={('yes' if value else 'no') if isinstance(value, bool) else value}")
        return self.name + (":" + ",".join(diff) if diff else "")

    @classmethod
    def parse_spec(cls, text: str):
        """A variant from ``NAME[:switch=value,...]`` (switch names with dashes; yes/no for the
        switches that are on or off)."""
        name, _, rest = str(text).strip().partition(":")
        variant = cls.preset(name)
        changes = {}
        for item in filter(None, (p.strip() for p in rest.split(","))):
            key, eq, value = item.partition("=")
            field_name = key.strip().lower().replace("-", "_")
            value = value.strip().lower()
            if not eq or not value:
                raise T400Error(f"variant {text!r}: {item!r} is not switch=value")
            if field_name in cls._SPEC_INTS:
                try:
                    changes[field_name] = int(value)
                except ValueError:
                    raise T400Error(
                        f"variant {text!r}: {key.strip()} needs a whole number, not {value!r}"
                    ) from None
            elif field_name in cls._SPEC_BOOLS:
                if value not in _TRUE | _FALSE:
                    raise T400Error(f"variant {text!r}: {key.strip()} needs yes or no, not {value!r}")
                changes[field_name] = value in _TRUE
            elif field_name in cls._SPEC_WORDS:
                changes[field_name] = value
            else:
                known = ", ".join(
                    k.replace("_", "-") for k in [*cls._SPEC_INTS, *cls._SPEC_BOOLS, *cls._SPEC_WORDS]
                )
                raise T400Error(f"variant {text!r}: unknown switch {key.strip()!r} (expected one of {known})")
        return variant.with_(**changes)


_TRUE, _FALSE = {"yes", "true", "on", "1"}, {"no", "false", "off", "0"}
