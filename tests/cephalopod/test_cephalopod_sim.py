"""Cephalopod on the virtual board: the REAL firmware (MicroPython unix port, the runner's 224k heap) behind a
real pty, driven with the script verbs (host/cargoboard/sim/script.py): `drop CELL` puts a new
die down, `take CELL` takes one off. Expected positions come from the rules core, never written
by hand; the LEDs are read back from the frames the firmware shows (colour and blink pattern
over 64 frames, tests/simkit.py).

The game is on the block d4..h8 (5x5; the game's a1 is the board's d4). A helper turns the
game's cell names into the board's.
"""

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))

import serial  # noqa: E402,F401  (pyserial is a runtime dependency: missing it must fail, not skip)

from shared_rules.cephalopod import rules as ce  # noqa: E402
from shared_rules import geometry as g  # noqa: E402
from firmware.games.cephalopod.plugin import block_cells  # noqa: E402
from firmware import hal as H  # noqa: E402
from cargoboard.games.cephalopod.play import capture_steps  # noqa: E402
from cargoboard.sim.script import run_script  # noqa: E402
from simkit import WAIT, SimBoard, boards_made, console_new_from  # noqa: E402

class Game(SimBoard):
    """A Cephalopod game on the virtual board, the truth followed in the rules core."""

    def __init__(self, size="5x5", seats="", **session_kwargs):
        super().__init__(("new-game cephalopod %s %s" % (size, seats)).strip(), **session_kwargs)
        self.pos = ce.named_position(size)
        self.block = block_cells(self.pos.rows, self.pos.cols)

    def cell(self, name):
        """The board cell under the game's cell `name`."""
        return self.block[self.pos.parse_cell(name)]

    def bname(self, name):
        return g.cell_name(self.cell(name))

    def drop(self, name):
        self.run("drop " + self.bname(name))

    def take(self, name):
        self.run("take " + self.bname(name))

    def act(self, text, order="place-first", settle=True):
        """Perform action `text` with the hand in the given order (place-first, take-first,
        mixed); follow it in the rules core; return the position after it."""
        a = self.pos.parse_action(text)
        steps, _ = capture_steps(self.pos, a, random.Random(len(text)), (order,))
        for c, on in steps:
            self.run(("drop " if on else "take ") + g.cell_name(self.block[c]))
        self.pos.push(a)
        if settle:
            self.run(WAIT)
        return self.pos.notation()


@pytest.fixture
def game():
    yield from boards_made(lambda size="5x5", seats="", **kwargs: Game(size, seats, **kwargs))


def _play(gm, texts, order="place-first"):
    for t in texts:
        gm.act(t, order)


# 1 -------------------------------------------------------------------------------------------

def test_block_and_placements_commit_by_themselves(game):
    gm = game()
    assert gm.query("block") == "ok 5x5 a1=d4 e5=h8"
    assert gm.bname("a1") == "d4" and gm.bname("c3") == "f6" and gm.bname("e5") == "h8"
    p1 = gm.act("c3")
    p2 = gm.act("b3")
    assert gm.events() == [("auto", "c3", p1), ("auto", "b3", p2)]
    assert gm.state() == ("idle", "-", 2)
    _play(gm, ["d3", "c4"])   # b4 now touches b3 and c4: a capture must be made there
    assert gm.position() == gm.pos.notation() and gm.pos.capture_masks(gm.pos.parse_cell("b4"))
    leds = gm.cell_leds(["a1", "b4", "c3"])
    assert leds["a1"] == ("white", "steady") and gm.level("a1") < 40   # plain: dim, white to move
    assert leds["b4"] == ("white", "wink")                               # must capture: bright
    assert leds["c3"] == ("off", "off")                                  # a die stands there
    outside = gm.leds([g.parse_cell(c) for c in ("a1", "c3", "k11", "f2", "b6")])
    assert set(outside.values()) == {("off", "off")}                     # out of play: dark
    # counts: 2 each, a quarter LED per cell (half an LED); the S bar (white) glows: its turn
    assert gm.bar(0)[0] == "white" and gm.bar(2)[0] == "blue"
    assert gm.s.runner.led(H.SCORE_BASE)[0] < 96 and gm.bar(0)[1:] == ["white"] * 8  # glow
    assert gm.bar(2)[1:] == ["off"] * 8
    assert gm.bar(1) == ["off"] * 9 and gm.bar(3) == ["off"] * 9        # no pips shown


# 2 -------------------------------------------------------------------------------------------

def test_capture_of_four_die_first_taken_by_the_next_placement(game):
    gm = game()
    _play(gm, ["b3", "d3", "c2", "c4"])
    # four ones around c3: white may take any two, three or all four (11 choices)
    assert len(gm.pos.capture_masks(gm.pos.parse_cell("c3"))) == 11
    gm.mark()
    quad = gm.act("c3:c4,d3,c2,b3", "place-first")
    assert gm.state() == ("ready", "c2,b3,c3,d3,c4", 4)
    # the new die must show 4: four LEDs of the W and E bars, in white (the mover's colour)
    assert gm.bar(1) == ["white"] * 4 + ["off"] * 5 and gm.bar(3) == gm.bar(1)
    assert gm.events() == []    # nothing taken until confirm or the next placement
    p = gm.act("a1")            # black's next placement commits the capture
    assert gm.events() == [("auto", "c3:c4,d3,c2,b3", quad), ("auto", "a1", p)]
    assert gm.bar(1) == ["off"] * 9


def test_corner_pair_dice_first_then_confirm(game):
    gm = game()
    _play(gm, ["c3", "a1", "e2", "d1"])
    pair = gm.act("e1:e2,d1", "take-first")
    assert gm.state()[0] == "ready"
    assert gm.bar(3)[:3] == ["white", "white", "off"]    # the die shows 2
    gm.run("press confirm", WAIT)
    assert gm.events()[-1] == ("confirm", "e1:e2,d1", pair)
    assert gm.state() == ("idle", "-", 5)


def test_edge_triple_mixed_then_the_next_die_on_an_emptied_cell(game):
    gm = game()
    _play(gm, ["a4", "a2", "b3"])
    gm.mark()
    trip = gm.act("a3:a4,b3,a2", "mixed")                # black takes three: the die shows 3
    assert gm.state()[0] == "ready"
    assert gm.bar(1)[:4] == ["blue"] * 3 + ["off"]       # in black's colour
    nxt = gm.act("a2")   # white puts a die on a2, a cell the capture emptied
    assert gm.events() == [("auto", "a3:a4,b3,a2", trip), ("auto", "a2", nxt)]


def test_subset_of_a_bigger_choice_confirmed(game):
    gm = game()
    _play(gm, ["b3", "d3", "c2", "c4"])
    gm.drop("c3")
    gm.take("b3")
    gm.take("d3")
    gm.run(WAIT)
    # two taken, two more could be: the board waits; the two left blink cyan (slow)
    assert gm.state()[0] == "ready"
    leds = gm.cell_leds(["c3", "b3", "d3", "c2", "c4"])
    assert leds["c3"] == ("white", "steady")
    assert leds["b3"] == ("orange", "wink") and leds["d3"] == ("orange", "wink")
    assert leds["c2"] == ("cyan", "slow") and leds["c4"] == ("cyan", "slow")
    assert gm.bar(1)[:3] == ["white", "white", "off"]    # the die shows 2
    gm.run("press confirm", WAIT)
    gm.pos.push(gm.pos.parse_action("c3:d3,b3"))
    assert gm.events()[-1] == ("confirm", "c3:d3,b3", gm.pos.notation())


# 3 -------------------------------------------------------------------------------------------

def test_wrong_removal_blinks_red_and_putting_it_back_recovers(game):
    gm = game()
    _play(gm, ["b3", "d3", "c2", "e5"])      # white b3 c2, black d3 e5: c3 touches three
    gm.mark()
    gm.drop("c3")                            # white's die on c3 (must capture)
    gm.take("b3")
    gm.take("e5")                            # not a neighbour of c3: no capture takes it
    gm.run(WAIT)
    st = gm.state()
    assert st[0] == "mismatch" and st[1] == "b3,c3,e5"
    leds = gm.cell_leds(["e5", "c3", "b3"])
    assert leds["e5"] == ("red", "fast")     # the die to put back
    # `state` names it apart from the diff (fix=): what a host following the board shows
    assert gm.query("state").endswith(" fix=e5")
    assert leds["c3"] == ("white", "steady") and leds["b3"] == ("orange", "wink")
    assert gm.events() == []                 # nothing committed
    gm.drop("e5")                            # put back: the capture goes on
    gm.run(WAIT)
    assert gm.state()[0] == "moving"
    gm.take("c2")
    gm.run(WAIT, "press confirm", WAIT)
    gm.pos.push(gm.pos.parse_action("c3:c2,b3"))
    assert gm.events()[-1] == ("confirm", "c3:c2,b3", gm.pos.notation())
    assert gm.position() == gm.pos.notation()


def test_die_on_a_wrong_cell_blinks_red(game):
    gm = game()
    _play(gm, ["b3", "d3"])
    gm.drop("c3")                            # white: c3 must capture b3 and d3
    gm.drop("a5")                            # a second die before any is taken: wrong
    gm.run(WAIT)
    assert gm.state()[0] == "mismatch"
    assert gm.cell_leds(["a5"])["a5"] == ("red", "fast")
    assert gm.query("state").endswith(" fix=a5")
    gm.take("a5")
    gm.run(WAIT)
    assert gm.state() == ("moving", "c3", 2)
    leds = gm.cell_leds(["b3", "d3"])        # the dice the capture must take: cyan, slow
    assert leds == {"b3": ("cyan", "slow"), "d3": ("cyan", "slow")}


# 4 -------------------------------------------------------------------------------------------

def test_undo_shows_what_to_put_back_then_play_on(game):
    gm = game()
    _play(gm, ["b3", "d3", "c2"])
    before = gm.pos.notation()
    after = gm.act("c3:d3,c2,b3")           # black takes three
    gm.run("press confirm", WAIT)
    assert gm.events()[-1] == ("confirm", "c3:d3,c2,b3", after)
    gm.run("press undo", WAIT)
    gm.pos.pop()
    assert gm.events()[-1] == ("undo", "c3:d3,c2,b3", before)
    st = gm.state()
    assert st[0] in ("moving", "mismatch") and st[2] == 3
    # after a take-back every differing cell is to put right
    assert gm.query("state").endswith(" fix=" + st[1])
    leds = gm.cell_leds(["c3", "b3", "d3", "c2"])
    assert leds["c3"] == ("magenta", "fast")       # the die to take away
    assert leds["b3"] == ("white", "slow") and leds["c2"] == ("white", "slow")  # white dice
    assert leds["d3"] == ("blue", "slow")          # black's die to put back
    gm.take("c3")
    for c in ("b3", "d3", "c2"):
        gm.drop(c)
    gm.run(WAIT)
    assert gm.state() == ("idle", "-", 3)
    p = gm.act("c3:d3,c2")                         # a smaller capture this time
    gm.run("press confirm", WAIT)
    assert gm.events()[-1] == ("confirm", "c3:d3,c2", p)


def test_undo_pressed_as_a_die_is_put_down_takes_that_die_back(game):
    # Within the 0.4 s the board waits for stillness: the die just placed (black's d3) is the
    # one taken back, not white's b3 before it (the die was then read as white's).
    gm = game()
    _play(gm, ["b3"])
    before = gm.pos.notation()
    gm.pos.push(gm.pos.parse_action("d3"))
    after = gm.pos.notation()
    gm.pos.pop()
    gm.drop("d3")
    gm.run("press undo", WAIT)
    assert gm.events()[-2:] == [("auto", "d3", after), ("undo", "d3", before)], gm.events()
    assert gm.state()[0] == "mismatch" and gm.cell_leds(["d3"])["d3"] == ("magenta", "fast")
    gm.take("d3")
    gm.run(WAIT)
    assert gm.state() == ("idle", "-", 1) and gm.position() == before


def test_undo_pressed_as_a_capture_is_shown_ready_takes_that_capture_back(game):
    # White's capture of d3 and c2 made (both off, the die on c3) and shown ready: `undo` takes
    # back that capture, not black's d3 before it (the capture was then read as black's).
    gm = game()
    _play(gm, ["b3", "d3", "c2"])
    before = gm.pos.notation()
    gm.act("c3:d3,c2", settle=False)
    after = gm.pos.notation()
    gm.pos.pop()
    gm.run("press undo", WAIT)
    assert gm.events()[-2:] == [("auto", "c3:d3,c2", after), ("undo", "c3:d3,c2", before)], \
        gm.events()
    assert gm.state()[0] in ("moving", "mismatch") and gm.position() == before


def test_hint_lights_the_engine_move(game):
    from shared_rules.cephalopod.engine import best_action
    gm = game()
    _play(gm, ["b3", "d3", "c2"])
    a = best_action(gm.pos, 1)
    text = gm.pos.format_action(a)
    assert gm.query("hint") == "ok " + text
    gm.run("press hint")
    leds = gm.cell_leds([text[:2]])
    assert leds[text[:2]] == ("yellow", "fast")
    for c in gm.pos.captured_cells(a):
        assert gm.cell_leds([gm.pos.cell_name(c)])[gm.pos.cell_name(c)] == ("yellow", "wink")


# 5 -------------------------------------------------------------------------------------------

def _whole_game(gm, seed):
    """Play to the end, mostly the engine's choices, each action in a random hand order, the
    next player starting after a pause; the player answers only when the board asks (resolve:
    `next` to the right candidate, `confirm`). Returns the presses."""
    from shared_rules.cephalopod.engine import best_action
    rng = random.Random(seed)
    presses = 0
    while not gm.pos.is_over():
        legal = gm.pos.legal_actions()
        a = best_action(gm.pos, 1) if rng.random() < 0.7 else rng.choice(legal)
        order = rng.choice(("place-first", "take-first", "mixed"))
        gm.act(gm.pos.format_action(a), order, settle=False)
        gm.run("wait %d" % rng.randrange(450, 1500))
        if gm.state()[0] == "asking":
            before = gm.s.presses
            gm.run("resolve " + gm.pos.notation())
            presses += gm.s.presses - before
    gm.run("expect " + gm.pos.notation())
    return presses


def test_whole_game_3x3(game):
    gm = game("3x3")
    assert gm.query("block") == "ok 3x3 a1=e5 c3=g7"
    presses = _whole_game(gm, 1)
    assert gm.position() == gm.pos.notation() and gm.pos.is_over()
    sc = gm.pos.scores()
    w = "wb"[gm.pos.winners()[0]]
    assert "evt over winners=%s scores=%d,%d" % (w, sc[0], sc[1]) in gm.s.events
    assert gm.state()[0] == "over"
    assert presses == 0
    history = gm.query("history")[3:].split()
    assert history == [gm.pos.format_action(a) for a in gm.pos.history()]
    assert [e[1] for e in gm.events()] == history     # every action taken once, no button
    assert {e[0] for e in gm.events()} == {"auto"}
    # game over: the winner's dice blink slowly in the winner's colour
    win = gm.pos.winners()[0]
    mine = [gm.pos.cell_name(c) for c in range(9) if gm.pos.colour(c) == win]
    assert set(gm.cell_leds(mine).values()) == {(("white", "blue")[win], "slow")}


def test_whole_game_5x5(game):
    gm = game()
    presses = _whole_game(gm, 7)
    assert gm.position() == gm.pos.notation() and gm.pos.is_over()
    n = gm.pos.ply()
    assert n > 25 and presses <= 4, (n, presses)
    assert len(gm.events()) == n


def test_other_sizes_are_centred(game):
    gm = game("3x5", "wb")
    assert gm.query("block") == "ok 3x5 a1=d5 e3=h7"
    p = gm.act("e3")
    assert gm.events() == [("auto", "e3", p)] and gm.bname("e3") == "h7"
    gm2 = game("5x3")
    assert gm2.query("block") == "ok 5x3 a1=e4 c5=g8"


# 6 -------------------------------------------------------------------------------------------

def test_power_cut_resumes_the_game_from_its_log(game, tmp_path):
    """The game log: the power goes (the firmware killed, booted again on the same flash image,
    the dice where they were). The board resumes the game, a capture half made is still shown
    ready, a take-back still shows what to put back."""
    gm = game(flash=tmp_path / "flash.img")
    _play(gm, ["b3", "d3", "c2", "c4", "a1"])
    gm.run("restart")
    assert "evt log resumed game=1 actions=5 records=5 dropped=0" in gm.s.events
    assert gm.position() == gm.pos.notation() and gm.state() == ("idle", "-", 5)
    # black takes three round c3 (not committed yet: it waits for confirm or white's move)
    gm.drop("c3")
    for c in ("b3", "d3", "c4"):
        gm.take(c)
    gm.run("restart")
    assert gm.state() == ("ready", "b3,c3,d3,c4", 5)      # read again from the board
    gm.pos.push(gm.pos.parse_action("c3:c4,d3,b3"))
    after = gm.pos.notation()
    gm.act("e5")                                         # white's move commits black's capture
    assert gm.position() == gm.pos.notation()
    # a take-back of white's e5, and the power goes before the die is lifted
    gm.run("press undo", WAIT)
    gm.pos.pop()
    assert gm.position() == after
    gm.run("restart")
    assert "evt log resumed game=1 actions=6 records=8 dropped=0" in gm.s.events
    assert gm.position() == after
    assert gm.cell_leds(["e5"])["e5"] == ("magenta", "fast")    # still: take it away
    gm.take("e5")
    gm.run(WAIT)
    assert gm.state() == ("idle", "-", 6)


def test_finished_game_is_synced_and_exported(game, tmp_path):
    """A whole 3x3 game on the board, its log read over the pty by `cargoboard sync`'s code
    into a store, and exported: the SVG shows the board's final dice."""
    from cargoboard.link import Link
    from cargoboard.store import Store
    from cargoboard.sync import sync
    from cargoboard.export.cli import render
    from test_cephalopod_export import check_svg

    gm = game("3x3", flash=tmp_path / "flash.img")
    _whole_game(gm, 3)
    assert "evt log finished game=1" in gm.s.events
    gm.s.ser.close()  # the script's console; the sync opens the pty afresh
    runner = gm.s.runner
    with runner.serving(), Store(tmp_path / "games.sqlite") as store, \
            Link(runner.port) as link:
        res = sync(link, store)
        assert len(res.stored) == 1, res.summary()
        rec = store.get(res.stored[0][1])
        # the host resyncs the board to a position (LOAD): a new game log starts there
        assert link.new_game("cephalopod 3x3").startswith("ok")
        assert link.load("w1../.b2./... b") == "ok loaded"
        assert link.text("pos") == "ok w1../.b2./... b"
        assert link.text("block") == "ok 3x3 a1=e5 c3=g7"
        logs = link.games()
        assert len(logs) == 1 and logs[0][3] & 2  # the new log, being written
    assert (rec.kind, rec.variant, rec.seats) == ("cephalopod", "3x3", "wb")
    assert rec.actions == [gm.pos.format_action(a) for a in gm.pos.history()]
    positions = rec.positions()
    assert positions[-1].notation() == gm.pos.notation() and positions[-1].is_over()
    text = render(rec, "svg", positions=positions)
    check_svg(text, positions[-1], positions[-2], rec.actions[-1])
    assert "<li>w: " in render(rec, "html", positions=positions)


def test_a_console_new_game_from_a_position_with_blanks_as_underscores():
    notation = "...../...../..w1../...../..... b"
    assert console_new_from("cephalopod", notation) == "ok " + notation


def test_a_game_set_up_with_the_board_full_is_over(tmp_path):
    """A full board set up showed the mover's turn and waited for a die that has no cell (the
    tracker looked for the end only after a change; the LED audit, stop 41): it is over at
    once, told to a host, its log finished."""
    full = "w1b1w1/b1w1b1/w1b1w1_b"
    p = tmp_path / "full.txt"
    p.write_text("new-game cephalopod position=%s\nwait 500\nsend state\n" % full)
    out = []
    assert run_script(str(p), out=out.append) == 0, "\n".join(out)
    text = "\n".join(out)
    assert "evt over winners=w scores=5,4" in text and "log finished" in text
    assert "state=over" in text, text
