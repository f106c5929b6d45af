"""Pictures of КУБитва positions: an SVG diagram (exports, the HTML replay) and a text board for
the terminal (`cargoboard replay`, `cargoboard play kubitva`). The face is the one the export
framework asks every game's drawing for (svg, pieces, overlay, caption, text_board).

SVG conventions (docs/export.md): north up, a1 at the bottom left, any grid size. Every drawn
element that stands for part of the position carries data attributes, so a program (or a test)
can read the picture back: cells `data-kind="cell"` with `data-cell` and `data-land` (S or N,
lower case when captured this turn); the border `data-kind="border"` (one segment per edge
between the two lands, `data-between` the two cells); each cube `data-kind="cube"` with
`data-cell`, `data-cube` (its letter in the position notation) and, for units, `data-points`;
each intact building `data-kind="building"` with `data-building` (house, factory, barracks,
recycler), `data-owner`, `data-door`, `data-opening`; the last action `data-kind="last-action"`
(`data-action`) holding `data-kind="moved"` arrows (`data-from`, `data-to`), a `data-kind="killed"`
cross, `data-kind="filled"` rooms, a `data-kind="placed"` ring or a rocket's
`data-kind="flight"` line and `data-kind="destroyed"` burst (`data-cell`); the land counts
`data-kind="score"` and the treasuries `data-kind="treasury"` (`data-seat`, `data-value`).
"""

TITLE = "КУБитва"  # the game's name in titles (pages, exports)

import functools
from xml.sax.saxutils import escape

from cargoboard.export.diagram import caption_line, cell_centre, cell_origin, svg_document
from cargoboard.export.diagram import two_side_scores
from cargoboard.export.diagram import svg_num as _num, svg_tag as _tag, svg_text as _text
from shared_rules.kubitva import rules as kb

LETTERS = kb.SEAT_LETTERS  # "SN"
SIDE_NAME = ("South", "North")
SIDE_COLOUR = ("#1f5fa8", "#f4f4ef")   # units of S (blue) and N (white), as the board's LEDs
SIDE_STROKE = ("#0c2f57", "#2b2b2b")
LAND = ("#d9e6f6", "#efebdd")           # S's land, N's land
LAND_NEW = ("#b3cdee", "#e0d7b8")       # captured this turn
BORDER = "#b03a2e"
CUBE_FILL = {"b": "#d39b55", "a": "#66768a", "x": "#8e8e8e", "i": "#f2c53d", "p": "#e07b28",
             "m": "#a4332a", "r": "#2e9e5b", "q": "#6c3483"}
CUBE_INK = {"b": "#3b2a12", "a": "#ffffff", "x": "#ffffff", "i": "#3b2f05", "p": "#ffffff",
            "m": "#ffffff", "r": "#ffffff", "q": "#ffffff"}
KIND_NAME = {"b": "building cube", "a": "armour cube", "x": "waste", "i": "income filler",
             "p": "industry filler", "m": "military filler", "r": "recycling filler",
             "q": "base filler", "W": "worker", "S": "soldier"}
BUILDING_NAME = {kb.INCOME: "house", kb.INDUSTRY: "factory", kb.MILITARY: "barracks",
                 kb.RECYCLING: "recycler"}

CELL = 56
MARGIN = 26
CAPTION = 62
CUBE = 42

STYLE = (
    ".cb text{font-family:DejaVu Sans,Arial,sans-serif;text-anchor:middle;"
    "dominant-baseline:central}"
    ".cb .coord{font-size:12px;fill:#555}"
    ".cb .cl{font-size:17px;font-weight:bold}.cb .pt{font-size:11px;font-weight:bold}"
    ".cb .cap{font-size:14px;fill:#222}.cb .sc{font-size:15px;font-weight:bold}"
    ".cb .border{stroke:" + BORDER + ";stroke-width:4;stroke-linecap:round}"
    ".cb .bld{fill:none;stroke-width:2.5;stroke-dasharray:6 4}"
    ".cb .path{fill:none;stroke:#7d3c98;stroke-width:3;stroke-opacity:.85}"
    ".cb .flight{fill:none;stroke:#c0392b;stroke-width:3;stroke-dasharray:8 5}"
    ".cb .mark{fill:none;stroke:#7d3c98;stroke-width:3}"
)
DEFS = ('<defs><marker id="cb-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#7d3c98"/>'
        '</marker></defs>')


def size(pos):
    return 2 * MARGIN + pos.cols * CELL, 2 * MARGIN + pos.rows * CELL + CAPTION


def origin(pos, c):
    """Top-left pixel of cell c (north up)."""
    return cell_origin(c, pos.cols, pos.rows, CELL, MARGIN)


def centre(pos, c):
    return cell_centre(c, pos.cols, pos.rows, CELL, MARGIN)


def land_letter(t):
    """A cell's land t (pos.terr[c]) as the picture's data-land says it: its side's letter, in
    lower case if it was captured this turn (kb.FRESH)."""
    letter = LETTERS[t & 1]
    return letter.lower() if t & kb.FRESH else letter


def background(pos):
    """The board under the pieces: each cell's land, the border between the lands, the
    coordinates. It depends on the grid and the lands only, which stay the same for many
    actions: drawn once for each (the HTML replay takes every step's SVG; a 486-action game's
    page drew it 487 times, 40 % of its 2.5 s, for 91 different lands), of cells and border
    edges each drawn once for all the lands (_land_cell, _border_edge)."""
    return _background(pos.rows, pos.cols, bytes(pos.terr))


# The lands a cache of _background keeps. A page draws a game's lands in the order played, so a
# cache with less room than the game has lands drops each one just before it is wanted again
# (least recently used first): with room for 32, the engine's 486-action game (91 lands) drew
# all 91 again at each page `serve` made again. Room for 128, with a margin over that long
# game; each is ~20 KB of SVG text: 1.8 MB for its 91 lands, at most ~2.6 MB.
LANDS_KEPT = 128


@functools.lru_cache(maxsize=LANDS_KEPT)
def _background(rows, cols, terr):
    n = rows * cols
    nb = kb.Position(rows, cols).nb  # (the grid's neighbours)
    out = [_land_cell(rows, cols, c, terr[c]) for c in range(n)]
    # the border: every edge between cells of the two lands
    for c in range(n):
        for d in (0, 1):  # north and east edges, so that each edge is drawn once
            t = nb[c * 4 + d]
            if t != kb.NONE and (terr[t] & 1) != (terr[c] & 1):
                out.append(_border_edge(rows, cols, c, d, t))
    out.append(_coordinates(rows, cols))
    return "".join(out)


# A land's picture is its cells' and its border's edges: a game's lands share most of them (the
# 486-action game's 91 lands have 11 011 cells, 251 different ones): each drawn once.
@functools.lru_cache(maxsize=2048)
def _land_cell(rows, cols, c, t):
    x, y = cell_origin(c, cols, rows, CELL, MARGIN)
    side = t & 1
    return _tag("rect", [("x", x), ("y", y), ("width", CELL), ("height", CELL),
                         ("fill", LAND_NEW[side] if t & kb.FRESH else LAND[side]),
                         ("stroke", "#b8b2a2"), ("stroke-width", "1"), ("data-kind", "cell"),
                         ("data-cell", kb.cell_name(c, cols)), ("data-land", land_letter(t))])


@functools.lru_cache(maxsize=2048)
def _border_edge(rows, cols, c, d, t):
    x, y = cell_origin(c, cols, rows, CELL, MARGIN)
    if d == 0:
        pts = (x, y, x + CELL, y)
    else:
        pts = (x + CELL, y, x + CELL, y + CELL)
    return _tag("line", [("x1", pts[0]), ("y1", pts[1]), ("x2", pts[2]), ("y2", pts[3]),
                         ("class", "border"), ("data-kind", "border"),
                         ("data-between", "%s %s" % (kb.cell_name(c, cols),
                                                     kb.cell_name(t, cols)))])


@functools.lru_cache(maxsize=8)
def _coordinates(rows, cols):
    out = []
    bottom = MARGIN + rows * CELL
    right = MARGIN + cols * CELL
    for i in range(cols):
        x = MARGIN + i * CELL + CELL / 2
        out.append(_text(x, MARGIN / 2, "coord", kb.COLUMNS[i]))
        out.append(_text(x, bottom + MARGIN / 2, "coord", kb.COLUMNS[i]))
    for row in range(rows):
        y = MARGIN + (rows - 1 - row) * CELL + CELL / 2
        out.append(_text(MARGIN / 2, y, "coord", str(row + 1)))
        out.append(_text(right + MARGIN / 2, y, "coord", str(row + 1)))
    return "".join(out)


def _cube(pos, c):
    """Cell c's cube. It depends on the grid, the cell, the cube and a unit's points only, and
    a game meets few of them (a 486-action game's 22 719 cubes on its 487 steps are 246
    different ones): each drawn once (the replay page and every step's SVG take them all)."""
    v = pos.cells[c]
    return _cube_drawn(pos.rows, pos.cols, c, v, pos.points[c] if v >= kb.WORKER else 0)


@functools.lru_cache(maxsize=4096)
def _cube_drawn(rows, cols, c, v, pts):
    letter = kb.cube_text(v)
    x0, y0 = cell_origin(c, cols, rows, CELL, MARGIN)
    cx, cy = x0 + CELL / 2, y0 + CELL / 2
    name = kb.cell_name(c, cols)
    attrs = [("data-kind", "cube"), ("data-cell", name), ("data-cube", letter)]
    if v >= kb.WORKER:
        side = v & 1
        soldier = v & 2
        attrs.append(("data-points", pts))
        what = "%s %s, %d move points" % (SIDE_NAME[side], "soldier" if soldier else "worker",
                                          pts)
        r = CUBE / 2
        if soldier:
            shape = _tag("polygon", [("points", " ".join("%s,%s" % (_num(px), _num(py)) for
                                                         px, py in ((cx, cy - r), (cx + r, cy),
                                                                    (cx, cy + r), (cx - r, cy)))),
                                     ("fill", SIDE_COLOUR[side]), ("stroke", SIDE_STROKE[side]),
                                     ("stroke-width", 2)])
        else:
            shape = _tag("circle", [("cx", _num(cx)), ("cy", _num(cy)), ("r", _num(r - 2)),
                                    ("fill", SIDE_COLOUR[side]), ("stroke", SIDE_STROKE[side]),
                                    ("stroke-width", 2)])
        ink = "#ffffff" if side == 0 else "#222222"
        parts = [shape, _text(cx, cy - 2, "cl", "S" if soldier else "W", [("fill", ink)])]
        if pts != kb.MOVE_POINTS:
            parts.append(_text(cx + r - 5, cy + r - 7, "pt", str(pts), [("fill", "#7d3c98")]))
    else:
        what = KIND_NAME[letter]
        parts = [_tag("rect", [("x", _num(cx - CUBE / 2)), ("y", _num(cy - CUBE / 2)),
                               ("width", CUBE), ("height", CUBE), ("rx", 6),
                               ("fill", CUBE_FILL[letter]), ("stroke", "#333"),
                               ("stroke-width", 1.2)]),
                 _text(cx, cy, "cl", letter, [("fill", CUBE_INK[letter])])]
    parts.insert(0, "<title>%s</title>" % escape("%s: %s" % (name, what)))
    return _tag("g", attrs, "".join(parts))


def _building(pos, b):
    """Building b (of pos.buildings()). It depends on the grid, b and its rooms only (a
    486-action game's 2 803 buildings on its 487 steps are 8 different ones): each drawn
    once."""
    return _building_drawn(pos.rows, pos.cols, b, tuple(pos.rooms_of(b[1], b[2])))


@functools.lru_cache(maxsize=256)
def _building_drawn(rows, cols, b, rooms):
    kind, door, o, d, f, owner = b
    colour = "#555555" if owner < 0 else SIDE_STROKE[owner]
    parts = ["<title>%s</title>" % escape("%s of %s, door %s, opening %s" % (
        BUILDING_NAME[kind], LETTERS[owner] if owner >= 0 else "nobody",
        kb.cell_name(door, cols), kb.cell_name(o, cols)))]
    for r in rooms:
        x, y = cell_origin(r, cols, rows, CELL, MARGIN)
        parts.append(_tag("rect", [("x", x + 3), ("y", y + 3), ("width", CELL - 6),
                                   ("height", CELL - 6), ("class", "bld"),
                                   ("stroke", colour)]))
    ox, oy = cell_centre(o, cols, rows, CELL, MARGIN)
    dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[d]
    parts.append(_tag("line", [("x1", _num(ox - dx * CELL * 0.3)), ("y1", _num(oy - dy * CELL * 0.3)),
                               ("x2", _num(ox + dx * CELL * 0.3)), ("y2", _num(oy + dy * CELL * 0.3)),
                               ("class", "path"), ("marker-end", "url(#cb-arrow)")]))
    return _tag("g", [("data-kind", "building"), ("data-building", BUILDING_NAME[kind]),
                      ("data-owner", LETTERS[owner] if owner >= 0 else "-"),
                      ("data-door", kb.cell_name(door, cols)),
                      ("data-opening", kb.cell_name(o, cols))],
                "".join(parts))


def pieces(pos):
    """{key: fragment}: every cube (key: its cell) and every intact building (key: n + its
    door room), joined in key order they make the pieces layer."""
    out = {}
    for c in range(pos.n):
        if pos.cells[c]:
            out[c] = _cube(pos, c)
    for b in pos.buildings():
        out[pos.n + b[1]] = _building(pos, b)
    return out


def _arrow(pos, a, b, kind="moved"):
    x1, y1 = centre(pos, a)
    x2, y2 = centre(pos, b)
    return _tag("line", [("x1", _num(x1)), ("y1", _num(y1)), ("x2", _num(x2)), ("y2", _num(y2)),
                         ("class", "path"), ("marker-end", "url(#cb-arrow)"),
                         ("data-kind", kind), ("data-from", pos.cell_name(a)),
                         ("data-to", pos.cell_name(b))])


def _ring(pos, c, kind, r=CELL / 2 - 4):
    x, y = centre(pos, c)
    return _tag("circle", [("cx", _num(x)), ("cy", _num(y)), ("r", _num(r)), ("class", "mark"),
                           ("data-kind", kind), ("data-cell", pos.cell_name(c))])


def overlay(before, action_text, action=None):
    """The action that led from `before` to the drawn position (see the module docstring);
    action: its rules' action, if the caller parsed it already."""
    if before is None or not action_text:
        return ""
    a = before.parse_action(action_text) if action is None else action
    parts = ["<title>%s</title>" % escape("last action: " + action_text)]
    if a != kb.END:
        c = a >> 8
        code = a & 255
        nb = before.nb
        if code < kb.KILL:
            parts.append(_arrow(before, c, nb[c * 4 + code // 5]))
            cube = before.moved_cube(a)
            if cube is not None:
                parts.append(_arrow(before, cube[0], cube[1]))
        elif code < kb.FILL:
            t = nb[c * 4 + code - kb.KILL]
            x, y = centre(before, t)
            r = CELL / 3
            parts.append(_tag("path", [("d", "M%s,%s L%s,%s M%s,%s L%s,%s" % (
                _num(x - r), _num(y - r), _num(x + r), _num(y + r), _num(x - r), _num(y + r),
                _num(x + r), _num(y - r))), ("class", "flight"), ("data-kind", "killed"),
                ("data-cell", before.cell_name(t))]))
        elif code < kb.BUY:
            for r in before.rooms_of(c, nb[c * 4 + (code & 3)]):
                parts.append(_ring(before, r, "filled"))
        else:
            t = before.rocket_target(a)
            d = code & 3
            o = nb[c * 4 + d]
            if t >= 0:
                x1, y1 = centre(before, o)
                x2, y2 = centre(before, t)
                parts.append(_tag("line", [("x1", _num(x1)), ("y1", _num(y1)), ("x2", _num(x2)),
                                           ("y2", _num(y2)), ("class", "flight"),
                                           ("data-kind", "flight"),
                                           ("data-from", before.cell_name(o)),
                                           ("data-to", before.cell_name(t))]))
                parts.append(_ring(before, t, "destroyed", CELL / 2 - 2))
            else:
                parts.append(_ring(before, nb[o * 4 + d], "placed"))
    return _tag("g", [("data-kind", "last-action"), ("data-action", action_text)],
                "".join(parts))


def phase_text(pos):
    if pos.is_over():
        win = pos.winners()
        if len(win) == 2:
            return "game over, a draw"
        how = "base breached" if not (pos.base_kept(0) and pos.base_kept(1)) else \
            "turn limit"
        return "game over (%s), winner %s" % (how, LETTERS[win[0]])
    return "%s to move, turn %d/%d" % (LETTERS[pos.to_move], pos.turn, pos.limit)


def caption(pos, ply, total, action_text=None, mover=None):
    return caption_line(phase_text(pos), ply, total, action_text, mover)


def scores_svg(pos):
    """Each side's score, then its treasury beside it."""
    out = []
    for s, (x, y, score) in enumerate(two_side_scores(pos, CELL, MARGIN, LETTERS, SIDE_STROKE,
                                                      dx=-30)):
        letter = LETTERS[s]
        out.append(score)
        out.append(_text(x + 40, y, "sc", "$%d" % pos.treasury[s],
                         [("fill", "#7a5c00"), ("data-kind", "treasury"), ("data-seat", letter),
                          ("data-value", pos.treasury[s])]))
    return "".join(out)


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None, action=None,
        drawn=None):
    """A standalone SVG document of pos; with before and action_text the action that led to
    it is marked (action: its rules' action, if parsed already); ply/total label the
    caption; drawn: pieces(pos), if the caller drew them already."""
    mover = LETTERS[before.to_move] if before is not None else None
    if ply is None:
        ply = total = pos.ply()
    w, h = size(pos)
    return svg_document(
        pos, w, h, title or "КУБитва position: " + pos.notation(), STYLE, background(pos),
        pieces(pos) if drawn is None else drawn, overlay(before, action_text, action),
        scores_svg(pos), caption(pos, ply, total, action_text, mover), DEFS)


# -- text board for the terminal -------------------------------------------------------------

_LAND_BG = ("44", "47")  # ANSI backgrounds: S's land blue, N's land white
_INK = {"b": "33", "a": "1;37", "x": "2", "i": "1;33", "p": "33", "m": "1;31", "r": "32",
        "q": "1;35"}

TEXT_LEGEND = ("cells: b building cube, a armour, x waste; fillers i house, p factory, "
               "m barracks, r recycler, q base; W w workers, S s soldiers of S, N (a digit: "
               "move points left); empty land '.' S's, ':' N's, '*' captured this turn")


def text_board(pos, color=False):
    """The grid as text, row 1 at the bottom: each cell its notation letter (a unit with its
    points digit); empty land '.' for S, ':' for N, '*' captured this turn; with color the
    lands are also the backgrounds (S blue, N white)."""
    cols = pos.cols
    head = "    " + "".join(" %s " % kb.COLUMNS[i] for i in range(cols))
    lines = [head]
    for row in range(pos.rows - 1, -1, -1):
        cells = []
        for col in range(cols):
            c = row * cols + col
            v = pos.cells[c]
            side = pos.terr[c] & 1
            if v:
                txt = kb.cube_text(v, pos.points[c])
                txt = (" " + txt + " ")[:3] if len(txt) == 1 else " " + txt
            elif pos.terr[c] & kb.FRESH:
                txt = " * "
            else:
                txt = " . " if side == 0 else " : "
            if color:
                ink = "1;34" if v >= kb.WORKER and not v & 1 else (
                    "1;30" if v >= kb.WORKER else _INK.get(kb.cube_text(v), "2"))
                txt = "\x1b[%s;%sm%s\x1b[0m" % (_LAND_BG[side], ink, txt) if v else \
                    "\x1b[%sm%s\x1b[0m" % (_LAND_BG[side], txt)
            cells.append(txt)
        lines.append("%3d " % (row + 1) + "".join(cells) + " %d" % (row + 1))
    lines.append(head)
    sc = pos.scores()
    lines.append("land S=%d N=%d  treasury S=%d N=%d    %s" % (
        sc[0], sc[1], pos.treasury[0], pos.treasury[1], phase_text(pos)))
    return "\n".join(lines)
