"""A game as one self-contained HTML page that replays it: the diagram, the scores and the
action list at every step, with buttons (and arrow keys) to step forward and back. No network:
the style, the script and the data are all in the page.

The page carries its data as JSON in `<script type="application/json" id="cb-data">`:
`steps` (per step: ply, seat, action, position, scores, caption, and the fragment indexes of
its board, overlay and scoreboard layers), `fragments` (the distinct SVG fragments) and
`frames` (per step, the [key, fragment index] pairs of the pieces layer that changed since the
step before; a key is the rank of the drawing module's piece key; -1 removes a key; frame 0
holds every key). The script keeps the pieces layer's keys of the step shown and moves them a
frame at a time (back by each frame's undo), so the page stays small however long the game (an
action changes two or three cells) and a step forward or back costs one frame. Every layer and the
caption of a step are those of its SVG export (`export --format svg --at N`).
"""

import json
from xml.sax.saxutils import escape

from cargoboard.export import diagram
from cargoboard.export.gamefile import scores_of, shown
from cargoboard.store import result_text, score_text, source_text, when_text, winners_text
from cargoboard.rules import mover as mover_of

CSS = """
body{font-family:DejaVu Sans,Arial,sans-serif;margin:1em;color:#222;background:#fafafa}
h1{font-size:1.3em;margin:.2em 0 .6em}
.cb-wrap{display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start}
.cb-board svg{max-width:100%;max-height:calc(100vh - 6em);width:auto;height:auto;
  border:1px solid #ccc;background:#fff}
.cb-side{min-width:16em;max-width:28em}
.cb-controls{margin:.6em 0;display:flex;gap:.3em;align-items:center;flex-wrap:wrap}
.cb-controls button{font-size:1.1em;min-width:2.4em}
#cb-step{flex:1;min-width:10em}
table.cb-head{border-collapse:collapse;font-size:.9em;margin-bottom:.8em}
table.cb-head th{text-align:left;padding:.1em .6em .1em 0;color:#555;font-weight:normal}
table.cb-head td{padding:.1em 0;word-break:break-all}
#cb-moves{max-height:32em;overflow:auto;font-family:DejaVu Sans Mono,monospace;font-size:.9em;
  padding-left:2.6em;margin:0}
#cb-moves li{margin:.1em 0}
#cb-moves button{font:inherit;border:1px solid transparent;background:none;cursor:pointer;
  padding:0 .25em}
#cb-moves button.cur{background:#7d3c98;color:#fff;border-radius:3px}
#cb-position{font-family:DejaVu Sans Mono,monospace;font-size:.75em;word-break:break-all;
  color:#555}
.cb-nav{display:flex;gap:1em;align-items:center;flex-wrap:wrap;margin-bottom:.6em}
.cb-nav form{display:inline;margin:0}
"""

JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("cb-data").textContent);
  var frags = data.fragments, frames = data.frames, steps = data.steps;
  var last = steps.length - 1, cur = -1;
  function $(id) { return document.getElementById(id); }
  var pieces = $("cb-pieces"), over = $("cb-overlay"), cap = $("cb-caption");
  var board = $("cb-board"), scoreboard = $("cb-scores"), boardShown = -1;
  var slider = $("cb-step"), counter = $("cb-counter"), posText = $("cb-position");
  var moveButtons = document.querySelectorAll("button[data-step]");
  // The pieces layer's state (key -> fragment) at step `at`, moved one frame at a time: a step
  // forward applies its frame, a step back applies that frame's undo (what its keys held
  // before, noted when it was applied: the state before a frame is always the same); a jump
  // back to a step nearer the start than to the step shown rebuilds from frame 0.
  var state = {}, at = -1, undo = [];
  function put(changes) {
    for (var j = 0; j < changes.length; j++) {
      var k = changes[j][0], v = changes[j][1];
      if (v < 0) { delete state[k]; } else { state[k] = v; }
    }
  }
  function cells(n) {
    if (n + 1 < at - n) { state = {}; at = -1; }  // n + 1 frames rather than at - n undos
    for (; at < n; at++) {
      var f = frames[at + 1], before = [];
      for (var j = 0; j < f.length; j++) {
        var k = f[j][0];
        before.push([k, state.hasOwnProperty(k) ? state[k] : -1]);
      }
      undo[at + 1] = before;
      put(f);
    }
    for (; at > n; at--) { put(undo[at]); }
    return state;
  }
  function show(n) {
    n = Math.max(0, Math.min(last, n));
    var layer = cells(n);
    var keys = Object.keys(layer).map(Number).sort(function (a, b) { return a - b; });
    var html = "";
    for (var i = 0; i < keys.length; i++) { html += frags[layer[keys[i]]]; }
    pieces.innerHTML = html;
    var s = steps[n];
    over.innerHTML = s.overlay >= 0 ? frags[s.overlay] : "";
    cap.textContent = s.caption;
    scoreboard.innerHTML = frags[s.scoreboard];
    if (s.board !== boardShown) { board.innerHTML = frags[s.board]; boardShown = s.board; }
    slider.value = n;
    counter.textContent = n + " / " + last;
    posText.textContent = s.position;
    var links = document.querySelectorAll("a[data-step-href]");
    for (var l = 0; l < links.length; l++) {
      links[l].href = links[l].getAttribute("data-step-href") + n;
    }
    for (var k = 0; k < moveButtons.length; k++) {
      var b = moveButtons[k];
      var on = Number(b.getAttribute("data-step")) === n;
      b.className = on ? "cur" : "";
      if (on && b.scrollIntoView && cur >= 0) { b.scrollIntoView({block: "nearest"}); }
    }
    cur = n;
    try { history.replaceState(null, "", "#" + n); } catch (e) { /* file: URLs may refuse */ }
  }
  $("cb-copy").onclick = function () {
    var text = posText.textContent, button = this;
    function done(ok) { button.textContent = ok ? "copied" : "select and copy"; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); },
                                               function () { done(false); });
    } else {
      var range = document.createRange();
      range.selectNodeContents(posText);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      done(ok);
    }
  };
  $("cb-first").onclick = function () { show(0); };
  $("cb-prev").onclick = function () { show(cur - 1); };
  $("cb-next").onclick = function () { show(cur + 1); };
  $("cb-last").onclick = function () { show(last); };
  slider.oninput = function () { show(Number(slider.value)); };
  for (var k = 0; k < moveButtons.length; k++) {
    moveButtons[k].onclick = function () { show(Number(this.getAttribute("data-step"))); };
  }
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT") { return; }
    if (e.key === "ArrowRight" || e.key === "n") { show(cur + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft" || e.key === "p") { show(cur - 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(last); e.preventDefault(); }
  });
  var start = parseInt((location.hash || "#0").slice(1), 10);
  show(isNaN(start) ? 0 : start);
})();
"""


UNSHOWN_TITLE = "step"  # the title of the step documents replay_data takes the layers of


def replay_data(rec, positions, draw, movers=None, actions=None):
    """The page's data: steps, distinct fragments and per-step changes of the pieces layer.
    Every step's layers are those of its SVG export (diagram.step_svg), so the page shows at
    each step what `export --format svg --at N` shows. movers: mover_of each position but the
    last (game_html's move list needs them too: each costs the rules' is_over). actions: the
    rules' actions of rec.actions (GameRecord.replay), which the drawing then does not parse
    again (a tenth of the page's time at 778 actions); None: it parses them."""
    if movers is None:
        movers = [mover_of(pos) for pos in positions[:-1]]
    fragments = []
    index = {}

    def frag(text):
        if text not in index:
            index[text] = len(fragments)
            fragments.append(text)
        return index[text]

    # each step's pieces drawn once, for its frame and its SVG (step_svg drawn=): drawing them
    # twice was 40 % of a 486-action КУБитва game's page
    pieces = [draw.pieces(pos) for pos in positions]
    # The pieces layer joins its fragments in the order of their keys (numbers, or strings
    # such as «Формула 99»'s "1-03-12"): the page gets each key's rank in that order.
    rank = {k: i for i, k in enumerate(sorted({k for p in pieces for k in p}))}
    steps = []
    frames = []
    prev = {}
    for n, pos in enumerate(positions):
        cur = {rank[k]: frag(v) for k, v in pieces[n].items()}
        changes = [[k, v] for k, v in sorted(cur.items()) if prev.get(k) != v]
        changes += [[k, -1] for k in sorted(prev) if k not in cur]
        frames.append(changes)
        prev = cur
        # (the document's title is not on the page: given, it spares the drawing module a
        # notation of the position, which the document's data-position holds already)
        layers = diagram.document_layers(diagram.step_svg(draw, positions, rec.actions, n,
                                                          title=UNSHOWN_TITLE,
                                                          abandoned=rec.abandoned,
                                                          parsed=actions, drawn=pieces[n]))
        steps.append({"ply": n, "seat": movers[n - 1] if n else None,
                      "action": rec.actions[n - 1] if n else None,
                      "position": layers["position"], "scores": scores_of(pos),
                      "caption": layers["caption"], "board": frag(layers["board"]),
                      "overlay": frag(layers["overlay"]) if layers["overlay"] else -1,
                      "scoreboard": frag(layers["scores"])})
    return {"steps": steps, "fragments": fragments, "frames": frames}


def _json_for_script(obj):
    # Inside <script> the text must not close the element or open a comment.
    return (json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
            .replace("</", "<\\/").replace("<!--", "\\u003c!--"))


def page_inputs(rec):
    """Everything of rec that game_html reads (through gamefile.shown too), as JSON-able
    values: two records alike in these make the same page (`cargoboard serve` keeps pages by
    it, web/app.py ReplayPages). A field game_html comes to read belongs here."""
    return [rec.id, rec.kind, rec.variant, rec.seats, rec.start, rec.actions, rec.source,
            rec.source_game, rec.played, rec.stored, rec.abandoned, rec.damage]


BODY = "<body>\n"  # where a page's nav goes: at the top of its body (with_nav)


def with_nav(page, nav):
    """A page game_html made, with nav: HTML at the top of its body (the web archive's links; a
    link with data-step-href gets the step shown appended to it). game_html's page has none
    (`cargoboard serve` keeps a game's page once, without its links, for its replay and its
    export.html). The first BODY is the body's tag: no text before it can hold one (the
    title is escaped, the style is CSS)."""
    at = page.index(BODY) + len(BODY)
    return page[:at] + nav + page[at:]


def game_html(rec, positions=None, actions=None):
    """The replay page of a game as one string, with no links at the top of its body (the web
    archive adds its own: with_nav). The game is shown as its pictures show it
    (gamefile.shown: a hot-seat game's hands and deck only at its end), on the web page as in
    the file. positions, actions: rec.replay()'s, if the caller has them (actions may be None:
    they are parsed again where drawn)."""
    draw = diagram.for_kind(rec.kind)
    if positions is None:
        positions, actions = rec.replay()
    rec, positions, reveal = shown(rec, positions)
    if reveal is not None:  # the public game shown: other actions, other positions
        actions = None
    movers = [mover_of(pos) for pos in positions[:-1]]
    data = replay_data(rec, positions, draw, movers, actions)
    final = positions[-1]
    total = len(rec.actions)
    name = "game %s" % rec.id if rec.id is not None else "game"
    title = "%s %s (%s, %s)" % (diagram.title(rec.kind), name, rec.variant, rec.seats)
    head = [("kind", rec.kind), ("variant", rec.variant), ("seats", rec.seats),
            ("played", when_text(rec.played, rec.stored)),
            ("source", source_text(rec.source, rec.source_game)),
            ("actions", str(total)), ("result", score_text(final)),
            ("outcome", result_text(winners_text(final), rec.abandoned))]
    if rec.damage:
        head.append(("damage", "%s; `cargoboard export %s --format log` writes the raw log"
                     % (rec.damage, rec.id)))
    rows = "".join("<tr><th>%s</th><td>%s</td></tr>" % (escape(k), escape(v)) for k, v in head)
    moves = []
    mover = None
    turn = []
    start_button = '<button type="button" data-step="0">start</button>'
    for n, text in enumerate(rec.actions, 1):
        seat = movers[n - 1]
        if seat != mover and turn:
            moves.append("<li>%s: %s</li>" % (mover, " ".join(turn)))
            turn = []
        mover = seat
        turn.append('<button type="button" data-step="%d">%s</button>' % (n, escape(text)))
    if turn:
        moves.append("<li>%s: %s</li>" % (mover, " ".join(turn)))
    svg = draw.svg(positions[0], ply=0, total=total)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>%s</title>" % escape(title),
        "<style>%s</style>" % CSS,
        "</head>",
        "<body>",
        "",  # the nav's line (with_nav)
        "<h1>%s</h1>" % escape(title),
        '<div class="cb-wrap">',
        '<div class="cb-board">%s</div>' % svg,
        '<div class="cb-side">',
        '<table class="cb-head">%s</table>' % rows,
        '<div class="cb-controls">'
        # |◀ and ▶| rather than U+23EE/U+23ED, which many fonts lack (empty boxes)
        '<button type="button" id="cb-first" title="start (Home)">|&#x25C0;</button>'
        '<button type="button" id="cb-prev" title="back (\u2190)">&#x25C0;</button>'
        '<button type="button" id="cb-next" title="forward (\u2192)">&#x25B6;</button>'
        '<button type="button" id="cb-last" title="end (End)">&#x25B6;|</button>'
        '<input type="range" id="cb-step" min="0" max="%d" value="0" aria-label="step">'
        '<span id="cb-counter">0 / %d</span></div>' % (total, total),
        '<p><span id="cb-position">%s</span> <button type="button" id="cb-copy" '
        'title="copy the position\'s notation">copy</button></p>' % escape(
            positions[0].notation()),
        "<p>%s</p>" % start_button,
        '<ol id="cb-moves">%s</ol>' % "".join(moves),
        "<noscript><p>Stepping needs JavaScript; the diagram shows the start.</p></noscript>",
        "</div>",
        "</div>",
        '<script type="application/json" id="cb-data">%s</script>' % _json_for_script(data),
        "<script>%s</script>" % JS,
        "</body>",
        "</html>",
    ]) + "\n"
