"""Button presses against long frames on the emulated Pico (the stock MicroPython image under
rp2040js, host/cargoboard/sim/pico/): the scans are the 74HC165 chain's latches
(`PicoRunner.chain_loads`), so the test sees exactly which samples a press fell on.
bench/presses.py prints the figures (commit frames of 30-45 ms, an 88 ms frame with a log
append's 4 KB erase). On revision B the buttons are GPIOs, latched by an interrupt: a press
wholly inside a flash erase is seen too."""

import ast
import os
import sys
import tempfile
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from picotarget import require_pico  # noqa: E402
from cargoboard.sim.runner import FRAME_MS  # noqa: E402
from cargoboard.sim.script import BUTTONS, PRESS_MS, Session  # noqa: E402
from test_cephalopod_sim import Game  # noqa: E402  (tests/cephalopod/)

STABLE_MS = 30   # the firmware's debounce (firmware/drivers/scanner.py)
ON_TIME_MS = STABLE_MS - FRAME_MS // 2  # the span of samples Buttons wants on time (4 samples)
HOLD_MS = 42     # how long the test's `next` is held
NEXT_BIT = BUTTONS["next"]
SETTLE_FRAMES = 60


def _commit_with_press(press_after_ns=None):
    """Cephalopod 5x5 on the emulated Pico: a1 placed, then 600 ms frame by frame (the board
    commits it, logs it); with press_after_ns, `next` is pressed (as a script presses) from
    that time, to the millisecond: the chip runs up to it 1 ms at a time from the host frame
    it falls in (pressed only at frame starts, a press could not begin deep enough in a 20 ms
    commit frame whatever its phase). Returns (scan times, press start ns or None, the
    board's `evt button` lines)."""
    gm = Game("5x5", target="pico")
    try:
        r = gm.s.runner
        gm.act("a1", settle=False)
        start = len(r.chain_loads)
        pressed = None
        for _ in range(SETTLE_FRAMES):
            if press_after_ns is not None and pressed is None and \
                    r.emu_ns + FRAME_MS * 1e6 > press_after_ns:
                while r.emu_ns <= press_after_ns:
                    r.advance(1)
                pressed = r.emu_ns
                # held HOLD_MS: longer than the debounce's 30 ms and a frame, so a board
                # sampling on time takes it; shorter than the script's 50 ms, so that a commit
                # frame of ~20 ms (the first placement, since the set-up code left the heap)
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
    """The frame in which the board commits a move runs long on the chip (20.5 ms for the
    first Cephalopod placement now, up to 45 ms later in a game); a `next` press that begins
    during it is first scanned when it ends, and the scans that see it span less than the
    25 ms the debounce wants on time before it is let go. The board must still take it (before
    the late-frame credit in Buttons it was lost: no `evt button`)."""
    require_pico()
    loads, _, buttons = _commit_with_press()
    assert buttons == []
    gap, at = max((b - a, a) for a, b in zip(loads, loads[1:]))
    assert gap > (FRAME_MS + 10) * 1e6, gap          # the commit frame is late
    end = at + gap
    before = [t for t in loads if t <= at]
    tried = []
    # the press begins in the long frame, as late in it as the host's frame steps allow while
    # the scans after the frame still see it over less than the debounce's 25 ms (how late
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
        if len(seen) >= 2 and seen[-1] - seen[0] < ON_TIME_MS * 1e6:  # on time: too short
            assert buttons == ["evt button next"], (buttons, at / 1e6, pressed / 1e6, seen)
            return
    raise AssertionError("no press begun in the commit frame (%.1f -> %.1f ms) is seen over "
                         "less than %d ms: %r" % (at / 1e6, end / 1e6, ON_TIME_MS, tried))


def _run_to_scan(r, k):
    """Run the chip until it has scanned k times (r.chain_loads), stopping in the millisecond
    of that scan: 6 ms at a time right after a scan (on time the next is 9 ms or more away),
    else 1 ms."""
    while len(r.chain_loads) < k:
        r.advance(6 if r.chain_loads and r.emu_ns - r.chain_loads[-1] < 2e6 else 1)


def _press_for_samples(s, n, bit):
    """`bit` pressed 1-2 ms after a scan and let go 1-2 ms after the n-th scan that saw it
    (not in the millisecond of a scan: the chain's latch may still be open at its end): the
    times of the scans that saw it."""
    r = s.runner
    _run_to_scan(r, len(r.chain_loads) + 1)
    r.advance(1)
    s.buttons = r.buttons = bit
    k = len(r.chain_loads)
    _run_to_scan(r, k + n)
    r.advance(1)
    s.buttons = r.buttons = 0
    return r.chain_loads[k:k + n]


def test_four_samples_are_a_press_three_never():
    """On time, the chip's scans are 10 ms apart only to about a millisecond and its `now` is
    whole ms, so the 3 frames between the first and the fourth sample of a press are 29 or 30
    ms by its clock. A press seen by 4 samples in a row must be taken every time
    (before: lost whenever they read 29, as a scripted 50 ms `confirm` was in
    test_pico_games' cargocube-4-both-teleport at 5d5daf6; here the 22nd such press, seen at
    4761.4, 4771.1, 4780.9 and 4790.7 ms), one seen by 3 never (20 ms: a bounce)."""
    require_pico()
    out = []
    s = Session(out=out.append, target="pico")
    try:
        seen = {3: [], 4: []}
        for i in range(48):
            n = 4 if i % 2 == 0 else 3
            before = s.events.count("evt button next")
            scans = _press_for_samples(s, n, NEXT_BIT)
            s.step(5)  # the release is taken too (4 samples)
            seen[n].append(((scans[-1] - scans[0]) / 1e6,
                            s.events.count("evt button next") - before))
    finally:
        s.close()
    # the presses fell on scans less than 3 frames apart too (what a 30 ms threshold lost)
    assert min(span for span, _ in seen[4]) < 3 * FRAME_MS, seen
    assert [taken for _, taken in seen[4]] == [1] * 24, seen
    assert [taken for _, taken in seen[3]] == [0] * 24, seen


# On the emulated Pico wired as revision B (hardware/pins_revb.json: the buttons on GP12..16),
# the revision-B HAL and the firmware's Buttons around a 4 KB flash erase (45 ms, interrupts
# off), started when the host sends a byte.
REVB_ERASE_MAIN = b"""import sys, time, rp2
from firmware.hal.rp2040_revb import Rp2040HallHal
from firmware.drivers.scanner import Buttons
hal = Rp2040HallHal()
buttons = Buttons()
buf = bytearray(16)
def frame():
    hal.read_sensors(buf)
    raw = hal.read_buttons()
    return raw, buttons.update(raw, time.ticks_ms())
for i in range(5):
    frame()
    time.sleep_ms(10)
print('ready')
sys.stdin.buffer.read(1)
f = rp2.Flash()
frame()
f.ioctl(6, f.ioctl(4, 0) - 1)  # erase the last block (the test's image is thrown away)
seen = []
for i in range(6):
    seen.append(frame())
    time.sleep_ms(10)
print('after', seen)
"""


def test_revb_press_wholly_inside_a_flash_erase_is_latched_and_taken():
    """Revision B: `next` pressed and let go while the chip erases a flash block (interrupts
    off, the CPU runs no code) is latched by the GPIO interrupt (rp2040js keeps the edge in
    INTR, the HAL's hard handler sets its bit once interrupts are on again), reported in the
    two samples after the erase and taken as a press by the firmware's Buttons. Without the
    latch the samples after the erase never see it (checked: [0, 0, 0...])."""
    require_pico()
    from cargoboard.build import stage
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import PicoRunner
    with tempfile.TemporaryDirectory(prefix="pico-revb-") as tmp:
        files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(tmp + "/build", "rp2", "B")
                 if bp != "main.py"]
        image = Path(tmp) / "flash.img"
        fsimage.write_files(image, files + [("main.py", REVB_ERASE_MAIN)])
        r = PicoRunner(flash=image, boot_from_flash=True, revision="B")
        r.start()
        try:
            assert b"ready" in bytes(r.serial_log), bytes(r.serial_log)
            fd = os.open(r.port, os.O_RDWR | os.O_NOCTTY)
            try:
                tty.setraw(fd)
                ops = len(r.flash_ops)
                os.write(fd, b"x")
                for _ in range(200):
                    r.advance(1)
                    if len(r.flash_ops) > ops:
                        break
                kind, _, _, length, start = r.flash_ops[ops]
                assert (kind, length) == ("erase", 4096)
                pressed = r.emu_ns
                r.buttons = NEXT_BIT
                r.advance(HOLD_MS // 2)
                r.buttons = 0
                released = r.emu_ns
                for _ in range(150):
                    r.advance(1)
            finally:
                os.close(fd)
            log = bytes(r.serial_log).decode(errors="replace")
        finally:
            r.stop()
    # the press lay wholly inside the erase (the flash chip's 45 ms for 4 KB)
    assert start < pressed and released < start + 45e6, (start, pressed, released)
    line = [x for x in log.splitlines() if x.startswith("after ")]
    assert line, log
    seen = ast.literal_eval(line[0][6:])  # [(raw buttons, presses), ...], one a frame after the erase
    assert [raw for raw, _ in seen[:3]] == [NEXT_BIT, NEXT_BIT, 0], seen
    assert [p for _, p in seen].count(NEXT_BIT) == 1, seen
