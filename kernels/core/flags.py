"""A flag another thread raises while a kernel runs (Ctrl-C, a server's time cap).

The kernel must read it anew each time: a plain ``stop[0]`` is a load that LLVM may hoist out of
a loop (nothing in the loop writes it, and Numba tells LLVM the arrays of a parallel loop do not
alias), so a kernel could read the flag once and never again. :func:`raised` is an atomic load
(acquire), which the optimiser may not hoist or merge.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def raised(typingctx, flag):
    """Whether ``flag[0]`` (a ``uint8[1]`` array written by another thread) is non-zero."""
    if not (isinstance(flag, types.Array) and flag.dtype == types.uint8):
        return None
    sig = types.boolean(flag)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        value = builder.load_atomic(array.data, "acquire", 1)
        return builder.icmp_unsigned("!=", value, ir.Constant(ir.IntType(8), 0))

    return sig, codegen


@intrinsic
def raised_at(typingctx, address):
    """Whether the byte at ``address`` (an int64: the address of a ``uint8[1]`` flag, kept in a
    workspace so that the solver's signatures need not carry the flag) is non-zero."""
    if not isinstance(address, types.Integer):
        return None
    sig = types.boolean(address)

    def codegen(context, builder, signature, args):
        pointer = builder.inttoptr(args[0], ir.IntType(8).as_pointer())
        value = builder.load_atomic(pointer, "acquire", 1)
        return builder.icmp_unsigned("!=", value, ir.Constant(ir.IntType(8), 0))

    return sig, codegen
