"""Virtual-board scripts from КУБитва games: a seeded game written as what the players do on
the board (lift, place, take, drop, press; cargoboard.games.kubitva.hand.physical_steps), with
`resolve` after each motion (the buttons the LEDs ask for) and `expect` now and then. Used by
the virtual-board tests and the benches that replay whole games through physical events."""

import random

from shared_rules.kubitva import rules as kb
from cargoboard.games.kubitva.hand import motions, physical_steps, pick_engine, pick_random

SETTLE_MS = 600  # the hands still after a motion: longer than the board's settle time


def game_script(seed=1, actions=120, check_every=20, pick=None, start=kb.BOARD):
    """(script text, final position) for a seeded game from `start` (the board edition's start
    by default, which `new-game kubitva board` lays out). pick(pos, rng) chooses each action
    (uniformly at random by default)."""
    rng = random.Random(seed)
    pick = pick or pick_random
    pos = kb.Position.parse(start)
    lines = ["# seeded КУБитва game: seed %d, up to %d actions" % (seed, actions)]
    if start == kb.BOARD:
        lines.append("new-game kubitva board")
    else:
        lines.append("new-game kubitva position=%s" % start.replace(" ", "_"))
    played = 0
    checked = 0
    while played < actions and not pos.is_over():
        for seq in motions(pos, pick, rng):
            names = []
            probe = pos.copy()
            for a in seq:
                names.append(probe.format_action(a))
                probe.push(a)
            lines.append("# %s %s" % (kb.SEAT_LETTERS[pos.to_move], " ".join(names)))
            for step in physical_steps(pos, seq, rng):
                if step[0] == "press":
                    lines.append("press %s" % step[1])
                elif step[0] == "ask":
                    lines.append("wait 300")
                    lines.append("resolve %s" % _after(pos, seq[:1]))
                else:
                    lines.append("%s %s" % (step[0], pos.cell_name(step[1])))
            for a in seq:
                pos.push(a)
            played += len(seq)
            lines.append("wait %d" % SETTLE_MS)
            lines.append("resolve %s" % pos.notation())
        if check_every and played - checked >= check_every:
            lines.append("expect %s" % pos.notation())
            checked = played
    if pos.is_over():
        lines.append("# the game is over")
    lines.append("expect %s" % pos.notation())
    return "\n".join(lines) + "\n", pos


def _after(pos, seq):
    p = pos.copy()
    for a in seq:
        p.push(a)
    return p.notation()


# The games the emulated Pico plays (tests/test_pico_games.py): name -> () -> (script, final).
PICO_CASES = {
    "engine": lambda: game_script(seed=8, actions=40, check_every=10, pick=pick_engine),
}
