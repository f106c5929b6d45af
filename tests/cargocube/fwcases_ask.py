"""Cargocube's questions as a player meets them (docs/board-cargocube.md, "A move left no
trace"): a missed move the player asked for with `confirm` and sees shown is taken once it
has stood OFFER_TAKE_MS with no press; `next` starts the wait again; `undo` backs out and
nothing is taken. The board that asks at once (`wait=0`; revision A's default waits,
tests/cargocube/test_cargocube_waiting.py). MicroPython-compatible: run by tests/test_firmware_cases.py under CPython and
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
    g = cargocube_game.Game({"position": POSITION, "seats": "SN", "emit": told.append,
                                "wait": "0"})
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


# The audit's position (stop 36, L1): seeded 8-player game with «Бастион» and the walking
# teleport, before its action 36. Seat 3's cube on f3 may roll north onto the wind rose on f4
# and hop on from there, straight or through the second rose on f5: `f3n/e4` and `f3n/f5/e4`
# (onto the stack on e4), `f3n/e5` and `f3n/f5/e5` (onto the empty e5) end in one position.
SAME_END = ("b1=*x2,d1=*w2,e1=*s2.K2,h1=K1,i1=*h1,j1=*v1,a2=*v3,e2=3B,k2=*x8,a3=*h3,b3=*s2,"
            "c3=B1,d3=B1.3B,f3=B1,g3=B1,h3=B1,i3=B1.2B,k3=*s8,b4=*a3,c4=B1,e4=B1,f4=*w8,g4=B1,"
            "i4=B1,a5=*s3.K3,c5=B1,d5=B1,f5=*w4,g5=B1,i5=B1.21,k5=*s8.K8,c6=B1,d6=B1,e6=T,h6=B1,"
            "i6=B1,j6=*a7,a7=*s4.K4,d7=B1,f7=*s6,i7=B1.21,k7=*s7.K7,c8=B1.1O,d8=B1.3B,e8=B1,"
            "f8=B1,g8=B1,i8=B1.21,a9=*s4,c9=B1,e9=B1,f9=B1,g9=*s1,h9=B1,i9=B1,k9=*h7,a10=*x4,"
            "f10=*a1,h10=14,k10=*v7,c11=*h5,d11=*a5,e11=*s5.X5,g11=*s6,h11=*w6.K6,j11=*x6 "
            "12345678 3 a")


def _same_end_game():
    g = cargocube_game.Game({"position": SAME_END, "seats": "12345678", "emit": _nothing,
                                "wait": "0"})
    g.start()
    return g


def _nothing(*args):
    pass


def _after(pos, text):
    """The notation of pos after the action named text (pos is left as it was)."""
    pos.push(pos.parse_action(text))
    try:
        return pos.notation()
    finally:
        pos.pop()


def _ends(pos, actions):
    out = []
    for a in actions:
        pos.push(a)
        out.append(pos.notation())
        pos.pop()
    return out


def _carry(g, cells_off, cells_on, now):
    """The hand empties cells_off and fills cells_on (the wind roses between are cards: their
    sensors read occupied throughout)."""
    occ = bytearray(16)
    T.occupancy(g.pos, occ)
    for c in cells_off:
        occ[c >> 3] &= ~(1 << (c & 7)) & 255
    for c in cells_on:
        occ[c >> 3] |= 1 << (c & 7)
    g.on_change(occ, now)


def case_moves_ending_in_one_position_offered_once():
    # f3 -> rose f4 -> onto the stack on e4: only f3 empties, so the player says with `confirm`
    # that a move was made. Of the moves offered, each position is offered once (16 offers
    # before, 4 pairs ending alike among them), and the hand's is among them.
    g = _same_end_game()
    t = g.tracker
    hand = _after(g.pos, "f3n/e4")
    _carry(g, (g.pos.parse_action("f3n/e4")[1],), (), 1000)
    _wait(g, 1000, 1000)
    g.on_button(H.CONFIRM, 2100)
    assert t.state == T.ASKING, T.STATE_NAMES[t.state]
    ends = _ends(g.pos, t.candidates)
    assert len(ends) == len(set(ends)), "%d offers, %d positions" % (len(ends), len(set(ends)))
    assert ends.count(hand) == 1, [g.pos.format_action(a) for a in t.candidates]
    now = 2200
    while t.shown() is not None and _after(g.pos, g.pos.format_action(t.shown())) != hand:
        g.on_button(H.NEXT, now)
        now += 100
    g.on_button(H.CONFIRM, now)
    assert g.pos.ply() == 1 and g.pos.notation() == hand, g.pos.notation()


def case_moves_ending_in_one_position_taken_without_a_question():
    # f3 -> rose f4 -> the empty e5: `f3n/e5` and `f3n/f5/e5` both fit the two cells, and end
    # alike: the board takes the first in its order once the hand is still, as it takes any
    # single move that fits (it asked which before).
    g = _same_end_game()
    t = g.tracker
    hand = _after(g.pos, "f3n/e5")
    a = g.pos.parse_action("f3n/e5")
    _carry(g, (a[1],), (a[3],), 1000)
    _wait(g, 1000, 1000)
    assert t.state == T.IDLE, T.STATE_NAMES[t.state]
    assert g.pos.ply() == 1 and g.pos.notation() == hand, g.pos.notation()
    assert g.pos.format_action(g.pos.history()[0]) in ("f3n/e5", "f3n/f5/e5")


# fwcases_ask's position with no stacks: no move leaves no trace at all.
FLAT = POSITION.replace("e4=B1.B1", "e4=B1").replace("e5=B1.B1", "e5=B1")


def _flat_game():
    g = cargocube_game.Game({"position": FLAT, "seats": "SN", "emit": _nothing, "wait": "0"})
    g.start()
    return g


def _keeper_step_taken():
    """A flat game whose keeper stepped north (Kn), taken: (game, Kn)."""
    g = _flat_game()
    kn = g.pos.parse_action("Kn")
    _carry(g, (kn[1],), (kn[3],), 1000)
    _wait(g, 1000, 1000)
    assert g.pos.history() == [kn], g.pos.history()
    return g, kn


def _seen_whole(pos):
    """A legal move that empties one cell and fills another: the sensors see it whole."""
    for a in pos.legal_actions():
        if len(T.action_delta(pos, a)) == 2:
            return a
    return None


def case_a_stray_confirm_at_rest_takes_nothing():
    # The messy-hands audit (stop 38): the keeper's step seen and taken, then `confirm` pressed
    # by mistake. What the board offers is made from the cells touched before (the keeper's
    # next steps); none fits a board at rest, so none is taken by waiting (it was, and the
    # board read a step back after it: two moves nobody made, the turn spent), and playing on
    # closes the question without taking it.
    g, kn = _keeper_step_taken()
    t = g.tracker
    g.on_button(H.CONFIRM, 2100)
    assert t.state == T.ASKING and t.offered and t.shown() is not None  # the keeper's steps
    _wait(g, 2100, 2 * T.OFFER_TAKE_MS)
    assert g.pos.history() == [kn], [g.pos.format_action(a) for a in g.pos.history()]
    roll = _seen_whole(g.pos)
    _carry(g, (roll[1],), (roll[3],), 9000)
    _wait(g, 9000, 1000)
    assert g.pos.history() == [kn, roll], [g.pos.format_action(a) for a in g.pos.history()]
    assert t.state == T.IDLE, T.STATE_NAMES[t.state]


def _confirm_with_the_keeper_in_hand():
    """A flat game whose keeper is lifted and `confirm` pressed: (game, the keeper's step Kn)."""
    g = _flat_game()
    kn = g.pos.parse_action("Kn")
    _carry(g, (kn[1],), (), 1000)
    _wait(g, 1000, 600)
    g.on_button(H.CONFIRM, 1700)
    assert g.tracker.state == T.ASKING and g.tracker.offered, T.STATE_NAMES[g.tracker.state]
    return g, kn


def case_confirm_with_the_keeper_in_hand_then_its_step():
    # The messy-hands audit (stop 38): `confirm` pressed with the keeper in the hand offers its
    # steps onto the cards beside it (they fit a keeper gone from its cell); putting it down on
    # the cell in front is the end of its step, not a second move after one shown: the step
    # made is taken (the step onto a card was, and the keeper's cell read as a mistake).
    g, kn = _confirm_with_the_keeper_in_hand()
    _carry(g, (kn[1],), (kn[3],), 2000)
    _wait(g, 2000, 1000)
    assert g.pos.history() == [kn], [g.pos.format_action(a) for a in g.pos.history()]
    assert g.tracker.state == T.IDLE, T.STATE_NAMES[g.tracker.state]


def case_confirm_with_the_keeper_in_hand_then_put_back():
    # As above, but the keeper goes back onto its own cell: no move was made, none is taken
    # (the board's own cells again: no difference to explain, and reading it crashed).
    g, _ = _confirm_with_the_keeper_in_hand()
    _carry(g, (), (), 2000)
    _wait(g, 2000, 2 * T.OFFER_TAKE_MS)
    assert g.pos.ply() == 0, [g.pos.format_action(a) for a in g.pos.history()]
    assert g.tracker.state == T.IDLE, T.STATE_NAMES[g.tracker.state]


def case_undo_before_a_move_settles_takes_that_move_back():
    # The messy-hands audit (stop 38): a move made and `undo` pressed at once, within the
    # 0.4 s the board waits for the hand to be still: the player takes back that move. It was
    # taken after the press, which had taken back the move before it.
    g, kn = _keeper_step_taken()
    t = g.tracker
    roll = _seen_whole(g.pos)
    _carry(g, (roll[1],), (roll[3],), 3000)
    assert t.state == T.MOVING and t.settling, T.STATE_NAMES[t.state]
    g.on_button(H.UNDO, 3100)
    _wait(g, 3100, 1000)
    assert g.pos.history() == [kn], [g.pos.format_action(a) for a in g.pos.history()]
    assert t.undone == [roll] and t.state == T.MISMATCH, T.STATE_NAMES[t.state]
    _carry(g, (), (), 4500)  # the roll put back
    _wait(g, 4500, 1000)
    assert g.pos.history() == [kn] and t.state == T.IDLE, T.STATE_NAMES[t.state]


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
