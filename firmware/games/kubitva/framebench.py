# What the frame-time benchmark (firmware/bench_frame.py) needs of КУБитва: the cells to lift.
# Loaded only by the benchmark.

from shared_rules.kubitva import codes as kc


def options(words):
    """The board edition's start (the plug-in's default); no words."""
    if words:
        raise ValueError("bench words: none for kubitva (%s)" % " ".join(words))
    return {}


def lift_cells(game):
    """The units of the player to move: a lift shows where the unit may go this turn."""
    pos = game.pos
    out = []
    for c in range(pos.n):
        v = pos.cells[c]
        if v >= kc.WORKER and v & 1 == pos.to_move and pos.points[c]:
            out.append(c)
    return out
