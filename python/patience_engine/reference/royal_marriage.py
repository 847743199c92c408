"""Royal Marriage, pure-Python reference (docs/rules.md "Royal Marriage").

One row of cards, ``QH`` first and ``KH`` last. A card whose two neighbours
match (same rank or same suit) may be removed, and so may two adjacent cards
whose outer neighbours match; the row closes up. Won when only ``QH`` and
``KH`` are left.

Position: the row as a list of card indices. Zobrist key: XOR over
adjacent pairs ``(a, b)`` of ``NEXT[a][b]``; the canonical key is the same key.
"""

from __future__ import annotations

from typing import List, Tuple

from .._shown import quote
from ._base import NO_ACTION, Game, Move, put_card, zeros
from ._cards import (
    card_text,
    move_fail,
    parse_card,
    parse_fail,
    parse_fail_line,
    shuffle,
    split_lines,
    zobrist_keys,
)

__all__ = ["RoyalMarriage", "RoyalMarriageMove"]

QUEEN_OF_HEARTS = 37
KING_OF_HEARTS = 38
ZOBRIST_SEED = 0x526F79616C4D6172  # "RoyalMar"

# NEXT[a * 52 + b]: card a lies immediately left of card b.
_NEXT: List[int] = zobrist_keys(ZOBRIST_SEED, 52 * 52)
# The 50 cards that can be removed, in increasing order, and each card's index among them (-1: QH, KH).
_MIDDLE: List[int] = [c for c in range(52) if c not in (QUEEN_OF_HEARTS, KING_OF_HEARTS)]
_MIDDLE_INDEX: List[int] = [_MIDDLE.index(c) if c in _MIDDLE else -1 for c in range(52)]
REMOVE_TWO_BASE = len(_MIDDLE)
"""First remove-two action; actions 0 .. 49 remove one middle card each (docs/rl.md "Actions")."""
# _MATCH[a * 52 + b]: cards a and b share a rank or a suit.
_MATCH: List[bool] = [a % 13 == b % 13 or a // 13 == b // 13 for a in range(52) for b in range(52)]


class RoyalMarriageMove(Move):
    """A Royal Marriage move: ``7S`` removes one card, ``7S+JD`` two adjacent cards.

    ``RoyalMarriageMove(text)`` reads the notation (docs/rules.md "Move notation";
    cards in any spelling ``parse_card`` accepts) and raises ValueError saying
    what is wrong. Identity: the removed card(s), left one first.
    """

    __slots__ = ()
    _key: Tuple[int, ...]

    @staticmethod
    def _parse(text: str) -> Tuple[int, ...]:
        parts = text.split("+")
        if len(parts) > 2 or "" in parts:
            move_fail(text, "expected a card or two cards joined by '+'")
        cards = []
        for part in parts:
            card = parse_card(part)
            if card < 0:
                move_fail(text, f"{quote(part)} is not a card")
            cards.append(card)
        if len(cards) == 2 and cards[0] == cards[1]:
            move_fail(text, "the two cards must differ")
        return tuple(cards)

    @staticmethod
    def _encode(key: Tuple[int, ...]) -> int:
        indices = [_MIDDLE_INDEX[card] for card in key]
        if -1 in indices:
            return NO_ACTION
        if len(indices) == 1:
            return indices[0]
        # Ordered pairs of different middle cards: the right card's index skips the left one's.
        left, right = indices
        return REMOVE_TWO_BASE + left * (REMOVE_TWO_BASE - 1) + right - (right > left)

    def __str__(self) -> str:
        return "+".join(card_text(card) for card in self._key)

    @property
    def cards(self) -> Tuple[str, ...]:
        """The removed cards as text, left one first: ``('7S',)`` or ``('7S', 'JD')``."""
        return tuple(card_text(card) for card in self._key)


# Every possible move, built once: generation hands out these shared values.
_REMOVE_ONE: List[RoyalMarriageMove] = [RoyalMarriageMove._of((c,)) for c in range(52)]
_REMOVE_TWO: List[RoyalMarriageMove] = [RoyalMarriageMove._of((a, b)) for a in range(52) for b in range(52)]


class RoyalMarriage(Game[RoyalMarriageMove]):
    """A Royal Marriage position (docs/rules.md "Royal Marriage").

    Make one with ``RoyalMarriage.deal(n)`` or ``RoyalMarriage.from_text(text)``
    (text: the row's cards separated by white space; ValueError naming line and
    token for an unknown or duplicated card, ``QH`` not first, ``KH`` not last).
    ``hash`` and ``canonical_hash`` are equal unsigned 64-bit ints; ``score``
    is 52 minus the cards in the row; ``is_won`` when only ``QH KH`` remain.
    """

    Move = RoyalMarriageMove
    NUM_ACTIONS = REMOVE_TWO_BASE + REMOVE_TWO_BASE * (REMOVE_TWO_BASE - 1)
    OBSERVATION_SHAPE = (17, 52)
    DEFAULT_MAX_MOVES = 50  # every move removes a card and 50 can go: an episode never reaches it
    _row: List[int]
    _hash: int
    _canonical: int

    @classmethod
    def _of_row(cls, row: List[int]) -> RoyalMarriage:
        game = cls.__new__(cls)
        game._row = row
        game._hash, game._canonical = game._compute_keys()
        return game

    @classmethod
    def _deal(cls, n: int) -> RoyalMarriage:
        middle = [c for c in range(52) if c not in (QUEEN_OF_HEARTS, KING_OF_HEARTS)]
        shuffle(middle, n)
        return cls._of_row([QUEEN_OF_HEARTS] + middle + [KING_OF_HEARTS])

    @classmethod
    def _parse(cls, text: str) -> RoyalMarriage:
        row: List[int] = []
        places: List[Tuple[int, int, str]] = []  # (line, token number, token) of each card
        seen = set()
        for line in split_lines(text):
            for number, token in enumerate(line.tokens, start=1):
                card = parse_card(token)
                if card < 0:
                    parse_fail(line.number, number, token, "unknown card")
                if card in seen:
                    parse_fail(line.number, number, token, "duplicate card")
                seen.add(card)
                row.append(card)
                places.append((line.number, number, token))
        if len(row) < 2:
            parse_fail_line(text.count("\n") + 1, "a row needs QH and KH")
        if row[0] != QUEEN_OF_HEARTS:
            parse_fail(*places[0], "QH must be first")
        if row[-1] != KING_OF_HEARTS:
            parse_fail(*places[-1], "KH must be last")
        return cls._of_row(row)

    def _text(self, hidden: bool) -> str:
        """The row, 13 cards to a line, cards separated by one space (docs/rules.md "Text formats")."""
        texts = [card_text(card) for card in self._row]
        return "\n".join(" ".join(texts[i : i + 13]) for i in range(0, len(texts), 13))

    def _generate(self) -> List[RoyalMarriageMove]:
        row = self._row
        moves = []
        # Remove one: row[i] goes when its neighbours a and c match.
        for a, b, c in zip(row, row[1:], row[2:]):
            if _MATCH[a * 52 + c]:
                moves.append(_REMOVE_ONE[b])
        # Remove two: row[i] and row[i+1] go when row[i-1] and row[i+2] match.
        for a, b, c, d in zip(row, row[1:], row[2:], row[3:]):
            if _MATCH[a * 52 + d]:
                moves.append(_REMOVE_TWO[b * 52 + c])
        return moves

    @classmethod
    def _decode(cls, action: int) -> RoyalMarriageMove:
        if action < REMOVE_TWO_BASE:
            return _REMOVE_ONE[_MIDDLE[action]]
        left, right = divmod(action - REMOVE_TWO_BASE, REMOVE_TWO_BASE - 1)
        right += right >= left
        return _REMOVE_TWO[_MIDDLE[left] * 52 + _MIDDLE[right]]

    def _observe(self, hidden: bool) -> List[List[int]]:
        """Planes 0-12 rank, 13-16 suit one-hot; column p is row position p, zero past the row's end."""
        planes = zeros(self.OBSERVATION_SHAPE)
        for position, card in enumerate(self._row):
            put_card(planes, card, position)
        return planes

    def _make(self, move: RoyalMarriageMove) -> Tuple[int, int]:
        """Remove the card(s); returns (index of the first removed card, key before)."""
        row = self._row
        key = move._key
        i = row.index(key[0])
        before = self._hash
        a = row[i - 1]
        if len(key) == 1:
            b, c = row[i], row[i + 1]
            self._hash ^= _NEXT[a * 52 + b] ^ _NEXT[b * 52 + c] ^ _NEXT[a * 52 + c]
            del row[i]
        else:
            b, c, d = row[i], row[i + 1], row[i + 2]
            self._hash ^= _NEXT[a * 52 + b] ^ _NEXT[b * 52 + c] ^ _NEXT[c * 52 + d] ^ _NEXT[a * 52 + d]
            del row[i : i + 2]
        self._canonical = self._hash
        return i, before

    def _unmake(self, move: RoyalMarriageMove, undo: Tuple[int, int]) -> None:
        i, before = undo
        self._row[i:i] = move._key
        self._hash = self._canonical = before

    def _compute_keys(self) -> Tuple[int, int]:
        """(hash, canonical_hash) computed from scratch."""
        key = 0
        row = self._row
        for a, b in zip(row, row[1:]):
            key ^= _NEXT[a * 52 + b]
        return key, key

    def _position(self) -> Tuple[int, ...]:
        return tuple(self._row)

    @property
    def hash(self) -> int:
        """Zobrist key of the row: an unsigned 64-bit int."""
        return self._hash

    @property
    def canonical_hash(self) -> int:
        """Same as ``hash``: Royal Marriage has no symmetry."""
        return self._canonical

    @property
    def is_won(self) -> bool:
        """True when only ``QH`` and ``KH`` are left."""
        return len(self._row) == 2

    @property
    def score(self) -> int:
        """Cards removed: 52 minus the length of the row (50 when won)."""
        return 52 - len(self._row)

    @property
    def row(self) -> Tuple[str, ...]:
        """The row's cards as text, left to right (``QH`` first, ``KH`` last)."""
        return tuple(card_text(card) for card in self._row)
