"""How error messages show the values they refuse: text, ints, types and anything else, in one
place for the whole package. The C++ bindings call these functions (core/bind_args.hpp
shown()), and the engine's parse errors quote their input with ``quote`` (core/bind_args.hpp
parse_error_text()), so the escapes and the cut are written here alone.

A message stays one short line whatever it was given: text is cut after ``SHOWN_CHARS``
characters, an int past 128 bits is shown by a bound (Python will not write more than 4300
digits), and characters that show as nothing are escaped.
"""

from __future__ import annotations

import builtins

SHOWN_CHARS = 40
"""Characters of input text an error message shows; the rest becomes ``...``."""

_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Characters that show as nothing or as a space, the C1 controls and lone surrogates (which no output
# encoding takes): escaped in messages so that a byte-order mark or a no-break space can be seen and
# every message can be printed, as inclusive ranges.
_INVISIBLE_RANGES = [
    (0x80, 0xA0), (0xAD, 0xAD), (0x34F, 0x34F), (0x600, 0x605), (0x61C, 0x61C), (0x115F, 0x1160), (0x1680, 0x1680),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x206F), (0x3000, 0x3000),
    (0x3164, 0x3164), (0xD800, 0xDFFF), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]


def quote(text: str) -> str:
    r"""Input text as every error message of both implementations shows it.

    In single quotes; backslash, quote, control characters and characters that
    show as nothing or as a space (``_INVISIBLE_RANGES``) escaped in ``repr``'s
    notation; other characters as they are; at most SHOWN_CHARS characters,
    then ``...`` after the closing quote.

    >>> print(quote("7S\x00"), quote("it's"), quote("\ufeffQH\xa0"), quote("Q" * 41)[-6:])
    '7S\x00' 'it\'s' '\ufeffQH\xa0' QQ'...
    """

    def shown_char(ch: str) -> str:
        code = ord(ch)
        if ch in _ESCAPES:
            return _ESCAPES[ch]
        if code < 0x20 or code == 0x7F or any(low <= code <= high for low, high in _INVISIBLE_RANGES):
            return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
        return ch

    shown = "".join(shown_char(ch) for ch in text[:SHOWN_CHARS])
    return f"'{shown}'" + ("..." if len(text) > SHOWN_CHARS else "")


def type_text(value: object) -> str:
    """What an error message calls ``value``: its type's name (with its module when a builtin has
    that name), or ``the class X`` when it is a class; a name is cut after ``SHOWN_CHARS``
    characters, as input text is.

    >>> import numpy as np
    >>> type_text(1.5), type_text(range), type_text(np.True_), type_text(type("Q" * 41, (), {})())[-5:]
    ('float', 'the class range', 'numpy.bool', 'QQ...')
    """
    if isinstance(value, type):
        return f"the class {_cut(value.__qualname__)}"
    cls = type(value)
    # numpy's bool is named bool too: its module tells them apart.
    named_like_a_builtin = cls.__module__ != "builtins" and cls.__name__ in vars(builtins)
    return _cut(f"{cls.__module__}.{cls.__name__}" if named_like_a_builtin else cls.__name__)


def qualified_name(cls: type) -> str:
    """A class as a message names one of another module: its module, a dot and its qualified name,
    each cut as ``type_text`` cuts a name.

    >>> qualified_name(range), qualified_name(type("Q" * 41, (), {}))[-6:]
    ('builtins.range', 'QQQ...')
    """
    return f"{_cut(str(cls.__module__))}.{_cut(cls.__qualname__)}"


def _cut(name: str) -> str:
    """``name``, or its first ``SHOWN_CHARS`` characters and ``...``."""
    return name if len(name) <= SHOWN_CHARS else name[:SHOWN_CHARS] + "..."


def int_text(number: int) -> str:
    """``number`` as an error message shows it: its digits up to 128 bits, else a bound on it
    (Python refuses to write an int of more than 4300 digits, and such a number is unreadable).

    >>> int_text(-12), int_text(10**100)
    ('-12', 'an int >= 2**332')
    """
    bits = number.bit_length()
    if bits <= 128:
        return str(number)
    return f"an int {'<= -' if number < 0 else '>= '}2**{bits - 1}"


def repr_text(value: object) -> str:
    """``value`` as a message shows a value it refuses: text as ``quote`` shows it, an int as
    ``int_text`` does, anything else as its ``repr``, cut after ``SHOWN_CHARS`` characters.

    >>> print(repr_text("x" * 50)[-5:], repr_text(2**200), repr_text((1, 2)))
    x'... an int >= 2**200 (1, 2)
    """
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int_text(value)
    try:
        text = repr(value)
    except ValueError:  # an int of more than 4300 digits inside (a Fraction's)
        return f"a {type_text(value)} too long to show"
    return _cut(text)
