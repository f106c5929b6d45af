"""Seeded «Формула 99» games for the tests: a chooser that favours card plays, charges and
blockades, so that short games reach the rare events (the same weights as the MicroPython
driver tests/formula99/driver_formula99.py, with Python's random here)."""

import random

from shared_rules.formula99 import rules as R

WEIGHTS = {R.K_PLAY: 6, R.K_LAY: 4, R.K_BLOCK: 6, R.K_LIFT: 1, R.K_DRAW: 2}


def pick(pos, rng):
    by_kind = {}
    for a in pos.legal_actions():
        by_kind.setdefault(a >> 24, []).append(a)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1) for k in kinds])[0]
    return rng.choice(by_kind[kind])


def game(seed, players, level, full, plies=300):
    """Yield (position before, action) along one seeded game; the position is live (do not
    keep it: copy or take its notation)."""
    rng = random.Random(seed)
    pos = R.start_position(players, level, seed if full else None)
    while not pos.is_over() and pos.ply() < plies:
        a = pick(pos, rng)
        yield pos, a
        pos.push(a)
    yield pos, None


def play_out(seed, players, level, full, plies=300):
    for pos, a in game(seed, players, level, full, plies):
        if a is None:
            return pos


def sample_positions(count, seed=0, plies=(10, 120)):
    """Notations of positions met in seeded games (public and full, every level)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players = 2 + i % 8
        level = 1 + i % 3
        full = i % 2 == 1
        stop = rng.randint(*plies)
        for pos, a in game(1000 + seed * 97 + i, players, level, full, stop):
            if a is None:
                out.append(pos.notation())
    return out


def hotseat_game(players=3, level=2, seed=9):
    """A GameRecord of a finished game played on the host by the engine (`cargoboard play
    formula99 --engine all`): its record holds every hand."""
    from cargoboard.games.formula99.hotseat import HotSeat
    from cargoboard.store import GameRecord
    game = HotSeat(players=players, level=level, seed=seed, engine="all", out=lambda *a: None)
    game.run()
    start, texts = game.record()
    return GameRecord("formula99", "L%d" % level, game.pos.SEAT_LETTERS, start, texts,
                      source="play")
