"""Exceptions shared by the C++ engine and the pure-Python reference."""


class IllegalMoveError(ValueError):
    """A move that is not legal in the position it was played in.

    Raised by ``play``; the position is left unchanged.
    """


class MissingExtraError(ImportError):
    """An optional dependency (the ``dask`` or ``plot`` extra) is not installed."""
