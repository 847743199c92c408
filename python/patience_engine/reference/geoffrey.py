"""Geoffrey, pure-Python reference (docs/rules.md "Geoffrey").

Eight tableau columns and four foundations built up by suit from the Ace.
Any face-up card, with everything above it, moves onto the next higher card
of its suit at the top of another column, or (a King) into an empty column;
a top card goes to its foundation. A face-down card left on top turns face
up as part of the move. The game is played with the face-down cards known.

Position: ``columns`` (8 lists of card indices, bottom to top), ``down``
(how many cards at the bottom of each column are face down) and
``foundations`` (top rank 0..13 per suit).

Zobrist keys: each card contributes one term, ``HOME[c]`` on a
foundation, else ``BOTTOM[k][c]`` as the bottom card of column ``k`` or
``ON[c][d]`` lying on ``d``, plus ``DOWN[c]`` when face down. The canonical
key uses ``BOTTOM_ANY[c]`` instead of ``BOTTOM[k][c]``, so the order of the
columns does not matter. A move changes the head card's term and maybe one
``DOWN`` term, so both keys update in O(1).
"""

from __future__ import annotations

from typing import Dict, List, Set, Tuple, Union

from .._shown import quote
from ._base import Game, Move, put_card, zeros
from ._cards import (
    RANKS,
    SUITS,
    card_text,
    move_fail,
    parse_card,
    parse_fail,
    parse_fail_line,
    parse_rank,
    parse_suit,
    shuffle,
    split_lines,
    zobrist_keys,
)

__all__ = ["Geoffrey", "GeoffreyMove"]

TABLEAU = 8
FOUNDATION = 8  # the destination of a foundation move, after the columns 0..7
KING = 13
ZOBRIST_SEED = 0x47656F6666726579  # "Geoffrey"

_KEYS = zobrist_keys(ZOBRIST_SEED, 52 * 52 + TABLEAU * 52 + 52 + 52 + 52)
_ON: List[int] = _KEYS[0:2704]  # _ON[c * 52 + d]: card c lies directly on card d
_BOTTOM: List[int] = _KEYS[2704:3120]  # _BOTTOM[k * 52 + c]: c is the bottom card of column k
_BOTTOM_ANY: List[int] = _KEYS[3120:3172]  # c is a bottom card, whatever the column
_DOWN: List[int] = _KEYS[3172:3224]  # c is face down
_HOME: List[int] = _KEYS[3224:3276]  # c is on its foundation

# Actions (docs/rl.md "Actions"): action = (src * 52 + head card) * TARGETS + target, where targets
# 0..6 are the other columns in increasing order and target 7 is the foundation.
TARGETS = TABLEAU
PILES = TABLEAU + 4
"""Observation rows: the 8 columns, then the foundations C D H S (docs/rl.md "Observations")."""
PILE_SLOTS = 52  # a pile can hold at most every card
FACE_DOWN_PLANE = 17
HIDDEN_CARD = "(??)"
"""How ``to_text(hidden=True)`` writes a face-down card."""


class GeoffreyMove(Move):
    """A Geoffrey move: tableau ``3:9S>5`` (column 3's 9S and all above it onto column 5)
    or foundation ``2:AH>F``.

    ``GeoffreyMove(text)`` reads the notation (docs/rules.md "Move notation";
    columns 1..8, the card in any spelling ``parse_card`` accepts) and raises
    ValueError for a bad shape, column or card, or a source equal to the
    destination. Identity: (source column, head card, destination column or F).
    """

    __slots__ = ()
    _key: Tuple[int, int, int]

    @staticmethod
    def _parse(text: str) -> Tuple[int, int, int]:
        src_text, colon, rest = text.partition(":")
        card_part, arrow, dst_text = rest.rpartition(">")
        if not colon or not arrow:
            move_fail(text, "expected source:card>destination, as in 3:9S>5 or 2:AH>F")
        if len(src_text) != 1 or src_text not in "12345678":
            move_fail(text, f"source column {quote(src_text)} is not 1..8")
        card = parse_card(card_part)
        if card < 0:
            move_fail(text, f"{quote(card_part)} is not a card")
        if dst_text == "F":
            dst = FOUNDATION
        elif len(dst_text) == 1 and dst_text in "12345678":
            dst = int(dst_text) - 1
        else:
            move_fail(text, f"destination {quote(dst_text)} is not 1..8 or F")
        src = int(src_text) - 1
        if src == dst:
            move_fail(text, "source and destination are the same column")
        return src, card, dst

    @staticmethod
    def _encode(key: Tuple[int, int, int]) -> int:
        src, card, dst = key
        target = TARGETS - 1 if dst == FOUNDATION else dst - (dst > src)
        return (src * 52 + card) * TARGETS + target

    def __str__(self) -> str:
        src, card, dst = self._key
        target = "F" if dst == FOUNDATION else str(dst + 1)
        return f"{src + 1}:{card_text(card)}>{target}"

    @property
    def src(self) -> int:
        """Source column, 1..8."""
        return self._key[0] + 1

    @property
    def card(self) -> str:
        """The card that heads the moving group (the only card of a foundation move)."""
        return card_text(self._key[1])

    @property
    def dst(self) -> Union[int, str]:
        """Destination column 1..8, or ``'F'`` for the foundation."""
        dst = self._key[2]
        return "F" if dst == FOUNDATION else dst + 1

    @property
    def to_foundation(self) -> bool:
        """True for a foundation move."""
        return self._key[2] == FOUNDATION


# Every possible move, built once: _MOVES[(src * 52 + card) * 9 + dst].
_MOVES: List[GeoffreyMove] = [
    GeoffreyMove._of((src, card, dst)) for src in range(TABLEAU) for card in range(52) for dst in range(TABLEAU + 1)
]


def _move(src: int, card: int, dst: int) -> GeoffreyMove:
    return _MOVES[(src * 52 + card) * 9 + dst]


_BAD_FOUNDATION = "bad foundation: expected a suit, '-' and 0 or A..K, as C-0 or H-Q"


def _parse_foundation(token: str) -> Tuple[int, int]:
    """(suit, top rank) of a foundation token ``S-r``; (-1, -1) when it is not one."""
    suit_text, dash, rank_text = token.partition("-")
    suit = parse_suit(suit_text)
    rank = 0 if rank_text == "0" else parse_rank(rank_text)
    if not dash or suit < 0 or (rank == 0 and rank_text != "0"):
        return -1, -1
    return suit, rank


class Geoffrey(Game[GeoffreyMove]):
    """A Geoffrey position (docs/rules.md "Geoffrey"), face-down cards known to the player.

    Make one with ``Geoffrey.deal(n)`` or ``Geoffrey.from_text(text)`` (text:
    an optional ``Foundations: C-r D-r H-r S-r`` line, then 8 column lines
    from bottom to top, ``(5C)`` face down, ``-`` empty; ValueError naming
    line and token for an unknown, duplicated or missing card, a face-down
    card above a face-up one or on top, or a bad shape). ``hash`` is an
    unsigned 64-bit int; ``canonical_hash`` is equal for positions whose
    columns are permuted. ``score``: cards on the foundations; ``is_won``
    when all 52 are there.
    """

    Move = GeoffreyMove
    NUM_ACTIONS = TABLEAU * 52 * TARGETS
    OBSERVATION_SHAPE = (18, PILES, PILE_SLOTS)
    DEFAULT_MAX_MOVES = 1000  # a King can shuttle between empty columns for ever
    _columns: List[List[int]]
    _down: List[int]
    _foundations: List[int]
    _hash: int
    _canonical: int

    @classmethod
    def _of_layout(cls, columns: List[List[int]], down: List[int], foundations: List[int]) -> Geoffrey:
        game = cls.__new__(cls)
        game._columns = columns
        game._down = down
        game._foundations = foundations
        game._hash, game._canonical = game._compute_keys()
        return game

    @classmethod
    def _deal(cls, n: int) -> Geoffrey:
        cards = list(range(52))
        shuffle(cards, n)
        columns = [cards[7 * k : 7 * k + 7] for k in range(4)]
        columns += [cards[28 + 6 * m : 28 + 6 * m + 6] for m in range(4)]
        return cls._of_layout(columns, [0, 0, 0, 0, 4, 4, 4, 4], [0, 0, 0, 0])

    @classmethod
    def _parse(cls, text: str) -> Geoffrey:
        lines = list(split_lines(text))
        after_last = text.count("\n") + 1
        foundations = [0, 0, 0, 0]
        if lines and lines[0].tokens[0].lower() == "foundations:":
            line = lines.pop(0)
            suits_seen: Set[int] = set()
            for number, token in enumerate(line.tokens[1:], start=2):
                if number > 5:
                    parse_fail(line.number, number, token, "unexpected token")
                suit, rank = _parse_foundation(token)
                if suit < 0:
                    parse_fail(line.number, number, token, _BAD_FOUNDATION)
                if suit in suits_seen:
                    parse_fail(line.number, number, token, "duplicate suit")
                suits_seen.add(suit)
                foundations[suit] = rank
            if len(line.tokens) < 5:
                parse_fail_line(line.number, f"expected 4 foundations, got {len(line.tokens) - 1}")
        home = {suit * 13 + r for suit in range(4) for r in range(foundations[suit])}
        seen: Set[int] = set()
        columns: List[List[int]] = []
        down: List[int] = []
        for line in lines:
            if len(columns) == TABLEAU:
                parse_fail_line(line.number, "unexpected line")
            column: List[int] = []
            face_down = 0
            tokens = line.tokens
            if tokens != ["-"]:
                for number, token in enumerate(tokens, start=1):
                    if token == "-":
                        parse_fail(line.number, number, token, "unexpected token")
                    if token == HIDDEN_CARD:
                        why = "face-down card not known (a hidden view: determinize() gives a position)"
                        parse_fail(line.number, number, token, why)
                    hidden = len(token) > 2 and token[0] == "(" and token[-1] == ")"
                    card = parse_card(token[1:-1] if hidden else token)
                    if card < 0:
                        parse_fail(line.number, number, token, "unknown card")
                    if card in home:
                        parse_fail(line.number, number, token, "duplicate card (on its foundation)")
                    if card in seen:
                        parse_fail(line.number, number, token, "duplicate card")
                    if hidden:
                        if face_down < len(column):
                            parse_fail(line.number, number, token, "face-down card above a face-up card")
                        face_down += 1
                    seen.add(card)
                    column.append(card)
                if face_down == len(column):
                    parse_fail(line.number, len(tokens), tokens[-1], "face-down card on top of a column")
            columns.append(column)
            down.append(face_down)
        if len(columns) < TABLEAU:
            parse_fail_line(after_last, f"expected {TABLEAU} columns")
        for card in range(52):
            if card not in seen and card not in home:
                parse_fail_line(after_last, f"missing card {card_text(card)}")
        return cls._of_layout(columns, down, foundations)

    def _text(self, hidden: bool) -> str:
        """``Foundations: C-x D-x H-x S-x`` then 8 column lines, bottom first (docs/rules.md "Text formats")."""
        tops = " ".join(f"{SUITS[s]}-{RANKS[r - 1] if r else '0'}" for s, r in enumerate(self._foundations))
        lines = [f"Foundations: {tops}"]
        for column, face_down in zip(self._columns, self._down):
            if not column:
                lines.append("-")
                continue
            tokens = [card_text(c) for c in column]
            for i in range(face_down):
                tokens[i] = HIDDEN_CARD if hidden else f"({tokens[i]})"
            lines.append(" ".join(tokens))
        return "\n".join(lines)

    def _generate(self) -> List[GeoffreyMove]:
        columns = self._columns
        foundations = self._foundations
        tops: Dict[int, int] = {}  # top card -> its column
        empty: List[int] = []
        for t, column in enumerate(columns):
            if column:
                tops[column[-1]] = t
            else:
                empty.append(t)
        moves = []
        for s, column in enumerate(columns):
            if not column:
                continue
            top = column[-1]
            if foundations[top // 13] == top % 13:  # foundation top rank = rank(top) - 1
                moves.append(_move(s, top, FOUNDATION))
            for head in column[self._down[s] :]:
                if head % 13 == KING - 1:
                    for t in empty:  # s is not empty, so t != s
                        moves.append(_move(s, head, t))
                else:
                    t = tops.get(head + 1, s)  # head + 1: same suit, one rank higher
                    if t != s:
                        moves.append(_move(s, head, t))
        return moves

    @classmethod
    def _decode(cls, action: int) -> GeoffreyMove:
        rest, target = divmod(action, TARGETS)
        src, card = divmod(rest, 52)
        dst = FOUNDATION if target == TARGETS - 1 else target + (target >= src)
        return _move(src, card, dst)

    def _observe(self, hidden: bool) -> List[List[List[int]]]:
        """Rows: columns 0-7 bottom card first, then foundations C D H S from the Ace; planes 0-12
        rank, 13-16 suit one-hot, 17 face down (a hidden face-down card sets plane 17 alone)."""
        planes = zeros(self.OBSERVATION_SHAPE)
        for k, column in enumerate(self._columns):
            for slot, card in enumerate(column):
                if slot < self._down[k]:
                    planes[FACE_DOWN_PLANE][k][slot] = 1
                    if hidden:
                        continue
                put_card(planes, card, k, slot)
        for suit, top in enumerate(self._foundations):
            for slot in range(top):
                put_card(planes, suit * 13 + slot, TABLEAU + suit, slot)
        return planes

    def _determinize(self, seed: int) -> Geoffrey:
        """Face-down slots, column 0..7 and bottom to top in each, take the face-down cards in
        increasing card order shuffled by SplitMix64(seed) (docs/rl.md "Determinization")."""
        slots = [(k, slot) for k in range(TABLEAU) for slot in range(self._down[k])]
        unseen = sorted(self._columns[k][slot] for k, slot in slots)
        shuffle(unseen, seed)
        columns = [list(column) for column in self._columns]
        for (k, slot), card in zip(slots, unseen):
            columns[k][slot] = card
        return self._set_up(self._of_layout(columns, list(self._down), list(self._foundations)))

    def _make(self, move: GeoffreyMove) -> Tuple[int, bool, int, int]:
        """Play the move; returns (cards moved, whether a card turned up, hash, canonical) for undo."""
        s, head, t = move._key
        source = self._columns[s]
        i = source.index(head)
        undo_hash, undo_canonical = self._hash, self._canonical
        # The head card's old term: on the card below it, or the bottom of column s.
        if i:
            old = _ON[head * 52 + source[i - 1]]
            delta_hash = delta_canonical = old
        else:
            delta_hash, delta_canonical = _BOTTOM[s * 52 + head], _BOTTOM_ANY[head]
        # Its new term: home, on the target's top card, or the bottom of the empty target.
        if t == FOUNDATION:
            moved = 1
            source.pop()
            self._foundations[head // 13] += 1
            delta_hash ^= _HOME[head]
            delta_canonical ^= _HOME[head]
        else:
            target = self._columns[t]
            if target:
                new = _ON[head * 52 + target[-1]]
                delta_hash ^= new
                delta_canonical ^= new
            else:
                delta_hash ^= _BOTTOM[t * 52 + head]
                delta_canonical ^= _BOTTOM_ANY[head]
            moved = len(source) - i
            target.extend(source[i:])
            del source[i:]
        # A face-down card left on top turns face up.
        turned = 0 < i == self._down[s]
        if turned:
            self._down[s] -= 1
            delta_hash ^= _DOWN[source[-1]]
            delta_canonical ^= _DOWN[source[-1]]
        self._hash ^= delta_hash
        self._canonical ^= delta_canonical
        return moved, turned, undo_hash, undo_canonical

    def _unmake(self, move: GeoffreyMove, undo: Tuple[int, bool, int, int]) -> None:
        s, head, t = move._key
        moved, turned, self._hash, self._canonical = undo
        source = self._columns[s]
        if turned:
            self._down[s] += 1
        if t == FOUNDATION:
            self._foundations[head // 13] -= 1
            source.append(head)
        else:
            target = self._columns[t]
            source.extend(target[-moved:])
            del target[-moved:]

    def _compute_keys(self) -> Tuple[int, int]:
        """(hash, canonical_hash) computed from scratch."""
        key = canonical = 0
        for suit, top in enumerate(self._foundations):
            for card in range(suit * 13, suit * 13 + top):
                key ^= _HOME[card]
                canonical ^= _HOME[card]
        for k, column in enumerate(self._columns):
            for i, card in enumerate(column):
                if i:
                    term = _ON[card * 52 + column[i - 1]]
                    key ^= term
                    canonical ^= term
                else:
                    key ^= _BOTTOM[k * 52 + card]
                    canonical ^= _BOTTOM_ANY[card]
                if i < self._down[k]:
                    key ^= _DOWN[card]
                    canonical ^= _DOWN[card]
        return key, canonical

    def _position(self) -> Tuple[Tuple[Tuple[int, ...], ...], Tuple[int, ...], Tuple[int, ...]]:
        return tuple(tuple(c) for c in self._columns), tuple(self._down), tuple(self._foundations)

    @property
    def hash(self) -> int:
        """Zobrist key of the exact position: an unsigned 64-bit int."""
        return self._hash

    @property
    def canonical_hash(self) -> int:
        """Zobrist key that ignores the order of the columns: an unsigned 64-bit int."""
        return self._canonical

    @property
    def is_won(self) -> bool:
        """True when all 52 cards are on the foundations."""
        return sum(self._foundations) == 52

    @property
    def score(self) -> int:
        """Cards on the foundations, 0..52."""
        return sum(self._foundations)

    @property
    def tableau(self) -> Tuple[Tuple[str, ...], ...]:
        """The 8 columns, each its cards' texts from the bottom up (face-down ones included)."""
        return tuple(tuple(card_text(card) for card in column) for column in self._columns)

    @property
    def face_down(self) -> Tuple[int, ...]:
        """Per column, how many cards at its bottom are face down."""
        return tuple(self._down)

    @property
    def foundations(self) -> Tuple[int, ...]:
        """Top rank on each foundation, clubs, diamonds, hearts, spades: 0 (empty) .. 13 (king)."""
        return tuple(self._foundations)
