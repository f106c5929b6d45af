"""Scanner/Buttons cases, MicroPython-compatible: run by tests/test_firmware_cases.py under CPython
(each case a pytest test) and under the MicroPython unix port (run_all())."""

from fwcases import list_cases, run_cases
from firmware.drivers.scanner import Scanner, Buttons
from firmware import hal as H


def _feed(sc, raw, t0, t1):
    """Feed the same raw bitmap every 10 ms from t0 to t1 inclusive; total accepted changes."""
    n = 0
    t = t0
    while t <= t1:
        n += sc.update(raw, t)
        t += 10
    return n


def case_accepts_after_stable_ms():
    sc = Scanner(30)
    raw = bytearray(16)
    sc.update(raw, 0)
    H.bit_set(raw, 60, 1)
    assert sc.update(raw, 10) == 0
    assert sc.update(raw, 20) == 0
    assert sc.update(raw, 30) == 0
    assert sc.pending() == 1
    assert sc.update(raw, 40) == 1          # stable 10..40 = 30 ms
    assert H.bit_get(sc.changed, 60) == 1
    assert H.bit_get(sc.stable, 60) == 1
    assert sc.update(raw, 50) == 0          # reported once
    assert H.bit_get(sc.changed, 60) == 0
    assert sc.pending() == 0


def case_boot_state_is_accepted():
    sc = Scanner()
    raw = bytearray(16)
    H.bit_set(raw, 5, 1)
    assert sc.update(raw, 0) == 0
    assert H.bit_get(sc.stable, 5) == 1


def case_bounce_rejected():
    sc = Scanner(30)
    raw = bytearray(16)
    sc.update(raw, 0)
    t = 10
    for i in range(20):                    # toggles every frame for 200 ms
        H.bit_set(raw, 33, i & 1 == 0)
        assert sc.update(raw, t) == 0
        t += 10
    H.bit_set(raw, 33, 0)
    assert _feed(sc, raw, t, t + 200) == 0
    assert H.bit_get(sc.stable, 33) == 0


def case_bounce_then_settle_accepted_once():
    sc = Scanner(30)
    raw = bytearray(16)
    sc.update(raw, 0)
    t = 10
    for i in range(5):
        H.bit_set(raw, 33, i & 1 == 0)
        sc.update(raw, t)
        t += 10
    H.bit_set(raw, 33, 1)                  # settles occupied
    assert _feed(sc, raw, t, t + 100) == 1
    assert H.bit_get(sc.stable, 33) == 1


def case_slide_across_cells_no_change():
    sc = Scanner(30)
    raw = bytearray(16)
    H.bit_set(raw, 12, 1)
    sc.update(raw, 0)
    t = 10
    n = 0
    H.bit_set(raw, 12, 0)                  # slid away from b2 (a real change: accepted)
    for c in (13, 14, 15):                 # crosses c2, d2, e2, 20 ms each
        H.bit_set(raw, c, 1)
        n += sc.update(raw, t)
        n += sc.update(raw, t + 10)
        for x in (13, 14, 15):
            assert H.bit_get(sc.changed, x) == 0
        H.bit_set(raw, c, 0)
        t += 20
    H.bit_set(raw, 16, 1)                  # lands on f2
    n += _feed(sc, raw, t, t + 100)
    for c in (13, 14, 15):
        assert H.bit_get(sc.stable, c) == 0
    assert H.bit_get(sc.stable, 12) == 0
    assert H.bit_get(sc.stable, 16) == 1
    assert n == 2                          # -b2 and +f2 only


def case_hover_short_blip_rejected():
    sc = Scanner(30)
    raw = bytearray(16)
    sc.update(raw, 0)
    H.bit_set(raw, 120, 1)                 # 20 ms blip on k11 (last cell, byte 15)
    sc.update(raw, 10)
    sc.update(raw, 20)
    H.bit_set(raw, 120, 0)
    assert _feed(sc, raw, 30, 300) == 0


def case_per_cell_independent():
    sc = Scanner(30)
    raw = bytearray(16)
    sc.update(raw, 0)
    H.bit_set(raw, 1, 1)
    sc.update(raw, 10)
    H.bit_set(raw, 2, 1)                   # 10 ms later, same byte
    assert sc.update(raw, 20) == 0
    assert sc.update(raw, 30) == 0
    assert sc.update(raw, 40) == 1         # cell 1 only
    assert H.bit_get(sc.changed, 1) == 1 and H.bit_get(sc.changed, 2) == 0
    assert sc.update(raw, 50) == 1         # then cell 2
    assert H.bit_get(sc.changed, 2) == 1


def case_ticks_wrap():
    sc = Scanner(30)
    raw = bytearray(16)
    t = H.TICKS_PERIOD - 20
    sc.update(raw, t)
    H.bit_set(raw, 7, 1)
    n = 0
    for i in range(1, 6):
        n += sc.update(raw, (t + 10 * i) & H.TICKS_MASK)
    assert n == 1


def case_buttons_edge_and_debounce():
    b = Buttons(30)
    assert b.update(0, 0) == 0
    assert b.update(H.CONFIRM, 10) == 0
    assert b.update(0, 20) == 0            # bounce
    assert b.update(H.CONFIRM, 30) == 0
    assert b.update(H.CONFIRM, 40) == 0
    assert b.update(H.CONFIRM, 50) == 0
    assert b.update(H.CONFIRM, 60) == H.CONFIRM   # held 30 ms
    assert b.update(H.CONFIRM, 70) == 0    # edge only
    assert b.update(0, 80) == 0
    assert b.update(0, 110) == 0           # release accepted, no press
    assert b.update(H.NEXT | H.END, 120) == 0
    assert b.update(H.NEXT | H.END, 150) == (H.NEXT | H.END)


def case_buttons_press_first_seen_in_a_late_frame():
    """A 50 ms press that began while the chip was blind (a 40 ms frame: a flash erase, a long
    commit) is seen in two samples 10 ms apart: credited from the frame that was due, it is
    held stable_ms by the second sample. One sample after a late frame is not enough (a
    bounce), and frames on time count as before."""
    b = Buttons(30)
    assert b.update(0, 0) == 0
    assert b.update(0, 10) == 0
    # the chip is blind from 10 to 50; the press began at 15 (up at 65)
    assert b.update(H.NEXT, 50) == 0          # first seen: not on one sample
    assert b.update(H.NEXT, 60) == H.NEXT     # credited from 20 (the frame due): 40 ms
    assert b.update(0, 70) == 0
    # a bounce caught by the first sample after a late frame is no press
    assert b.update(0, 80) == 0
    assert b.update(H.HINT, 130) == 0
    assert b.update(0, 140) == 0
    assert b.update(0, 150) == 0
    assert b.state == 0
    # on time: held 20 ms is not enough (as before the credit)
    assert b.update(H.CONFIRM, 160) == 0
    assert b.update(H.CONFIRM, 170) == 0
    assert b.update(H.CONFIRM, 180) == 0
    assert b.update(0, 190) == 0
    assert b.state == 0


def case_buttons_four_samples_on_time_whatever_their_jitter():
    """The emulated Pico's samples of a scripted 50 ms `confirm` (held 21690-21740 ms of
    emulated time; the 74HC165 latched at 21689.8, 21700.7, 21710.3, 21719.9, 21730.5 and
    21740.0 ms, `now` read 0.7 ms before each): four samples saw it, their `now` 29 ms apart,
    and the press was lost. Four samples in a row are a press whatever the frames' jitter;
    three never are."""
    b = Buttons(30)
    for t in range(21589, 21690, 10):
        assert b.update(0, t) == 0
    assert b.update(H.CONFIRM, 21700) == 0
    assert b.update(H.CONFIRM, 21709) == 0
    assert b.update(H.CONFIRM, 21719) == 0
    assert b.update(H.CONFIRM, 21729) == H.CONFIRM
    assert b.update(0, 21739) == 0
    # three samples never, however far apart on time (frames of up to 11.5 ms)
    for t0 in (21800, 21900):
        b.update(0, t0 - 11)
        assert b.update(H.NEXT, t0) == 0
        assert b.update(H.NEXT, t0 + 12) == 0
        assert b.update(H.NEXT, t0 + 24) == 0
        assert b.update(0, t0 + 35) == 0
        assert b.state == 0


def case_no_allocation_per_frame():
    try:
        import micropython
        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        return                             # CPython: nothing to check
    sc = Scanner(30)
    b = Buttons(30)
    raw = bytearray(16)
    sc.update(raw, 0)
    lock()
    try:
        t = 10
        for i in range(40):
            H.bit_set(raw, (i * 7) % 121, i & 1)
            sc.update(raw, t)
            b.update(i & 3, t)
            t += 10
        for i in range(10):                # settled, then still: the quiet frames' own path
            sc.update(raw, t)
            t += 10
    finally:
        unlock()


def case_same_as_a_cell_by_cell_debounce():
    # Random frames, often the same as the last (the still board's quick path), against the
    # rule written plainly: a cell's raw reading is accepted once it has differed from the
    # accepted state, unchanged, for stable_ms.
    sc = Scanner(30)
    raw = bytearray(16)
    x = 12345
    stable = [0] * 121
    prev = [0] * 121
    since = [0] * 121
    t = 0
    sc.update(raw, t)
    for frame in range(1500):
        t += 10
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        if x % 3 == 0:                     # a third of the frames change a few cells
            for k in range(1 + (x >> 8) % 3):
                c = (x >> (4 + 7 * k)) % 121
                H.bit_set(raw, c, 1 - H.bit_get(raw, c))
        n = sc.update(raw, t)
        want = 0
        for c in range(121):
            r = H.bit_get(raw, c)
            if r != prev[c]:
                since[c] = t
                prev[c] = r
            now_changed = 0
            if r != stable[c] and t - since[c] >= 30:
                stable[c] = r
                now_changed = 1
                want += 1
            assert H.bit_get(sc.changed, c) == now_changed, (frame, c)
            assert H.bit_get(sc.stable, c) == stable[c], (frame, c)
        assert n == want, (frame, n, want)
        assert sc.pending() == sum(1 for c in range(121) if prev[c] != stable[c]), frame


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
