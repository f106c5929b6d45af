"""Cephalopod move inference (firmware/games/cephalopod/tracker.py) in this process: hand-made cases of
what the sensors see, and whole seeded games played by the modelled hand on the scanner and the
plug-in (host/cargoboard/games/cephalopod/play.py): the board must never hold an action the hand did
not make, and must end on the true position. The same code runs under MicroPython on the
virtual board (tests/cephalopod/test_cephalopod_sim.py)."""

import pytest

from shared_rules.cephalopod import rules as ce
from firmware.games.cephalopod import tracker as T
from cargoboard.games.cephalopod.play import pick_engine, pick_random, play_game

# White to move; c3 touches four ones (c4, d3, c2, b3); d1 lies next to d2.
FOUR = "...../..b1../.w1.b1./..w1../...b1. w"


def mask(pos, *names):
    m = 0
    for n in names:
        m |= 1 << pos.parse_cell(n)
    return m


class Board:
    """A tracker and the occupancy the sensors read, changed one cell at a time."""

    def __init__(self, position):
        self.pos = ce.Position.parse(position)
        self.t = T.Tracker(self.pos)
        self.occ = self.t.expected
        self.now = 0

    def put(self, name, wait=100):
        self.occ |= mask(self.pos, name)
        self._seen(wait)

    def take(self, name, wait=100):
        self.occ &= ~mask(self.pos, name)
        self._seen(wait)

    def _seen(self, wait):
        self.now += 50
        self.t.observe(self.occ, self.now)
        self.still(wait)

    def still(self, ms):
        self.now += ms
        self.t.tick(self.now)

    def history(self):
        return [self.pos.format_action(a) for a in self.pos.history()]

    def state(self):
        return T.STATE_NAMES[self.t.state]


def test_plain_placement_waits_for_stillness():
    b = Board("...../...../...../...../..... w")
    b.put("c3", wait=100)
    assert b.state() == "ready" and b.history() == []
    b.still(T.SETTLE_MS)
    assert b.state() == "idle" and b.history() == ["c3"]


def test_die_put_down_and_lifted_again_is_nothing():
    b = Board("...../...../...../...../..... w")
    b.put("c3")
    b.take("c3")
    b.still(1000)
    assert b.state() == "idle" and b.history() == []


def test_capture_waits_for_confirm_whatever_the_order():
    for steps in (["+c3", "-c4", "-d3"], ["-c4", "-d3", "+c3"], ["-d3", "+c3", "-c4"]):
        b = Board(FOUR)
        for s in steps:
            (b.put if s[0] == "+" else b.take)(s[1:])
        b.still(3000)
        assert b.state() == "ready" and b.history() == []
        assert b.pos.format_action(b.t.ready) == "c3:c4,d3"
        # two more dice could still be taken: the board shows them
        assert sorted(b.pos.format_action(a) for a in b.t.moves) == [
            "c3:c4,d3,b3", "c3:c4,d3,c2", "c3:c4,d3,c2,b3"]
        assert b.t.press_confirm() and b.history() == ["c3:c4,d3"]


def test_capture_is_taken_when_the_next_placement_starts():
    b = Board(FOUR)
    b.put("c3")
    b.take("b3")
    b.take("c4")
    b.put("a5")                     # black's die
    assert b.history() == ["c3:c4,b3"] and b.state() == "ready"
    b.still(T.SETTLE_MS)
    assert b.history() == ["c3:c4,b3", "a5"]


def test_next_die_on_a_cell_the_capture_emptied():
    b = Board(FOUR)
    b.put("c3")
    b.take("b3")
    b.take("c4")
    b.put("b3")                     # black's die where white's was taken
    assert b.history() == ["c3:c4,b3"]
    b.still(T.SETTLE_MS)
    assert b.history() == ["c3:c4,b3", "b3"]


def test_the_next_action_tells_which_capture_was_made():
    """c3 took b3 and d3 (ready), then c2 went too (c3:d3,c2,b3 ready). Black then puts a die on
    d2 and takes d1: only if c2 was black's to take (d2 captures c2 and d1) does the board make
    sense, so white's capture was the one of two dice."""
    b = Board(FOUR)
    b.put("c3")
    b.take("b3")
    b.take("d3")
    b.take("c2")
    assert b.pos.format_action(b.t.ready) == "c3:d3,c2,b3"
    b.put("d2")
    b.take("d1")
    assert b.history() == ["c3:d3,b3"]
    assert b.state() == "ready" and b.pos.format_action(b.t.ready) == "d2:d1,c2"


def test_two_readings_are_asked_about():
    """As above, but black has only put its die on d2: c3 took three dice and black placed
    (d2 shows 1), or c3 took two and black's capture of c2 and d1 is under way. The board asks
    once still; `next` shows the other reading."""
    b = Board(FOUR)
    b.put("c3")
    b.take("b3")
    b.take("d3")
    b.take("c2")
    b.put("d2", wait=0)
    assert b.state() == "moving" and b.history() == []
    b.still(T.SETTLE_MS)
    assert b.state() == "asking"
    shown = [b.pos.format_action(b.t.shown())]
    b.t.press_next()
    shown.append(b.pos.format_action(b.t.shown()))
    assert sorted(shown) == ["c3:d3,b3", "c3:d3,c2,b3"]
    if b.pos.format_action(b.t.shown()) != "c3:d3,b3":
        b.t.press_next()
    assert b.t.press_confirm()
    assert b.history() == ["c3:d3,b3"] and b.state() == "moving"
    b.take("d1")
    assert b.pos.format_action(b.t.ready) == "d2:d1,c2"


def test_a_removal_no_capture_makes_is_a_mismatch_with_its_culprit():
    b = Board(FOUR)
    b.put("c3")
    b.take("b3")
    b.take("d1")                    # not next to c3
    assert b.state() == "mismatch"
    assert [b.pos.cell_name(c) for c in b.t.culprits()] == ["d1"]
    b.put("d1")
    assert b.state() == "moving"


def test_undo_bars_the_action_until_the_board_is_put_right():
    b = Board(FOUR)
    b.put("c3")
    b.take("b3")
    b.take("c4")
    b.t.press_confirm()
    assert b.history() == ["c3:c4,b3"]
    b.t.press_undo()
    assert b.history() == [] and b.state() in ("moving", "mismatch")
    assert b.t.undone == [b.pos.parse_action("c3:c4,b3")]
    b.t.press_confirm()             # the taken-back capture is not read again
    assert b.history() == []
    b.put("b3")
    b.put("c4")
    b.take("c3")
    assert b.state() == "idle" and b.t.undone == []


def test_a_taken_back_die_left_standing_stays_barred_after_another_move_is_read():
    # The messy-hands audit's case: `undo` in the middle of white's capture takes back black's
    # c3, whose die stays on the board. The capture finished reads as black's (colours are not
    # sensed); the standing c3 die must not then be read as white's c3: its colour would be
    # swapped with nothing on the LEDs. It stays red until it is put right.
    b = Board("w1../.../w1.b1 b")
    b.put("c3", wait=1000)
    assert b.history() == ["c3"]
    b.put("b1")
    b.take("a1")
    b.t.press_undo()
    assert b.history() == []
    b.take("c1", wait=1000)
    assert b.history() == ["b1:c1,a1"]
    assert b.state() == "mismatch" and b.t.plus == mask(b.pos, "c3")
    b.take("c3", wait=1000)
    assert b.state() == "idle" and b.history() == ["b1:c1,a1"]


@pytest.mark.parametrize("start,made,taken,settling,back", [
    # the messy-hands audit (stop 38), as on Cargocube: black's die put down and `undo`
    # pressed within the 0.4 s the board waits for stillness; the press took back white's c3
    # and the die was then read as white's (its colour swapped)
    ("...../...../...../...../..... w", ["+d3"], "d3", True, ["-d3"]),
    # the probe of stop 39 (p1): white's capture made (two dice off, the die down) and shown
    # ready for `confirm`; the press took back black's c3, and the capture was read as black's
    ("w1../.../w1.b1 b", ["-a1", "-c1", "+b1"], "b1:c1,a1", False, ["+a1", "+c1", "-b1"]),
])
def test_undo_takes_back_the_action_just_made_not_the_one_before(start, made, taken, settling,
                                                                 back):
    b = Board(start)
    b.put("c3", wait=1000)
    assert b.history() == ["c3"]
    for step in made:
        (b.put if step[0] == "+" else b.take)(step[1:])
    assert b.state() == "ready" and b.t.settling == settling
    b.t.press_undo()
    b.still(1000)
    assert b.history() == ["c3"] and b.t.undone == [b.pos.parse_action(taken)]
    assert b.state() == "mismatch"
    for step in back:
        (b.put if step[0] == "+" else b.take)(step[1:], wait=1000)
    assert b.state() == "idle" and b.history() == ["c3"]


@pytest.mark.parametrize("size,seed,engine", [
    ("5x5", 0, False), ("5x5", 1, True), ("5x5", 2, False), ("3x5", 3, False),
    ("3x5", 4, True), ("5x3", 5, False), ("3x3", 6, False), ("3x3", 7, True)])
def test_whole_games_are_never_misread(size, seed, engine):
    st = play_game(seed, size, pick_engine if engine else pick_random)
    assert st.wrong == 0, st.failures
    assert st.actions > 20 and st.captures > 5
    assert st.no_button >= st.actions - 3


def test_players_who_confirm_every_capture():
    st = play_game(11, "5x5", pick_random, confirm_captures=True)
    assert st.wrong == 0, st.failures
    assert st.by_how.get("confirm", 0) >= st.captures * 0.9


def test_a_die_taken_before_a_wrong_placement_is_not_the_next_players_capture():
    # The audit's case: the mover takes a die off to capture, then puts the new die on a cell
    # that captures nothing. Read in two actions it fits (a plain placement, then the other
    # player's capture begun by taking that die), but that die came off before the placement:
    # the next player cannot have begun first. A mistake: nothing committed.
    b = Board(FOUR)
    b.take("c4")
    assert b.state() == "moving"
    b.put("a1")
    b.still(3000)
    assert b.history() == [] and b.state() == "mismatch"
    b.take("a1")
    b.put("c4")
    b.still(1000)
    assert b.history() == [] and b.state() == "idle"


def test_a_die_taken_after_a_placement_is_the_next_players_capture_begun():
    # the same cells in the other order: white's placement, then black begins a capture
    b = Board(FOUR)
    b.put("a1")
    b.take("c4")
    b.still(3000)
    assert b.history() == ["a1"] and b.state() == "moving"
