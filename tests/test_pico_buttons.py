"""Button presses against long frames on the emulated Pico (the stock MicroPython image under
rp2040js, host/cargoboard/sim/pico/): the scans are the 74HC165 chain's latches
(`PicoRunner.chain_loads`), so the test sees exactly which samples a press fell on.
bench/presses.py prints the figures (commit frames of 30-45 ms, an 88 ms frame with a log
append's 4 KB erase)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from picotarget import require_pico  # noqa: E402
from cargoboard.sim.runner import FRAME_MS  # noqa: E402
from cargoboard.sim.script import BUTTONS, PRESS_MS  # noqa: E402
from test_cephalopod_sim import Game  # noqa: E402

STABLE_MS = 30   # the firmware's debounce (firmware/drivers/scanner.py)
HOLD_MS = 42     # how long the test's `next` is held
NEXT_BIT = BUTTONS["next"]
SETTLE_FRAMES = 60


def _commit_with_press(press_after_ns=None):
    """Cephalopod 5x5 on the emulated Pico: a1 placed, then 600 ms frame by frame (the board
    commits it, logs it); with press_after_ns, `next` is pressed (as a script presses) from the
    first host frame that starts after that time. Returns (scan times, press start ns or None,
    the board's `evt button` lines)."""
    gm = Game("5x5", target="pico")
    try:
        r = gm.s.runner
        gm.act("a1", settle=False)
        start = len(r.chain_loads)
        pressed = None
        for _ in range(SETTLE_FRAMES):
            if press_after_ns is not None and pressed is None and r.emu_ns > press_after_ns:
                pressed = r.emu_ns
                # held HOLD_MS: longer than the debounce's 30 ms and a frame, so a board
                # sampling on time takes it; shorter than the script's 50 ms, so that a commit
                # frame of ~23 ms (the first placement, since the set-up code left the heap)
                # still hides enough of it to need the late-frame credit
                gm.s.buttons |= NEXT_BIT
                gm.s.wait(HOLD_MS)
                gm.s.buttons &= ~NEXT_BIT
                gm.s.wait(PRESS_MS)
            else:
                gm.s.step(1)
        gm.s.step(10)
        return (r.chain_loads[start:], pressed,
                [e for e in gm.s.events if e.startswith("evt button")])
    finally:
        gm.close()


def test_press_begun_in_a_long_commit_frame_is_seen():
    """The frame in which the board commits a move runs long on the chip (~31 ms for the first
    Cephalopod placement, up to 45 ms later in a game); a `next` press that begins during it is
    first scanned when it ends, and the scans that see it span less than the debounce's 30 ms
    before it is let go. The board must still take it (before the late-frame credit in
    Buttons it was lost: no `evt button`)."""
    require_pico()
    loads, _, buttons = _commit_with_press()
    assert buttons == []
    gap, at = max((b - a, a) for a, b in zip(loads, loads[1:]))
    assert gap > (FRAME_MS + 10) * 1e6, gap          # the commit frame is late
    end = at + gap
    before = [t for t in loads if t <= at]
    tried = []
    # the press begins in the long frame, as late in it as the host's frame steps allow while
    # the scans after the frame still see it over less than the debounce's 30 ms (how late
    # depends on how long the commit frame runs, which moves with the firmware)
    for k in range(int(gap / (FRAME_MS * 1e6)) + 1):
        loads2, pressed, buttons = _commit_with_press(press_after_ns=at + k * FRAME_MS * 1e6)
        assert pressed is not None
        # the emulation is deterministic: the same scans up to the press
        assert [t for t in loads2 if t <= at] == before
        seen = [t for t in loads2 if pressed <= t < pressed + HOLD_MS * 1e6]
        tried.append((pressed / 1e6, [t / 1e6 for t in seen]))
        if pressed >= end:
            break
        if len(seen) >= 2 and seen[-1] - seen[0] < STABLE_MS * 1e6:  # on time: too short
            assert buttons == ["evt button next"], (buttons, at / 1e6, pressed / 1e6, seen)
            return
    raise AssertionError("no press begun in the commit frame (%.1f -> %.1f ms) is seen over "
                         "less than %d ms: %r" % (at / 1e6, end / 1e6, STABLE_MS, tried))
