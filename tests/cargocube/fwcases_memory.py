"""Running out of memory in the middle of reading the sensors (the heap of a board is small, and
a 2 KB block may not be there) must not change the tracked game: the moves the tracker tries out
on its position are taken back whatever happens. MicroPython-compatible: run by
tests/test_firmware_cases.py under CPython and under the unix port with the Pico's heap."""

from fwcases import list_cases, run_cases
from shared_rules.cargocube import rules as cc
from firmware.games.cargocube import tracker as T
from fwcases_ask import POSITION


def _two_moves_at_once():
    """A tracker on fwcases_ask's position (two 2-stacks), and the occupancy after e4s (the top
    of e4 onto e3: no sensor changes) and e3s (that cube on to e2) made together: the board tries
    readings by two moves, a first one that left no trace pushed on its position."""
    truth = cc.Position.parse(POSITION)
    for text in ("e4s", "e3s"):
        truth.push(truth.parse_action(text))
    occ = bytearray(16)
    T.occupancy(truth, occ)
    return T.Tracker(cc.Position.parse(POSITION), 0), cc.Position.parse(POSITION).notation(), occ


def case_a_memory_error_while_two_moves_are_tried_leaves_the_position():
    t, start, occ = _two_moves_at_once()
    real = T.explain

    def explain_short_of_memory(pos, legal, deltas, diff, barred):
        if pos.ply():  # a first move pushed for a try: its second moves are looked for
            raise MemoryError("memory allocation failed, allocating 2048 bytes")
        return real(pos, legal, deltas, diff, barred)

    T.explain = explain_short_of_memory
    try:
        try:
            t.observe(occ, 100)
            t.tick(1000)
        except MemoryError:
            pass
        else:
            raise AssertionError("the reading by two moves was not tried")
    finally:
        T.explain = real
    assert t.pos.ply() == 0 and t.pos.notation() == start, t.pos.notation()


def case_the_same_reading_with_memory_asks():
    t, start, occ = _two_moves_at_once()
    t.observe(occ, 100)
    t.tick(1000)
    assert t.state == T.ASKING and t.pos.notation() == start, T.STATE_NAMES[t.state]


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
