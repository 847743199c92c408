"""Pictures of positions: SVG drawings and coloured terminal text (stdlib only).

A picture reads the position through the reference class: a position of
either implementation is rebuilt as ``reference.from_text(state.to_text())``
(docs/rules.md "Text formats") and drawn from its properties, so both
implementations draw alike; ``install`` gives a game class the method
``to_svg()``. The drawer of each game is named in ``games.REGISTRY``.

The SVG has one ``<g class="card" data-card="QH">`` element per card that can
be seen: face-up cards, face-down cards (drawn as backs, class
``face-down``; ``data-card="??"`` when drawn as the player sees them,
``hidden=True``), the top card of each Geoffrey foundation and every card on
the foundation of The Wish (class ``foundation``).
Empty Germaine cells, empty Geoffrey columns and piles of The Wish and empty
foundations are dashed outlines (class ``empty``). A move given as ``highlight`` marks the
cards it moves (class ``moving``) and where they go (class ``target``).

Rows and columns are labelled as the move notation names them (docs/rules.md
"Move notation"), in ``<text class="label axis" data-axis="...">`` elements:
Germaine columns ``a``..``m`` above the grid (``data-axis="column"``) and rows
``1``..``4`` left of it (``data-axis="row"``); Geoffrey columns ``1``..``8``
above the tableau (``data-axis="column"``) and ``F`` beside the foundations
(``data-axis="foundation"``); the piles of The Wish ``1``..``8`` (``data-axis="pile"``)
and ``F`` beside its foundation. Royal Marriage needs no labels: its moves name
the cards (``7S+JD``), which the picture shows.

>>> svg = to_svg("royal-marriage", "QH 3C 9D 2S 3S KH", highlight="9D+2S")
>>> svg.count('class="card'), svg.count('class="card moving"')
(6, 2)
>>> terminal_text("QH 3C", colour=False)
'Q♥ 3♣'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Set
from xml.sax.saxutils import escape, quoteattr

from ._errors import IllegalMoveError
from ._files import write_whole
from ._shown import repr_text
from .limits import int_value
from .reference import Geoffrey, GeoffreyMove, Germaine, GermaineMove, RoyalMarriage, RoyalMarriageMove
from .reference._base import check_hidden
from .reference.the_wish import TheWish, TheWishMove

CARD_W, CARD_H = 56, 78
GAP = 8
MARGIN = 16
FAN = 24  # vertical offset between overlapping cards in a Geoffrey column or a pile of The Wish
FOUNDATION_ROW = 16  # cards a row of the foundation of The Wish, two rows fanned as a column is
FOUNDATION_FAN = 28  # horizontal offset between them: 16 fit the width of 8 piles and show each card's rank
AXIS = 20  # room for a row of column labels, or a column of row labels
RANKS, SUITS = "A23456789TJQK", "CDHS"
GERMAINE_COLUMNS = "abcdefghijklm"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = "DH"
RED, BLACK = "#c0182a", "#111111"
_CARD_TOKEN = re.compile(r"\b([A2-9TJQK])([CDHS])\b")

_STYLE = """
.table { fill: #1f6b3a; }
.face { fill: #fffdf6; stroke: #555; stroke-width: 1; }
.back { fill: #27457a; stroke: #fff; stroke-width: 2; }
.back-inner { fill: none; stroke: #9db4e0; stroke-width: 1; }
.empty { fill: none; stroke: #d8e8d0; stroke-width: 1.5; stroke-dasharray: 5 4; }
.label { fill: #e8f3e0; font: 13px sans-serif; }
.axis { font: bold 15px sans-serif; }
.rank { font: bold 15px sans-serif; }
.pip { font: 30px serif; }
.moving > rect.face, .moving > rect.back { stroke: #ff8c00; stroke-width: 4; }
.target > rect.face, .target > rect.back, rect.target { stroke: #19c2ff; stroke-width: 4; stroke-dasharray: none; }
"""


Picture = Callable[[Any, Optional[Any], bool], str]
"""A game's drawer: (a reference position, an optional move of it to highlight, hidden) -> SVG text."""

PICTURES: Dict[str, Picture] = {}
"""Each game's drawer by command-line name; ``to_svg`` draws with it."""


def picture_of(game: str) -> Callable[[Picture], Picture]:
    """Registers the decorated function as the drawer of ``game`` (a ``registry.GAMES`` name)."""

    def register(draw: Picture) -> Picture:
        PICTURES[game] = draw
        return draw

    return register


def _card(card: str, x: float, y: float, classes: Sequence[str] = (), face_up: bool = True, data: str = "") -> str:
    """One card element: a face (rank, suit symbol, suit colour) or a back; ``data`` adds attributes."""
    cls = " ".join(["card", *classes] + ([] if face_up else ["face-down"]))
    head = f'<g class="{cls}" data-card="{card}"{data} transform="translate({x},{y})">'
    if not face_up:
        return (head + f'<rect class="back" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
                f'<rect class="back-inner" x="6" y="6" width="{CARD_W - 12}" height="{CARD_H - 12}" rx="3"/>'
                "<title>face-down card</title></g>")
    rank, suit = card[0], card[1]
    colour = RED if suit in RED_SUITS else BLACK
    symbol = SUIT_SYMBOLS[suit]
    shown_rank = "10" if rank == "T" else rank
    return (head + f'<rect class="face" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
            f'<text class="rank" x="5" y="17" fill="{colour}">{shown_rank}{symbol}</text>'
            f'<text class="pip" x="{CARD_W / 2}" y="{CARD_H / 2 + 14}" text-anchor="middle" '
            f'fill="{colour}">{symbol}</text><title>{card}</title></g>')


def _empty(x: float, y: float, label: str = "", classes: Sequence[str] = (), data: str = "") -> str:
    """A dashed outline where a card could be, with an optional label in it."""
    cls = " ".join(["empty", *classes])
    out = f'<rect class="{cls}"{data} x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6"/>'
    if label:
        out += (f'<text class="label" x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 5}" '
                f'text-anchor="middle">{escape(label)}</text>')
    return out


def _axis_label(text: str, x: float, y: float, axis: str) -> str:
    """A row or column name of the move notation, centred on (x, y)."""
    return (f'<text class="label axis" data-axis="{axis}" x="{x}" y="{y + 5}" '
            f'text-anchor="middle">{escape(text)}</text>')


def _document(width: float, height: float, body: List[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label={quoteattr(title)}>'
            f"<title>{escape(title)}</title><style>{_STYLE}</style>"
            f'<rect class="table" width="{width}" height="{height}" rx="10"/>'
            + "".join(body) + "</svg>\n")


@picture_of("royal-marriage")
def royal_marriage_svg(row: RoyalMarriage, highlight: Optional[RoyalMarriageMove], hidden: bool = False) -> str:
    """A reference Royal Marriage position as SVG; ``highlight``: a move whose cards are marked.

    ``hidden`` changes nothing: every card of the row is face up.
    """
    cards = row.row
    moving = set(highlight.cards) if highlight is not None else set()
    per_line = 13
    lines = max(1, (len(cards) + per_line - 1) // per_line)
    body = []
    for i, card in enumerate(cards):
        x = MARGIN + (i % per_line) * (CARD_W + GAP)
        y = MARGIN + (i // per_line) * (CARD_H + GAP)
        body.append(_card(card, x, y, ["moving"] if card in moving else []))
    width = 2 * MARGIN + per_line * (CARD_W + GAP) - GAP
    height = 2 * MARGIN + lines * (CARD_H + GAP) - GAP
    return _document(width, height, body, f"Royal Marriage: a row of {len(cards)} cards")


@picture_of("germaine")
def germaine_svg(grid: Germaine, highlight: Optional[GermaineMove], hidden: bool = False) -> str:
    """A reference Germaine 2-Move position as SVG; ``highlight``: a move whose cells are marked.

    ``hidden`` changes nothing: every card of the grid is face up.
    """
    slides = grid.slides
    source, target = (highlight.src, highlight.dst) if highlight is not None else ("", "")
    left, top = MARGIN + AXIS, MARGIN + AXIS  # room for the row numbers and column letters
    body = [_axis_label(letter, left + c * (CARD_W + GAP) + CARD_W / 2, MARGIN + AXIS / 2, "column")
            for c, letter in enumerate(GERMAINE_COLUMNS)]
    body += [_axis_label(str(r + 1), MARGIN + AXIS / 2, top + r * (CARD_H + GAP) + CARD_H / 2, "row")
             for r in range(len(grid.grid))]
    for r, row in enumerate(grid.grid):
        for c, card in enumerate(row):
            cell = f"{GERMAINE_COLUMNS[c]}{r + 1}"
            x = left + c * (CARD_W + GAP)
            y = top + r * (CARD_H + GAP)
            classes = ["moving"] if cell == source else ["target"] if cell == target else []
            if card is None:
                body.append(_empty(x, y, cell, classes, f' data-cell="{cell}"'))
            else:
                body.append(_card(card, x, y, classes, data=f' data-cell="{cell}"'))
    width = 2 * MARGIN + AXIS + 13 * (CARD_W + GAP) - GAP
    y = top + 4 * (CARD_H + GAP) + 14
    dots = "".join(
        f'<circle class="slide-token{" used" if i >= slides else ""}" cx="{MARGIN + 150 + i * 22}" cy="{y - 5}" '
        f'r="7" fill="{"#ffd54a" if i < slides else "none"}" stroke="#ffd54a"/>' for i in range(2))
    body.append(f'<g class="slides" data-slides="{slides}"><text class="label" x="{MARGIN}" y="{y}">'
                f"slides allowed: {slides}</text>{dots}</g>")
    cards = sum(card is not None for row in grid.grid for card in row)
    return _document(width, y + MARGIN, body, f"Germaine 2-Move: {cards} cards, {slides} slides allowed")


@picture_of("geoffrey")
def geoffrey_svg(layout: Geoffrey, highlight: Optional[GeoffreyMove], hidden: bool = False) -> str:
    """A reference Geoffrey position as SVG; ``highlight``: a move whose group and target are marked.

    ``hidden``: the face-down cards carry ``data-card="??"``, not their card.
    """
    columns = layout.tableau
    moving: Set[str] = set()
    target_column: Optional[int] = None
    target_suit = ""
    if highlight is not None:
        source = columns[highlight.src - 1]
        moving = set(source[source.index(highlight.card):]) if highlight.card in source else set()
        if isinstance(highlight.dst, int):
            target_column = highlight.dst - 1
        else:  # "F": the card's foundation
            target_suit = highlight.card[1]
    # "F" just left of the foundations; the column numbers between them and the tableau.
    foundations_x = MARGIN + 4 * (CARD_W + GAP)
    body = [_axis_label("F", foundations_x - GAP - AXIS / 2, MARGIN + CARD_H / 2, "foundation")]
    for i, (suit, rank) in enumerate(zip(SUITS, layout.foundations)):
        x = foundations_x + i * (CARD_W + GAP)
        target = ["target"] if suit == target_suit else []
        if rank == 0:
            body.append(_empty(x, MARGIN, SUIT_SYMBOLS[suit], ["foundation", *target]))
        else:
            body.append(_card(RANKS[rank - 1] + suit, x, MARGIN, ["foundation", *target]))
    top = MARGIN + CARD_H + GAP + AXIS
    body += [_axis_label(str(c + 1), MARGIN + c * (CARD_W + GAP) + CARD_W / 2, top - AXIS / 2, "column")
             for c in range(len(columns))]
    for c, (column, face_down) in enumerate(zip(columns, layout.face_down)):
        x = MARGIN + c * (CARD_W + GAP)
        if not column:
            body.append(_empty(x, top, "", ["target"] if c == target_column else []))
        for k, card in enumerate(column):
            classes = []
            if card in moving:
                classes.append("moving")
            if c == target_column and k == len(column) - 1:
                classes.append("target")
            face_up = k >= face_down
            body.append(_card("??" if hidden and not face_up else card, x, top + k * FAN, classes, face_up=face_up))
    deepest = max(len(column) for column in columns)
    width = 2 * MARGIN + 8 * (CARD_W + GAP) - GAP
    height = top + max(deepest - 1, 0) * FAN + CARD_H + MARGIN
    return _document(width, height, body, f"Geoffrey: {layout.score} cards on the foundations")


@picture_of("the-wish")
def the_wish_svg(layout: TheWish, highlight: Optional[TheWishMove], hidden: bool = False) -> str:
    """A reference position of The Wish as SVG; ``highlight``: a move whose two top cards and the foundation are marked.

    The foundation's cards are fanned in card order along the top, in two rows; ``hidden``: the
    face-down cards carry ``data-card="??"``, not their card.
    """
    piles, foundation = layout.piles, layout.foundation
    moving = {piles[k - 1][-1] for k in highlight.piles} if highlight is not None else set()
    target = ["target"] if highlight is not None else []
    left = MARGIN + AXIS + GAP  # "F" just left of the foundation
    body = [_axis_label("F", MARGIN + AXIS / 2, MARGIN + CARD_H / 2, "foundation")]
    if not foundation:
        body.append(_empty(left, MARGIN, "", ["foundation", *target]))
    for i, card in enumerate(foundation):
        row, place = divmod(i, FOUNDATION_ROW)
        last = i == len(foundation) - 1
        body.append(_card(card, left + place * FOUNDATION_FAN, MARGIN + row * FAN,
                          ["foundation", *(target if last else [])]))
    top = MARGIN + FAN + CARD_H + GAP + AXIS  # room for both rows, full or not
    body += [_axis_label(str(k + 1), MARGIN + k * (CARD_W + GAP) + CARD_W / 2, top - AXIS / 2, "pile")
             for k in range(len(piles))]
    for k, pile in enumerate(piles):
        x = MARGIN + k * (CARD_W + GAP)
        if not pile:
            body.append(_empty(x, top))
        for i, card in enumerate(pile):
            face_up = i == len(pile) - 1
            classes = ["moving"] if face_up and card in moving else []
            body.append(_card("??" if hidden and not face_up else card, x, top + i * FAN, classes, face_up=face_up))
    deepest = max(len(pile) for pile in piles)
    width = 2 * MARGIN + len(piles) * (CARD_W + GAP) - GAP
    height = top + max(deepest - 1, 0) * FAN + CARD_H + MARGIN
    return _document(width, height, body, f"The Wish: {layout.score} cards on the foundation")


def to_svg(game: str, text: str, highlight: Optional[Any] = None, *, hidden: bool = False) -> str:
    """An SVG picture of a position of ``game`` given in the game's text format.

    ``text`` is read by the game's reference class (docs/rules.md "Text formats"), so
    ValueError names the line and token of a bad position. ``highlight``: a move legal in
    the position, as ``play()`` takes it (a ``Move`` of the game of either implementation,
    its text or its int action), marked on the picture; ValueError when it is not a move of
    the game or not legal here, TypeError when it is none of these (the messages of
    ``play()``, after ``highlight:``). ``hidden=True`` draws the position as its player
    sees it (Geoffrey's face-down cards are not named; no other game has any); TypeError
    for a non-bool. Raises TypeError for a game name that is not a str and ValueError for an
    unknown one.
    """
    from .games import REGISTRY, check_game_name  # the registry names this module's drawers

    check_hidden(hidden)
    info = REGISTRY[check_game_name(game)]
    reference = info.reference
    state = reference.from_text(text)
    move = None
    if highlight is not None:
        played = state.copy()
        try:
            played.play(highlight)
        except IllegalMoveError:
            number = int_value(highlight)
            shown = str(highlight) if number is None else f"action {number}"  # in the space: play() took it
            raise ValueError(f"highlight: {shown} is not a legal move in this position") from None
        except (TypeError, ValueError) as error:
            raise type(error)(f"highlight: {error}") from None
        move = played.move_stack[-1]
    return PICTURES[info.name](state, move, hidden)


def game_of(state: Any) -> str:
    """The command-line game name of a position of either implementation; raises KeyError."""
    from .games import info_of

    return info_of(state).name


def install(cls: Any) -> None:
    """Give a game class (either implementation) the method ``to_svg()``."""

    def state_to_svg(self: Any, highlight: Optional[Any] = None, *, hidden: bool = False) -> str:
        """This position drawn as an SVG document (a str).

        ``highlight``: a legal move, as ``play()`` takes it, marked on the
        picture (the moving cards and where they go); ``hidden=True``: as the
        player sees it (Geoffrey's face-down cards not named). Errors as
        ``patience_engine.draw.to_svg``.
        """
        return to_svg(game_of(self), self.to_text(), highlight, hidden=hidden)

    state_to_svg.__qualname__ = f"{cls.__name__}.to_svg"
    cls.to_svg = state_to_svg


_ANSI_RED, _ANSI_RESET = "\x1b[31m", "\x1b[0m"


def terminal_text(text: str, colour: bool) -> str:
    """A position's text with suit symbols (``QH`` -> ``Q♥``), red hearts and diamonds when ``colour``."""

    def card(match: "re.Match[str]") -> str:
        shown = match.group(1) + SUIT_SYMBOLS[match.group(2)]
        if colour and match.group(2) in RED_SUITS:
            return _ANSI_RED + shown + _ANSI_RESET
        return shown

    return _CARD_TOKEN.sub(card, text)


def write_picture(svg: str, path: str) -> None:
    """Write an SVG picture to ``path``: SVG, or PNG when ``path`` ends in ``.png``.

    PNG needs the optional extra ``patience-engine[png]`` (CairoSVG); raises
    RuntimeError saying so when it is missing, ValueError for another ending, OSError
    naming ``path`` when it cannot be written (the file is written whole or not at all).
    """
    lower = path.lower()
    if lower.endswith(".svg"):
        write_whole(path, lambda name: Path(name).write_text(svg, encoding="utf-8"))
    elif lower.endswith(".png"):
        try:
            import cairosvg  # imported here: an optional extra, needed only for PNG
        except ImportError:  # pragma: no cover - depends on the environment
            raise RuntimeError("writing PNG needs CairoSVG: pip install 'patience-engine[png]'") from None
        write_whole(path, lambda name: cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=name, scale=2))
    else:
        raise ValueError(f"picture file must end in .svg or .png, got {repr_text(path)}")

