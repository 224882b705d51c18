"""Kits: the part of a question that is fixed for a whole kernel call, passed as a type.

A lineup names each seat's card-play policy and bidder by number, read at run time; a kernel
that dispatched on those numbers alone would compile every policy and every bidder into every
kernel that plays or bids, whichever the question uses. A :class:`Kit` says which policy and
which bidder *every* seat uses, or :data:`MIXED` where the seats differ. Numba types a kit by
its contents (:class:`KitType`), so the dispatch in ``choose_card`` and ``bot_bid`` is decided
while compiling: a kernel called with ``Kit(policy=STANDARD, bidder=EV)`` contains the
``standard`` player and the EV bidder and nothing else, and each kit is a specialisation of its
own in the disk cache. A kit carries no data at run time.

The lineup arrays stay the source of truth (they are what the twins and the records read); a
kernel checks that a uniform kit agrees with its lineup (``check_kit``).
"""

from numba.core import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from kernels.config import JIT, JIT_OPTIONS

#: The kit value of a choice that differs between seats: dispatched at run time.
MIXED = -1


class Kit:
    """Which policy and which bidder every seat uses (an id, or :data:`MIXED`)."""

    __slots__ = ("policy", "bidder")

    def __init__(self, policy: int = MIXED, bidder: int = MIXED):
        self.policy = int(policy)
        self.bidder = int(bidder)

    def __eq__(self, other):
        return isinstance(other, Kit) and (self.policy, self.bidder) == (other.policy, other.bidder)

    def __hash__(self):
        return hash((Kit, self.policy, self.bidder))

    def __repr__(self):
        return f"Kit(policy={self.policy}, bidder={self.bidder})"

    def __reduce__(self):
        return Kit, (self.policy, self.bidder)


def uniform(ids) -> int:
    """The one id shared by every entry of ``ids``, or :data:`MIXED`."""
    values = {int(i) for i in ids}
    return values.pop() if len(values) == 1 else MIXED


class KitType(types.Dummy):
    """Numba's type of a :class:`Kit`: one type per (policy, bidder)."""

    def __init__(self, policy: int, bidder: int):
        self.policy = policy
        self.bidder = bidder
        super().__init__(name=f"Kit(policy={policy}, bidder={bidder})")

    @property
    def key(self):
        return (self.policy, self.bidder)


@typeof_impl.register(Kit)
def _typeof_kit(value, context):
    return KitType(value.policy, value.bidder)


register_model(KitType)(models.OpaqueModel)


@unbox(KitType)
def _unbox_kit(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_constant(KitType)
def _constant_kit(context, builder, ty, value):
    return context.get_dummy_value()


def kit_policy(kit):
    """The kit's policy id (a compile-time constant; :data:`MIXED` when seats differ)."""


def kit_bidder(kit):
    """The kit's bidder id (a compile-time constant; :data:`MIXED` when seats differ)."""


@overload(kit_policy, jit_options={"cache": JIT_OPTIONS["cache"]})
def _kit_policy(kit):
    value = kit.policy
    return lambda kit: value


@overload(kit_bidder, jit_options={"cache": JIT_OPTIONS["cache"]})
def _kit_bidder(kit):
    value = kit.bidder
    return lambda kit: value


@JIT
def check_kit(ids, kit_value):
    """Raise ``ValueError`` unless ``kit_value`` is :data:`MIXED` or every id of ``ids`` equals it."""
    if kit_value != MIXED:
        for i in ids:
            if i != kit_value:
                raise ValueError("the kit does not match the lineup (see kernels.core.kit)")
