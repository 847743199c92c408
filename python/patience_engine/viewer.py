"""A solution as one self-contained HTML page that steps through it (stdlib only).

``solution_html(state, moves)`` draws every position of the solution with
``draw.to_svg`` and embeds them, so the page needs no network and no files
beside it. A move changes few elements of a drawing, so the page carries
the drawings' distinct tags and texts once and each drawing as the edits
that turn the one before into it (``delta_encode``); its script rebuilds
each drawing, the same text ``draw.to_svg`` gives, and each position's
text alike: a page grows by a few hundred bytes per move, not by a whole
drawing. The page shows the position,
the move list with the move
about to be played marked (and highlighted on the picture), previous/next
buttons, and takes the left and right arrow keys (Home and End jump to the
ends). The position shown is also in the DOM as text, in the hidden
``<pre id="position">``, and the step number in ``data-step`` of
``<main id="viewer">``, for tests and scripts.

>>> from patience_engine.reference import RoyalMarriage
>>> page = solution_html(RoyalMarriage.from_text("QH 3C 9D 2S 3S KH"), ["9D+2S"])
>>> page.count("<svg"), '<li data-step="0">9D+2S</li>' in page
(1, True)
"""

from __future__ import annotations

import json
import re
from difflib import SequenceMatcher
from itertools import accumulate
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple
from xml.sax.saxutils import escape

from ._shown import type_text
from .draw import to_svg
from .games import info_of

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; background: #f4f4ef; color: #222; }}
#layout {{ display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }}
#picture svg {{ max-width: 100%; height: auto; }}
#controls {{ margin: 0.6em 0; display: flex; gap: 0.6em; align-items: center; }}
button {{ font-size: 1em; padding: 0.3em 1em; }}
#moves {{ max-height: 75vh; overflow-y: auto; margin: 0; padding-left: 3em; min-width: 8em;
          font-family: monospace; font-size: 1.05em; }}
#moves li {{ cursor: pointer; padding: 1px 4px; }}
#moves li.done {{ color: #888; }}
#moves li.current {{ background: #ff8c00; color: #000; font-weight: bold; }}
</style>
</head>
<body>
<main id="viewer" data-step="0" data-steps="{steps}">
<h1>{title}</h1>
<div id="controls">
<button id="prev" type="button" title="previous move (left arrow)">&#8592; Previous</button>
<button id="next" type="button" title="next move (right arrow)">Next &#8594;</button>
<span id="status" aria-live="polite"></span>
</div>
<div id="layout">
<div id="picture"></div>
<ol id="moves" start="1">{items}</ol>
</div>
<pre id="position" hidden></pre>
</main>
<script>
"use strict";
// Each position, and its picture, as edits of the one before: see viewer.delta_encode.
function decode(tokens, edits) {{
  let current = [];
  return edits.map((step) => {{
    current = current.slice();
    for (let k = 0; k < step.length; k += 3 + step[k + 2]) {{
      current.splice(step[k], step[k + 1], ...step.slice(k + 3, k + 3 + step[k + 2]));
    }}
    return current;
  }});
}}
const pictureTokens = {picture_tokens};
const pictures = decode(pictureTokens, {picture_edits});
const positionTokens = {position_tokens};
const positions = decode(positionTokens, {position_edits});
const moves = {moves};
const viewer = document.getElementById("viewer");
const items = document.querySelectorAll("#moves li");
let step = 0;
function show(k) {{
  step = Math.max(0, Math.min(moves.length, k));
  viewer.dataset.step = String(step);
  document.getElementById("picture").innerHTML = pictures[step].map((i) => pictureTokens[i]).join("");
  document.getElementById("position").textContent = positions[step].map((i) => positionTokens[i]).join("");
  items.forEach((item, i) => {{
    item.classList.toggle("done", i < step);
    item.classList.toggle("current", i === step);
  }});
  if (step < moves.length) {{ items[step].scrollIntoView({{block: "nearest"}}); }}
  document.getElementById("status").textContent = step < moves.length
    ? "Move " + (step + 1) + " of " + moves.length + ": " + moves[step]
    : "End: " + moves.length + " moves played";
  document.getElementById("prev").disabled = step === 0;
  document.getElementById("next").disabled = step === moves.length;
}}
document.getElementById("prev").addEventListener("click", () => show(step - 1));
document.getElementById("next").addEventListener("click", () => show(step + 1));
items.forEach((item, i) => item.addEventListener("click", () => show(i)));
document.addEventListener("keydown", (event) => {{
  const keys = {{ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: moves.length}};
  if (event.key in keys) {{ event.preventDefault(); show(keys[event.key]); }}
}});
show(0);
</script>
</body>
</html>
"""


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (no '</' can end it early)."""
    return json.dumps(value, ensure_ascii=False).replace("</", "<\\/")


def _compact_json(value: Any) -> str:
    """Numbers' JSON without spaces (it has no '</' to escape)."""
    return json.dumps(value, separators=(",", ":"))


# An element of draw's SVG: the root's opening tag, a child of the root (none nests an element of
# its own name) or the root's end. Whatever the input, the elements cover it: the last two
# alternatives take anything the others do not.
_SVG_ELEMENT = re.compile(r"<svg\b[^<>]*>|<(\w+)\b[^<>]*?/>|<(\w+)\b[^<>]*>.*?</\2>|</[^<>]*>\n?|[^<]+|<", re.DOTALL)
# A tag's start, one attribute, a tag's end, or text (draw's SVG escapes '<' and '>' in values and
# texts); anything else is taken as text.
_SVG_TOKEN = re.compile(r'<[^<>\s]*|\s[^<>\s=]+="[^"]*"|/?>|[^<]+|<')


def svg_elements(svg: str) -> List[str]:
    """An SVG document of ``draw.to_svg`` as the root's opening tag, each child element of the root
    and the root's end: ``"".join(svg_elements(svg)) == svg`` for any text."""
    return [match.group(0) for match in _SVG_ELEMENT.finditer(svg)]


def svg_tokens(element: str) -> List[str]:
    """Part of an SVG document as its tag starts, attributes, tag ends and texts, so that a card
    that moves changes one token (its ``transform``): ``"".join(svg_tokens(element)) == element``."""
    return _SVG_TOKEN.findall(element)


def delta_encode(documents: Sequence[Sequence[str]], tokens: Callable[[str], Sequence[str]]
                 ) -> Tuple[List[str], List[List[int]]]:
    """Documents, each a sequence of elements, as a table of their distinct tokens and, for each
    document, the edits that turn the previous one's tokens (the first: none) into its own.

    ``tokens`` splits an element into tokens. The edits of a document are a flat list of splices
    ``at, removed, count, i1 .. i_count`` on the list of the previous document's token indices
    into the table: remove ``removed`` at ``at`` and put the ``count`` indices there, applied in
    turn; each splice is at a lower place than the one before, so none moves another's place.
    Elements are compared first, then the tokens of those that differ: the positions of a line
    share most elements, and an element that changes keeps most of its tokens.
    """
    index: Dict[str, int] = {}
    split: Dict[str, List[int]] = {}  # each distinct element's token indices

    def indices(element: str) -> List[int]:
        if element not in split:
            split[element] = [index.setdefault(token, len(index)) for token in tokens(element)]
        return split[element]

    edits = []
    previous: Sequence[str] = []
    for current in documents:
        starts = list(accumulate((len(indices(element)) for element in previous), initial=0))
        step: List[int] = []
        for tag, i1, i2, j1, j2 in reversed(SequenceMatcher(None, previous, current).get_opcodes()):
            if tag == "equal":
                continue
            old = [i for element in previous[i1:i2] for i in indices(element)]
            new = [i for element in current[j1:j2] for i in indices(element)]
            for kind, k1, k2, l1, l2 in reversed(SequenceMatcher(None, old, new).get_opcodes()):
                if kind != "equal":
                    step += [starts[i1] + k1, k2 - k1, l2 - l1, *new[l1:l2]]
        edits.append(step)
        previous = current
    return list(index), edits


def solution_html(state: Any, moves: Iterable[Any], title: Optional[str] = None) -> str:
    """One self-contained HTML page stepping through ``moves`` from ``state``.

    ``state`` is a position of either implementation (unchanged);
    ``moves`` are moves as ``play()`` takes them (moves, texts or int
    actions), legal in turn. ``title`` (a str) defaults to the game's name
    and the number of moves. Raises what ``play()`` raises for a move
    (IllegalMoveError, a ValueError, for one not legal where it is played)
    and TypeError for a str or non-iterable ``moves`` or a non-str ``title``.
    """
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise TypeError(f"moves must be a sequence of moves, got {type_text(moves)}")
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str or None, got {type_text(title)}")
    info = info_of(state)
    position = state.copy()
    texts, positions = [], [position.to_text()]
    for move in moves:
        position.play(move)
        texts.append(str(position.move_stack[-1]))
        positions.append(position.to_text())
    pictures = [to_svg(info.name, text, highlight=move) for text, move in zip(positions, texts)]
    pictures.append(to_svg(info.name, positions[-1]))
    picture_tokens, picture_edits = delta_encode([svg_elements(svg) for svg in pictures], svg_tokens)
    # A position's text: its lines are the elements, each one token.
    position_tokens, position_edits = delta_encode([text.splitlines(keepends=True) for text in positions],
                                                   lambda line: (line,))
    if title is None:
        title = f"{info.title}: {len(texts)} moves"
    items = "".join(f'<li data-step="{i}">{escape(move)}</li>' for i, move in enumerate(texts))
    return _PAGE.format(title=escape(title), steps=len(texts), items=items,
                        picture_tokens=_script_json(picture_tokens), picture_edits=_compact_json(picture_edits),
                        position_tokens=_script_json(position_tokens), position_edits=_compact_json(position_edits),
                        moves=_script_json(texts))
