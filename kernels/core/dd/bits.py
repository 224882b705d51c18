"""Bit intrinsics: an int64 pointer and a prefetch for the table, and the bit helpers (a portable
loop each, and with BMI2 the same by pext/pdep; tests/test_dd.py checks that the two agree)."""

from llvmlite import ir
from numba import carray, types
from numba.extending import intrinsic

from kernels.core.cards import highest_bit, popcount
from kernels.core.cards import lane as lane_of
from kernels.core.dd.layout import _ONE, U64, hot


@intrinsic
def _int64_pointer(typingctx, address):
    sig = types.CPointer(types.int64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))

    return sig, codegen


@intrinsic
def _uint64_pointer(typingctx, address):
    sig = types.CPointer(types.uint64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.uint64)))

    return sig, codegen


@intrinsic
def _prefetch(typingctx, address):
    sig = types.void(types.intp)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch.p0", fnty=fnty)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@hot
def unmanaged(a):
    """A view of int64 array ``a`` without a reference count: the search loop touches its
    workspace millions of times, and Numba's reference counting (atomic operations on every
    array handed to a helper) would cost more than the work. ``a`` must outlive the view."""
    return carray(_int64_pointer(a.ctypes.data), a.shape[0])


@hot
def unmanaged_uint64(a, at, n):
    """:func:`unmanaged` for ``n`` words of int64 array ``a`` from index ``at``, read as uint64."""
    return carray(_uint64_pointer(a.ctypes.data + 8 * at), n)


def _bmi2_intrinsic(name):
    """A Numba intrinsic for the BMI2 instruction ``name`` (uint64, uint64) -> uint64."""

    def bmi2(typingctx, value, mask):
        sig = types.uint64(types.uint64, types.uint64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            fn = builder.module.declare_intrinsic(name, fnty=ir.FunctionType(i64, [i64, i64]))
            return builder.call(fn, args)

        return sig, codegen

    return intrinsic(bmi2)


_pext = _bmi2_intrinsic("llvm.x86.bmi.pext.64")
_pdep = _bmi2_intrinsic("llvm.x86.bmi.pdep.64")


def _host_has_bmi2() -> bool:
    try:
        from llvmlite import binding

        return bool(binding.get_host_cpu_features().get("bmi2", False))
    except Exception:  # an unknown llvmlite: take the portable path
        return False


HAS_BMI2 = _host_has_bmi2()


# Bit helpers: a portable loop each, and with BMI2 the same by pext/pdep (tests/test_dd.py checks
# that the two agree).


@hot
def pext_loop(value, mask):
    """Parallel bit extract: the bits of ``value`` at the set bits of ``mask``, packed."""
    out = U64(0)
    k = U64(0)
    while mask:
        b = mask & (~mask + _ONE)
        if value & b:
            out |= _ONE << k
        k += _ONE
        mask &= mask - _ONE
    return out


@hot
def top_run_loop(mine, rem):
    """How many of the highest cards of ``rem`` (one suit) ``mine`` holds, counted from the top."""
    run = 0
    while rem:
        b = _ONE << U64(highest_bit(rem))
        if not (mine & b):
            break
        run += 1
        rem &= ~b
    return run


@hot
def top_cards_loop(rem, n):
    """The ``n`` highest cards of ``rem`` (one suit)."""
    out = U64(0)
    for _ in range(n):
        if rem == 0:
            break
        b = _ONE << U64(highest_bit(rem))
        out |= b
        rem &= ~b
    return out


@hot
def representatives_loop(cards, in_play):
    """One card per run of ``cards`` adjacent among ``in_play`` (the highest of each run)."""
    out = U64(0)
    for s in range(4):
        mine = cards & lane_of(s)
        if mine == 0:
            continue
        rem = in_play & lane_of(s)
        prev_mine = False
        while rem:
            b = _ONE << U64(highest_bit(rem))
            if mine & b:
                if not prev_mine:
                    out |= b
                prev_mine = True
            else:
                prev_mine = False
            rem &= ~b
    return out


@hot
def top_run_bmi2(mine, rem):
    """:func:`top_run_loop` packed to the ranks of ``rem``: the bits above the highest one
    ``mine`` lacks."""
    n = popcount(rem)
    gaps = ~_pext(mine, rem) & ((_ONE << U64(n)) - _ONE)
    return n if gaps == 0 else n - 1 - highest_bit(gaps)


@hot
def top_cards_bmi2(rem, n):
    have = popcount(rem)
    n = min(n, have)
    return _pdep(((_ONE << U64(n)) - _ONE) << U64(have - n), rem)


@hot
def representatives_bmi2(cards, in_play):
    """:func:`representatives_loop` packed to the ranks in play: a run's top is a bit whose next
    is clear, and a suit's top card in play ends a run whatever the next suit holds."""
    x = _pext(cards, in_play)
    out = _pdep(x & ~(x >> _ONE), in_play)
    for s in range(4):
        lane = in_play & lane_of(s)
        if lane:
            out |= cards & (_ONE << U64(highest_bit(lane)))
    return out & cards


if HAS_BMI2:
    pext = _pext
    top_run = top_run_bmi2
    top_cards = top_cards_bmi2
    representatives = representatives_bmi2
else:
    pext = pext_loop
    top_run = top_run_loop
    top_cards = top_cards_loop
    representatives = representatives_loop


@hot
def spread2(x):
    """Bits 0..12 of ``x`` moved to the even bits 0, 2, .., 24."""
    x = (x | (x << U64(8))) & U64(0x00FF00FF)
    x = (x | (x << U64(4))) & U64(0x0F0F0F0F)
    x = (x | (x << U64(2))) & U64(0x33333333)
    x = (x | (x << U64(1))) & U64(0x55555555)
    return x
