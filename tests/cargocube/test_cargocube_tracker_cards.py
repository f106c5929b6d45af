"""Move inference with booster cards on the board, in process: `new-game` lays no cards, so the
card actions (booster use, wind-rose hop, acceleration slide, teleports) are played here on the
firmware's scanner + Cargocube plug-in (`cargoboard.sim.table.Table`, `firmware.games.cargocube.plugin.Game`
started from a position), with the modelled hand `cargoboard.games.cargocube.hand.Hand` (tipping, dragging,
hesitating, hovering, bouncing contacts; seeded). The same scenarios, and a whole seeded game with
cards, also run under the MicroPython unix port through tests/cargocube/driver_tracker_cards.py (device code
on the device interpreter)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from shared_rules.cargocube import rules as cc  # noqa: E402
from shared_rules.cargocube import board as g  # noqa: E402
from firmware import hal as H  # noqa: E402
from firmware.games.cargocube import tracker as T  # noqa: E402
from firmware.games.cargocube.plugin import Game  # noqa: E402
from cargoboard.games.cargocube.hand import Hand, physical_steps  # noqa: E402
from cargoboard.sim.table import Table  # noqa: E402

import driver_tracker_cards as D  # noqa: E402

SETTLE_MS = 600
DRIVER = ROOT / "tests" / "cargocube" / "driver_tracker_cards.py"
CASES = {c[0]: c for c in D.CASES}


def new_table(notation, wait=None):
    """wait: the option wait=K (None: the board's default; "0": the board that asks at once)."""
    events = []
    game = Game({"position": notation, "seats": notation.split()[1], "emit": events.append,
                 "wait": wait})
    return Table(game), game, events


def cells(*names):
    return [g.parse_cell(n) for n in names]


@pytest.mark.parametrize("hand_seed", range(6))
@pytest.mark.parametrize("name", [c[0] for c in D.CASES])
def test_card_action_committed_without_button(name, hand_seed):
    """booster (the card's magnet leaves b1, lands on d2), wind-rose hop, acceleration slide,
    teleport by a roll and by a hop onto f6: each is taken with no button, whatever the hand's
    habits (seeded)."""
    _, notation, text, _ = CASES[name]
    table, game, events = new_table(notation)
    truth = cc.Position.parse(notation)
    a = truth.parse_action(text)
    for raw, ms in Hand(hand_seed).segments(truth, physical_steps(truth, a)):
        table.feed(raw, ms)
    table.settle(SETTLE_MS)
    truth.push(a)
    t = game.tracker
    assert [cc.format_action(x) for x in t.pos.history()] == [text]
    assert t.pos.notation() == truth.notation()
    assert t.state == T.IDLE
    assert "auto %s -> %s" % (text, truth.notation()) in events


def test_rose_hop_targets_shown_while_the_cube_is_in_the_air():
    """The cube leaves i1 (in S's terminal) for the wind rose on i2 (the card keeps i2 occupied,
    so the board sees only -i1): the board waits and shows the hop targets; the cube lands on j2:
    committed."""
    _, notation, text, _ = CASES["rose"]
    table, game, events = new_table(notation)
    t = game.tracker
    truth = cc.Position.parse(notation)
    i1, i2, j2 = cells("i1", "i2", "j2")
    raw = bytearray(table.raw)
    raw[i1 >> 3] &= ~(1 << (i1 & 7)) & 0xFF
    table.feed(raw, 150)                    # lifted from i1, put on the rose, lifted again
    table.feed(raw, 1000)                   # held in the air: the board keeps waiting
    assert t.state == T.MOVING and t.pos.ply() == 0
    hop_targets = [x for x in g.around(i2) if x != i1]
    assert sorted(hop_targets) == sorted(cells("i3", "j3", "j2", "j1", "h1", "h2", "h3"))
    for c in hop_targets:
        assert c in t.targets, g.cell_name(c)
    raw = bytearray(raw)
    raw[j2 >> 3] |= 1 << (j2 & 7)
    table.feed(raw, SETTLE_MS)
    truth.push(truth.parse_action(text))
    assert t.pos.notation() == truth.notation() and t.state == T.IDLE
    told = [e for e in events if not e.startswith("state ")]
    assert told[-1].startswith("auto i1n/j2 -> ")


def test_acceleration_slide_target_shown_then_committed():
    _, notation, text, _ = CASES["acceleration"]
    table, game, events = new_table(notation)
    t = game.tracker
    j1, j3 = cells("j1", "j3")
    raw = bytearray(table.raw)
    raw[j1 >> 3] &= ~(1 << (j1 & 7)) & 0xFF
    table.feed(raw, 300)
    assert t.state == T.MOVING and j3 in t.targets
    raw = bytearray(raw)
    raw[j3 >> 3] |= 1 << (j3 & 7)
    table.feed(raw, SETTLE_MS)
    assert [cc.format_action(x) for x in t.pos.history()] == ["j1n"]
    assert t.pos.stacks[j3] and t.pos.cards[g.parse_cell("j2")]


def test_rose_next_to_stacks_is_asked_and_answered():
    """With occupied cells around the rose, "i1n/j2" has a rival explanation (the cube hops onto
    a neighbouring stack, then rolls from it over the rose to j2): the board asks; next/confirm
    pick the move (the board that asks at once: the default waits for the moves after)."""
    notation = D.edit(D.START, {"d1": None, "i2": "*wS", "i1": "3B"})
    table, game, events = new_table(notation, wait="0")
    t = game.tracker
    truth = cc.Position.parse(notation)
    a = truth.parse_action("i1n/j2")
    for raw, ms in Hand(1, tip=0, drag=0, hesitate=0, hover=0, bounce=0).segments(
            truth, physical_steps(truth, a)):
        table.feed(raw, ms)
    table.settle(SETTLE_MS)
    assert t.state == T.ASKING and a in t.candidates and len(t.candidates) >= 2
    presses = 0
    while t.shown() != a:
        table.press(H.NEXT)
        presses += 1
        assert presses <= len(t.candidates)
    table.press(H.CONFIRM)
    truth.push(a)
    assert t.pos.notation() == truth.notation() and t.state == T.IDLE


# A cube alone on S's exit portal f1 rolls north onto the walking teleport on f2 and is sent back
# to f1 (`f1n`: source and destination the same cell, no sensor changed when it is done). While
# it is away the board sees only f1 emptied, as for `f1e`, a roll onto the springboard on g1 (e1's
# stack is too high to climb): the only move that fits then, but not the only one under way.
RETURN = D.edit(D.START, {"f1": "3B", "g2": "KS", "f2": "T", "e1": "B1.B1"})


def test_cube_away_on_the_teleport_is_not_taken_for_a_roll_onto_a_card():
    """Issue 13 (bench/cargocube/inference.py, both+T 8p, seeds 24 and 37): the board committed `f1e`
    once the cube had been on the teleport for the settle time; the hand was bringing it back
    to f1. It must wait (f1 shown as where the cube may go), read nothing when the cube is back,
    and offer `f1n` when the player says a move was missed."""
    table, game, events = new_table(RETURN)
    t = game.tracker
    truth = cc.Position.parse(RETURN)
    a = truth.parse_action("f1n")
    f1 = g.parse_cell("f1")
    assert a[1] == a[3] == f1 and T.action_delta(truth, a) == ()
    assert [cc.format_action(x) for x in truth.legal_actions() if T.action_delta(truth, x) == (f1,)
            ] == ["f1e"]
    start = bytearray(table.raw)
    raw = bytearray(start)
    raw[f1 >> 3] &= ~(1 << (f1 & 7)) & 0xFF
    table.feed(raw, 150)                    # lifted from f1, put on the teleport
    table.feed(raw, 2000)                   # left there: still under way
    assert t.pos.ply() == 0 and t.state == T.MOVING
    assert f1 not in t.targets              # f1 stays lit as where the cube came from
    table.feed(start, SETTLE_MS)            # back on f1, rolled
    assert t.pos.ply() == 0 and t.state == T.IDLE
    table.press(H.CONFIRM)                  # "you missed a move"
    assert t.state == T.ASKING and a in t.candidates
    while t.shown() != a:
        table.press(H.NEXT)
    table.press(H.CONFIRM)
    truth.push(a)
    assert t.pos.notation() == truth.notation() and t.state == T.IDLE


@pytest.mark.parametrize("hand_seed", range(6))
def test_cube_back_through_the_teleport_never_misread(hand_seed):
    """The same move made by the modelled hand, holding the cube in the air long (past the
    settle time): never committed as another move; the player's `confirm` and `next` get it."""
    table, game, events = new_table(RETURN)
    t = game.tracker
    truth = cc.Position.parse(RETURN)
    a = truth.parse_action("f1n")
    for raw, ms in Hand(hand_seed, hesitate=1.0).segments(truth, physical_steps(truth, a)):
        table.feed(raw, ms)
        assert t.pos.ply() == 0, cc.format_action(t.pos.history()[0])
    table.settle(SETTLE_MS)
    assert t.pos.ply() == 0 and t.state == T.IDLE
    table.press(H.CONFIRM)
    while t.shown() != a:
        table.press(H.NEXT)
    table.press(H.CONFIRM)
    truth.push(a)
    assert t.pos.notation() == truth.notation()


def test_driver_cases_on_cpython(capsys):
    D.main(["cases"])
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "done 0 fails", out
    assert out.count("\nok ") + out.startswith("ok ") == 2 * len(D.CASES), out


def _strip_mem(text):
    return "\n".join(line.split(" free-at-start=")[0] for line in text.splitlines())


def test_driver_cases_under_micropython(micropython, capsys):
    """The card scenarios on the device interpreter, on the Pico's 192 KiB heap."""
    from cargoboard.build import cached_build  # the device modules as deployed (.mpy)
    out = micropython(DRIVER, args=["cases"], path=[cached_build(), ROOT / "host"])
    D.main(["cases"])
    assert out == capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "done 0 fails", out


def test_driver_game_with_cards_under_micropython(micropython, capsys):
    """A whole seeded 2-player game with cards (150 actions: activations, rolls, steps, booster
    uses, hops, slides, `end`) played by the hand and answered with buttons where the board asks,
    under MicroPython, with the same result as on CPython. The heap is 288k, not the Pico's 192k:
    the driver keeps a second position (the truth) and its own modules next to the firmware's, all
    compiled from source. Measured on the stop-35 code: 256k passes and 252k runs out of memory
    (compiling a module the tracker loads on demand), so 256k left this test failing on any few
    hundred bytes more; the board's own heap is measured on the emulated Pico (bench/heap.py)."""
    out = micropython(DRIVER, args=["game", "1", "150"], path=[ROOT / "host"], heapsize="288k")
    D.main(["game", "1", "150"])
    mine = capsys.readouterr().out
    assert _strip_mem(out) == _strip_mem(mine)
    assert out.startswith("ok game 1 actions=150 "), out
    assert out.strip().splitlines()[-1] == "done 0 fails", out



from fwcases_ask import SAME_END  # noqa: E402  (stop 36's audit, L1: the position it played)


@pytest.mark.parametrize("start,seed", [("4 base", 4), ("4 both", 2), ("4 bastion teleport", 1),
                                        ("8 both teleport", 2), ("audit", 0)])
def test_moves_ending_alike_are_told_as_the_rules_do(start, seed):
    # A question keeps one of the candidates that end in one position, and tells which do
    # without pushing for a roll, an activation or a step (Position.push leaves nothing to their
    # hops but a catapult's throw): every pair it would compare (one kind, piece, source and
    # destination; the expansions' actions one direction too), in the positions of a seeded
    # random game (booster uses played: the cards come onto the field; seeds with such pairs),
    # against the rules' own equality of the positions they end in; and what it keeps offers
    # every position once.
    import random
    from firmware.games.cargocube.offers import distinct
    rng = random.Random(seed)
    if start == "audit":
        pos = cc.Position.parse(SAME_END)
    else:
        words = start.split()
        pos = cc.start_position(int(words[0]), cards=words[1], teleport="teleport" in words)
    pairs = alike = 0
    for _ in range(200):
        legal = pos.legal_actions(False)
        if not legal:
            break
        for i in range(len(legal)):
            a = legal[i]
            for b in legal[:i]:
                if (a[0], a[1], a[3], a[4]) != (b[0], b[1], b[3], b[4]) or \
                        a[0] > cc.STEP and a[2] != b[2]:
                    continue
                pos.push(a)
                end = pos.copy()
                pos.pop()
                pos.push(b)
                same = pos == end
                pos.pop()
                assert (len(distinct(pos, [b, a])) == 1) == same, (
                    pos.notation(), pos.format_action(a), pos.format_action(b))
                pairs += 1
                alike += same
        kept = distinct(pos, legal)
        ends = set()
        for a in kept:
            pos.push(a)
            ends.add(pos.notation())
            pos.pop()
        assert len(ends) == len(kept)  # none kept that ends as another kept
        for a in legal:
            pos.push(a)
            assert pos.notation() in ends  # every position is still offered
            pos.pop()
        every = pos.legal_actions()
        pos.push(every[rng.randrange(len(every))])
    assert pairs and alike, (pairs, alike)
