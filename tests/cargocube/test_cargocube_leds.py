"""What the Cargocube plug-in lights: score bars always readable, the mover's bar glowing."""

from firmware import hal as H
from firmware.drivers import leds as L
from firmware.games.cargocube.plugin import Game

# S has a cube with 4 pips up on its terminal (b1) and is to move; N has 0.
POSITION = "b1=4B,f1=KS,d4=B1,e4=B1,f11=KN SN S a"


def bar(painter, seat):
    base = H.SCORE_BASE + seat * H.SCORE_LEN
    return [tuple(painter.frame[3 * i:3 * i + 3]) for i in range(base, base + H.SCORE_LEN)]


def test_the_movers_score_stays_visible_over_the_turn_glow():
    game = Game({"seats": "SN", "position": POSITION})
    game.start()
    p = L.Painter()
    p.begin(0)
    game.paint(p, 0)
    p.finish()
    s_bar = bar(p, 0)
    # 4 points of 36 on 9 LEDs: the first LED full in S's colour (blue: more blue than red)
    r, g, b = s_bar[0]
    assert b > r and b > g, s_bar
    # the rest of the mover's bar glows dim white (equal channels, lit)
    assert s_bar[1][0] == s_bar[1][1] == s_bar[1][2] > 0, s_bar
    # N is not to move: its empty bar is dark
    assert all(v == (0, 0, 0) for v in bar(p, 2))


def test_a_question_shows_the_candidate_and_next_moves_on():
    # S activates d4 onto one of its neighbours; all four are occupied, so only d4 changes and
    # four activations fit: once the hand is still the board that asks at once (wait=0; the
    # default waits for the moves after) asks.
    from shared_rules.cargocube import rules as cc
    from shared_rules import geometry as g
    from firmware.games.cargocube import tracker as T
    pos_text = "f1=KS,c4=B1,d3=B1,d4=B1,d5=B1,e4=B1,f11=KN SN S a"
    game = Game({"seats": "SN", "position": pos_text, "wait": "0"})
    game.start()
    occ = bytearray(game.tracker.expected)
    d4 = g.parse_cell("d4")
    occ[d4 >> 3] &= ~(1 << (d4 & 7))  # the cube leaves d4 and lands on a stack: only d4 shows
    game.on_change(occ, 1000)
    game.tick(1000 + T.SETTLE_MS)
    t = game.tracker
    assert t.state == T.ASKING and t.fitting == 4
    lit = {(c, colour, blink) for c, colour, level, blink in game.overlay}
    shown = t.shown()
    assert (shown[1], L.CYAN, L.BLINK_SLOW) in lit
    assert (shown[3], L.YELLOW, L.BLINK_FAST) in lit
    version = game.paint_version
    game.on_button(H.NEXT, 1100)
    assert t.shown() != shown and game.paint_version > version
    lit = {(c, colour, blink) for c, colour, level, blink in game.overlay}
    assert (t.shown()[3], L.YELLOW, L.BLINK_FAST) in lit
    game.on_button(H.CONFIRM, 1200)
    assert game.pos.ply() == 1 and game.pos.history()[0] == t.pos.history()[0]
    assert cc.format_action(game.pos.history()[0]).startswith("d4")


def test_a_lifted_cube_shows_each_destination_in_the_colour_of_its_value():
    # From the start, the cube on d4 (B1) is lifted: rolled north it shows 1, east 2, south 3,
    # west 4 (the rulings' example: toward face 2, i.e. west, gives 4).
    from shared_rules.cargocube import rules as cc
    from shared_rules import geometry as g
    from firmware.games.cargocube.plugin import VALUE_COLOUR
    game = Game({"seats": "SN"})
    game.start()
    occ = bytearray(game.tracker.expected)
    d4 = g.parse_cell("d4")
    occ[d4 >> 3] &= ~(1 << (d4 & 7))
    game.on_change(occ, 1000)
    colour_at = {}
    for c, colour, level, blink in game.overlay:
        colour_at.setdefault(c, colour)
    for cell, value in (("d5", 1), ("e4", 2), ("d3", 3), ("c4", 4)):
        assert colour_at[g.parse_cell(cell)] == VALUE_COLOUR[value], cell
    assert colour_at[d4] == L.ORANGE  # where it came from
    assert len(colour_at) == 5  # nothing else but the destinations and the source


def test_an_end_that_waits_blinks_the_corners_fast_until_the_piece_lands():
    from shared_rules import geometry as g
    from firmware.games.cargocube import tracker as T
    game = Game({"seats": "SN", "position": "f1=KS,d4=B1,f11=KN SN S 3"})
    game.start()
    occ = bytearray(game.tracker.expected)
    f1 = g.parse_cell("f1")
    occ[f1 >> 3] &= ~(1 << (f1 & 7))  # S's keeper lifted off f1
    game.on_change(occ, 1000)
    game.on_button(H.END, 1100)
    corners = (0, 10, 110, 120)
    lit = {c: (colour, blink) for c, colour, level, blink in game.overlay}
    assert game.end_by == 0 and all(lit.get(c) == (L.BLUE, L.BLINK_FAST) for c in corners), lit
    f2 = g.parse_cell("f2")
    occ[f2 >> 3] |= 1 << (f2 & 7)  # put down on f2: Kn, then the turn ends
    game.on_change(occ, 1200)
    game.tick(1200 + T.SETTLE_MS)
    assert game.end_by == -1 and game.pos.to_move != 0
    lit = {c: (colour, blink) for c, colour, level, blink in game.overlay}
    assert all(lit.get(c, (0, 0))[1] != L.BLINK_FAST for c in corners), lit


def test_a_move_taken_back_that_the_sensors_cannot_show_blinks_its_source_cyan():
    # S rolls the top cube of the stack on d3 onto the cube on c3: no sensor changes, so the
    # move is taken with the buttons, and its take-back too leaves the board as it reads. The
    # LEDs must say where the cube goes back (d3, cyan slow: docs/board-cargocube.md) although
    # the cube there is also one that may act (drawn dim in S's colour, under it).
    from shared_rules import geometry as g
    game = Game({"seats": "SN", "position": "f1=KS,c3=B1,d3=B1.3B,f11=KN SN S 3"})
    game.start()
    t = game.tracker
    game.on_button(H.CONFIRM, 1000)  # a move was missed: the board offers the candidates
    for _ in range(len(t.candidates)):
        if t.shown()[1] == g.parse_cell("d3") and t.shown()[3] == g.parse_cell("c3"):
            break
        game.on_button(H.NEXT, 1100)
    game.on_button(H.CONFIRM, 1500)  # (read first: a press within 0.4 s is the same press)
    assert game.pos.ply() == 1
    game.on_button(H.UNDO, 1600)
    assert game.pos.ply() == 0 and t.undone
    lit = {c: (colour, blink) for c, colour, level, blink in game.overlay}  # the last entry wins
    assert lit[g.parse_cell("d3")] == (L.CYAN, L.BLINK_SLOW), lit
    assert lit[g.parse_cell("c3")] == (L.CYAN, L.BLINK_WINK), lit


def test_a_game_set_up_at_its_end_lights_the_winners_not_the_activation():
    events = []
    over = []
    game = Game({"seats": "SN", "position": "b1=4B,c1=3B,d1=2B,e1=4B,f1=KS,b11=4B,f11=KN SN S a",
                 "emit": events.append, "record_over": lambda: over.append(1)})
    game.start()
    assert "over winners=S scores=13,0,4,0" in events and over == [1]
    lit = {c: (colour, blink) for c, colour, level, blink in game.overlay}
    assert all(lit.get(c) != (L.BLUE, L.BLINK_SLOW) for c in (0, 10, 110, 120)), lit  # corners
    assert lit[1] == (L.BLUE, L.BLINK_SLOW)           # b1: S's terminal, the winner's
