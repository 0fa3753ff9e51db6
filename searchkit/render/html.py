"""One self-contained HTML page stepping through a solution: inline SVG frames and a little script.

The page needs nothing from the network (a Content-Security-Policy forbids
every load): each step is an inline ``<svg>`` in a ``<div class="step"
data-step="i">`` (only the current one shown), with buttons for the first,
previous, next and last step and play/pause, a slider, the arrow keys
(Space plays or pauses, Home and End jump), and the move list with the
current move highlighted (``class="current"``; clicking a move shows it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from xml.sax.saxutils import escape

from searchkit.limits import setup_check
from searchkit.render.grid import Step
from searchkit.render.layout import board_only, legend_only, single_layout
from searchkit.render.palette import Palette
from searchkit.render.svg import frame_svg, legend_svg

_CSS = """
body { font-family: DejaVu Sans, Verdana, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.2em; font-weight: normal; }
#controls { display: flex; gap: .4em; align-items: center; margin: .6em 0; flex-wrap: wrap; }
#controls button { font: inherit; padding: .25em .7em; }
#slider { width: 18em; }
#main { display: flex; gap: 2em; align-items: flex-start; }
#stage { flex: 0 1 auto; }
#stage svg { display: block; width: 100%; height: auto; }
#side { flex: 0 0 auto; }
#moves { margin: 0; padding-left: 0; list-style: none; max-height: 80vh; overflow-y: auto;
  min-width: 9em; }
#moves li { padding: .1em .5em; cursor: pointer; border-radius: 3px; font-variant-numeric: tabular-nums; }
#moves li.current { background: #0072B2; color: #fff; }
.step[hidden] { display: none; }
kbd { border: 1px solid #bbb; border-radius: 3px; padding: 0 .3em; font-size: .9em; }
""".strip()

_JS = """
(function () {
  "use strict";
  var frames = Array.prototype.slice.call(document.querySelectorAll("#stage .step"));
  var items = Array.prototype.slice.call(document.querySelectorAll("#moves li"));
  var slider = document.getElementById("slider");
  var counter = document.getElementById("counter");
  var play = document.getElementById("play");
  var data = JSON.parse(document.getElementById("steps-data").textContent);
  var current = 0, timer = null;
  function show(i) {
    i = Math.max(0, Math.min(frames.length - 1, i));
    frames[current].hidden = true;
    frames[i].hidden = false;
    current = i;
    slider.value = String(i);
    counter.textContent = (i + 1) + " / " + frames.length + ": " + data.labels[i];
    var move = data.moves[i];
    items.forEach(function (li, k) {
      var on = k === move;
      li.classList.toggle("current", on);
      if (on) { li.setAttribute("aria-current", "step"); } else { li.removeAttribute("aria-current"); }
    });
    document.body.setAttribute("data-step", String(i));
  }
  function stop() { if (timer !== null) { clearTimeout(timer); timer = null; } play.textContent = "play"; }
  function tick() {
    if (current >= frames.length - 1) { stop(); return; }
    show(current + 1);
    timer = setTimeout(tick, data.settled[current] ? 800 : 350);
  }
  function toggle() {
    if (timer !== null) { stop(); return; }
    if (current >= frames.length - 1) { show(0); }
    play.textContent = "pause";
    timer = setTimeout(tick, 500);
  }
  document.getElementById("first").addEventListener("click", function () { stop(); show(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); show(frames.length - 1); });
  play.addEventListener("click", toggle);
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  items.forEach(function (li, k) {
    li.addEventListener("click", function () { stop(); show(data.settledAt[k]); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) { return; }
    if (e.key === "ArrowRight" || e.key === "ArrowDown") { stop(); show(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") { stop(); show(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { stop(); show(0); e.preventDefault(); }
    else if (e.key === "End") { stop(); show(frames.length - 1); e.preventDefault(); }
    else if (e.key === " ") { toggle(); e.preventDefault(); }
  });
  show(0);
}());
""".strip()


#: The board is drawn at most this many times its natural size (a huge window does not blow it up further).
MAX_SCALE = 4
#: Height of the page around the board (heading, controls, the key line), in ``em``.
CHROME_EM = 11


def _scale_css(width: int, height: int) -> str:
    """The rule sizing the board: the page's width, the window's height below the controls, the SVG's aspect."""
    aspect = width / height
    return (f"#stage {{ width: min(100%, calc((100vh - {CHROME_EM}em) * {aspect:.4f}), {MAX_SCALE * width}px); "
            f"min-width: min(100%, {width}px); }}")


def render_html(steps: Sequence[Step], *, labels: bool = False, title: str = "",
                palette: Palette | None = None) -> str:
    """The page for ``steps`` (at least one), as text.

    Args:
        steps: the pictures in order.
        labels: write each value in its cell.
        title: the page's title and heading.
        palette: the colours (:func:`searchkit.render.palette.load_palette`; default: Okabe-Ito).

    The legend is drawn once, beside the board above the move list.  The
    board scales with the window: as wide as the page allows and no taller
    than the window below the controls (its SVG keeps its aspect ratio
    through its ``viewBox``), not smaller than its natural size unless the
    page is narrower, nor larger than :data:`MAX_SCALE` times it.

    Raises:
        ValueError: no steps.
    """
    if not steps:
        raise ValueError("nothing to draw: no frames")
    title = title or "solution"
    full = single_layout(steps, palette)
    lay = board_only(full)
    frames = []
    for i, step in enumerate(steps):
        setup_check()  # a time limit (show --time-limit) holds while drawing too
        hidden = "" if i == 0 else " hidden"
        frames.append(f'<div class="step" data-step="{i}" data-move="{step.index}"{hidden}>'
                      f'{frame_svg(step, steps, labels=labels, number=i, lay=lay)}</div>')
    moves = ['<li data-move="0" class="current" aria-current="step">start</li>']
    settled_at = [0]
    for i, step in enumerate(steps):
        if step.settled and step.index > 0:
            moves.append(f'<li data-move="{step.index}">{step.index}. {escape(step.move or "")}</li>')
            settled_at.append(i)
    data = {"moves": [s.index for s in steps], "settled": [s.settled for s in steps],
            "labels": [s.label for s in steps], "settledAt": settled_at}
    blob = json.dumps(data).replace("<", "\\u003c")
    n = len(steps)
    csp = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>
{_CSS}
{_scale_css(lay.width, lay.height)}
</style>
</head>
<body data-step="0">
<h1>{escape(title)}</h1>
<div id="controls">
<button id="first" type="button" title="first (Home)">first</button>
<button id="prev" type="button" title="previous (left arrow)">&#x25C0; previous</button>
<button id="play" type="button" title="play / pause (Space)">play</button>
<button id="next" type="button" title="next (right arrow)">next &#x25B6;</button>
<button id="last" type="button" title="last (End)">last</button>
<input id="slider" type="range" min="0" max="{n - 1}" value="0" step="1" aria-label="step">
<span id="counter">1 / {n}: {escape(steps[0].label)}</span>
</div>
<div id="main">
<div id="stage">
{chr(10).join(frames)}
</div>
<div id="side">
<div id="legend">{legend_svg(legend_only(full))}</div>
<ol id="moves">
{chr(10).join(moves)}
</ol>
</div>
</div>
<p><kbd>&#x2190;</kbd> <kbd>&#x2192;</kbd> step, <kbd>Space</kbd> play or pause,
<kbd>Home</kbd> <kbd>End</kbd> first and last.</p>
<script id="steps-data" type="application/json">{blob}</script>
<script>
{_JS}
</script>
</body>
</html>
"""
