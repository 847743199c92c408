"""Germaine 2-Move, pure-Python reference (docs/rules.md "Germaine 2-Move").

52 cells in 4 rows of 13. A card combines onto an adjacent (side-sharing)
near-ranked card (ranks one apart, A and K neighbours), which empties its
cell, scores a point and sets the slide allowance to 2; a slide moves a card
into an adjacent empty cell and uses one unit of allowance.

Position: ``grid`` (52 card indices, -1 for an empty cell; cell = 13 * row +
column) and the allowance. Only the top card of a pile ever matters, so a
combine just overwrites the destination cell.

Zobrist keys: ``SLIDES[allowance]`` XOR ``CELL[cell][card]`` over
occupied cells, once for each of the four symmetries of the grid (identity,
mirror left-right, mirror top-bottom, half turn); ``hash`` is the identity
key and ``canonical_hash`` the least of the four.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .._shown import quote
from ._base import Game, Move, put_card, zeros
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

__all__ = ["Germaine", "GermaineMove"]

ROWS = 4
COLUMNS = 13
CELLS = ROWS * COLUMNS
EMPTY = -1
ZOBRIST_SEED = 0x4765726D61696E65  # "Germaine"
COMBINE = "x"
SLIDE = "-"
_COLUMN_LETTERS = "abcdefghijklm"

_KEYS = zobrist_keys(ZOBRIST_SEED, CELLS * 52 + 3)
_SLIDES: List[int] = _KEYS[CELLS * 52 :]


def _cell(row: int, column: int) -> int:
    return COLUMNS * row + column


# The symmetries of the grid as cell maps: identity, mirror left-right, top-bottom, half turn.
_SYMMETRIES: List[List[int]] = [
    [_cell(r, c) for r in range(ROWS) for c in range(COLUMNS)],
    [_cell(r, COLUMNS - 1 - c) for r in range(ROWS) for c in range(COLUMNS)],
    [_cell(ROWS - 1 - r, c) for r in range(ROWS) for c in range(COLUMNS)],
    [_cell(ROWS - 1 - r, COLUMNS - 1 - c) for r in range(ROWS) for c in range(COLUMNS)],
]
# _CELL_KEYS[cell * 52 + card]: the four symmetry keys of the card lying in the cell.
_CELL_KEYS: List[Tuple[int, int, int, int]] = [
    (
        _KEYS[_SYMMETRIES[0][cell] * 52 + card],
        _KEYS[_SYMMETRIES[1][cell] * 52 + card],
        _KEYS[_SYMMETRIES[2][cell] * 52 + card],
        _KEYS[_SYMMETRIES[3][cell] * 52 + card],
    )
    for cell in range(CELLS)
    for card in range(52)
]
# _NEAR[a * 52 + b]: ranks of a and b differ by one, counting A and K as neighbours.
_NEAR: List[bool] = [(a - b) % 13 in (1, 12) for a in range(52) for b in range(52)]


def _neighbours(cell: int) -> List[int]:
    row, column = divmod(cell, COLUMNS)
    found = []
    if row > 0:
        found.append(cell - COLUMNS)
    if column > 0:
        found.append(cell - 1)
    if column < COLUMNS - 1:
        found.append(cell + 1)
    if row < ROWS - 1:
        found.append(cell + COLUMNS)
    return found


_NEIGHBOURS: List[List[int]] = [_neighbours(cell) for cell in range(CELLS)]

# Action planes (docs/rl.md "Actions"): action = (kind * 4 + direction) * CELLS + source cell, so a
# policy over the 8 planes of 4 x 13 lines up with the grid. Kinds: combine 0, slide 1.
DIRECTIONS = ("up", "left", "right", "down")
_OFFSETS = (-COLUMNS, -1, 1, COLUMNS)
_KINDS = (COMBINE, SLIDE)
ALLOWANCE_PLANES = 17
"""Observation planes 17 (allowance >= 1) and 18 (allowance 2), each all ones or all zeros."""


def cell_name(cell: int) -> str:
    """Name of cell index 0..51: column letter ``a``..``m`` then row ``1``..``4`` (``a1`` top left)."""
    return _COLUMN_LETTERS[cell % COLUMNS] + str(cell // COLUMNS + 1)


def _parse_cell(text: str, name: str) -> int:
    if len(name) != 2 or name[0] not in _COLUMN_LETTERS or name[1] not in "1234":
        move_fail(text, f"bad cell {quote(name)} (columns a..m, rows 1..4)")
    return _cell(int(name[1]) - 1, _COLUMN_LETTERS.index(name[0]))


class GermaineMove(Move):
    """A Germaine 2-Move move: combine ``g3xh3`` (card at g3 onto h3) or slide ``g3-h3``.

    ``GermaineMove(text)`` reads the notation (docs/rules.md "Move notation";
    lowercase cell names only) and raises ValueError for a bad cell name,
    a missing ``x``/``-`` or cells that are not adjacent. Identity:
    (kind, source cell, destination cell).
    """

    __slots__ = ()
    _key: Tuple[str, int, int]

    @staticmethod
    def _parse(text: str) -> Tuple[str, int, int]:
        if len(text) != 5:
            move_fail(text, "expected a combine 'g3xh3' or a slide 'g3-h3'")
        if text[2] not in (COMBINE, SLIDE):
            move_fail(text, f"expected 'x' (combine) or '-' (slide) between the cells, got {quote(text[2])}")
        src = _parse_cell(text, text[:2])
        dst = _parse_cell(text, text[3:])
        if dst not in _NEIGHBOURS[src]:
            move_fail(text, f"cells {text[:2]} and {text[3:]} are not adjacent")
        return text[2], src, dst

    @staticmethod
    def _encode(key: Tuple[str, int, int]) -> int:
        kind, src, dst = key
        return (_KINDS.index(kind) * 4 + _OFFSETS.index(dst - src)) * CELLS + src

    def __str__(self) -> str:
        kind, src, dst = self._key
        return cell_name(src) + kind + cell_name(dst)

    @property
    def is_combine(self) -> bool:
        """True for a combine, False for a slide."""
        return self._key[0] == COMBINE

    @property
    def src(self) -> str:
        """Name of the cell the card leaves, e.g. ``'g3'``."""
        return cell_name(self._key[1])

    @property
    def dst(self) -> str:
        """Name of the cell the card goes to, e.g. ``'h3'``."""
        return cell_name(self._key[2])


# For each source cell: (destination, its combine, its slide), built once and shared.
_LINKS: List[List[Tuple[int, GermaineMove, GermaineMove]]] = [
    [(dst, GermaineMove._of((COMBINE, src, dst)), GermaineMove._of((SLIDE, src, dst))) for dst in _NEIGHBOURS[src]]
    for src in range(CELLS)
]


def _xor4(keys: Tuple[int, int, int, int], delta: Tuple[int, int, int, int]) -> Tuple[int, int, int, int]:
    return (keys[0] ^ delta[0], keys[1] ^ delta[1], keys[2] ^ delta[2], keys[3] ^ delta[3])


class Germaine(Game[GermaineMove]):
    """A Germaine 2-Move position (docs/rules.md "Germaine 2-Move").

    Make one with ``Germaine.deal(n)`` or ``Germaine.from_text(text)`` (text:
    four lines of 13 tokens, a card or ``--``, then an optional ``slides: N``;
    ValueError naming line and token for a bad shape, an unknown or duplicated
    card or a bad allowance). ``hash``/``canonical_hash`` are unsigned 64-bit
    ints, the latter equal for positions alike up to a mirror or half turn.
    ``score``: 52 minus cards left, plus the last card's rank when one is
    left (64 is perfect); ``is_won`` when exactly one card is left.
    """

    Move = GermaineMove
    NUM_ACTIONS = 2 * 4 * CELLS
    OBSERVATION_SHAPE = (19, ROWS, COLUMNS)
    # At most 51 combines, each allowing 2 slides (the allowance starts at 0): no episode reaches it.
    DEFAULT_MAX_MOVES = 51 * 3
    _grid: List[int]
    _slides: int
    _count: int
    _keys: Tuple[int, int, int, int]
    _hash: int
    _canonical: int

    @classmethod
    def _of_grid(cls, grid: List[int], slides: int) -> Germaine:
        game = cls.__new__(cls)
        game._grid = grid
        game._slides = slides
        game._count = CELLS - grid.count(EMPTY)
        game._keys = game._compute_symmetry_keys()
        game._hash, game._canonical = game._keys[0], min(game._keys)
        return game

    @classmethod
    def _deal(cls, n: int) -> Germaine:
        cards = list(range(52))
        shuffle(cards, n)
        return cls._of_grid(cards, 0)

    @classmethod
    def _parse(cls, text: str) -> Germaine:
        grid: List[int] = []
        slides = 0
        seen = set()
        rows = 0
        slides_read = False
        for line in split_lines(text):
            tokens = line.tokens
            if rows < ROWS:
                if len(tokens) != COLUMNS:
                    parse_fail_line(line.number, f"expected {COLUMNS} cells, got {len(tokens)}")
                for number, token in enumerate(tokens, start=1):
                    if token == "--":
                        grid.append(EMPTY)
                        continue
                    card = parse_card(token)
                    if card < 0:
                        parse_fail(line.number, number, token, "unknown card")
                    if card in seen:
                        parse_fail(line.number, number, token, "duplicate card")
                    seen.add(card)
                    grid.append(card)
                rows += 1
            elif not slides_read and tokens[0].lower() == "slides:":
                if len(tokens) < 2:
                    parse_fail(line.number, 1, tokens[0], "slide allowance missing")
                if tokens[1] not in ("0", "1", "2"):
                    parse_fail(line.number, 2, tokens[1], "slide allowance must be 0, 1 or 2")
                if len(tokens) > 2:
                    parse_fail(line.number, 3, tokens[2], "unexpected token")
                slides = int(tokens[1])
                slides_read = True
            else:
                parse_fail_line(line.number, "unexpected line")
        if rows < ROWS:
            parse_fail_line(text.count("\n") + 1, f"expected {ROWS} rows of {COLUMNS} cells")
        return cls._of_grid(grid, slides)

    def _text(self, hidden: bool) -> str:
        """Four lines of 13 tokens (a card or ``--``), then ``slides: N`` (docs/rules.md "Text formats")."""
        tokens = ["--" if card == EMPTY else card_text(card) for card in self._grid]
        lines = [" ".join(tokens[r * COLUMNS : (r + 1) * COLUMNS]) for r in range(ROWS)]
        lines.append(f"slides: {self._slides}")
        return "\n".join(lines)

    def _generate(self) -> List[GermaineMove]:
        grid = self._grid
        can_slide = self._slides > 0
        moves = []
        for src in range(CELLS):
            card = grid[src]
            if card == EMPTY:
                continue
            near = card * 52
            for dst, combine, slide in _LINKS[src]:
                other = grid[dst]
                if other != EMPTY:
                    if _NEAR[near + other]:
                        moves.append(combine)
                elif can_slide:
                    moves.append(slide)
        return moves

    @classmethod
    def _decode(cls, action: int) -> GermaineMove:
        plane, src = divmod(action, CELLS)
        kind, direction = divmod(plane, 4)
        dst = src + _OFFSETS[direction]
        if dst not in _NEIGHBOURS[src]:
            where = f"cell {cell_name(src)} has no neighbour {DIRECTIONS[direction]}"
            raise ValueError(f"action {action} names no move: {where}")
        return GermaineMove._of((_KINDS[kind], src, dst))

    def _observe(self, hidden: bool) -> List[List[List[int]]]:
        """Planes 0-12 rank, 13-16 suit one-hot over the 4 x 13 grid, then the allowance planes."""
        planes = zeros(self.OBSERVATION_SHAPE)
        for cell, card in enumerate(self._grid):
            if card != EMPTY:
                put_card(planes, card, *divmod(cell, COLUMNS))
        for level in range(self._slides):
            planes[ALLOWANCE_PLANES + level] = [[1] * COLUMNS for _ in range(ROWS)]
        return planes

    def _make(self, move: GermaineMove) -> Tuple[int, int, Tuple[int, int, int, int], int]:
        """Play the move; returns (card covered at dst or EMPTY, allowance, keys, canonical) before it."""
        kind, src, dst = move._key
        grid = self._grid
        card = grid[src]
        covered = grid[dst]
        undo = (covered, self._slides, self._keys, self._canonical)
        old_slides = self._slides
        if kind == COMBINE:
            self._slides = 2
            self._count -= 1
        else:
            self._slides -= 1
        grid[src] = EMPTY
        grid[dst] = card
        keys = _xor4(self._keys, _CELL_KEYS[src * 52 + card])
        keys = _xor4(keys, _CELL_KEYS[dst * 52 + card])
        if covered != EMPTY:
            keys = _xor4(keys, _CELL_KEYS[dst * 52 + covered])
        if old_slides != self._slides:
            delta = _SLIDES[old_slides] ^ _SLIDES[self._slides]
            keys = (keys[0] ^ delta, keys[1] ^ delta, keys[2] ^ delta, keys[3] ^ delta)
        self._keys = keys
        self._hash = keys[0]
        self._canonical = min(keys)
        return undo

    def _unmake(self, move: GermaineMove, undo: Tuple[int, int, Tuple[int, int, int, int], int]) -> None:
        kind, src, dst = move._key
        covered, self._slides, self._keys, self._canonical = undo
        grid = self._grid
        grid[src] = grid[dst]
        grid[dst] = covered
        if kind == COMBINE:
            self._count += 1
        self._hash = self._keys[0]

    def _compute_symmetry_keys(self) -> Tuple[int, int, int, int]:
        """The four symmetry keys computed from scratch (identity, left-right, top-bottom, half turn)."""
        slides = _SLIDES[self._slides]
        keys = (slides, slides, slides, slides)
        for cell, card in enumerate(self._grid):
            if card != EMPTY:
                keys = _xor4(keys, _CELL_KEYS[cell * 52 + card])
        return keys

    def _compute_keys(self) -> Tuple[int, int]:
        """(hash, canonical_hash) computed from scratch."""
        keys = self._compute_symmetry_keys()
        return keys[0], min(keys)

    def _position(self) -> Tuple[Tuple[int, ...], int]:
        return tuple(self._grid), self._slides

    @property
    def hash(self) -> int:
        """Zobrist key of the exact position: an unsigned 64-bit int."""
        return self._hash

    @property
    def canonical_hash(self) -> int:
        """Least of the four symmetry keys: equal for mirrored or half-turned grids; unsigned 64-bit."""
        return self._canonical

    @property
    def is_won(self) -> bool:
        """True when exactly one card is left on the grid."""
        return self._count == 1

    @property
    def score(self) -> int:
        """52 minus the cards left, plus the last card's rank value when exactly one is left."""
        if self._count == 1:
            last = next(card for card in self._grid if card != EMPTY)
            return 52 - 1 + last % 13 + 1
        return 52 - self._count

    @property
    def grid(self) -> Tuple[Tuple[Optional[str], ...], ...]:
        """The grid: 4 rows (1..4) of 13 cells (a..m), each a card's text or None when empty."""
        cells = [None if card == EMPTY else card_text(card) for card in self._grid]
        return tuple(tuple(cells[r * COLUMNS : (r + 1) * COLUMNS]) for r in range(ROWS))

    @property
    def slides(self) -> int:
        """Slides still allowed, 0..2 (docs/rules.md "Germaine 2-Move")."""
        return self._slides
