"""PySolFC game numbers: the opening layouts PySolFC deals for Royal Marriage and Geoffrey.

PySolFC (the open-source solitaire collection) names each deal by a game
number. This module redoes its dealing in our own code, stdlib only, so that
``RoyalMarriage.from_pysol(n)`` and ``Geoffrey.from_pysol(n)`` (both
implementations) start from the very layout a PySolFC player sees for game
number ``n``. Each step below names the PySolFC (or pysol-cards, the
package PySolFC takes its generators from) source it restates:

1. **Reading the number** (``pysollib/pysolrandom.py``, ``constructRandom``):
   text matching ``ms<digits>`` (optionally one trailing newline) is a
   Microsoft-compatible number, allowed up to ``2**33 - 1``; any other text
   loses one trailing ``L``, every white space and ``# - _ . ,``, is
   lower-cased and read as an integer.
2. **Choosing the generator by size** (same function): plain numbers below
   32000, and every ``ms`` number, use ``LCRandom31``; plain numbers from
   32000 up use ``MTRandom``, the Mersenne Twister. ``LCRandom31`` refuses 0
   (pysol-cards ``random.py``, ``LCRandom31.setSeed``: ``1 <= seed``).
3. **LCRandom31** (pysol-cards ``random.py``): ``x = (x * 214013 + 2531011)
   mod 2**33``, starting from the number (less ``2**32`` for numbers from
   ``2**32``). A draw is ``(x >> 16) & 0x7fff``, with ``0x8000`` or'ed in for
   numbers from ``2**31``; from ``2**32`` it is ``((x >> 16) & 0xffff) + 1``.
   ``randint(a, b) = a + draw % (b + 1 - a)``.
4. **MTRandom** (pysol-cards ``random.py`` and ``random_base.py``): Python's
   Mersenne Twister (the ``random2`` package, Python 2's ``random``, which
   seeds and draws ``random()`` exactly as Python 3's ``random.Random`` does
   for an integer seed); ``randint(a, b) = a + int(random() * (b + 1 - a))``
   (``RandomBase.randint``, which comes first in ``MTRandom``'s bases).
5. **The deck** (``pysollib/game/__init__.py``, ``Game.createCards``): suits
   in PySolFC's order clubs, spades, hearts, diamonds (``pysollib/util.py``;
   pysol-cards ``cards.py`` spells them ``CSHD``), each from ace to king.
6. **The shuffle** (``Game.shuffle``): for ``LCRandom31`` the 52 cards are
   first regrouped rank by rank in the order clubs, diamonds, hearts, spades
   (pysol-cards ``cards.py``, ``ms_rearrange``); then for ``n`` from 51 down
   to 1, ``j = randint(0, n)`` and cards ``n`` and ``j`` swap
   (``RandomBase.shuffle``). Then the game's ``_shuffleHook`` runs; the
   result is the talon from its bottom card (index 0) to its top card.
7. **Dealing** (``pysollib/stack.py``, ``TalonStack.dealRow``): each
   ``dealRow`` gives one card from the top of the talon to each listed pile
   in turn.
8. **Royal Marriage**, PySolFC game 288 (``pysollib/games/pushpin.py``,
   ``RoyalMarriage._shuffleHook`` and ``PushPin.startGame``): the hook takes
   out the queen and king of hearts, puts the king at the bottom of the
   talon and the queen on top; with PySolFC's default "deal all cards" the
   52 cards are dealt to the 52 row piles in order, so the row is the talon
   read from the top down: ``QH`` first, ``KH`` last.
9. **Geoffrey**, PySolFC game 492 (``pysollib/games/yukon.py``,
   ``Geoffrey.startGame``, no shuffle hook): for ``i`` in 4, 4, 4, 4, 8,
   one card face up to each of columns ``1..i`` and one face down to each
   column after ``i``; then one face-up card to every column, then one more
   face up to columns 1 to 4.

Known answers (PySolFC's own layouts of game 1) are pinned in
``tests/test_pysol.py``.

>>> royal_marriage_text(1).split()[:4]
['QH', 'JD', '2D', '9H']
>>> geoffrey_text(1).splitlines()[5]
'(5D) (AD) (JS) (4H) 8H 6C'
"""

from __future__ import annotations

import random
import re
import sys
from typing import Any, Callable, Dict, List, SupportsIndex, Tuple, Union

from .._shown import int_text, quote, repr_text, type_text
from ..limits import int_value
from ..registry import GAMES

PYSOL_GAME_IDS = {name: info.pysol_id for name, info in GAMES.items() if info.pysol_id is not None}
"""PySolFC's own game ids of the games it has, by our command-line name (``registry.GameInfo.pysol_id``)."""

MS_MAX = (1 << 33) - 1
"""The largest ``ms`` number PySolFC accepts (``LCRandom31.MAX_SEED``)."""

LC_LIMIT = 32000
"""Plain numbers below this use ``LCRandom31``; from it up, the Mersenne Twister."""

_MS_PATTERN = re.compile(r"ms([0-9]+)\n?\Z")
_RANKS = "A23456789TJQK"
_PYSOL_SUITS = "CSHD"


def parse_number(number: Union[SupportsIndex, str]) -> Tuple[int, bool]:
    """Read a PySolFC game number, an int or the text a PySolFC user types.

    Returns ``(seed, ms)``: the integer and whether it selects PySolFC's
    Microsoft-compatible generator (an ``ms`` prefix or a number below 32000).
    Raises ValueError for what PySolFC refuses (0, ``ms0``, an ``ms`` number
    above ``2**33 - 1``, text that is not a number, a negative int) and
    TypeError for anything but an int (an integer with ``__index__``, as ``deal()`` takes) or a str.
    """
    if not isinstance(number, str):
        value = int_value(number)
        if value is None:
            raise TypeError(f"PySolFC game number must be an int or a str, got {type_text(number)}")
        if value < 0:
            raise ValueError(f"PySolFC refuses game number {int_text(value)}: game numbers are not negative")
        number = value
        seed, ms = value, value < LC_LIMIT
    else:
        match = _MS_PATTERN.match(number)
        if match:
            digits = match.group(1).lstrip("0") or "0"
            if len(digits) > len(str(MS_MAX)) or int(digits) > MS_MAX:
                raise ValueError(f"PySolFC refuses game number {quote(number)}: ms numbers go up to ms{MS_MAX}")
            seed, ms = int(digits), True
        else:
            cleaned = re.sub(r"[\s#\-_.,]", "", re.sub(r"L$", "", number).lower())
            if not cleaned.isdigit() or not cleaned.isascii():
                raise ValueError(f"PySolFC refuses game number {quote(number)}: not a number")
            cleaned = cleaned.lstrip("0") or "0"
            # int() refuses more digits, in PySolFC too; 0 (or a Python before the limit): none.
            most: int = getattr(sys, "get_int_max_str_digits", lambda: 0)()
            if most and len(cleaned) > most:
                raise ValueError(f"PySolFC refuses game number {quote(number)}: more than {most} digits")
            seed = int(cleaned)
            ms = seed < LC_LIMIT
    if seed == 0:
        raise ValueError(f"PySolFC refuses game number {repr_text(number)}: its generator needs a number of at least 1")
    return seed, ms


def _lc_randint(seed: int) -> Callable[[int], int]:
    """PySolFC's ``LCRandom31(seed).randint(0, n)`` as a function of ``n`` (step 3)."""
    state = seed - (1 << 32) if seed >= 1 << 32 else seed

    def randint(n: int) -> int:
        nonlocal state
        state = (state * 214013 + 2531011) & MS_MAX
        if seed < 1 << 32:
            draw = (state >> 16) & 0x7FFF
            if seed >= 1 << 31:
                draw |= 0x8000
        else:
            draw = ((state >> 16) & 0xFFFF) + 1
        return draw % (n + 1)

    return randint


def _mt_randint(seed: int) -> Callable[[int], int]:
    """PySolFC's ``MTRandom(seed).randint(0, n)`` as a function of ``n`` (step 4)."""
    generator = random.Random(seed)
    return lambda n: int(generator.random() * (n + 1))


def talon(number: Union[SupportsIndex, str]) -> List[str]:
    """The 52 cards of the shuffled talon before any shuffle hook, bottom card first (steps 1-6).

    Cards are our two-character texts (``'QH'``). Raises as ``parse_number``.
    """
    seed, ms = parse_number(number)
    cards = [rank + suit for suit in _PYSOL_SUITS for rank in _RANKS]
    if ms:
        cards = [cards[i + j] for i in range(13) for j in (0, 39, 26, 13)]
        randint = _lc_randint(seed)
    else:
        randint = _mt_randint(seed)
    for n in range(len(cards) - 1, 0, -1):
        j = randint(n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards


def royal_marriage_text(number: Union[SupportsIndex, str]) -> str:
    """PySolFC's Royal Marriage (game 288) for ``number`` in our text format (step 8).

    Raises as ``parse_number``.
    """
    cards = talon(number)
    cards.remove("QH")
    cards.remove("KH")
    cards = ["KH", *cards, "QH"]
    row = cards[::-1]
    return "\n".join(" ".join(row[i:i + 13]) for i in range(0, 52, 13))


def geoffrey_text(number: Union[SupportsIndex, str]) -> str:
    """PySolFC's Geoffrey (game 492) for ``number`` in our text format (step 9).

    Raises as ``parse_number``.
    """
    cards = talon(number)
    columns: List[List[str]] = [[] for _ in range(8)]

    def deal_row(first: int, last: int, face_up: bool) -> None:
        for column in columns[first:last]:
            card = cards.pop()
            column.append(card if face_up else f"({card})")

    for i in (4, 4, 4, 4, 8):
        deal_row(0, i, True)
        deal_row(i, 8, False)
    deal_row(0, 8, True)
    deal_row(0, 4, True)
    return "Foundations: C-0 D-0 H-0 S-0\n" + "\n".join(" ".join(column) for column in columns)


def _layout_function(name: str) -> Callable[[Union[SupportsIndex, str]], str]:
    """The layout function of a game with a PySolFC id: ``<registry module>_text`` above."""
    function = globals().get(f"{GAMES[name].module}_text")
    if function is None:
        raise ImportError(f"the registry gives {name} PySolFC's game id {GAMES[name].pysol_id}, but "
                          f"patience_engine/reference/pysol.py has no {GAMES[name].module}_text() to deal its layouts")
    return function  # type: ignore[no-any-return]


_LAYOUTS: Dict[str, Callable[[Union[SupportsIndex, str]], str]] = {name: _layout_function(name) for name in PYSOL_GAME_IDS}
"""Each PySolFC game's layout function by command-line name."""


def layout_text(game: str, number: Union[SupportsIndex, str]) -> str:
    """PySolFC's opening layout of ``game`` (a command-line name) for ``number``, in our text format.

    Raises ValueError for a game PySolFC does not have (Germaine 2-Move) and
    as ``parse_number`` for a number PySolFC refuses.
    """
    if game not in _LAYOUTS:
        raise ValueError(f"PySolFC has no such game as {game!r}: it deals only "
                         + " and ".join(f"{name} (its game {gid})" for name, gid in PYSOL_GAME_IDS.items()))
    return _LAYOUTS[game](number)


def install(cls: Any, game: str) -> None:
    """Give a game class (either implementation) the classmethod ``from_pysol(number)``."""

    def from_pysol(klass: Any, number: Union[SupportsIndex, str]) -> Any:
        """PySolFC's opening layout for game number ``number`` (an int or PySolFC's text, ``'ms'`` prefix allowed).

        Raises ValueError when PySolFC refuses the number (such as 0) or has no such game.
        """
        return klass.from_text(layout_text(game, number))

    cls.from_pysol = classmethod(from_pysol)
