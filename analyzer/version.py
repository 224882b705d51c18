"""The package version, in a module of its own so that anything can read it without importing the
whole API of :mod:`analyzer`."""

__version__ = "0.1.0"
