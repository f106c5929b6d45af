"""Toy's pictures for the exports (the drawing face of cargoboard.export.diagram): the 11x11
grid with the two tokens, found by the export framework through the host registry
(`cargoboard.games.register("toy", "toygame")`, tests/test_toygame_layers.py)."""

from cargoboard.export.diagram import caption_line, cell_origin, svg_document, svg_tag, svg_text
from shared_rules import geometry as g

CELL = 20
MARGIN = 10
SIZE = 2 * MARGIN + 11 * CELL
FILL = ("#1f6fd1", "#e08a1e")  # S, N
STYLE = "text{font:12px sans-serif}.sc{text-anchor:middle}.cap{text-anchor:middle}"


def _xy(c):
    return cell_origin(c, 11, 11, CELL, MARGIN)


def pieces(pos):
    out = {}
    for s in pos.seats:
        c = pos.tokens[s]
        x, y = _xy(c)
        out[g.cell_name(c)] = svg_tag("circle", [
            ("cx", x + CELL // 2), ("cy", y + CELL // 2), ("r", CELL // 2 - 2),
            ("fill", FILL[s]), ("data-kind", "token"), ("data-seat", pos.SEAT_LETTERS[s]),
            ("data-cell", g.cell_name(c))])
    return out


def overlay(before, action_text):
    if before is None or not action_text:
        return ""
    x, y = _xy(g.parse_cell(action_text))
    return svg_tag("rect", [("x", x), ("y", y), ("width", CELL), ("height", CELL),
                            ("fill", "none"), ("stroke", "#c00"), ("data-kind", "last")])


def phase_text(pos):
    if pos.is_over():
        return "game over, winner %s" % pos.SEAT_LETTERS[pos.winners()[0]]
    return "%s to move" % pos.SEAT_LETTERS[pos.to_move]


def caption(pos, ply, total, action_text=None, mover=None):
    return caption_line(phase_text(pos), ply, total, action_text, mover)


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None, action=None,
        drawn=None):
    mover = pos.SEAT_LETTERS[before.to_move] if before is not None else None
    if ply is None:
        ply = total = pos.ply()
    board = "".join(svg_tag("rect", [("x", _xy(c)[0]), ("y", _xy(c)[1]), ("width", CELL),
                                     ("height", CELL), ("fill", "#eee"), ("stroke", "#999")])
                    for c in range(121))
    sc = pos.scores()
    scores = "".join(svg_text(MARGIN + 60 + 100 * s, SIZE + 12, "sc",
                              "%s %d" % (pos.SEAT_LETTERS[s], sc[s]),
                              [("id", "cb-score-" + pos.SEAT_LETTERS[s])]) for s in pos.seats)
    return svg_document(pos, SIZE, SIZE + 40, title or "Toy position: " + pos.notation(), STYLE,
                        board, pieces(pos) if drawn is None else drawn,
                        overlay(before, action_text), scores,
                        caption(pos, ply, total, action_text, mover))


def text_board(pos, color=False):
    rows = []
    for y in range(10, -1, -1):
        line = ""
        for x in range(11):
            c = y * 11 + x
            line += pos.SEAT_LETTERS[pos.tokens.index(c)] if c in pos.tokens else "."
        rows.append(line)
    return "\n".join(rows) + "\n" + phase_text(pos)
