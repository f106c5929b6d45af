"""Cargocube's questions as a player meets them (docs/board-cargocube.md, "A move left no
trace"): a missed move the player asked for with `confirm` and sees shown is taken once it
has stood OFFER_TAKE_MS with no press; `next` starts the wait again; `undo` backs out and
nothing is taken. MicroPython-compatible: run by tests/test_firmware_cases.py under CPython and
under the unix port with the Pico's heap."""

from fwcases import list_cases, run_cases
from firmware import hal as H
from firmware.games.cargocube import plugin as cargocube_game
from firmware.games.cargocube import tracker as T

# The polygon's start with two 2-stacks, e4 and e5: e4n (onto e5) and the other moves onto and
# off them change no sensor.
POSITION = ("b1=*sS,c1=*sS,d1=*wS,e1=*sS,f1=KS,g1=*sS,h1=*aS,c3=B1,d3=B1,e3=B1,f3=B1,g3=B1,"
            "h3=B1,i3=B1,c4=B1,d4=B1,e4=B1.B1,f4=B1,g4=B1,h4=B1,i4=B1,c5=B1,d5=B1,e5=B1.B1,"
            "h5=B1,i5=B1,c6=B1,d6=B1,h6=B1,i6=B1,c7=B1,d7=B1,h7=B1,i7=B1,c8=B1,d8=B1,e8=B1,"
            "f8=B1,g8=B1,h8=B1,i8=B1,c9=B1,d9=B1,e9=B1,f9=B1,g9=B1,h9=B1,i9=B1,d11=*aN,"
            "e11=*sN,f11=KN,g11=*sN,h11=*wN,i11=*sN,j11=*sN SN S 2")


def _game():
    told = []
    g = cargocube_game.Game({"position": POSITION, "seats": "SN", "emit": told.append})
    g.start()
    del told[:]
    return g, told


def _wait(g, start, ms):
    """The board's frames from start to start + ms, nothing pressed, nothing moved."""
    for t in range(start, start + ms + 1, 20):
        g.tick(t)


def case_missed_move_shown_is_taken_when_left_to_stand():
    g, told = _game()
    t = g.tracker
    g.on_button(H.CONFIRM, 1000)  # "you missed a move": one that left no trace
    assert t.state == T.ASKING and t.offered, T.STATE_NAMES[t.state]
    first = t.shown()
    _wait(g, 1000, T.OFFER_TAKE_MS - 100)
    assert g.pos.ply() == 0 and t.shown() == first  # not yet
    g.on_button(H.NEXT, 3900)  # not that one: the wait starts again
    second = t.shown()
    assert second != first
    _wait(g, 3900, T.OFFER_TAKE_MS - 100)
    assert g.pos.ply() == 0, "taken %d ms after confirm, not after next" % T.OFFER_TAKE_MS
    _wait(g, 3900 + T.OFFER_TAKE_MS - 100, 200)
    assert g.pos.history() == [second], g.pos.history()
    assert t.state == T.IDLE
    done = "confirm %s -> " % g.pos.format_action(second)
    assert [x for x in told if x.startswith(done)], told


def case_missed_move_backed_out_is_not_taken():
    g, told = _game()
    t = g.tracker
    g.on_button(H.CONFIRM, 1000)
    assert t.state == T.ASKING
    g.on_button(H.UNDO, 1500)  # out of the question: nothing was missed after all
    _wait(g, 1500, 2 * T.OFFER_TAKE_MS)
    assert g.pos.ply() == 0 and t.state == T.IDLE, (g.pos.ply(), T.STATE_NAMES[t.state])


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
