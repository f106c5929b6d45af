"""Pictures of «Формула 99» positions: the text picture (the terminal game, `cargoboard replay`)
and the SVG of the track (exports, the HTML replay); cargoboard.export.diagram picks this module
for the kind 'formula99' (the face of every game's draw part is documented there).

Hidden information is drawn only when the position given holds it: a public position (the
board's games, and every position of a host game before its end, docs/export.md) has no hands
and no charge cards to draw. The text picture also takes `viewer` (a seat: its hand and its
own charges' cards) for the hot-seat game.

SVG conventions: the 11x11 board with a1 at the bottom left and the track of
docs/rules/formula99.md §1.2; every element standing for part of the position carries data
attributes so that a program (or a test) can read the picture back: track cells
`data-kind="cell"` with `data-cell` (the track name) and `data-lane` (b, y, r); start zones,
finish cells and the control room `data-kind="zone|finish|control"` with `data-civ` and
`data-cell` (s3, f3: civilisation 3's; control), the names the board's `state` uses; ships
`data-kind="ship"` with `data-civ` and `data-place`; charges `data-kind="charge"` with
`data-cell`, `data-civ` and `data-card` (the card, `?` hidden, `#` a blockade); hands
`data-kind="hand"` with `data-civ`, `data-count` and `data-cards` (when known); the discard pile
`data-kind="discard"`; the last action `data-kind="last-action"`; scores `data-kind="score"`.
"""

TITLE = "«Формула 99»"  # the game's name in titles (pages, exports)

import functools
from xml.sax.saxutils import escape

from shared_rules.formula99 import cards as C
from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as T

CIV_NAMES = ("White Republic", "Grey Monarchy", "Black Chaos", "Red Empire", "Blue Federation",
             "Orange Empire", "Violet Federation", "Green Anarchy", "Yellow Anarchy")

ANSI = {"b": "\033[34m", "y": "\033[33m", "r": "\033[31m", "ship": "\033[1m", "off": "\033[0m"}


def civ_label(civ):
    return "%d %s" % (civ, CIV_NAMES[civ - 1])


def _grid_content(pos):
    """{grid cell: (text of 3 characters, lane letter or '' for colour)}."""
    cell_grid, start_grid, finish_grid = T.grid_tables()
    out = {}
    for c in range(T.N_IDS):
        if not T.is_track(c):
            continue
        lane = "r" if T.is_red(c) else T.LANE_LETTERS[c & 1]
        out[cell_grid[c]] = ({"b": " . ", "y": " : ", "r": " x "}[lane], lane)
    for civ in range(1, 10):
        for g in start_grid[2 * (civ - 1):2 * civ]:
            out[g] = (" s%d" % civ, "")
        out[finish_grid[civ - 1]] = (" f%d" % civ, "")
    out[T.CONTROL_GRID] = (" CR", "")
    for seat in pos.seats:
        civ = pos.civ(seat)
        for cell, card in pos.charges(seat):
            out[cell_grid[cell]] = (("#%d " if card == R.BLOCKADE else "*%d ") % civ,
                                    out[cell_grid[cell]][1])
        in_start = 0
        for place in pos.ship_places(seat):
            if place < 72:
                g = cell_grid[place]
                mark = "#%d#" if out[g][0].startswith("#") else "[%d]"
                out[g] = (mark % civ, "ship")
            elif place == T.START:
                out[start_grid[2 * (civ - 1) + in_start]] = ("[%d]" % civ, "ship")
                in_start += 1
            elif place == T.FINISH:
                out[finish_grid[civ - 1]] = ("[%d]" % civ, "ship")
            else:
                out[T.CONTROL_GRID] = ("[%d]" % civ, "ship")
    return out


def board_text(pos, color=False):
    """The 11x11 grid, row 11 at the top: blue lane ' . ', yellow ' : ', red ' x ', start zones
    ' sK', finish cells ' fK', the control room ' CR'; a ship '[K]', a charge '*K ', a blockade
    '#K#' (civilisation K)."""
    content = _grid_content(pos)
    lines = ["    " + "".join(" %s " % ch for ch in "abcdefghijk")]
    for y in range(10, -1, -1):
        row = "%3d " % (y + 1)
        for x in range(11):
            text, lane = content.get(y * 11 + x, ("   ", ""))
            if color and lane:
                text = ANSI[lane] + text + ANSI["off"]
            row += text
        lines.append(row.rstrip())
    return "\n".join(lines)


def seats_text(pos, viewer=None, reveal=False):
    """One line per seat: ships, charges (cards only if seen), hand (only if seen), progress."""
    lines = []
    scores = pos.scores()
    for seat in pos.seats:
        civ = pos.civ(seat)
        see = reveal or seat == viewer
        ships = ", ".join(T.place_name(p, civ) for p in pos.ship_places(seat))
        charges = []
        for cell, card in pos.charges(seat):
            if card == R.BLOCKADE:
                charges.append(T.name(cell) + " blockade")
            elif see and card != R.UNKNOWN:
                charges.append("%s %s" % (T.name(cell), C.name(card)))
            else:
                charges.append(T.name(cell) + " ?")
        hand = pos.hand(seat)
        if see and hand is not None:
            htext = " ".join(C.name(c) for c in hand) or "-"
        else:
            htext = "%d card%s" % (pos.hand_size(seat), "" if pos.hand_size(seat) == 1 else "s")
        mark = ">" if seat == pos.turn and not pos.is_over() else " "
        lines.append("%s %-22s ships %-10s charges %-24s hand %-16s progress %d" % (
            mark, civ_label(civ), ships, ", ".join(charges) or "-", htext, scores[seat]))
    return "\n".join(lines)


def discard_text(pos):
    d = pos.discard()
    return "discard: " + (" ".join(C.name(c) for c in d) if d else "-") + \
        "   deck: %d cards" % pos.deck_size()


def picture(pos, viewer=None, reveal=False, color=False):
    return "\n".join([board_text(pos, color), seats_text(pos, viewer, reveal),
                      discard_text(pos)])


# -- SVG -------------------------------------------------------------------------------------------

CIV_FILL = ("#f4f4f4", "#9e9e9e", "#222222", "#d32f2f", "#1976d2", "#f57c00", "#7b1fa2",
            "#388e3c", "#fbc02d")
CIV_INK = ("#222", "#111", "#fff", "#fff", "#fff", "#111", "#fff", "#fff", "#111")
LANE_FILL = {"b": "#cfe3fb", "y": "#fbefc4", "r": "#f6c9c4"}
CELL = 56
MARGIN = 26
SIDE = 300  # the panel right of the board: seats, hands, discard
CAPTION = 48

STYLE = (
    ".cb text{font-family:DejaVu Sans,Arial,sans-serif;text-anchor:middle;"
    "dominant-baseline:central}"
    ".cb .coord{font-size:12px;fill:#555}.cb .cell{font-size:10px;fill:#667}"
    ".cb .ship{font-size:15px;font-weight:bold}.cb .card{font-size:11px;font-weight:bold}"
    ".cb .cap{font-size:14px;fill:#222}.cb .sc{font-size:14px;text-anchor:start}"
    ".cb .last{fill:none;stroke:#7d3c98;stroke-width:4}"
    ".cb .from{fill:none;stroke:#7d3c98;stroke-width:3;stroke-dasharray:6 4}"
)


def _svg():
    from cargoboard.export import diagram  # the export framework's SVG helpers
    return diagram


def size(pos=None):
    return 2 * MARGIN + 11 * CELL + SIDE, 2 * MARGIN + 11 * CELL + CAPTION


def _xy(g):
    """Top-left pixel of grid cell g (row 1 at the bottom)."""
    return _svg().cell_origin(g, 11, 11, CELL, MARGIN)


def _centre(g):
    return _svg().cell_centre(g, 11, 11, CELL, MARGIN)


def background(pos):
    return _background(tuple(pos.civ(s) for s in pos.seats))


@functools.lru_cache(maxsize=16)
def _background(civs):
    # the same for every position of a game: drawn once per set of civilisations (the HTML
    # replay takes every step's SVG)
    d = _svg()
    tag, text = d.svg_tag, d.svg_text
    cell_grid, start_grid, finish_grid = T.grid_tables()
    out = []
    for c in range(T.N_IDS):
        if not T.is_track(c):
            continue
        lane = "r" if T.is_red(c) else T.LANE_LETTERS[c & 1]
        x, y = _xy(cell_grid[c])
        out.append(tag("rect", [("x", x), ("y", y), ("width", CELL), ("height", CELL),
                                ("fill", LANE_FILL[lane]), ("stroke", "#999"),
                                ("data-kind", "cell"), ("data-cell", T.name(c)),
                                ("data-lane", lane)]))
        out.append(text(x + 14, y + 9, "cell", T.name(c)))
    for civ in range(1, 10):
        fill = CIV_FILL[civ - 1] if civ in civs else "#eeeeee"
        for g in start_grid[2 * (civ - 1):2 * civ]:
            x, y = _xy(g)
            out.append(tag("rect", [("x", x + 3), ("y", y + 3), ("width", CELL - 6),
                                    ("height", CELL - 6), ("rx", 8), ("fill", "#fafafa"),
                                    ("stroke", fill), ("stroke-width", 3),
                                    ("data-kind", "zone"), ("data-civ", civ),
                                    ("data-cell", "s%d" % civ)]))
            out.append(text(x + CELL / 2, y + 9, "cell", "s%d" % civ))
        x, y = _xy(finish_grid[civ - 1])
        out.append(tag("rect", [("x", x + 3), ("y", y + 3), ("width", CELL - 6),
                                ("height", CELL - 6), ("fill", "#fafafa"), ("stroke", fill),
                                ("stroke-width", 3), ("stroke-dasharray", "4 3"),
                                ("data-kind", "finish"), ("data-civ", civ),
                                ("data-cell", "f%d" % civ)]))
        out.append(text(x + CELL / 2, y + 9, "cell", "f%d" % civ))
    x, y = _xy(T.CONTROL_GRID)
    out.append(tag("rect", [("x", x + 2), ("y", y + 2), ("width", CELL - 4), ("height", CELL - 4),
                            ("fill", "#fff6d5"), ("stroke", "#b8860b"), ("stroke-width", 3),
                            ("data-kind", "control"), ("data-cell", "control")]))
    out.append(text(x + CELL / 2, y + 9, "cell", "control"))
    bottom = MARGIN + 11 * CELL
    for i in range(11):
        out.append(text(MARGIN + i * CELL + CELL / 2, MARGIN / 2, "coord", "abcdefghijk"[i]))
        out.append(text(MARGIN + i * CELL + CELL / 2, bottom + MARGIN / 2, "coord",
                        "abcdefghijk"[i]))
        out.append(text(MARGIN / 2, MARGIN + (10 - i) * CELL + CELL / 2, "coord", str(i + 1)))
    return "".join(out)


def _ship(g, civ, place):
    d = _svg()
    cx, cy = _centre(g)
    body = "<title>%s</title>" % escape("ship of %s on %s" % (civ_label(civ), place))
    body += d.svg_tag("polygon", [("points", "%s,%s %s,%s %s,%s %s,%s" % (
        d.svg_num(cx), d.svg_num(cy - 20), d.svg_num(cx + 15), d.svg_num(cy + 15),
        d.svg_num(cx), d.svg_num(cy + 8), d.svg_num(cx - 15), d.svg_num(cy + 15))),
        ("fill", CIV_FILL[civ - 1]), ("stroke", "#000"), ("stroke-width", 1.5)])
    body += d.svg_text(cx, cy + 2, "ship", str(civ), [("fill", CIV_INK[civ - 1])])
    return d.svg_tag("g", [("data-kind", "ship"), ("data-civ", civ), ("data-place", place)], body)


def _charge(c, civ, card):
    d = _svg()
    g = T.grid_tables()[0][c]
    x, y = _xy(g)
    text = "#" if card == R.BLOCKADE else "?" if card == R.UNKNOWN else C.name(card)
    cx = x + CELL - 14
    cy = y + CELL - 14
    body = "<title>%s</title>" % escape("%s of %s on %s: %s" % (
        "blockade" if card == R.BLOCKADE else "charge", civ_label(civ), T.name(c), text))
    body += d.svg_tag("polygon", [("points", "%s,%s %s,%s %s,%s %s,%s" % (
        d.svg_num(cx), d.svg_num(cy - 13), d.svg_num(cx + 13), d.svg_num(cy),
        d.svg_num(cx), d.svg_num(cy + 13), d.svg_num(cx - 13), d.svg_num(cy))),
        ("fill", CIV_FILL[civ - 1]), ("stroke", "#000")])
    body += d.svg_text(cx, cy, "card", text, [("fill", CIV_INK[civ - 1])])
    return d.svg_tag("g", [("data-kind", "charge"), ("data-cell", T.name(c)), ("data-civ", civ),
                           ("data-card", text)], body)


def pieces(pos):
    """{key: fragment}: charges, then ships, then the side panel (hands, discard)."""
    d = _svg()
    cell_grid, start_grid, finish_grid = T.grid_tables()
    out = {}
    for seat in pos.seats:
        civ = pos.civ(seat)
        for c, card in pos.charges(seat):
            out["1-%02d-%02d" % (civ, c)] = _charge(c, civ, card)
        zone = 0
        for j, place in enumerate(pos.ship_places(seat)):
            if place < 72:
                g = cell_grid[place]
            elif place == T.START:
                g = start_grid[2 * (civ - 1) + zone]
                zone += 1
            elif place == T.FINISH:
                g = finish_grid[civ - 1]
            else:
                g = T.CONTROL_GRID
            out["2-%02d-%d" % (civ, j)] = _ship(g, civ, T.place_name(place, civ))
        hand = pos.hand(seat)
        x = 2 * MARGIN + 11 * CELL
        y = MARGIN + 20 + 38 * seat
        label = "%s: %s" % (civ_label(civ), " ".join(C.name(c) for c in hand) if hand
                            is not None else "%d card%s in hand" % (
                                pos.hand_size(seat), "" if pos.hand_size(seat) == 1 else "s"))
        attrs = [("data-kind", "hand"), ("data-civ", civ), ("data-count", pos.hand_size(seat))]
        if hand is not None:
            attrs.append(("data-cards", "".join(C.name(c) for c in hand)))
        out["3-%02d" % civ] = d.svg_text(x, y, "sc", label, attrs)
    disc = pos.discard()
    x = 2 * MARGIN + 11 * CELL
    y = MARGIN + 20 + 38 * len(pos.seats)
    out["4"] = d.svg_text(x, y, "sc", "discard: " + (" ".join(C.name(c) for c in disc) or "-")
                          if len(disc) < 14 else "discard: %d cards" % len(disc),
                          [("data-kind", "discard"), ("data-cards",
                                                      "".join(C.name(c) for c in disc))])
    return out


def _action_cells(before, action_text, action=None):
    """(from, to) grid cells of the piece an action moved, either may be None (action: the
    rules' action of action_text, if parsed already)."""
    a = before.parse_action(action_text) if action is None else action
    k = a >> 24
    cell_grid, start_grid, finish_grid = T.grid_tables()
    civ = before.civ(before.to_move) if before.to_move >= 0 else 0

    def grid(place):
        if place < 72:
            return cell_grid[place]
        if place == T.START:
            return start_grid[2 * (civ - 1)]
        if place in (T.FINISH,):
            return finish_grid[civ - 1]
        return T.CONTROL_GRID
    if k == R.K_MOVE:
        q, cells = before.move_path(a)
        return grid(before.st[R.O_SHIP + q]), grid(cells[-1])
    if k == R.K_GO:
        q, cells = before.go_path(a)
        return grid(before.st[R.O_SHIP + q]), grid(cells[-1]) if cells else None
    if k in (R.K_LAY, R.K_BLOCK, R.K_LIFT):
        return None, cell_grid[(a >> 6) & 127 if k == R.K_LAY else a & 127]
    return None, None


def overlay(before, action_text, action=None):
    """The last action: a ring where its piece went, a dashed ring where it came from
    (action: its rules' action, if the caller parsed it already)."""
    if before is None or not action_text:
        return ""
    d = _svg()
    try:
        src, dst = _action_cells(before, action_text, action)
    except R.RulesError:
        return ""
    parts = ["<title>%s</title>" % escape("last action: " + action_text)]
    for g, cls in ((dst, "last"), (src, "from")):
        if g is not None:
            x, y = _centre(g)
            parts.append(d.svg_tag("circle", [("cx", d.svg_num(x)), ("cy", d.svg_num(y)),
                                             ("r", CELL / 2 - 3), ("class", cls)]))
    return d.svg_tag("g", [("data-kind", "last-action"), ("data-action", action_text)],
                     "".join(parts))


def phase_text(pos):
    if pos.is_over():
        return "game over, %s wins" % civ_label(pos.civ(pos.winners()[0]))
    who = pos.to_move
    if who < 0:
        return "a card is shown"
    return "%s to act" % civ_label(pos.civ(who))


def caption(pos, ply, total, action_text=None, mover=None):
    return _svg().caption_line(phase_text(pos), ply, total, action_text, mover)


def scores_svg(pos):
    d = _svg()
    sc = pos.scores()
    out = []
    x = 2 * MARGIN + 11 * CELL
    for seat in pos.seats:
        civ = pos.civ(seat)
        y = MARGIN + 38 + 38 * seat
        out.append(d.svg_text(x, y, "sc", "   progress %d of 72" % sc[seat],
                              [("data-kind", "score"), ("data-seat", str(civ)),
                               ("data-score", sc[seat]), ("id", "cb-score-%d" % civ)]))
    return "".join(out)


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None, action=None,
        drawn=None):
    d = _svg()
    mover = None
    if before is not None and before.to_move >= 0:
        mover = civ_label(before.civ(before.to_move))
    if ply is None:
        ply = total = pos.ply()
    w, h = size(pos)
    return d.svg_document(pos, w, h, title or "«Формула 99» position", STYLE, background(pos),
                          pieces(pos) if drawn is None else drawn,
                          overlay(before, action_text, action), scores_svg(pos),
                          caption(pos, ply, total, action_text, mover))


TEXT_LEGEND = ("cells: blue lane ' . ', yellow ' : ', red ' x ', start zones sK, finish fK, "
               "control CR; [K] a ship, *K a charge, #K# a blockade (civilisation K)")


def text_board(pos, color=False):
    """The terminal replay's picture: what the position holds, as the SVG draws it (a full
    position, the last step of a hot-seat game, shows its hands and charges' cards)."""
    return picture(pos, reveal=pos.full, color=color)


# -- hidden information on cargoboard serve's pages (cargoboard.export.diagram) ----------------
# A board with digital cards (docs/board-formula99.md) reports full positions: every page shows
# the public view; a seat's own page adds its hand and its charges' cards, and offers the cards
# it may use now. A public position (real cards) hides nothing the board knows. Once the game is
# over everything is shown.

def _full(text):
    pos = R.Position.parse(text)
    return pos if pos.full and not pos.is_over() else None


def seat_view(text, seat=None):
    """(the position as seat may see it: the public view; [its hand, its charges' cards])."""
    pos = _full(text)
    if pos is None:
        return text, []
    s = pos.SEAT_LETTERS.find(seat) if seat else -1
    mine = []
    if s >= 0:
        hand = pos.hand(s)
        mine.append("your hand: " + (" ".join(C.name(c) for c in hand) if hand else "empty"))
        for cell, card in pos.charges(s):
            if card != R.BLOCKADE:
                mine.append("your charge on %s: %s" % (T.name(cell), C.name(card)))
    return pos.public().notation(), mine


def action_view(text, seat=None):
    """An action as every seat may see it: a charge laid without its card (its owner sees the
    card among its own things, seat_view)."""
    if text.startswith("lay:"):
        return text.split("=")[0]
    return text


def seat_actions(text, seat):
    """The cards of seat's hand it may use now, as the board's `card` command: a card played
    (levels 2 and 3) or the card under the charge it lays next."""
    pos = _full(text)
    if pos is None or not seat or pos.to_move < 0 or pos.SEAT_LETTERS[pos.to_move] != seat:
        return []
    uses = {}
    for a in pos.legal_actions():
        k = a >> 24
        if k == R.K_PLAY:
            uses.setdefault((a >> 18) & 63, set()).add("play")
        elif k == R.K_LAY:
            uses.setdefault(a & 63, set()).add("lay under a charge")
    return [("%s %s" % (" or ".join(sorted(uses[c])), C.name(c)), "card " + C.name(c))
            for c in sorted(uses)]
