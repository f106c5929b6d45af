"""Painter cases, MicroPython-compatible: run by tests/test_leds.py under CPython (each case a
pytest test) and under the MicroPython unix port (run_all())."""

from firmware import leds as L
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
    a = _rgb(p, H.SCORE_BASE + 8)
    p.begin(0)
    p.score(0, 50, 36)
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


def case_budget_below_idle():
    p = L.Painter(cap=255, budget_ma=100)   # less than the idle current: LEDs dark
    p.begin(0)
    p.cell(3, L.WHITE)
    p.finish()
    assert _rgb(p, 3) == (0, 0, 0)


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
    finally:
        unlock()
    assert p.scaled


CASES = [k for k in sorted(globals()) if k.startswith("case_")]


def run_all():
    g = globals()
    passed = failed = 0
    for name in CASES:
        try:
            g[name]()
            passed += 1
        except Exception as e:
            failed += 1
            print("FAIL", name, type(e).__name__, e)
    print("%d passed, %d failed" % (passed, failed))
