"""Numba kernels for tarneeb400.

Only arrays and scalars go in and come out; nothing here imports from ``analyzer``.
The card bit layout lives in :mod:`kernels.core.cards`, the Numba options in :mod:`kernels.config`.
"""
