"""Sim scripts from games: a seeded game of legal actions, written as what a player does on the
virtual board (lift, place, press) with `resolve` after each action and `expect` at the end.
Used by `cargoboard demo` and by the tests that replay whole games through physical events.
"""

import random

from shared_rules.cargocube import layouts, rules as cc
from shared_rules.cargocube import board as g
from cargoboard.games.cargocube.hand import physical_steps


def action_lines(pos, a):
    """The script lines of a hand doing action a in pos (before it is pushed): lift and place
    for each piece moved, `turn` for a spiral turn, `press` for a button (`end`)."""
    lines = []
    for step in physical_steps(pos, a):
        if step[0] == "press":
            lines.append("press %s" % step[1])
        elif step[0] == "move":
            lines.append("lift %s" % g.cell_name(step[1]))
            lines.append("place %s" % g.cell_name(step[2]))
        elif step[0] == "turn":  # a spiral turn: the stack turns where it stands
            lines.append("turn %s %s" % (g.cell_name(step[1]), ("cw", "acw")[step[2]]))
    return lines


def game_script(seed=1, players=2, actions=40, check_every=10, pick=None, cards=False,
                teleport=False, wait=None):
    """(script text, final position) for a seeded game on the Polygon start, with cards in
    their default places if cards (True or "base": the base cards, or "pyramid", "bastion",
    "both") and the walking teleport if asked (what `new-game cargocube polygon SEATS [cards]
    [teleport]` lays out). pick(pos, legal, rng) may choose the action; by default it is
    uniform among the legal actions. wait: the game's option wait=K (None: the board's
    default, 2 for the base game on revision A; 0: the board that asks at once)."""
    rng = random.Random(seed)
    seats = layouts.SEATS_BY_PLAYERS[players]
    if cards is True:
        cards = "base"
    pos = cc.start_position(players, cards=cards, teleport=teleport)
    words = {"base": " cards", False: ""}.get(cards, " %s" % cards)
    lines = ["# seeded game: seed %d, %d players, up to %d actions" % (seed, players, actions),
             "new-game cargocube polygon %s%s%s%s" % (
                 seats, words, " teleport" if teleport else "",
                 "" if wait is None else " wait=%d" % wait)]
    for n in range(actions):
        legal = pos.legal_actions()
        if not legal:
            lines.append("# the game is over")
            break
        a = pick(pos, legal, rng) if pick else legal[rng.randrange(len(legal))]
        lines.append("# %d. %s %s" % (n + 1, pos.SEAT_LETTERS[pos.to_move], cc.format_action(a)))
        lines.extend(action_lines(pos, a))
        pos.push(a)
        lines.append("resolve %s" % pos.notation())
        if check_every and (n + 1) % check_every == 0:
            lines.append("expect %s" % pos.notation())
    lines.append("expect %s" % pos.notation())
    return "\n".join(lines) + "\n", pos


# The games the emulated Pico plays (tests/test_pico_games.py): name -> () -> (script, final).
PICO_CASES = {
    "base-cards": lambda: game_script(seed=5, players=2, actions=24, check_every=6,
                                      cards="base", teleport=False),
    "4-both-teleport": lambda: game_script(seed=5, players=4, actions=24, check_every=6,
                                           cards="both", teleport=True),
}
