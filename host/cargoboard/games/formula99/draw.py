"""Pictures of «Формула 99» positions: the text picture (the terminal game, the text export) and
the SVG of the track (the exports; added with the export framework).

Hidden information is drawn only for whom may see it: `viewer` (a seat: its hand and its own
charges' cards) or `reveal=True` (everything: the end of a game, an export after the end).
"""

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
