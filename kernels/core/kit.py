"""Kits: the part of a question that is fixed for a whole kernel call, passed as a type.

A lineup names each seat's card-play policy and bidder by number, read at run time; a kernel
that dispatched on those numbers alone would compile every policy and every bidder into every
kernel that plays or bids, whichever the question uses. A :class:`Kit` says which policy and
which bidder *every* seat uses, or :data:`MIXED` where the seats differ, and then which ids the
seats use (a mask; :data:`ALL` when not said). Numba types a kit by its contents
(:class:`KitType`), so the dispatch in ``choose_card`` and ``bot_bid`` is decided while
compiling: a kernel called with ``Kit(policy=STANDARD, bidder=EV)`` contains the ``standard``
player and the EV bidder and nothing else, one called with :func:`kit_of` of a duel's lineup the
two policies and the two bidders of its seats, and each kit is a specialisation of its own in the
disk cache. A kit carries no data at run time.

The lineup arrays stay the source of truth (they are what the twins and the records read); a
kernel checks that its lineup uses only ids of its kit (``check_kit``).
"""

from numba.core import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from kernels.config import JIT, JIT_OPTIONS

#: The kit value of a choice that differs between seats: dispatched at run time.
MIXED = -1
#: The mask of every id: a mixed kit that does not say which ids its seats use dispatches to all.
ALL = -1


def _mask(value: int, mask: int) -> int:
    # a uniform choice uses its one id, whatever mask was given
    return 1 << value if value != MIXED else int(mask)


class Kit:
    """Which policy and which bidder every seat uses (an id, or :data:`MIXED`), and the masks of
    the ids the seats may use (bit ``i`` for id ``i``; :data:`ALL`, or one bit for a uniform
    choice)."""

    __slots__ = ("policy", "bidder", "policies", "bidders")

    def __init__(self, policy: int = MIXED, bidder: int = MIXED, policies: int = ALL, bidders: int = ALL):
        self.policy = int(policy)
        self.bidder = int(bidder)
        self.policies = _mask(self.policy, policies)
        self.bidders = _mask(self.bidder, bidders)

    def _key(self):
        return (self.policy, self.bidder, self.policies, self.bidders)

    def __eq__(self, other):
        return isinstance(other, Kit) and self._key() == other._key()

    def __hash__(self):
        return hash((Kit, *self._key()))

    def __repr__(self):
        return f"Kit(policy={_shown(self.policy, self.policies)}, bidder={_shown(self.bidder, self.bidders)})"

    def __reduce__(self):
        return Kit, self._key()

    def play_part(self) -> "Kit":
        """The kit with its bidders dropped: what a kernel that only plays is compiled for, so
        that lineups that differ only in their bidders share one compile of their card play."""
        return Kit(self.policy, MIXED, self.policies, ALL)

    def bid_part(self) -> "Kit":
        """The kit with its policies dropped: what a kernel that only bids is compiled for."""
        return Kit(MIXED, self.bidder, ALL, self.bidders)


def _shown(value: int, mask: int) -> str:
    if value != MIXED:
        return str(value)
    if mask == ALL:
        return "mixed"
    return "mixed:" + "|".join(str(i) for i in range(mask.bit_length()) if mask >> i & 1)


def uniform(ids) -> int:
    """The one id shared by every entry of ``ids``, or :data:`MIXED`."""
    values = {int(i) for i in ids}
    return values.pop() if len(values) == 1 else MIXED


def mask_of(ids) -> int:
    """The mask of the ids in ``ids`` (non-negative ints)."""
    mask = 0
    for i in ids:
        mask |= 1 << int(i)
    return mask


def kit_of(policies=None, bidders=None) -> Kit:
    """The kit of seats that play ``policies`` and bid with ``bidders`` (ids; ``None``: not
    said, any): each the one id they share, or :data:`MIXED` with the mask of the ids they use,
    so that a kernel compiles the policies and bidders of these seats and no others."""
    policy, policy_mask = (MIXED, ALL) if policies is None else (uniform(policies), mask_of(policies))
    bidder, bidder_mask = (MIXED, ALL) if bidders is None else (uniform(bidders), mask_of(bidders))
    return Kit(policy, bidder, policy_mask, bidder_mask)


class KitType(types.Dummy):
    """Numba's type of a :class:`Kit`: one type per (policy, bidder, masks), keyed by its name
    (which says all four), so that a cache index pickled by an older kit still loads, and is then
    found stale."""

    def __init__(self, policy: int, bidder: int, policies: int, bidders: int):
        self.policy = policy
        self.bidder = bidder
        self.policies = policies
        self.bidders = bidders
        super().__init__(name=f"Kit(policy={_shown(policy, policies)}, bidder={_shown(bidder, bidders)})")


@typeof_impl.register(Kit)
def _typeof_kit(value, context):
    return KitType(value.policy, value.bidder, value.policies, value.bidders)


register_model(KitType)(models.OpaqueModel)


@unbox(KitType)
def _unbox_kit(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


@lower_constant(KitType)
def _constant_kit(context, builder, ty, value):
    return context.get_dummy_value()


def kit_policies(kit):
    """The mask of the kit's policy ids (a compile-time constant)."""


def kit_bidders(kit):
    """The mask of the kit's bidder ids (a compile-time constant)."""


@overload(kit_policies, jit_options={"cache": JIT_OPTIONS["cache"]})
def _kit_policies(kit):
    value = kit.policies
    return lambda kit: value


@overload(kit_bidders, jit_options={"cache": JIT_OPTIONS["cache"]})
def _kit_bidders(kit):
    value = kit.bidders
    return lambda kit: value


def play_kit(kit):
    """:meth:`Kit.play_part` inside a kernel (a compile-time constant)."""


def bid_kit(kit):
    """:meth:`Kit.bid_part` inside a kernel (a compile-time constant)."""


def _kit(kit_type) -> Kit:
    return Kit(kit_type.policy, kit_type.bidder, kit_type.policies, kit_type.bidders)


@overload(play_kit, inline="always", jit_options={"cache": JIT_OPTIONS["cache"]})
def _play_kit(kit):
    part = _kit(kit).play_part()
    return lambda kit: part


@overload(bid_kit, inline="always", jit_options={"cache": JIT_OPTIONS["cache"]})
def _bid_kit(kit):
    part = _kit(kit).bid_part()
    return lambda kit: part


@JIT
def check_kit(ids, mask):
    """Raise ``ValueError`` unless every id of ``ids`` (non-negative) is in the kit's ``mask``:
    a kernel compiled for a kit has no code for the other ids."""
    for i in ids:
        if (mask >> i) & 1 == 0:
            raise ValueError("the kit does not match the lineup (see kernels.core.kit)")
