"""The virtual board's physical world (host/cargoboard/sim/world.py) against the rules: a
hand moving real cubes rolls them, so after every action of seeded random games (2, 3, 4
players, with and without cards: wind roses, accelerations, the portals) every stack holds the
very orientations the rules core has. Before issue 18 the world never rolled a cube, and the
interactive board drew every cube as B1 while the firmware tracked e.g. `e2=O3`."""

import random

import pytest

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from cargoboard.games.cargocube.hand import physical_steps
from cargoboard.games.cargocube import world as cargocube_world
from cargoboard.sim.world import World, CARD_BASE


def world_of(pos, cards, teleport=False):
    w = World()
    cargocube_world.setup(w, "polygon", "".join(pos.SEAT_LETTERS[s] for s in pos.seats), cards,
                      teleport)
    return w


def lay_out(w, pos):
    """Put the world's pieces and cards as they are in pos."""
    for c in range(g.N_CELLS):
        w.stacks[c][:] = ([CARD_BASE + pos.cards[c]] if pos.cards[c] else []) + list(pos.stacks[c])


def differences(w, pos, cards=True):
    """Cells where the world's pieces (and cards) differ from the position's."""
    out = []
    for c in range(g.N_CELLS):
        pieces = [i for i in w.stacks[c] if i < CARD_BASE]
        card = [i - CARD_BASE for i in w.stacks[c] if i >= CARD_BASE]
        if pieces != list(pos.stacks[c]) or cards and card != (
                [pos.cards[c]] if pos.cards[c] else []):
            out.append((g.cell_name(c), list(pos.stacks[c]), w.stacks[c]))
    return out


def hand_moves(w, pos, a):
    """The hand moves the world's pieces for action a in pos (before it is pushed)."""
    for step in physical_steps(pos, a):
        if step[0] == "move":
            w.lift(step[1])
            w.place(step[2])


@pytest.mark.parametrize("seed", range(12))
def test_world_rolls_cubes_as_the_rules_do(seed):
    rng = random.Random(seed)
    players, cards = 2 + seed % 3, seed % 4 != 3
    pos = cc.start_position(players, cards=cards)
    w = world_of(pos, cards)
    rolled = moved_on = 0
    for _ in range(250):
        if pos.is_over():
            break
        a = rng.choice(pos.legal_actions())
        hand_moves(w, pos, a)
        rolled += a[0] not in (cc.END, cc.STEP, cc.BOOST)
        moved_on += len(physical_steps(pos, a)) > 1
        pos.push(a)
        w.rest()  # the board commits the move (the session does this on its event)
        assert differences(w, pos) == [], cc.format_action(a)
    assert rolled > 20 and (moved_on > 0 or not cards)


@pytest.mark.parametrize("seed,players,cards,teleport", [
    (1, 2, "pyramid", False), (2, 4, "bastion", True), (3, 8, "both", True), (4, 3, "both", False),
])
def test_world_rolls_cubes_with_the_expansions(seed, players, cards, teleport):
    """With the expansions' cards (a catapult throws, a portal card and the walking teleport
    carry) every roll leaves the world's cubes as the rules have them. What changes in place (a
    spiral's turn, a sacrifice's death, a spent card) is not the world's: after each action the
    world is laid out again from the position."""
    rng = random.Random(seed)
    pos = cc.start_position(players, cards=cards, teleport=teleport)
    w = world_of(pos, cards, teleport)
    rolls = 0
    for _ in range(250):
        if pos.is_over():
            break
        a = rng.choice(pos.legal_actions())
        hand_moves(w, pos, a)
        pos.push(a)
        w.rest()
        if a[0] in (cc.ACTIVATE, cc.ROLL):
            rolls += 1
            # the pieces (a used catapult is spent in place: the card is not the world's)
            assert differences(w, pos, cards=False) == [], cc.format_action(a)
        lay_out(w, pos)
    assert rolls > 40


def test_a_rolled_cube_shows_its_new_top_face():
    pos = cc.start_position(2)
    w = world_of(pos, False)
    e4 = g.parse_cell("e4")
    w.lift(e4)
    w.place(g.parse_cell("e5"))  # tipped north over its edge onto e5
    from shared_rules.cargocube import orient
    assert orient.name(w.stacks[g.parse_cell("e5")][-1]) == orient.name(
        orient.ROLL[orient.START * 4 + 0]) != "B1"
    w.lift(g.parse_cell("e5"))
    w.place(g.parse_cell("j10"))  # carried far off: the faces stay
    assert w.stacks[g.parse_cell("j10")] == [orient.ROLL[orient.START * 4 + 0]]


def test_interactive_board_draws_what_the_board_tracks():
    """`cargoboard sim --interactive` (the real firmware behind it): the banner names every
    verb; a rolled cube is drawn with the faces the firmware tracks; a stack's label (top
    piece and height) stays apart from its neighbours' (it read `B12B1`)."""
    import io
    import re
    from cargoboard.sim.interactive import run_interactive, CELL_WIDTH
    from cargoboard.sim.script import VERBS
    inp = io.StringIO("new-game cargocube polygon SN\nlift e4\nplace e5\nwait 1000\nsend pos\n"
                      "lift d4\nplace d5\nquit\n")
    out = io.StringIO()
    assert run_interactive(inp=inp, out=out) == 0
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    banner = [ln for ln in text.splitlines() if ln.startswith("Cargoboard simulator. Verbs: ")]
    assert banner and set(banner[0].split(": ", 1)[1].split(";")[0].split()) == set(VERBS)
    assert {"drop", "take", "restart"} <= set(VERBS)
    tracked = re.findall(r"ok (\S*e5=(\w\w)\S*) SN", text)
    assert tracked and tracked[-1][1] == "1O"  # e4 rolled north: 1 on top, O to the south

    def row(board, rank):
        line = [ln for ln in board.splitlines() if ln.startswith("%3d " % rank)][0]
        cells = line[7:7 + 11 * CELL_WIDTH]
        return [cells[i * CELL_WIDTH:(i + 1) * CELL_WIDTH] for i in range(11)]

    boards = text.split("\n> ")
    after_roll = [b for b in boards if "ok " in b][-1]  # drawn after `send pos`
    assert [c.strip() for c in row(after_roll, 5)[2:5]] == ["B1", "B1", "1O"]
    last = boards[-2]  # after d4 was put on d5
    assert row(last, 5)[2:5] == [" B1  ", " 1O:2", " 1O  "]  # rolled north too


@pytest.mark.parametrize("turn", ["e5cw", "e5acw"])
def test_a_spiral_turn_turns_the_cubes_of_the_stack(turn):
    """The script's `turn CELL cw|acw` (a spiral turn): the stack's cubes end as the rules turn
    them, a keeper on it stays, and nothing leaves the cell."""
    from cargoboard.sim.world import WorldError
    pos = cc.Position.parse("e5=*pS.B1.O1.KS,f11=KN SN S 2")
    w = world_of(cc.start_position(2), False)
    lay_out(w, pos)
    a = pos.parse_action(turn)
    assert a[0] == cc.TURN
    w.turn(a[1], a[2])
    pos.push(a)
    assert differences(w, pos) == []
    assert pos.stacks[g.parse_cell("e5")] != cc.Position.parse(
        "e5=*pS.B1.O1.KS,f11=KN SN S 2").stacks[g.parse_cell("e5")]
    with pytest.raises(WorldError, match="empty"):
        w.turn(g.parse_cell("e6"), 0)
