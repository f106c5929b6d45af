"""The hidden-hand toy game's drawing module, with the hidden-information hooks
(cargoboard.export.diagram)."""

from shared_rules import geometry as G
from handgame.rules import Position, SEAT_LETTERS

CELL = 40


def seat_view(text, seat=None):
    """The position as seat may see it: the other hands as their sizes only; the seat's own
    hand as lines for its page."""
    pos = Position.parse(text)
    mine = []
    for s in (0, 1):
        if SEAT_LETTERS[s] == seat:
            mine = ["%s (card %d of %d)" % (c, i + 1, len(pos.hands[s]))
                    for i, c in enumerate(pos.hands[s] or [])]
        elif pos.hands[s] is not None:
            pos.hidden[s] = len(pos.hands[s])
            pos.hands[s] = None
    return pos.notation(), mine


def seat_actions(text, seat):
    """The mover picks which of its cards its next piece plays: `lead CARD`."""
    pos = Position.parse(text)
    s = SEAT_LETTERS.find(seat) if seat else -1
    if s != pos.to_move or pos.hands[s] is None:
        return []
    return [("play %s next" % card, "lead " + card) for card in pos.hands[s][1:]]


def action_view(text, seat=None):
    return text  # a played card lies face up: every action is public


def pieces(pos):
    from cargoboard.export.diagram import svg_text
    out = {}
    for c, (card, s) in pos.cells.items():
        x, y = (c % 11) * CELL + CELL / 2, (10 - c // 11) * CELL + CELL / 2
        out[c] = svg_text(x, y, "card", card, [("data-kind", "card"), ("data-cell",
                                                                       G.cell_name(c))])
    return out


def overlay(before, action_text):
    return ""


def phase_text(pos):
    if pos.is_over():
        return "game over, winner %s" % " ".join(SEAT_LETTERS[s] for s in pos.winners())
    return "%s to move" % SEAT_LETTERS[pos.to_move]


def caption(pos, ply, total, action_text=None, mover=None):
    from cargoboard.export.diagram import caption_line
    return caption_line(phase_text(pos), ply, total, action_text, mover)


def svg(pos, before=None, action_text=None, ply=None, total=None, title=None, action=None,
        drawn=None):
    from cargoboard.export.diagram import svg_document, svg_text
    if ply is None:
        ply = total = pos.ply()
    size = 11 * CELL
    grid = "".join('<rect x="%d" y="%d" width="%d" height="%d" fill="#eee" stroke="#ccc"/>' % (
        (c % 11) * CELL, (10 - c // 11) * CELL, CELL, CELL) for c in range(121))
    sc = pos.scores()
    scores = "".join(svg_text(60 + 200 * s, size + 14, "sc", "%s %d" % (SEAT_LETTERS[s], sc[s]),
                              [("id", "cb-score-" + SEAT_LETTERS[s]), ("data-kind", "score")])
                     for s in (0, 1))
    hands = "".join(svg_text(60 + 200 * s, size + 34, "hand", "%s holds %d" % (
        SEAT_LETTERS[s], pos.hidden[s] if pos.hands[s] is None else len(pos.hands[s])))
        for s in (0, 1))
    return svg_document(pos, size, size + 70, title or "handgame", ".card{font-size:9px}",
                        grid, pieces(pos) if drawn is None else drawn,
                        overlay(before, action_text), scores + hands,
                        caption(pos, ply, total, action_text))


def text_board(pos, color=False):
    return pos.notation()
