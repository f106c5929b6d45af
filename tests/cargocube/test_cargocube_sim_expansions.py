"""The expansions on the virtual board: the REAL firmware (MicroPython unix port, the runner's 224k heap;
240k for 8 players with both expansions and the teleport)
plays each new piece and card as a hand moves them (docs/board-cargocube.md, "The expansions on
the board"), and whole games with each expansion, through physical events only. Expected
positions come from the rules core."""

import pytest

from cargoboard.games.cargocube.scriptgen import game_script
from test_cargocube_sim_scenarios import Script, run_text


def _play(script, actions):
    """Each action by the hand, then `resolve` (buttons only where the LEDs ask)."""
    for text in actions:
        script.act(text, settle=text != "end")
        script.resolve()
    return script


def _presses(res, actions):
    got = res.resolves()
    assert len(got) == len(actions), res.text[-3000:]
    return dict(zip(actions, got))


# «Пирамида»: the umbrella ride (the keeper leaves the exit portal for the umbrella's cell, which
# its card keeps occupied: the board sees only the exit portal empty, as for a step onto a card,
# and asks), a catapult throw (seen: the cube appears in the terminal) and a spiral turn (no
# sensor changes: `confirm`, then the turn is the first move offered).
PYRAMID = ["d4w", "b1@e2", "K@e2", "end", "c9n", "end", "i3w", "i1@b4", "c4w^b1", "end",
           "d9n", "end", "g3w", "j1@h2", "h3s", "h2cw"]


def test_pyramid_umbrella_catapult_spiral(tmp_path):
    s = _play(Script(cards="pyramid"), PYRAMID)
    s.add("send history").expect()
    res = s.run(tmp_path)
    assert res.rc == 0, res.text[-3000:]
    p = _presses(res, PYRAMID)
    assert p["b1@e2"] == 0 and p["i1@b4"] == 0 and p["j1@h2"] == 0  # cards: two sensors
    assert p["c4w^b1"] == 0  # the thrown cube lands on an empty terminal cell
    assert 1 <= p["K@e2"] <= 4  # it may also have stepped onto e1's or g1's card: next, confirm
    assert 1 <= p["h2cw"] <= 3  # confirm, then the clockwise turn first, confirm
    assert "ok " + " ".join(PYRAMID) in res.text


# «Бастион» with the walking teleport: a biohazard goes on the only cube next to the keeper
# (the card leaves its terminal cell: committed), is lifted onto an empty cell (seen: the spent
# card appears), the teleport steps; the sacrifice (its card leaves the terminal) gives S the
# next turn too; a cube rolled onto an extra portal goes to the dead keeper on the exit portal
# (no sensor changes: confirm).
BASTION = ["e3s", "i1@e2", "He2@f2", "Tn", "c9n", "end", "d3w", "j1@f1", "end", "g3e", "b1@c2",
           "c3s"]


def test_bastion_biohazard_sacrifice_extra_portal_and_teleport(tmp_path):
    s = _play(Script(cards="bastion", teleport=True), BASTION)
    s.add("send history").expect()
    res = s.run(tmp_path)
    assert res.rc == 0, res.text[-3000:]
    p = _presses(res, BASTION)
    for text in ("i1@e2", "He2@f2", "Tn", "j1@f1", "b1@c2"):
        assert p[text] == 0, (text, p)
    assert p["c3s"] >= 1  # traceless: onto a card cell, then onto the dead keeper
    assert s.pos.notation().endswith(" SN N a") and "f1=XS.34" in s.pos.notation()


@pytest.mark.parametrize("players,cards,teleport,seed,heap", [
    (2, "pyramid", False, 4, None), (4, "bastion", True, 5, None), (4, "both", False, 7, None),
    (8, "base", False, 6, None),
    # The biggest game (docs/firmware.md "The expansions on the heap") at the Pico's own heap
    # size: at 192k on this 64-bit port its largest free block is ~4 KB, and whether a 2 KB
    # list finds one is a matter of layout (with today's tracker it passed at 188k and 196k
    # and failed at 192k). Its heap on the board is bench/heap.py's (127 KB free at worst).
    (8, "both", True, 6, "240k"),
])
def test_whole_expansion_game_through_physical_events(tmp_path, players, cards, teleport, seed,
                                                      heap):
    text, final = game_script(seed, players, actions=45, cards=cards, teleport=teleport)
    res = run_text(tmp_path, text, "x%d.txt" % seed, heap)
    assert res.rc == 0, res.text[-3000:]
    assert len(res.resolves()) == final.ply()
    assert "0 firmware error event(s)" in res.lines[-1]
    assert "evt log begin game=1" in res.text and "log stopped" not in res.text


@pytest.mark.parametrize("players,cards,teleport,seed", [(4, "both", True, 7), (2, False, False, 8)])
def test_a_game_goes_on_from_a_position(tmp_path, players, cards, teleport, seed):
    """`new-game cargocube position=NOTATION` (docs/virtual-board.md): the world is laid out as
    the position stands (cards, stacks, the 4-player game's dead keeper under its card) and the
    board plays on from it. A position with both expansions' cards is over 500 characters, beyond the
    console's old 319-character line."""
    import random
    from shared_rules.cargocube import rules as cc
    from cargoboard.games.cargocube.scriptgen import action_lines
    rng = random.Random(seed)
    pos = cc.start_position(players, cards=cards, teleport=teleport)
    for _ in range(30):
        pos.push(rng.choice(pos.legal_actions()))
    start = pos.notation()
    lines = ["new-game cargocube position=" + start.replace(" ", "_"), "expect " + start]
    for _ in range(15):
        a = rng.choice(pos.legal_actions())
        lines += action_lines(pos, a)
        pos.push(a)
        lines.append("resolve " + pos.notation())
    lines.append("expect " + pos.notation())
    res = run_text(tmp_path, "\n".join(lines) + "\n", "from-position.txt")
    assert res.rc == 0, res.text[-3000:]
    assert len(res.resolves()) == 15
    assert (len(start) > 319) == (cards == "both")
    assert ("=X" in start or ".X" in start) == (cards == "both")
