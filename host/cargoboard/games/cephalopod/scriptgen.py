"""Virtual-board scripts from Cephalopod games: a seeded game written as what the players do on
the board (a new die dropped, captured dice taken off, in a hand's orders: capture_steps of
cargoboard.games.cephalopod.play), the pause before the next player, `resolve` after each action
(the buttons the LEDs ask for; none when the board took it by itself) and `expect` now and
then. Used by the emulated Pico's test of every game (PICO_CASES, tests/test_pico_games.py)."""

import random

from shared_rules import geometry as g
from shared_rules.cephalopod import rules as ce
from shared_rules.cephalopod.engine import best_action
from firmware.games.cephalopod.plugin import block_cells
from cargoboard.games.cephalopod.play import capture_steps

NEXT_GAP_MS = (450, 1500)  # the next player starts after this long


def game_script(seed=1, size="5x5", actions=400, check_every=4, engine=0.7):
    """(script text, final position) for a seeded game of `size` (the block the board lays out
    for `new-game cephalopod SIZE`), up to `actions` actions: the engine's choice with
    probability `engine`, else a legal action at random."""
    rng = random.Random(seed)
    pos = ce.named_position(size)
    block = block_cells(pos.rows, pos.cols)
    lines = ["# seeded Cephalopod game: %s, seed %d, up to %d actions" % (size, seed, actions),
             "new-game cephalopod %s" % size]
    played = 0
    while played < actions and not pos.is_over():
        a = best_action(pos, 1) if rng.random() < engine else rng.choice(pos.legal_actions())
        lines.append("# %s %s" % (pos.SEAT_LETTERS[pos.to_move], pos.format_action(a)))
        steps, _ = capture_steps(pos, a, rng)
        for c, on in steps:
            lines.append("%s %s" % ("drop" if on else "take", g.cell_name(block[c])))
        pos.push(a)
        played += 1
        lines.append("wait %d" % rng.randrange(*NEXT_GAP_MS))
        lines.append("resolve %s" % pos.notation())
        if check_every and played % check_every == 0:
            lines.append("expect %s" % pos.notation())
    if pos.is_over():
        lines.append("# the game is over")
    lines.append("expect %s" % pos.notation())
    return "\n".join(lines) + "\n", pos


# The games the emulated Pico plays (tests/test_pico_games.py): name -> () -> (script, final).
# 12 actions of a 3x3 game hold 10 dice taken off in captures, in all three hand orders; a whole
# game is some 50 actions, too long for the emulator (each action's second of board time costs
# about that in wall time there).
PICO_CASES = {
    "3x3": lambda: game_script(seed=5, size="3x3", actions=12),
}
