"""Cards, the numbered-deal generator, Zobrist key tables and text tokenising.

Everything here restates ``docs/rules.md`` ("Cards", "Numbered deals", "Text
formats"); each game's module describes its Zobrist keys.
"""

from __future__ import annotations

import re
from typing import Iterator, List, NamedTuple, NoReturn

from .._shown import quote
from ..limits import MAX_DEAL, check_int

MASK64 = (1 << 64) - 1
RANKS = "A23456789TJQK"
SUITS = "CDHS"
_BLANKS = re.compile(r"[ \t\r\f\v]+")
_SUIT_SYMBOLS = {"\u2663": 0, "\u2666": 1, "\u2665": 2, "\u2660": 3}


def rank_of(card: int) -> int:
    """Rank value 1..13 of a card index 0..51."""
    return card % 13 + 1


def suit_of(card: int) -> int:
    """Suit 0..3 (C D H S) of a card index 0..51."""
    return card // 13


def card_text(card: int) -> str:
    """Two-character upper-case text of a card index, e.g. ``card_text(37) == 'QH'``."""
    return RANKS[card % 13] + SUITS[card // 13]


def parse_rank(token: str) -> int:
    """Rank value 1..13 of a rank token (``A``..``K``, ``T``, ``10``, any case); 0 if none."""
    if token == "10":
        return 10
    if len(token) != 1:
        return 0
    index = RANKS.find(token.upper())
    return index + 1


def parse_suit(token: str) -> int:
    """Suit 0..3 of a suit token (a letter C D H S in either case, or a suit symbol); -1 when it is not one.

    >>> parse_suit("h"), parse_suit("\u2660"), parse_suit("HS")
    (2, 3, -1)
    """
    if len(token) != 1:
        return -1
    return _SUIT_SYMBOLS.get(token, SUITS.find(token.upper()) if token.isascii() else -1)


def parse_card(token: str) -> int:
    """Card index of a card token, or -1 when the token is not a card.

    Accepts rank then suit, lowercase, ``10`` for ``T`` and the suit symbols
    (docs/rules.md "Cards").

    >>> parse_card("QH"), parse_card("10s"), parse_card("A\u2663"), parse_card("1H")
    (37, 48, 0, -1)
    """
    if len(token) < 2:
        return -1
    suit = parse_suit(token[-1])
    if suit < 0:
        return -1
    rank = parse_rank(token[:-1])
    return suit * 13 + rank - 1 if rank else -1


class SplitMix64:
    """SplitMix64 generator (docs/rules.md "Numbered deals"); all arithmetic mod 2**64."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """Advance and return the next draw, an int in 0 .. 2**64-1."""
        self.state = (self.state + GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


GAMMA = 0x9E3779B97F4A7C15
"""SplitMix64's increment: its state advances by it at every draw."""


def stream_seed(seed: int, i: int) -> int:
    """The seed of random stream ``i`` of ``seed`` (docs/rl.md "Random streams"): the ``(i + 1)``-th draw of
    SplitMix64(``seed``), worked out directly as the first draw of SplitMix64(``seed + i * GAMMA``).

    A batch's slot ``i`` and playout ``i`` draw from SplitMix64(``stream_seed(seed, i)``).

    >>> rng = SplitMix64(7)
    >>> [stream_seed(7, i) for i in range(3)] == [rng.next() for _ in range(3)], hex(stream_seed(7, 1))
    (True, '0x44c3cd7f43c661c')
    """
    return SplitMix64((seed + i * GAMMA) & MASK64).next()


def shuffle(items: List[int], seed: int) -> None:
    """Shuffle ``items`` in place with the shuffle of docs/rules.md "Numbered deals", driven by SplitMix64(seed)."""
    rng = SplitMix64(seed)
    for i in range(len(items) - 1, 0, -1):
        j = rng.next() % (i + 1)
        items[i], items[j] = items[j], items[i]


def check_deal_number(n: object, what: str = "deal number") -> int:
    """Return ``n`` when it is a deal number or another 64-bit seed (an int in 0 .. 2**64-1).

    ``what`` names it in the messages. Raises TypeError for a non-int (bool
    included) and ValueError out of range (the rule of ``patience_engine.limits``).
    """
    return check_int(n, what, 0, MAX_DEAL)


def zobrist_keys(seed: int, count: int) -> List[int]:
    """``count`` consecutive draws of SplitMix64(seed): a Zobrist key table."""
    rng = SplitMix64(seed)
    return [rng.next() for _ in range(count)]


def move_fail(text: str, why: str) -> NoReturn:
    """Raise ValueError ``bad move text 'text': why``."""
    raise ValueError(f"bad move text {quote(text)}: {why}")


def parse_fail(line: int, token: int, text: str, what: str) -> NoReturn:
    """Raise ValueError ``line L, token T 'text': what`` (numbers count from 1; text as quote shows it)."""
    raise ValueError(f"line {line}, token {token} {quote(text)}: {what}")


def parse_fail_line(line: int, what: str) -> NoReturn:
    """Raise ValueError ``line L: what`` for a fault of a whole line."""
    raise ValueError(f"line {line}: {what}")


class TextLine(NamedTuple):
    """A non-blank input line: its 1-based number and its white-space separated tokens."""

    number: int
    tokens: List[str]


def split_lines(text: str) -> Iterator[TextLine]:
    """Yield the non-blank lines of ``text``.

    Lines end at ``\\n``; tokens are separated by ASCII blanks (space, tab, CR,
    FF, VT), exactly as the C++ reader splits them.
    """
    for number, line in enumerate(text.split("\n"), start=1):
        tokens = [token for token in _BLANKS.split(line) if token]
        if tokens:
            yield TextLine(number, tokens)
