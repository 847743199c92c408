"""The Wish, pure-Python reference (docs/rules.md "The Wish").

The example game of docs/adding-a-game.md, compiled into the engine only with
the CMake option ``PATIENCE_EXAMPLE_GAME``. A 32-card piquet deck (A, 7 to K)
is dealt into eight piles of four, the top card of each face up. A move takes
the top cards of two piles of the same rank to the foundation, and the card
under each turns face up. The game is won when all 32 cards are on the
foundation. It is played with the face-down cards known, as Geoffrey is.

Position: ``piles`` (8 lists of card indices, bottom to top). Every card of a
pile but its top is face down, and every piquet card in no pile is on the
foundation, so the piles are the whole position.

Zobrist keys (Geoffrey's pattern): each card in a pile contributes
``BOTTOM[k][c]`` as the bottom card of pile ``k``, else ``ON[c][d]`` lying on
``d``; the canonical key uses ``BOTTOM_ANY[c]`` instead of ``BOTTOM[k][c]``, so
the order of the piles does not matter. Face-down and foundation cards need no
term of their own: the piles decide both. A move takes away two terms.
"""

from __future__ import annotations

from typing import List, Set, Tuple

from .._shown import quote
from ._base import Game, Move, put_card, zeros
from ._cards import card_text, move_fail, parse_card, parse_fail, parse_fail_line, shuffle, split_lines, zobrist_keys

__all__ = ["TheWish", "TheWishMove"]

PILES = 8
HEIGHT = 4
"""Cards a pile holds at most: a deal's four."""
PIQUET_RANKS = (1, 7, 8, 9, 10, 11, 12, 13)
PIQUET: List[int] = [c for c in range(52) if c % 13 + 1 in PIQUET_RANKS]
"""The 32 cards of the deck in increasing card index: ``AC 7C 8C ... KS``."""
ZOBRIST_SEED = 0x5468652057697368  # "The Wish"

_KEYS = zobrist_keys(ZOBRIST_SEED, 52 * 52 + PILES * 52 + 52)
_ON: List[int] = _KEYS[0:2704]  # _ON[c * 52 + d]: card c lies directly on card d
_BOTTOM: List[int] = _KEYS[2704:3120]  # _BOTTOM[k * 52 + c]: c is the bottom card of pile k
_BOTTOM_ANY: List[int] = _KEYS[3120:3172]  # c is a bottom card, whatever the pile

FACE_DOWN_PLANE = 17
FOUNDATION_PLANE = 18
"""Observation plane of the foundation, indexed [rank row][suit] (docs/rl.md "The Wish (19, 8, 4)")."""
HIDDEN_CARD = "(??)"
"""How ``to_text(hidden=True)`` writes a face-down card."""


def _rank_row(card: int) -> int:
    """The row of a card's rank in the foundation plane: A 0, 7 1, ..., K 7."""
    return PIQUET_RANKS.index(card % 13 + 1)


class TheWishMove(Move):
    """A move of The Wish: ``2+7`` takes the top cards of piles 2 and 7 to the foundation.

    ``TheWishMove(text)`` reads the notation (docs/rules.md "Move notation"; piles
    1..8, the lower first) and raises ValueError for a bad shape or pile, the
    same pile twice or the higher pile first. Identity: the two piles.
    """

    __slots__ = ()
    _key: Tuple[int, int]

    @staticmethod
    def _parse(text: str) -> Tuple[int, int]:
        parts = text.split("+")
        if len(parts) != 2 or "" in parts:
            move_fail(text, "expected two piles joined by '+', as in 2+7")
        for part in parts:
            if len(part) != 1 or part not in "12345678":
                move_fail(text, f"pile {quote(part)} is not 1..8")
        low, high = int(parts[0]) - 1, int(parts[1]) - 1
        if low == high:
            move_fail(text, "the two piles must differ")
        if low > high:
            move_fail(text, f"the lower pile comes first, as in {high + 1}+{low + 1}")
        return low, high

    @staticmethod
    def _encode(key: Tuple[int, int]) -> int:
        # Pairs low < high in increasing order: the pairs before low's are 7 + 6 + ... (low terms).
        low, high = key
        return low * (2 * PILES - 1 - low) // 2 + high - low - 1

    def __str__(self) -> str:
        low, high = self._key
        return f"{low + 1}+{high + 1}"

    @property
    def piles(self) -> Tuple[int, int]:
        """The two piles, 1..8, the lower first."""
        low, high = self._key
        return low + 1, high + 1


# Every move, by action: the pairs of piles in increasing order.
_MOVES: List[TheWishMove] = [TheWishMove._of((low, high)) for low in range(PILES) for high in range(low + 1, PILES)]
assert [move._action for move in _MOVES] == list(range(len(_MOVES)))


class TheWish(Game[TheWishMove]):
    """A position of The Wish (docs/rules.md "The Wish"), face-down cards known to the player.

    Make one with ``TheWish.deal(n)`` or ``TheWish.from_text(text)`` (text: 8 pile
    lines from bottom to top, ``(7S)`` face down, ``-`` empty; ValueError naming
    line and token for an unknown, non-piquet or duplicated card, a pile of more
    than 4 cards, a face-down top card or a face-up card under the top, or a bad
    shape). ``hash`` is an unsigned 64-bit int; ``canonical_hash`` is equal for
    positions whose piles are permuted. ``score``: cards on the foundation;
    ``is_won`` when all 32 are there.
    """

    Move = TheWishMove
    NUM_ACTIONS = len(_MOVES)
    OBSERVATION_SHAPE = (19, PILES, HEIGHT)
    DEFAULT_MAX_MOVES = len(PIQUET) // 2  # every move takes two cards: an episode is over by then, never truncated
    _piles: List[List[int]]
    _hash: int
    _canonical: int

    @classmethod
    def _of_piles(cls, piles: List[List[int]]) -> TheWish:
        game = cls.__new__(cls)
        game._piles = piles
        game._hash, game._canonical = game._compute_keys()
        return game

    @classmethod
    def _deal(cls, n: int) -> TheWish:
        """Shuffled card k goes to pile k % 8, four rounds of one card a pile, bottom first."""
        cards = list(PIQUET)
        shuffle(cards, n)
        return cls._of_piles([cards[k::PILES] for k in range(PILES)])

    @classmethod
    def _parse(cls, text: str) -> TheWish:
        piles: List[List[int]] = []
        seen: Set[int] = set()
        for line in split_lines(text):
            if len(piles) == PILES:
                parse_fail_line(line.number, "unexpected line")
            pile: List[int] = []
            if line.tokens != ["-"]:
                for number, token in enumerate(line.tokens, start=1):
                    pile.append(_parse_token(line.number, number, token, number == len(line.tokens), seen))
            piles.append(pile)
        if len(piles) < PILES:
            parse_fail_line(text.count("\n") + 1, f"expected {PILES} piles")
        return cls._of_piles(piles)

    def _text(self, hidden: bool) -> str:
        """8 pile lines, bottom first, every card but the top in parentheses (docs/rules.md "Text formats")."""
        lines = []
        for pile in self._piles:
            if not pile:
                lines.append("-")
                continue
            down = [HIDDEN_CARD if hidden else f"({card_text(card)})" for card in pile[:-1]]
            lines.append(" ".join([*down, card_text(pile[-1])]))
        return "\n".join(lines)

    def _generate(self) -> List[TheWishMove]:
        """Every pair of non-empty piles whose top cards share a rank, in increasing action order."""
        ranks = [pile[-1] % 13 if pile else None for pile in self._piles]  # the top cards' ranks
        return [move for move in _MOVES if ranks[move._key[0]] is not None and ranks[move._key[0]] == ranks[move._key[1]]]

    @classmethod
    def _decode(cls, action: int) -> TheWishMove:
        return _MOVES[action]

    def _observe(self, hidden: bool) -> List[List[List[int]]]:
        """Index [pile][slot], slot 0 the bottom: planes 0-12 rank, 13-16 suit one-hot, 17 face down (a hidden
        face-down card sets plane 17 alone); plane 18 the foundation by [rank row][suit]."""
        planes = zeros(self.OBSERVATION_SHAPE)
        for k, pile in enumerate(self._piles):
            for slot, card in enumerate(pile):
                if slot < len(pile) - 1:
                    planes[FACE_DOWN_PLANE][k][slot] = 1
                    if hidden:
                        continue
                put_card(planes, card, k, slot)
        for card in self._foundation():
            planes[FOUNDATION_PLANE][_rank_row(card)][card // 13] = 1
        return planes

    def _determinize(self, seed: int) -> TheWish:
        """Face-down slots, pile 0..7 and bottom to top in each, take the face-down cards in increasing
        card order shuffled by SplitMix64(seed) (docs/rl.md "Determinization")."""
        slots = [(k, slot) for k, pile in enumerate(self._piles) for slot in range(len(pile) - 1)]
        unseen = sorted(self._piles[k][slot] for k, slot in slots)
        shuffle(unseen, seed)
        piles = [list(pile) for pile in self._piles]
        for (k, slot), card in zip(slots, unseen):
            piles[k][slot] = card
        return self._set_up(self._of_piles(piles))

    def _make(self, move: TheWishMove) -> Tuple[List[int], int, int]:
        """Take both top cards away; returns (the cards taken, the keys before) for undo."""
        taken: List[int] = []
        hash_before, canonical_before = self._hash, self._canonical
        for k in move._key:
            pile = self._piles[k]
            card = pile.pop()
            taken.append(card)
            if pile:  # the card under it turns face up, which keys nothing of its own
                self._hash ^= _ON[card * 52 + pile[-1]]
                self._canonical ^= _ON[card * 52 + pile[-1]]
            else:
                self._hash ^= _BOTTOM[k * 52 + card]
                self._canonical ^= _BOTTOM_ANY[card]
        return taken, hash_before, canonical_before

    def _unmake(self, move: TheWishMove, undo: Tuple[List[int], int, int]) -> None:
        cards, self._hash, self._canonical = undo
        for k, card in zip(move._key, cards):
            self._piles[k].append(card)

    def _compute_keys(self) -> Tuple[int, int]:
        """(hash, canonical_hash) computed from scratch."""
        key = canonical = 0
        for k, pile in enumerate(self._piles):
            if pile:
                key ^= _BOTTOM[k * 52 + pile[0]]
                canonical ^= _BOTTOM_ANY[pile[0]]
            for below, card in zip(pile, pile[1:]):
                key ^= _ON[card * 52 + below]
                canonical ^= _ON[card * 52 + below]
        return key, canonical

    def _foundation(self) -> List[int]:
        """The cards on the foundation, in increasing card index: the piquet cards in no pile."""
        in_piles = {card for pile in self._piles for card in pile}
        return [card for card in PIQUET if card not in in_piles]

    def _position(self) -> Tuple[Tuple[int, ...], ...]:
        return tuple(tuple(pile) for pile in self._piles)

    @property
    def hash(self) -> int:
        """Zobrist key of the exact position: an unsigned 64-bit int."""
        return self._hash

    @property
    def canonical_hash(self) -> int:
        """Zobrist key that ignores the order of the piles: an unsigned 64-bit int."""
        return self._canonical

    @property
    def is_won(self) -> bool:
        """True when all 32 cards are on the foundation."""
        return self.score == len(PIQUET)

    @property
    def score(self) -> int:
        """Cards on the foundation, 0..32."""
        return len(PIQUET) - sum(len(pile) for pile in self._piles)

    @property
    def piles(self) -> Tuple[Tuple[str, ...], ...]:
        """The 8 piles, each its cards' texts from the bottom up (face-down ones included)."""
        return tuple(tuple(card_text(card) for card in pile) for pile in self._piles)

    @property
    def foundation(self) -> Tuple[str, ...]:
        """The cards on the foundation as text, in increasing card index."""
        return tuple(card_text(card) for card in self._foundation())


def _parse_token(line: int, number: int, token: str, top: bool, seen: Set[int]) -> int:
    """The card of token ``number`` of a pile line (``top``: the line's last token), added to ``seen``;
    ValueError naming the line and the token when it breaks a rule, checked in this order."""
    if token == "-":
        parse_fail(line, number, token, "unexpected token")
    if number > HEIGHT:
        parse_fail(line, number, token, f"a pile holds at most {HEIGHT} cards")
    if token == HIDDEN_CARD:
        parse_fail(line, number, token, "face-down card not known (a hidden view: determinize() gives a position)")
    down = len(token) > 2 and token[0] == "(" and token[-1] == ")"
    card = parse_card(token[1:-1] if down else token)
    if card < 0:
        parse_fail(line, number, token, "unknown card")
    if card not in PIQUET:
        parse_fail(line, number, token, "not a piquet card (A, 7 to K)")
    if card in seen:
        parse_fail(line, number, token, "duplicate card")
    if down and top:
        parse_fail(line, number, token, "face-down card on top of a pile")
    if not down and not top:
        parse_fail(line, number, token, "face-up card under the top card")
    seen.add(card)
    return card
