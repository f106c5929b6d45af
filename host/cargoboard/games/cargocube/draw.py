"""Pictures of Cargocube positions: an SVG diagram (exports, the HTML replay, the docs) and a
text board for the terminal (`cargoboard replay`). Everything Cargocube-specific about drawing
lives here; cargoboard.export.diagram picks the module by game kind.

SVG conventions (docs/export.md): north up, a1 at the bottom left. Every drawn element that
stands for part of the position carries data attributes, so a program (or a test) can read the
picture back: cells `data-kind="cell"` with `data-cell` and `data-cell-kind`; per occupied cell
one `data-kind="stack"` group (`data-height`) holding one group per item, bottom to top
(`data-kind="cube"` with `data-level`, `data-orient`, `data-top`, `data-bottom`, `data-north`,
`data-east`, `data-south`, `data-west`; `data-kind="keeper"` or `"dead-keeper"` with
`data-seat`; `data-kind="teleport"`), a biohazard on the top cube `data-kind="biohazard"`
(`data-seat`: the controlling seat); cards `data-kind="card"` (`data-card` s/w/a/u/c/p/x/h/v and
`=` for a spent one, `data-owner`, `data-placed`); scores `data-kind="score"`.
The top item of a stack is drawn in full (a cube seen from above: its top face in the middle,
its four side faces around it, each with its face written on it); the items under it are the
slabs below it, and the height is written at the top right when it is 2 or more.
"""

TITLE = "Cargocube"  # the game's name in titles (pages, exports)

import functools
from xml.sax.saxutils import escape

from cargoboard.export.diagram import caption_line, cell_centre, cell_origin, svg_document
from cargoboard.export.diagram import svg_num as _num, svg_tag as _tag, svg_text as _text
from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient as o

SEAT_COLOUR = ("#c0392b", "#1e8449", "#2471a3", "#b9770e")  # S W N E
SEAT_TINT = ("#f6dcd8", "#d5efdf", "#d6e6f3", "#f8e7c9")
SEAT_NAME = ("South", "West", "North", "East")
# 8 players: seats 1..8, two to a side (docs/rules/cargocube.md 16.10); the letter tells them
# apart in the picture, the colours pair them by side.
SEAT_COLOUR8 = ("#c0392b", "#922b21", "#1e8449", "#145a32", "#2471a3", "#1a5276", "#b9770e",
                "#7e5109")
SEAT_TINT8 = ("#f6dcd8", "#efc7c2", "#d5efdf", "#bfe3cc", "#d6e6f3", "#c0d6ea", "#f8e7c9",
              "#efd6a8")
HALF_NAME = ("south side, east half", "south side, west half", "west side, south half",
             "west side, north half", "north side, west half", "north side, east half",
             "east side, north half", "east side, south half")
CARD_NAME = {"s": "springboard", "w": "wind rose", "a": "acceleration", "u": "umbrella",
             "c": "catapult", "p": "spiral", "x": "extra portal", "h": "biohazard",
             "v": "sacrifice", "=": "spent card"}
PORTAL_COLOUR = "#7d3c98"


def seat_colour(seats, s):
    return SEAT_COLOUR8[s] if len(seats) == 8 else SEAT_COLOUR[s]


def seat_name(seats, s):
    if len(seats) == 8:
        return "seat %d (%s)" % (s + 1, HALF_NAME[s])
    return SEAT_NAME[s]


def seat_letter(seats, s):
    return "12345678"[s] if len(seats) == 8 else g.SEAT_LETTERS[s]

CELL = 72  # px per cell
MARGIN = 26  # room for the coordinates
BOARD = 11 * CELL
CAPTION = 56
WIDTH = 2 * MARGIN + BOARD
HEIGHT = 2 * MARGIN + BOARD + CAPTION

CUBE = 50  # the top item's square
INSET = 14  # width of the side-face bands around the top face
SLABS = 15  # px under the top item for the items below it

STYLE = (
    ".cb text{font-family:DejaVu Sans,Arial,sans-serif;text-anchor:middle;"
    "dominant-baseline:central}"
    ".cb .coord{font-size:12px;fill:#555}"
    ".cb .cube polygon,.cb .cube rect,.cb .slab{stroke:#333;stroke-width:.8}"
    ".cb .fB{fill:#2e3440}.cb .fO{fill:#fff}.cb .fP{fill:#fbf3dc}"
    ".cb .sB{fill:#4c566a}.cb .sO{fill:#e4e4e4}.cb .sP{fill:#eadfbf}"
    ".cb .tt{font-size:18px;font-weight:bold}.cb .ts{font-size:11px}"
    ".cb .lB{fill:#fff}.cb .lO{fill:#8a8a8a}.cb .lP{fill:#222}"
    ".cb .kp{stroke:#222;stroke-width:1}.cb .kl{font-size:16px;font-weight:bold;fill:#fff}"
    ".cb .ht{font-size:14px;font-weight:bold;fill:#222}"
    ".cb .cl{font-size:15px;font-weight:bold}"
    ".cb .cap{font-size:14px;fill:#222}.cb .sc{font-size:15px;font-weight:bold}"
    ".cb .path{fill:none;stroke:#7d3c98;stroke-width:3;stroke-opacity:.8}"
    ".cb .hz{fill:#f4d03f;stroke:#111;stroke-width:1.5}.cb .hzl{font-size:13px;font-weight:bold;"
    "fill:#111}.cb .dk{fill:#4d5656;stroke:#111;stroke-width:1}"
    ".cb .dkl{font-size:15px;font-weight:bold;fill:#eee}"
)
# the arrow head of the last action's path: its tip (refX 10) is the path's last point
ARROW_DEFS = ('<defs><marker id="cb-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="5" '
              'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#7d3c98"/>'
              '</marker></defs>')


def _points(pts):
    return " ".join("%s,%s" % (_num(x), _num(y)) for x, y in pts)


def origin(c):
    """Top-left pixel of cell c (north up)."""
    return cell_origin(c, 11, 11, CELL, MARGIN)


def centre(c):
    return cell_centre(c, 11, 11, CELL, MARGIN)


def piece_box(c):
    """Top-left pixel of the square the top item of cell c is drawn in (CUBE wide)."""
    x, y = origin(c)
    return x + 4, y + 4


def _piece_centre(c):
    x, y = piece_box(c)
    return x + CUBE / 2, y + CUBE / 2


def _edge_towards(c, towards):
    """The middle of the side of cell c's piece square that faces the point `towards`: where
    the last action's arrow leaves its source and where its tip ends on its destination, so
    that neither the line nor the head lies on a face's digit of those pieces (nor on the
    height or a card's letter, written in the cell's corners)."""
    x, y = piece_box(c)
    cx, cy = x + CUBE / 2, y + CUBE / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    if abs(dy) >= abs(dx):
        return cx, (y if dy < 0 else y + CUBE)
    return (x if dx < 0 else x + CUBE), cy


def cell_kind(c, seats):
    """'corner', 'grey', 'portal' (f6), 'terminal-S', 'exit-S' (an exit portal) or 'out' (the
    terminal of a seat not in play); with 8 players 'terminal-1' ... 'terminal-8' for the
    halves and 'exit-S' ... 'exit-E' for the exit portals each side's two seats share."""
    k = g.CELL_KIND[c]
    if k == g.CORNER:
        return "corner"
    if k == g.GREY:
        return "portal" if c == g.ENTRY_PORTAL else "grey"
    side = k - g.TERMINAL
    if c == g.EXIT_PORTAL[side] and (side in seats or len(seats) == 8):
        return "exit-" + g.SEAT_LETTERS[side]
    if len(seats) == 8:
        from shared_rules.cargocube import eight
        return "terminal-%d" % (eight.OWNER[c] + 1)
    if side not in seats:
        return "out"
    return "terminal-" + g.SEAT_LETTERS[side]


def _kind_seat(kind):
    """The seat int of a cell kind 'terminal-X' or 'exit-X' (for exits: the side)."""
    letter = kind[-1]
    if letter.isdigit():
        return int(letter) - 1
    return g.SEAT_LETTERS.index(letter)


# -- the board under the pieces: depends on the seats in play only ---------------------------

def background(seats):
    return _background(tuple(seats))


@functools.lru_cache(maxsize=16)
def _background(seats):
    # the same for every position of a game: drawn once per set of seats (the HTML replay
    # takes every step's SVG)
    out = []
    for c in range(g.N_CELLS):
        x, y = origin(c)
        kind = cell_kind(c, seats)
        if kind in ("corner", "out"):
            fill = "#5d6d7e" if kind == "corner" else "#aab7b8"
        elif kind in ("grey", "portal"):
            fill = "#eceff1" if (c % 11 + c // 11) % 2 else "#e3e7ea"
        elif kind.startswith("terminal-") and len(seats) == 8:
            fill = SEAT_TINT8[_kind_seat(kind)]
        else:
            fill = SEAT_TINT[_kind_seat(kind)]
        out.append(_tag("rect", [("x", x), ("y", y), ("width", CELL), ("height", CELL),
                                 ("fill", fill), ("stroke", "#9aa5ab"), ("stroke-width", ".6"),
                                 ("data-kind", "cell"), ("data-cell", g.cell_name(c)),
                                 ("data-cell-kind", kind)]))
        cx, cy = x + CELL / 2, y + CELL / 2
        if kind == "portal":
            out.append(_tag("g", [("data-kind", "portal"), ("data-cell", g.cell_name(c))],
                            _tag("circle", [("cx", _num(cx)), ("cy", _num(cy)), ("r", 32),
                                            ("fill", "none"), ("stroke", "#7d3c98"),
                                            ("stroke-width", 4)]) +
                            _tag("circle", [("cx", _num(cx)), ("cy", _num(cy)), ("r", 20),
                                            ("fill", "none"), ("stroke", "#7d3c98"),
                                            ("stroke-width", 2)]) +
                            _text(cx, cy, "ts", "portal", [("fill", "#7d3c98")]) +
                            "<title>f6: entry portal</title>"))
        elif kind.startswith("exit-"):
            s = _kind_seat(kind)
            whose = SEAT_NAME[s] if len(seats) < 8 else "seats %d and %d" % (2 * s + 1, 2 * s + 2)
            out.append(_tag("g", [("data-kind", "exit-portal"), ("data-cell", g.cell_name(c)),
                                  ("data-seat", kind[-1])],
                            _tag("circle", [("cx", _num(cx)), ("cy", _num(cy)), ("r", 33),
                                            ("fill", "none"), ("stroke", SEAT_COLOUR[s]),
                                            ("stroke-width", 3), ("stroke-dasharray", "6 3")]) +
                            "<title>%s: exit portal of %s</title>" % (g.cell_name(c), whose)))
    for i, letter in enumerate(g.COLUMNS):
        x = MARGIN + i * CELL + CELL / 2
        out.append(_text(x, MARGIN / 2, "coord", letter))
        out.append(_text(x, MARGIN + BOARD + MARGIN / 2, "coord", letter))
    for row in range(11):
        y = MARGIN + (10 - row) * CELL + CELL / 2
        out.append(_text(MARGIN / 2, y, "coord", str(row + 1)))
        out.append(_text(MARGIN + BOARD + MARGIN / 2, y, "coord", str(row + 1)))
    return "".join(out)


# -- the pieces: one fragment per occupied cell ----------------------------------------------

def _face_class(ch):
    return "B" if ch == "B" else "O" if ch == "O" else "P"


def _cube_top(x, y, item):
    """A cube seen from above: the top face in the middle, the side faces around it."""
    f = o.faces(item)  # up, down, north, east, south, west
    q, i = CUBE, INSET
    x2, y2 = x + q, y + q
    sides = (  # (face, polygon, label position)
        (f[2], ((x, y), (x2, y), (x2 - i, y + i), (x + i, y + i)), (x + q / 2, y + i / 2)),
        (f[3], ((x2, y), (x2, y2), (x2 - i, y2 - i), (x2 - i, y + i)), (x2 - i / 2, y + q / 2)),
        (f[4], ((x, y2), (x2, y2), (x2 - i, y2 - i), (x + i, y2 - i)), (x + q / 2, y2 - i / 2)),
        (f[5], ((x, y), (x, y2), (x + i, y2 - i), (x + i, y + i)), (x + i / 2, y + q / 2)),
    )
    parts = []
    for face, poly, (lx, ly) in sides:
        k = _face_class(face)
        parts.append(_tag("polygon", [("points", _points(poly)), ("class", "s" + k)]))
        parts.append(_text(lx, ly, "ts l" + k, face))
    k = _face_class(f[0])
    parts.append(_tag("rect", [("x", x + i), ("y", y + i), ("width", q - 2 * i),
                               ("height", q - 2 * i), ("class", "f" + k)]))
    parts.append(_text(x + q / 2, y + q / 2, "tt l" + k, f[0]))
    return "".join(parts)


def _item_attrs(c, level, item, seats):
    name = g.cell_name(c)
    if item >= cc.TELEPORT:
        return [("data-kind", "teleport"), ("data-cell", name), ("data-level", level)], \
            "the walking teleport (an entry portal)"
    if item >= cc.KEEPER:
        s = (item - cc.KEEPER) & 7
        dead = item >= cc.DEAD
        return [("data-kind", "dead-keeper" if dead else "keeper"), ("data-cell", name),
                ("data-level", level), ("data-seat", seat_letter(seats, s))], \
            "%skeeper of %s" % ("dead " if dead else "", seat_name(seats, s))
    f = o.faces(item)
    attrs = [("data-kind", "cube"), ("data-cell", name), ("data-level", level),
             ("data-orient", o.name(item)), ("data-top", f[0]), ("data-bottom", f[1]),
             ("data-north", f[2]), ("data-east", f[3]), ("data-south", f[4]),
             ("data-west", f[5])]
    return attrs, "cube %s (top %s, north %s, east %s, south %s, west %s)" % (
        o.name(item), f[0], f[2], f[3], f[4], f[5])


def _portal_rings(cx, cy, r=32):
    return (_tag("circle", [("cx", _num(cx)), ("cy", _num(cy)), ("r", r), ("fill", "none"),
                            ("stroke", PORTAL_COLOUR), ("stroke-width", 4)]) +
            _tag("circle", [("cx", _num(cx)), ("cy", _num(cy)), ("r", r * 5 // 8),
                            ("fill", "none"), ("stroke", PORTAL_COLOUR), ("stroke-width", 2)]))


def _card(c, cd, seats):
    x, y = origin(c)
    kind = cc.card_kind(cd)
    owner = cc.card_owner(cd)
    placed = g.CELL_KIND[c] == g.GREY
    spent = kind == "="
    colour = "#7f8c8d" if spent else seat_colour(seats, owner)
    rect = [("x", x + 2), ("y", y + 2), ("width", CELL - 4), ("height", CELL - 4), ("rx", 6),
            ("fill", "#e5e8e8" if spent else "#fffdf5" if placed else "#ffffff"),
            ("fill-opacity", ".85"), ("stroke", colour), ("stroke-width", 2.5)]
    if not placed:
        rect.append(("stroke-dasharray", "5 3"))
    title = "%s: %s of %s (%s)" % (g.cell_name(c), CARD_NAME[kind], seat_name(seats, owner),
                                   "spent" if spent else "placed" if placed else "unused")
    body = "<title>%s</title>" % escape(title) + _tag("rect", rect)
    if kind == "x" and placed:
        body += _portal_rings(x + CELL / 2, y + CELL / 2, 30)  # an entry portal
    return _tag("g", [("data-kind", "card"), ("data-cell", g.cell_name(c)), ("data-card", kind),
                      ("data-owner", seat_letter(seats, owner)), ("data-placed", int(placed))],
                body + _text(x + CELL - 10, y + CELL - 11, "cl", kind, [("fill", colour)]))


def _item_fill(item, seats):
    if item >= cc.TELEPORT:
        return PORTAL_COLOUR
    if item >= cc.DEAD:
        return "#4d5656"
    if item >= cc.KEEPER:
        return seat_colour(seats, item - cc.KEEPER)
    return "#f3e6c4"


def _stack(c, st, lid, seats):
    h = len(st)
    x0, y0 = origin(c)
    x, y = piece_box(c)
    parts = []
    # The items under the top one, bottom first: slabs under the top item's square, the one
    # just under the top item nearest to it.
    if h > 1:
        t = min(5.0, SLABS / (h - 1))
        for level in range(h - 1):
            item = st[level]
            attrs, what = _item_attrs(c, level, item, seats)
            sy = y + CUBE + (h - 2 - level) * t
            fill = _item_fill(item, seats)
            body = "<title>%s</title>" % escape("%s, level %d: %s" % (g.cell_name(c), level,
                                                                     what))
            body += _tag("rect", [("x", x), ("y", _num(sy)), ("width", CUBE),
                                  ("height", _num(t)), ("fill", fill), ("class", "slab")])
            parts.append(_tag("g", attrs, body))
    item = st[-1]
    attrs, what = _item_attrs(c, h - 1, item, seats)
    body = "<title>%s</title>" % escape("%s, level %d of %d: %s" % (g.cell_name(c), h - 1, h,
                                                                    what))
    if item >= cc.TELEPORT:
        body += _tag("circle", [("cx", x + CUBE / 2), ("cy", y + CUBE / 2), ("r", CUBE / 2),
                                ("fill", PORTAL_COLOUR), ("stroke", "#4a235a"),
                                ("stroke-width", 2)])
        body += _text(x + CUBE / 2, y + CUBE / 2, "kl", "T")
    elif item >= cc.DEAD:
        s = item - cc.DEAD
        body += _tag("rect", [("x", x), ("y", y), ("width", CUBE), ("height", CUBE), ("rx", 4),
                              ("class", "dk")])
        body += _text(x + CUBE / 2, y + CUBE / 2, "dkl", "X" + seat_letter(seats, s))
    elif item >= cc.KEEPER:
        s = item - cc.KEEPER
        body += _tag("rect", [("x", x), ("y", y), ("width", CUBE), ("height", CUBE), ("rx", 4),
                              ("fill", seat_colour(seats, s)), ("class", "kp")])
        body += _text(x + CUBE / 2, y + CUBE / 2, "kl", "K" + seat_letter(seats, s))
    else:
        attrs = attrs + [("class", "cube")]
        body += _cube_top(x, y, item)
    parts.append(_tag("g", attrs, body))
    if lid:
        # A biohazard card on the top cube: a yellow badge with the controlling seat.
        s = lid - 1
        badge = [(x + CUBE - 2, y - 2), (x + CUBE + 14, y + 26), (x + CUBE - 18, y + 26)]
        parts.append(_tag("g", [("data-kind", "biohazard"), ("data-cell", g.cell_name(c)),
                                ("data-seat", seat_letter(seats, s))],
                          "<title>%s</title>" % escape("%s: biohazard controlled by %s" % (
                              g.cell_name(c), seat_name(seats, s))) +
                          _tag("polygon", [("points", _points(badge)), ("class", "hz")]) +
                          _text(x + CUBE - 2, y + 17, "hzl", "!" + seat_letter(seats, s))))
    if h > 1:
        parts.append(_text(x0 + CELL - 9, y0 + 12, "ht", str(h), [("data-kind", "height")]))
    return _tag("g", [("data-kind", "stack"), ("data-cell", g.cell_name(c)), ("data-height", h)],
                "".join(parts))


@functools.lru_cache(maxsize=8192)
def _fragment(c, stack, card, lid, seats):
    """The SVG of what lies on cell c: its card, then its stack (and a biohazard on its top
    cube). It depends on the cell's contents only (a replay page reuses it from step to
    step)."""
    return (_card(c, card, seats) if card else "") + (_stack(c, stack, lid, seats) if stack
                                                      else "")


def pieces(pos):
    """{cell index: fragment} for every cell holding something."""
    out = {}
    lids = pos.lids
    for c in range(g.N_CELLS):
        if pos.stacks[c] or pos.cards[c]:
            out[c] = _fragment(c, tuple(pos.stacks[c]), pos.cards[c],
                               lids[c] if lids is not None else 0, pos.seats)
    return out


def overlay(before, action_text, action=None):
    """The path of the action that led from `before` to the drawn position ('' for end);
    action: the rules' action of action_text, if the caller parsed it already."""
    if before is None or not action_text:
        return ""
    if action is None:
        action = before.parse_action(action_text)
    path = cc.action_path(before, action)
    head = [("data-kind", "last-action"), ("data-action", action_text),
            ("data-from", g.cell_name(action[1])), ("data-to", g.cell_name(action[3]))]
    title = "<title>%s</title>" % escape("last action: " + action_text)
    if action[0] == cc.TURN:
        # A spiral turn: a three-quarter circle round the cell, its arrow the way it turned.
        cx, cy = centre(action[1])
        r = CELL * 0.42
        sweep = 1 if action[2] == 0 else 0  # clockwise on the screen (north up)
        d = "M%s,%s A%s,%s 0 1,%d %s,%s" % (_num(cx), _num(cy - r), _num(r), _num(r), sweep,
                                           _num(cx - r if sweep else cx + r), _num(cy))
        return _tag("g", head, title + _tag("path", [("d", d), ("class", "path"),
                                                     ("marker-end", "url(#cb-arrow)")]))
    if not path:
        return ""
    # through the middle of the cells passed on the way (cards, the portal: no piece there);
    # from the middle of the source, or from its edge when pieces stay there
    via = [_piece_centre(c) for c in path[:-1]]
    src = action[1]
    stays = len(before.stacks[src]) - (0 if action[0] == cc.BOOST else 1)
    start = _edge_towards(src, via[0] if via else _piece_centre(path[-1])) if stays else \
        _piece_centre(src)
    pts = [start] + via
    pts.append(_edge_towards(path[-1], pts[-1]))
    attrs = [("points", _points(pts)), ("class", "path"), ("marker-end", "url(#cb-arrow)")]
    if action[0] == cc.BOOST or action[0] == cc.HAZARD:
        attrs.append(("stroke-dasharray", "8 5"))  # a card moved, not a piece
    return _tag("g", head, title + _tag("polyline", attrs))


# -- captions ----------------------------------------------------------------------------------

def phase_text(pos):
    letters = pos.SEAT_LETTERS
    if pos.is_over():
        win = pos.winners()
        return "game over, %s %s" % ("winner" if len(win) == 1 else "winners",
                                     " ".join(letters[s] for s in win))
    who = letters[pos.to_move]
    if pos.actions_left == 0:
        return "%s to move: activation" % who
    return "%s to move: %d action%s left%s%s" % (
        who, pos.actions_left, "" if pos.actions_left == 1 else "s",
        ", booster used" if pos.booster_used else "",
        ", an extra turn to follow" if pos.extra_turn else "")


def caption(pos, ply, total, action_text=None, mover=None):
    """One line under the diagram: where in the game, the last action, whose turn."""
    return caption_line(phase_text(pos), ply, total, action_text, mover)


def scores_svg(pos):
    sc = pos.scores()
    out = []
    n = len(pos.seats)
    step = BOARD / n
    y = MARGIN + BOARD + MARGIN + 14
    for i, s in enumerate(pos.seats):
        letter = pos.SEAT_LETTERS[s]
        x = MARGIN + step * i + step / 2
        out.append(_text(x, y, "sc", "%s %d" % (letter, sc[s]),
                         [("fill", seat_colour(pos.seats, s)), ("data-kind", "score"),
                          ("data-seat", letter), ("data-score", sc[s]),
                          ("id", "cb-score-" + letter)]))
    return "".join(out)


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None, action=None,
        drawn=None):
    """A standalone SVG document of pos. With before and action_text, the action that led to
    pos is drawn as a path (action: its rules' action, if parsed already); ply/total label the
    caption; drawn: pieces(pos), if the caller drew them already."""
    mover = before.SEAT_LETTERS[before.to_move] if before is not None else None
    if ply is None:
        ply = total = pos.ply()
    return svg_document(
        pos, WIDTH, HEIGHT, title or "Cargocube position: " + pos.notation(), STYLE,
        background(pos.seats), pieces(pos) if drawn is None else drawn,
        overlay(before, action_text, action), scores_svg(pos),
        caption(pos, ply, total, action_text, mover), defs=ARROW_DEFS)


# -- text board for the terminal -----------------------------------------------------------------

_ANSI_SEAT = ("31", "32", "34", "33")


def _side(seats, s):
    """The side (0..3: S W N E) a seat sits on (with 8 players two seats share one)."""
    return s >> 1 if len(seats) == 8 else s
_SUPERSCRIPT = " \u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def piece_name(item, letters):
    """A piece's short name: a cube by its top and south faces (`B1`), a keeper `KS`, a dead
    keeper `XS`, the walking teleport `T`; letters name the seats."""
    if item >= cc.TELEPORT:
        return "T"
    if item >= cc.KEEPER:
        return ("X" if item >= cc.DEAD else "K") + letters[(item - cc.KEEPER) & 7]
    return o.name(item)


def _cell_text(pos, c, seats):
    st = pos.stacks[c]
    cd = pos.cards[c]
    kind = cell_kind(c, seats)
    if st:
        name = piece_name(st[-1], pos.SEAT_LETTERS).ljust(2)
        h = len(st)
        hch = " " if h == 1 else _SUPERSCRIPT[h] if h < 10 else "\u207a"
        if pos.lids is not None and pos.lids[c]:
            hch = "!"  # a biohazard on it (the height is in the notation)
        return " " + name + hch + (cc.card_kind(cd) if cd else " ")
    if cd:
        return " *" + cc.card_kind(cd) + "  "
    return {"corner": "     ", "out": "  #  ", "grey": "  .  ", "portal": "  @  "}.get(
        kind, "  o  " if kind.startswith("exit-") else "  _  ")


TEXT_LEGEND = ("cells: top item (cube: top face, then south face; K+seat: keeper; X+seat: dead "
               "keeper; T: the walking teleport), its stack height as \u00b2\u00b3\u2026 (! a "
               "biohazard on the cube), the letter of a card under it (s springboard, "
               "w wind rose, a acceleration, u umbrella, c catapult, p spiral, x extra portal, "
               "h biohazard, v sacrifice, = spent; *s a card alone); . grey, @ entry portal, "
               "_ terminal, o exit portal, # out of play")


def text_board(pos, color=False):
    """The board as text, north up: each cell shows its top item (a cube's orientation, top face
    then south face, or K+seat), the stack height as a superscript if 2 or more (⁺ for 10 or
    more) and the letter of a card under it; a card alone is *s, *w, *a. '.' grey cell,
    '@' entry portal, '_' terminal, 'o' exit portal, '#' out of play."""
    seats = pos.seats
    letters = pos.SEAT_LETTERS
    lines = ["    " + "".join("  %s  " % ch for ch in g.COLUMNS)]
    for row in range(10, -1, -1):
        cells = []
        for col in range(11):
            c = row * 11 + col
            txt = _cell_text(pos, c, seats)
            if color:
                kind = cell_kind(c, seats)
                st = pos.stacks[c]
                code = None
                if st and cc.KEEPER <= st[-1] < cc.DEAD:
                    code = "1;" + _ANSI_SEAT[_side(seats, st[-1] - cc.KEEPER)]
                elif kind.startswith(("terminal-", "exit-")):
                    s = _kind_seat(kind)
                    code = _ANSI_SEAT[_side(seats, s) if kind[0] == "t" else s]
                elif pos.cards[c]:
                    code = _ANSI_SEAT[_side(seats, cc.card_owner(pos.cards[c]))]
                elif kind in ("corner", "out") or not st:
                    code = "2"
                if code:
                    txt = "\x1b[%sm%s\x1b[0m" % (code, txt)
            cells.append(txt)
        lines.append("%3d " % (row + 1) + "".join(cells) + " %d" % (row + 1))
    lines.append(lines[0])
    sc = pos.scores()
    lines.append("scores " + "  ".join("%s=%d" % (letters[s], sc[s]) for s in seats) +
                 "    " + phase_text(pos))
    return "\n".join(lines)
