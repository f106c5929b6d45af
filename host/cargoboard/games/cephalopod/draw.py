"""Pictures of Cephalopod positions: an SVG diagram (exports, the HTML replay) and a text board
for the terminal (`cargoboard replay`). cargoboard.export.diagram picks this module for the kind
'cephalopod'; the face is the one of every game's draw part (see cargoboard.export.diagram).

SVG conventions (docs/export.md): the game's board (5x5, 3x5, 5x3 or 3x3) with a1 at the bottom
left, as the notation counts. Every drawn element that stands for part of the position carries
data attributes, so a program (or a test) can read the picture back: cells `data-kind="cell"`
with `data-cell`; each die `data-kind="die"` with `data-cell`, `data-colour` (w or b) and
`data-pips`, holding one `data-kind="pip"` circle per pip, laid out as on a real die; the last
action `data-kind="last-action"` (`data-action`, `data-cell`, `data-pips`) with one
`data-kind="captured"` mark per captured cell; scores `data-kind="score"`.
"""

TITLE = "Cephalopod"  # the game's name in titles (pages, exports)

from xml.sax.saxutils import escape

from cargoboard.export.diagram import caption_line, cell_centre, cell_origin, svg_document
from cargoboard.export.diagram import two_side_scores
from cargoboard.export.diagram import svg_num as _num, svg_tag as _tag, svg_text as _text
from shared_rules.cephalopod import rules as ce

SEAT_NAME = ("white", "black")
LETTERS = ce.SEAT_LETTERS  # "wb"
DIE_FILL = ("#fbfbf8", "#23272e")
DIE_STROKE = ("#4a4a4a", "#000000")
PIP_FILL = ("#23272e", "#fbfbf8")
SCORE_FILL = ("#555555", "#111111")

CELL = 96  # px per cell
MARGIN = 28  # room for the coordinates
CAPTION = 56
DIE = 70  # the die's square
PIP = 6.5  # pip radius

STYLE = (
    ".cb text{font-family:DejaVu Sans,Arial,sans-serif;text-anchor:middle;"
    "dominant-baseline:central}"
    ".cb .coord{font-size:13px;fill:#555}"
    ".cb .cap{font-size:14px;fill:#222}.cb .sc{font-size:16px;font-weight:bold}"
    ".cb .last{fill:none;stroke:#7d3c98;stroke-width:4}"
    ".cb .took{fill:none;stroke:#7d3c98;stroke-width:3;stroke-dasharray:7 5}"
)

# Pip positions on a die face, in thirds of the face from its centre (-1, 0, 1).
PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def size(pos):
    """(width, height) of the picture."""
    return 2 * MARGIN + pos.cols * CELL, 2 * MARGIN + pos.rows * CELL + CAPTION


def origin(pos, c):
    """Top-left pixel of cell c (row 1 at the bottom)."""
    return cell_origin(c, pos.cols, pos.rows, CELL, MARGIN)


def centre(pos, c):
    return cell_centre(c, pos.cols, pos.rows, CELL, MARGIN)


def background(pos):
    out = []
    for c in range(pos.rows * pos.cols):
        x, y = origin(pos, c)
        fill = "#e9e2d0" if (c % pos.cols + c // pos.cols) % 2 else "#f4eedf"
        out.append(_tag("rect", [("x", x), ("y", y), ("width", CELL), ("height", CELL),
                                 ("fill", fill), ("stroke", "#a89f8a"), ("stroke-width", "1"),
                                 ("data-kind", "cell"), ("data-cell", pos.cell_name(c))]))
    bottom = MARGIN + pos.rows * CELL
    right = MARGIN + pos.cols * CELL
    for i in range(pos.cols):
        x = MARGIN + i * CELL + CELL / 2
        letter = "abcde"[i]
        out.append(_text(x, MARGIN / 2, "coord", letter))
        out.append(_text(x, bottom + MARGIN / 2, "coord", letter))
    for row in range(pos.rows):
        y = MARGIN + (pos.rows - 1 - row) * CELL + CELL / 2
        out.append(_text(MARGIN / 2, y, "coord", str(row + 1)))
        out.append(_text(right + MARGIN / 2, y, "coord", str(row + 1)))
    return "".join(out)


def _die(pos, c, colour, pips):
    x0, y0 = origin(pos, c)
    x = x0 + (CELL - DIE) / 2
    y = y0 + (CELL - DIE) / 2
    name = pos.cell_name(c)
    parts = ["<title>%s</title>" % escape("%s: %s die showing %d" % (name, SEAT_NAME[colour],
                                                                   pips)),
             _tag("rect", [("x", _num(x)), ("y", _num(y)), ("width", DIE), ("height", DIE),
                           ("rx", 11), ("fill", DIE_FILL[colour]),
                           ("stroke", DIE_STROKE[colour]), ("stroke-width", 2)])]
    cx = x + DIE / 2
    cy = y + DIE / 2
    step = DIE / 4
    for px, py in PIPS[pips]:
        parts.append(_tag("circle", [("cx", _num(cx + px * step)), ("cy", _num(cy + py * step)),
                                     ("r", PIP), ("fill", PIP_FILL[colour]),
                                     ("data-kind", "pip")]))
    return _tag("g", [("data-kind", "die"), ("data-cell", name), ("data-colour", LETTERS[colour]),
                      ("data-pips", pips)], "".join(parts))


def pieces(pos):
    """{cell index: fragment} for every cell holding a die."""
    out = {}
    for c in range(len(pos.cells)):
        if pos.cells[c]:
            out[c] = _die(pos, c, pos.colour(c), pos.pips(c))
    return out


def overlay(before, action_text, action=None):
    """The action that led from `before` to the drawn position: a ring around the new die,
    a dashed ring on each cell it emptied (action: its rules' action, if parsed already)."""
    if before is None or not action_text:
        return ""
    a = before.parse_action(action_text) if action is None else action
    c = a >> 4
    taken = before.captured_cells(a)
    pips = sum(before.pips(n) for n in taken) if taken else 1
    x, y = centre(before, c)
    parts = ["<title>%s</title>" % escape("last action: %s (the die shows %d)" % (action_text,
                                                                                  pips)),
             _tag("circle", [("cx", _num(x)), ("cy", _num(y)), ("r", CELL / 2 - 4),
                             ("class", "last")])]
    for n in taken:
        nx, ny = centre(before, n)
        parts.append(_tag("circle", [("cx", _num(nx)), ("cy", _num(ny)), ("r", CELL / 2 - 10),
                                     ("class", "took"), ("data-kind", "captured"),
                                     ("data-cell", before.cell_name(n))]))
    return _tag("g", [("data-kind", "last-action"), ("data-action", action_text),
                      ("data-cell", before.cell_name(c)), ("data-pips", pips)], "".join(parts))


def phase_text(pos):
    if pos.is_over():
        win = pos.winners()
        return "game over, winner %s" % " ".join(LETTERS[s] for s in win)
    return "%s to move" % LETTERS[pos.to_move]


def caption(pos, ply, total, action_text=None, mover=None):
    """One line under the diagram: where in the game, the last action, whose turn."""
    return caption_line(phase_text(pos), ply, total, action_text, mover)


def scores_svg(pos):
    return "".join(text for _, _, text in two_side_scores(pos, CELL, MARGIN, LETTERS,
                                                          SCORE_FILL))


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None, action=None,
        drawn=None):
    """A standalone SVG document of pos. With before and action_text, the action that led to
    pos is marked (action: its rules' action, if parsed already); ply/total label the
    caption; drawn: pieces(pos), if the caller drew them already."""
    mover = LETTERS[before.to_move] if before is not None else None
    if ply is None:
        ply = total = pos.ply()
    w, h = size(pos)
    return svg_document(
        pos, w, h, title or "Cephalopod position: " + pos.notation(), STYLE, background(pos),
        pieces(pos) if drawn is None else drawn, overlay(before, action_text, action),
        scores_svg(pos), caption(pos, ply, total, action_text, mover))


# -- text board for the terminal -----------------------------------------------------------------

_ANSI = ("1;97", "1;34")  # white dice bright white, black dice blue (as the board's LEDs)

TEXT_LEGEND = "cells: w3 a white die showing 3, b1 a black die showing 1, . empty"


def text_board(pos, color=False):
    """The board as text, row 1 at the bottom: each cell w1..w6, b1..b6 or '.'."""
    head = "    " + "".join("  %s " % ch for ch in "abcde"[:pos.cols])
    lines = [head]
    for row in range(pos.rows - 1, -1, -1):
        cells = []
        for col in range(pos.cols):
            c = row * pos.cols + col
            if pos.cells[c]:
                txt = " " + ce.die_text(pos.cells[c]) + " "
                if color:
                    txt = "\x1b[%sm%s\x1b[0m" % (_ANSI[pos.colour(c)], txt)
            else:
                txt = "  . " if not color else "\x1b[2m  . \x1b[0m"
            cells.append(txt)
        lines.append("%3d " % (row + 1) + "".join(cells) + " %d" % (row + 1))
    lines.append(head)
    sc = pos.scores()
    lines.append("scores w=%d b=%d    %s" % (sc[0], sc[1], phase_text(pos)))
    return "\n".join(lines)
