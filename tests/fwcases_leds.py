"""Painter cases, MicroPython-compatible: run by tests/test_firmware_cases.py under CPython
(each case a pytest test) and under the MicroPython unix port (run_all())."""

from fwcases import list_cases, run_cases
from firmware.drivers import leds as L
from firmware import hal as H


def _rgb(p, i):
    o = 3 * i
    return (p.frame[o], p.frame[o + 1], p.frame[o + 2])


def case_cell_colour_and_cap():
    p = L.Painter(cap=255, budget_ma=100000)
    p.begin(0)
    p.cell(0, L.BLUE)
    assert _rgb(p, 0) == (0, 40, 255)
    p.cap = 128
    p.cell(1, L.WHITE)
    assert _rgb(p, 1) == (128, 128, 128)
    p.cell(2, L.ORANGE, 0)
    assert _rgb(p, 2) == (0, 0, 0)
    p.cell(121, L.WHITE)                   # not a cell: ignored
    assert _rgb(p, 121) == (0, 0, 0)


def case_level_scales():
    p = L.Painter(cap=255, budget_ma=100000)
    p.begin(0)
    p.cell(5, L.WHITE, 64)
    r, g, b = _rgb(p, 5)
    assert 63 <= r <= 64 and r == g == b


def case_blink_patterns():
    p = L.Painter(cap=255, budget_ma=100000)
    on = {}
    for mode in (L.BLINK_NONE, L.BLINK_SLOW, L.BLINK_FAST, L.BLINK_WINK):
        n = 0
        for f in range(64):
            p.begin(f)
            p.cell(0, L.YELLOW, 255, mode)
            p.finish()                     # the blink phase is applied at the end of a render
            if p.frame[0]:
                n += 1
        on[mode] = n
    assert on[L.BLINK_NONE] == 64
    assert on[L.BLINK_SLOW] == 32
    assert on[L.BLINK_FAST] == 32
    assert on[L.BLINK_WINK] == 56


def case_score_bar_encoding():
    p = L.Painter(cap=255, budget_ma=100000)
    base = H.SCORE_BASE + 2 * H.SCORE_LEN  # seat N
    p.begin(0)
    p.score(2, 3, 9)                       # max <= 9: one LED per point
    lit = [1 if p.frame[3 * (base + k) : 3 * (base + k) + 3] != bytearray(3) else 0 for k in range(9)]
    assert lit == [1, 1, 1, 0, 0, 0, 0, 0, 0]
    p.begin(0)
    p.score(2, 18, 36)                     # half: 4.5 LEDs -> 4 full + a half-bright one
    full = _rgb(p, base)
    half = _rgb(p, base + 4)
    assert _rgb(p, base + 3) == full and 0 < max(half) < max(full)
    assert _rgb(p, base + 5) == (0, 0, 0)
    p.begin(0)
    p.score(2, 36, 36)
    assert _rgb(p, base + 8) == _rgb(p, base)
    # other seats untouched
    assert _rgb(p, H.SCORE_BASE) == (0, 0, 0)


def case_turn_marks_bar():
    p = L.Painter(cap=255, budget_ma=100000)
    p.begin(0)
    p.turn(1)
    p.score(1, 1, 9)
    b = H.SCORE_BASE + H.SCORE_LEN
    assert _rgb(p, b) == (255, 90, 0)      # seat W orange, full
    r, g, bb = _rgb(p, b + 5)
    assert 0 < r < 40 and r == g == bb     # dim white background
    p.score(3, 0, 9)
    assert _rgb(p, H.SCORE_BASE + 27) == (0, 0, 0)


def case_over_value_blinks():
    p = L.Painter(cap=255, budget_ma=100000)
    p.begin(8)
    p.score(0, 50, 36)
    p.finish()
    a = _rgb(p, H.SCORE_BASE + 8)
    p.begin(0)
    p.score(0, 50, 36)
    p.finish()
    b = _rgb(p, H.SCORE_BASE + 8)
    assert (a == (0, 0, 0)) != (b == (0, 0, 0))


def case_current_budget_scaling():
    p = L.Painter(cap=255, budget_ma=400)
    p.begin(0)
    for i in range(H.N_LEDS):
        p.led(i, L.WHITE)
    p.finish()
    assert p.last_ma == 157 + 157 * 3 * 20  # 9577 mA estimated at full white
    assert p.scaled
    assert p.estimate_ma() <= 400
    assert p.estimate_ma() >= 360          # per-byte flooring costs < 10 % here
    # under budget: untouched
    p.begin(0)
    p.cell(3, L.WHITE)
    p.finish()
    assert not p.scaled and _rgb(p, 3) == (255, 255, 255)


def case_turn_glow_budgeted_first():
    # The turn glow (the mover's bar, unlit LEDs) is never scaled: in a frame far over the
    # budget it glows as in an unscaled one, the rest is scaled into what is left, and the
    # frame stays within the budget; a half bar alike. A budget too small even for the glow
    # scales it with the rest.
    for part, first, n in ((0, H.SCORE_BASE + H.SCORE_LEN, 9), (2, H.SCORE_BASE + 14, 4)):
        ref = L.Painter(cap=96, budget_ma=100000)
        ref.begin(0)
        ref.turn(1, part)
        ref.finish()
        glow = _rgb(ref, first)
        assert glow[0] > 0 and not ref.scaled
        for budget in (400, 320):
            p = L.Painter(cap=96, budget_ma=budget)
            p.begin(0)
            for c in range(H.N_CELLS):
                p.cell(c, L.WHITE, 255, c & 3)
            p.turn(1, part)
            p.score(1, 1, 16 if part else 36, 0, part)  # a lit LED first, scaled
            p.finish()
            assert p.scaled and p.estimate_ma() <= budget, (budget, p.estimate_ma())
            assert p.estimate_ma() >= budget - 40
            assert [_rgb(p, first + k) for k in range(1, n)] == [glow] * (n - 1), part
            assert 0 < max(_rgb(p, first)) < 96  # the lit LED is scaled
            assert max(_rgb(p, 0)) < 40  # and the cells
            for f in range(1, 70):
                p.animate(f)
                assert p.estimate_ma() <= budget
    p = L.Painter(cap=255, budget_ma=158)  # 1 mA for the LEDs: less than the glow's 19 mA
    p.begin(0)
    p.turn(0)
    p.cell(0, L.WHITE)
    p.finish()
    assert p.estimate_ma() <= 158


def case_budget_below_idle():
    p = L.Painter(cap=255, budget_ma=100)   # less than the idle current: LEDs dark
    p.begin(0)
    p.cell(3, L.WHITE)
    p.finish()
    assert _rgb(p, 3) == (0, 0, 0)


def case_cached_bars_as_drawn_afresh():
    # A bar drawn as in the last render is copied from the painter's cache: every render of a
    # sequence that repeats, changes and mixes whole bars, half bars, the turn glow and the cap
    # equals the same render by a painter that never drew before.
    steps = (  # (seat to move, value, part, cap)
        (0, 3, 0, 255), (0, 3, 0, 255), (1, 3, 0, 255), (1, 4, 0, 255),
        (1, 4, 1, 255), (1, 4, 1, 255), (1, 4, 2, 255), (2, 4, 2, 255),
        (1, 4, 0, 255),  # back to whole bars as drawn before the halves
        (2, 4, 2, 255),  # and back to the halves
        (1, 4, 1, 90), (3, 6, 0, 90), (3, 6, 0, 255), (3, 6, 2, 255))
    p = L.Painter(cap=255, budget_ma=100000)
    for turn_seat, value, part, cap in steps:
        for painter in (p, L.Painter(cap=cap, budget_ma=100000)):
            if painter.cap != cap:
                painter.cap = cap
            painter.begin(0)
            painter.turn(turn_seat, part)
            for s in range(4):
                painter.score(s, value + s, 12, 0, part)
                if part:
                    painter.score(s, value, 16, L.CYAN, 3 - part)
            painter.finish()
        fresh = bytes(painter.frame)
        assert bytes(p.frame) == fresh, (turn_seat, value, part, cap)


def case_no_allocation_per_frame():
    try:
        import micropython
        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        return
    p = L.Painter(cap=255, budget_ma=400)
    lock()
    try:
        for f in range(20):
            p.begin(f)
            for c in range(H.N_CELLS):
                p.cell(c, 1 + (c % 8), 200, c & 3)
            p.turn(f & 3)
            for s in range(4):
                p.score(s, f, 36)
            p.finish()
        changed = 0
        for f in range(20, 150):          # frames between renders: animation only
            if p.animate(f):
                changed += 1
    finally:
        unlock()
    assert p.scaled
    assert changed > 0


def _draw_mixed(p):
    """A busy frame: steady, SLOW, FAST and WINK cells at full white, score bars, turn."""
    for c in range(H.N_CELLS):
        p.cell(c, L.WHITE if c % 5 else L.YELLOW, 255, c & 3)
    p.turn(1)
    p.score(0, 20, 36)
    p.score(1, 50, 36)                     # over max: the bar blinks fast


def case_blink_animates_without_render():
    # A painter rendered once at frame 0 and then only animated shows, at every frame, exactly
    # what a painter rendering from scratch at that frame shows (under budget scaling too).
    for budget in (100000, 400):
        p = L.Painter(cap=255, budget_ma=budget)
        p.begin(0)
        _draw_mixed(p)
        p.finish()
        ref = L.Painter(cap=255, budget_ma=budget)
        for f in range(1, 200):
            p.animate(f)
            ref.begin(f)
            _draw_mixed(ref)
            ref.finish()
            assert p.frame == ref.frame, (budget, f)
        assert p.renders == 1
        assert ref.renders == 199


def case_blink_toggles_at_pattern_boundaries():
    # animate() changes the frame only when the LED's pattern changes phase:
    # FAST every 8 frames, SLOW every 32, WINK at 56 and 64 (mod 64); steady never.
    expect = {
        L.BLINK_NONE: [],
        L.BLINK_FAST: [f for f in range(1, 200) if f % 8 == 0],
        L.BLINK_SLOW: [f for f in range(1, 200) if f % 32 == 0],
        L.BLINK_WINK: [f for f in range(1, 200) if f % 64 in (0, 56)],
    }
    for mode in expect:
        p = L.Painter(cap=255, budget_ma=100000)
        p.begin(0)
        p.cell(7, L.CYAN, 255, mode)
        p.cell(8, L.BLUE, 100)             # steady neighbour: never touched
        p.finish()
        steady = _rgb(p, 8)
        got = []
        for f in range(1, 200):
            before = bytes(p.frame)
            changed = p.animate(f)
            assert changed == (bytes(p.frame) != before), (mode, f)
            if changed:
                got.append(f)
            assert _rgb(p, 8) == steady
            lit = max(_rgb(p, 7)) != 0
            assert lit == ((L.phase_bits(f) >> (mode - 1)) & 1 == 1 if mode else True), (mode, f)
        assert got == expect[mode], (mode, got)
        assert p.renders == 1


def case_animate_idle_is_noop():
    p = L.Painter(cap=255, budget_ma=400)
    p.begin(0)
    p.cell(3, L.WHITE)
    p.score(0, 10, 36)
    p.finish()
    assert p.blinking() == 0
    before = bytes(p.frame)
    for f in range(1, 130):
        assert not p.animate(f)
    assert bytes(p.frame) == before


def case_budget_holds_in_every_phase():
    # The current is estimated and scaled on the all-on frame: every blink phase lights a
    # subset of it, so the budget holds whatever the phase; at an all-on frame the estimate is
    # that of the scaled all-on frame.
    p = L.Painter(cap=255, budget_ma=400)
    p.begin(0)
    _draw_mixed(p)
    p.finish()
    assert p.scaled and p.last_ma > 400
    all_on = p.estimate_ma()
    assert 360 <= all_on <= 400
    top = 0
    for f in range(1, 130):
        p.animate(f)
        ma = p.estimate_ma()
        assert ma <= 400, f
        top = max(top, ma)
        if L.phase_bits(f) == 7:
            assert ma == all_on
    assert top == all_on
    # rendered at an off phase: the estimate is still that of the all-on frame
    q = L.Painter(cap=255, budget_ma=400)
    q.begin(60)                            # SLOW and WINK off
    _draw_mixed(q)
    q.finish()
    assert q.last_ma == p.last_ma and q.estimate_ma() < all_on
    q.animate(64)                          # all on again (p was last animated at 129: all on)
    assert L.phase_bits(64) == 7 and L.phase_bits(129) == 7
    assert q.frame == p.frame
    assert q.estimate_ma() == all_on


def case_blink_entry_overwritten():
    # A later steady draw of the same LED cancels its blinking (and the reverse).
    p = L.Painter(cap=255, budget_ma=100000)
    p.begin(0)
    p.cell(4, L.YELLOW, 255, L.BLINK_FAST)
    p.cell(4, L.BLUE)                      # steady now
    p.cell(5, L.BLUE)
    p.cell(5, L.YELLOW, 255, L.BLINK_FAST) # blinking now
    p.cell(6, L.YELLOW, 255, L.BLINK_FAST)
    p.cell(6, L.OFF)                       # off now
    p.finish()
    assert p.blinking() == 1
    p.animate(8)
    assert _rgb(p, 4) == (0, 40, 255)
    assert _rgb(p, 5) == (0, 0, 0)
    assert _rgb(p, 6) == (0, 0, 0)
    p.animate(16)
    assert _rgb(p, 5) == (255, 190, 0)


def case_overlay_keeps_a_set():
    # A kept set (Cargocube's idle overlay) is drawn again by show_kept() after other sets were
    # drawn in the same buffer; a set that does not fit after it moves to the front and the
    # kept one is gone. The painter draws only the current set.
    o = L.Overlay(6)
    o.forget()
    o.add(1, L.BLUE)
    o.add(2, L.ORANGE, 60, L.BLINK_WINK)
    o.keep()
    assert list(o) == [(1, L.BLUE, 255, 0), (2, L.ORANGE, 60, L.BLINK_WINK)]
    o.clear()
    o.add(7, L.YELLOW, 200)
    o.add(130, L.RED)                      # not a cell: ignored
    assert list(o) == [(7, L.YELLOW, 200, 0)] and len(o) == 1
    p = L.Painter(cap=255, budget_ma=100000)
    p.begin(0)
    p.cells(o)
    p.finish()
    assert _rgb(p, 1) == (0, 0, 0) and _rgb(p, 7) != (0, 0, 0)
    o.show_kept()
    o.add(9, L.YELLOW, 255, L.BLINK_FAST)  # a hint over the kept set
    assert list(o)[:2] == [(1, L.BLUE, 255, 0), (2, L.ORANGE, 60, L.BLINK_WINK)] and len(o) == 3
    o.clear()                              # the hint goes, the kept set stays
    o.show_kept()
    assert len(o) == 2 and o.kept == 2
    o.clear()
    for c in range(10, 15):                # 5 entries after 2 kept do not fit in 6
        o.add(c, L.CYAN)
    assert list(o) == [(c, L.CYAN, 255, 0) for c in range(10, 15)] and o.kept == 0
    o.add(15, L.CYAN)
    o.add(16, L.CYAN)                      # full: dropped
    assert [e[0] for e in o] == [10, 11, 12, 13, 14, 15]


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
