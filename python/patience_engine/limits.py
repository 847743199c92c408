"""Numbers, ranges and limits: read from the command line and checked for the Python API, in one place.

Two rules hold everywhere (the command line, ``solve`` and the survey):

- A value of the wrong type is a ``TypeError``. An int is a Python int or any
  integer with ``__index__`` (a numpy integer), never a ``bool`` (Python's or
  numpy's); an int or float of the right type but out of range is a ``ValueError``.
  This is also what ``Game.deal`` does with a deal number.
- Text is read as decimal digits 0-9 alone (``parse_decimal``): no sign,
  space, underscore, base prefix or digits of other scripts, all of which
  ``int()`` would take.

>>> parse_decimal("0042", "depth", 1, 500)
42
>>> parse_decimal("9" * 5000, "jobs", 1)
Traceback (most recent call last):
ValueError: jobs must be >= 1, got a number of 5000 digits, too many to read
>>> parse_deal_range("3-5")
range(3, 6)
>>> check_int(1.5, "node_limit", 1)
Traceback (most recent call last):
TypeError: node_limit must be an int, got float
"""

from __future__ import annotations

import math
import numbers
import operator
import sys
from typing import Optional, SupportsIndex, Type, cast

from ._shown import int_text, repr_text, type_text

MAX_DEAL = (1 << 64) - 1
"""Largest numbered deal (docs/rules.md "Numbered deals")."""
MAX_SQLITE_INTEGER = (1 << 63) - 1
"""Largest deal number, node limit and table size a survey can store (SQLite integers are signed 64-bit)."""
MAX_SURVEY_DEAL = MAX_SQLITE_INTEGER
"""Largest deal number a survey can store."""
MAX_TABLE_BYTES = (1 << 64) - 1
"""Largest transposition-table size the solver takes (an unsigned 64-bit count of bytes)."""
MAX_THREADS = 1024
"""Largest ``num_threads`` a call takes (0 .. MAX_THREADS, 0 meaning every core the process may use)."""


def span(low: int, high: Optional[int]) -> str:
    """The bounds ``low .. high`` (no upper bound when ``high`` is None) as error messages give them."""
    if high is None:
        return f">= {low}"
    # 2**64-1 reads better than its 20 digits.
    top = f"2**{high.bit_length()}-1" if high > 1 << 32 and high & (high + 1) == 0 else str(high)
    return f"in {low} .. {top}"


def int_value(value: object) -> Optional[int]:
    """``value`` as a Python int when it is an int or an integer with ``__index__`` (a numpy
    integer, a 0-d integer array); None for anything else, a bool (Python's or numpy's) included.

    >>> import numpy as np
    >>> int_value(np.int64(7)), int_value(True), int_value(np.True_), int_value(2.0)
    (7, None, None, None)
    """
    # numpy's bool is told by its dtype: up to numpy 2.2 its __index__ only warns.
    if isinstance(value, (bool, str)) or getattr(getattr(value, "dtype", None), "kind", None) == "b":
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:  # no __index__, or numpy's bool refusing it
        return None


def check_int(value: object, what: str, low: int, high: Optional[int] = None, *,
              index: Optional[Type[Exception]] = None) -> int:
    """``value`` as an int when it is one (``int_value``) in ``low .. high`` (no upper bound when
    ``high`` is None): the one reader of an int in a range.

    Raises ``TypeError`` for anything but an int (``bool`` included) and ``ValueError`` out of
    range, both naming ``what``. ``index``: an index into ``low .. high`` (an action, a slot), whose
    error out of range is this exception worded ``"<what> N is outside low .. high"``.

    >>> check_int(7, "action", 0, 5, index=ValueError)
    Traceback (most recent call last):
    ValueError: action 7 is outside 0 .. 5
    """
    number = int_value(value)
    if number is None:
        raise TypeError(f"{what} must be an int, got {type_text(value)}")
    if number < low or (high is not None and number > high):
        if index is not None:
            raise index(f"{what} {int_text(number)} is outside {low} .. {high}")
        raise ValueError(f"{what} must be {span(low, high)}, got {int_text(number)}")
    return number


def check_threads(value: object) -> int:
    """``value`` as ``num_threads``: an int in 0 .. ``MAX_THREADS`` (0: every core the process may use).

    Raises ``TypeError`` for anything but an int and ``ValueError`` out of range, as ``check_int``.
    """
    return check_int(value, "num_threads", 0, MAX_THREADS)


def check_seconds(value: object, what: str) -> float:
    """``value`` as a float when it is a positive finite number of seconds (a real number).

    Takes an int, a float or any other ``numbers.Real`` (numpy's floats and ints, a Fraction). Raises
    ``TypeError`` for anything else (a bool, Python's or numpy's, included) and ``ValueError``
    when it is not positive and finite, both naming ``what``.
    """
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{what} must be a number of seconds, got {type_text(value)}")
    real = cast(float, value)  # a numbers.Real compares and converts as a float does
    try:
        seconds = float(real)
    except OverflowError:  # an int past the floats: finite, and its sign is all that matters
        seconds = sys.float_info.max if real > 0 else -sys.float_info.max
    if not (seconds > 0 and math.isfinite(seconds)):
        shown = int_text(int(value)) if isinstance(value, numbers.Integral) else repr_text(value)
        raise ValueError(f"{what} must be a finite number of seconds > 0, got {shown}")
    return seconds


def parse_decimal(text: str, what: str, low: int, high: Optional[int] = None) -> int:
    """``text`` as an integer in ``low .. high`` (no upper bound when ``high`` is None).

    Only the ASCII digits 0-9 are taken (leading zeros too): no sign, space, underscore, base prefix or
    digits of other scripts, all of which ``int()`` would read. Raises ``ValueError`` naming ``what``.
    """
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{what} must be written with the digits 0-9 alone, got {repr_text(text)}")
    significant = text.lstrip("0") or "0"
    if len(significant) > 39:  # past 2**128 and every bound here; int() refuses more than 4300 digits
        beyond = "" if high is not None else ", too many to read"
        raise ValueError(f"{what} must be {span(low, high)}, got a number of {len(significant)} digits{beyond}")
    return check_int(int(significant), what, low, high)


def parse_seconds(text: str, what: str) -> float:
    """``text`` as a positive finite number of seconds (``float()``'s syntax); ``ValueError`` naming ``what``.

    A finite number past the floats (``1e400``) is taken as the largest float, as ``check_seconds``
    takes an int past them; ``inf`` and ``nan`` are refused.
    """
    try:
        if not text.isascii() or "_" in text:  # float() reads other scripts' digits and 1_0 too
            raise ValueError
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} must be a number of seconds, got {repr_text(text)}") from None
    if math.isinf(value) and "inf" not in text.lower():
        value = math.copysign(sys.float_info.max, value)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{what} must be a finite number of seconds > 0, got {repr_text(text)}")
    return value


def parse_deal_range(text: str) -> range:
    """The deals of ``"A-B"`` (inclusive) or ``"N"``; raises ``ValueError`` for anything else.

    Deal numbers are 0 .. ``MAX_SURVEY_DEAL``, written with the digits 0-9 alone (see ``parse_decimal``).
    """
    first, sep, last = text.partition("-")
    try:
        a = parse_decimal(first, "deal number", 0, MAX_SURVEY_DEAL)
        b = parse_decimal(last, "deal number", 0, MAX_SURVEY_DEAL) if sep else a
    except ValueError as error:
        raise ValueError(f"deal range must be A-B or N, got {repr_text(text)}: {error}") from None
    if a > b:
        raise ValueError(f"deal range A-B must have A <= B, got {repr_text(text)}")
    return range(a, b + 1)


def check_deal_range(deals: object) -> range:
    """``deals`` when it is a contiguous ``range`` of deal numbers within 0 .. ``MAX_SURVEY_DEAL``.

    Raises ``TypeError`` for anything but a ``range`` and ``ValueError`` for a step other than 1 or
    deals out of bounds.
    """
    if not isinstance(deals, range):
        raise TypeError(f"deals must be a range, got {type_text(deals)}")
    if deals.step != 1 or deals.start < 0 or deals.stop - 1 > MAX_SURVEY_DEAL or not deals:
        bounds = [deals.start, deals.stop] + ([deals.step] if deals.step != 1 else [])
        shown = f"range({', '.join(map(int_text, bounds))})"
        raise ValueError(f"deals must be a contiguous range of at least one deal within 0 .. 2**63-1, got {shown}")
    return deals
