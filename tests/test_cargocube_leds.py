"""What the Cargocube plug-in lights: score bars always readable, the mover's bar glowing."""

from firmware import hal as H
from firmware import leds as L
from firmware.cargocube_game import Game

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
