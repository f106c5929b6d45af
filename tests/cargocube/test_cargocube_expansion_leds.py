"""What the Cargocube plug-in lights for the expansions and 8 players (docs/board-cargocube.md):
the half score bars of the 8-player variant, the new destinations while a piece is lifted, a
spiral turn's direction, the biohazard's cubes."""

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from firmware import hal as H
from firmware.drivers import leds as L
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.plugin import Game


def rgb(painter, i):
    return tuple(painter.frame[3 * i:3 * i + 3])


def painted(game):
    p = L.Painter()
    p.begin(0)
    game.paint(p, 0)
    p.finish()
    return p


def lift(game, *cells):
    """The hand takes the pieces off cells (their sensors go dark)."""
    occ = bytearray(game.tracker.expected)
    for name in cells:
        c = g.parse_cell(name)
        occ[c >> 3] &= ~(1 << (c & 7))
    game.on_change(occ, 1000)
    return occ


def lit(game):
    return {(g.cell_name(c), colour, blink) for c, colour, level, blink in game.overlay}


# Seat 2 (S side, west half b1..e1) has 7 points, seat 1 (east half g1..j1) 2, seat 1 to move.
EIGHT = "b1=4B,e1=3B.K2,g1=K1,j1=2B,g3=B1 12345678 1 a"


def test_eight_players_share_a_bar_by_halves_and_the_mover_glows_on_its_half():
    game = Game({"seats": "12345678", "position": EIGHT})
    game.start()
    p = painted(game)
    base = H.SCORE_BASE  # S side's bar, k = 0 at the west end
    west = [rgb(p, base + k) for k in range(4)]
    east = [rgb(p, base + k) for k in range(5, 9)]
    assert rgb(p, base + 4) == (0, 0, 0)  # the LED before the exit portal parts the halves
    # 7 of 16 points on 4 LEDs (one quarter a point): 1 LED full, the second 3/4; blue (side S)
    assert west[0][2] > west[0][0] and west[1][2] < west[0][2] and west[2] == (0, 0, 0)
    # seat 1 is to move: its half glows dim white past its 2 points (half an LED)
    assert east[0][2] > 0 and east[0][2] < west[0][2]
    assert east[1][0] == east[1][1] == east[1][2] > 0 and east[3][0] > 0
    # the other sides' bars: dark (no points, not to move)
    assert all(rgb(p, H.SCORE_BASE + 9 + k) == (0, 0, 0) for k in range(27))


def test_lifted_cube_shows_the_catapult_targets_and_the_keeper_its_umbrella():
    pos = "d1=B1,f1=KS,d2=*cS,e6=*uS,f11=KN SN S 2"
    game = Game({"seats": "SN", "position": pos})
    game.start()
    lift(game, "d1")  # a cube in the own terminal: free, and its cell empties
    assert game.tracker.state == T.MOVING
    # rolled north onto the catapult it is thrown into a terminal of its column: d11 (or back
    # onto d1, which leaves no trace to show)
    assert {g.cell_name(c) for c in game.tracker.targets} == {"d11", "c1", "e1"}
    game = Game({"seats": "SN", "position": pos})
    game.start()
    lift(game, "f1")
    assert "e6" in {g.cell_name(c) for c in game.tracker.targets}  # the umbrella ride


def test_spiral_turn_candidates_show_their_direction_by_the_neighbour():
    game = Game({"seats": "SN", "position": "f1=KS,e5=*pS.B1,f11=KN SN S 2"})
    game.start()
    game.on_button(H.CONFIRM, 1000)  # a move the board did not see: the hidden ones first
    t = game.tracker
    assert t.state == T.ASKING
    first = [cc.format_action(a) for a in t.candidates[:2]]
    assert first == ["e5cw", "e5acw"]
    assert ("e5", L.CYAN, L.BLINK_SLOW) in lit(game) and ("f5", L.YELLOW, L.BLINK_FAST) in lit(game)
    game.on_button(H.NEXT, 1100)
    assert ("d5", L.YELLOW, L.BLINK_FAST) in lit(game)  # anticlockwise: the west neighbour
    game.on_button(H.CONFIRM, 1200)
    assert cc.format_action(game.pos.history()[-1]) == "e5acw"
    assert "e5=*pS.B2" in game.pos.notation()


def test_biohazard_card_lifted_shows_its_cubes_and_lands_without_a_button():
    game = Game({"seats": "SN", "position": "f1=KS,i1=*hS,e2=B1,g2=B1.B1,f11=KN SN S 2"})
    game.start()
    lift(game, "i1")  # the card leaves its terminal cell; on a cube it changes no sensor
    t = game.tracker
    assert t.state == T.MOVING and {g.cell_name(c) for c in t.targets} == {"e2", "g2"}
    game.tick(1000 + T.SETTLE_MS)
    assert t.state == T.ASKING and t.fitting == 2  # two cubes fit: the player picks
    game.on_button(H.CONFIRM, 1600)
    assert game.pos.notation().startswith("f1=KS,e2=B1.!S")


def test_eight_players_at_activation_the_movers_half_glows_within_the_budget():
    """On the virtual board (the real firmware under the MicroPython unix port), 8 players, the
    activation due at the start: the frame is over the current budget (scaled to about a
    quarter), and the mover's half bar glowed 2 of 255 (1 on revision B): with 8 players the only
    sign of which seat of a side moves (the LED audit, stop 41). The turn glow is budgeted first
    and never scaled: it glows as in any frame (cap 96: 9 of 255), the other half of the bar
    stays dark, and every frame stays within the budget (400 mA; revision B 320)."""
    from cargoboard.sim import REVB_HEAP
    for revision, budget, heap in (("A", 400, "192k"), ("B", 320, REVB_HEAP)):
        activation_glow_within_budget(budget, revision=revision, heapsize=heap)


def test_eight_players_at_activation_the_movers_half_glows_on_the_emulated_pico():
    """The same on the board's own image (rp2040js, the stock MicroPython), where the render's
    end is the HAL's native led_group."""
    from picotarget import require_pico
    require_pico()
    activation_glow_within_budget(400, target="pico")


def activation_glow_within_budget(budget, **session_kwargs):
    """8 players, the activation due: the mover's (seat 1's) half bar glows as unscaled, the
    other half is dark and every frame of the 64 (every blink phase) is within the budget."""
    from simkit import SimBoard
    revision = session_kwargs.get("revision", "A")
    b = SimBoard("new-game cargocube polygon 12345678", **session_kwargs)
    try:
        b.run("wait 300")
        assert b.state()[0] == "idle"
        glow = (255 * L.TURN_LEVEL * 96) // 65025  # the glow in an unscaled frame
        worst = cells = 0
        for _ in range(64):  # every blink phase
            b.s.step(1)
            leds = b.s.runner.leds
            worst = max(worst, H.N_LEDS + sum(leds) * 20 // 255)
            cells = max(cells, max(leds[:3 * H.N_CELLS]))
            mover = [b.s.runner.led(H.SCORE_BASE + k) for k in range(5, 9)]  # seat 1: east
            other = [b.s.runner.led(H.SCORE_BASE + k) for k in range(4)]  # seat 2: west
            assert mover == [(glow, glow, glow)] * 4, (revision, mover)
            assert other == [(0, 0, 0)] * 4, (revision, other)
        assert budget * 3 // 4 < worst <= budget, (revision, worst)  # scaled, within budget
        # the cells are scaled: the brightest (cap 96 of 255 unscaled) well below 96
        assert 0 < cells < 48, (revision, cells)
    finally:
        b.close()
