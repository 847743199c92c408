"""A solution as one self-contained HTML page that steps through it (stdlib only).

``solution_html(state, moves)`` draws every position of the solution with
``draw.to_svg`` and embeds them all, so the page needs no network and no
files beside it. The page shows the position, the move list with the move
about to be played marked (and highlighted on the picture), previous/next
buttons, and takes the left and right arrow keys (Home and End jump to the
ends). The position shown is also in the DOM as text, in the hidden
``<pre id="position">``, and the step number in ``data-step`` of
``<main id="viewer">``, for tests and scripts.

>>> from patience_engine.reference import RoyalMarriage
>>> page = solution_html(RoyalMarriage.from_text("QH 3C 9D 2S 3S KH"), ["9D+2S"])
>>> page.count("<svg"), '<li data-step="0">9D+2S</li>' in page
(2, True)
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence
from xml.sax.saxutils import escape

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
const positions = {positions};
const pictures = {pictures};
const moves = {moves};
const viewer = document.getElementById("viewer");
const items = document.querySelectorAll("#moves li");
let step = 0;
function show(k) {{
  step = Math.max(0, Math.min(moves.length, k));
  viewer.dataset.step = String(step);
  document.getElementById("picture").innerHTML = pictures[step];
  document.getElementById("position").textContent = positions[step];
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
    return json.dumps(value).replace("</", "<\\/")


def solution_html(state: Any, moves: Sequence[Any], title: Optional[str] = None) -> str:
    """One self-contained HTML page stepping through ``moves`` from ``state``.

    ``state`` is a position of either implementation (unchanged);
    ``moves`` are moves or their texts, legal in turn. ``title`` defaults to
    the game's name and the number of moves. Raises IllegalMoveError (a
    ValueError) for a move that is not legal where it is played.
    """
    info = info_of(state)
    position = state.copy()
    texts = [str(move) for move in moves]
    positions = [position.to_text()]
    pictures = []
    for move in texts:
        pictures.append(to_svg(info.name, position.to_text(), highlight=move))
        position.play(move)
        positions.append(position.to_text())
    pictures.append(to_svg(info.name, position.to_text()))
    if title is None:
        title = f"{info.title}: {len(texts)} moves"
    items = "".join(f'<li data-step="{i}">{escape(move)}</li>' for i, move in enumerate(texts))
    return _PAGE.format(title=escape(title), steps=len(texts), items=items, positions=_script_json(positions),
                        pictures=_script_json(pictures), moves=_script_json(texts))
