"""The bring-up self-test (firmware/games/selftest/plugin.py) on the virtual board: the real firmware under
the MicroPython unix port (192k heap), and the walk of every cell also on the emulated Pico (the
stock MicroPython image, the sensors through the 74HC165 chain on SPI, the LEDs decoded from
the WS2812 line), started with `new selftest` over a real pty. Sensors are
set, the LED frames the firmware sends are read back: every cell's LED follows its own sensor,
coverage and buttons are shown, the LED test steps through red, green, blue, white and a chase."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))

import serial  # noqa: E402

from cargoboard.sim.targets import make_runner  # noqa: E402
from firmware import hal as H  # noqa: E402
from picotarget import TARGETS, require  # noqa: E402

SETTLE = 5          # frames: > the 30 ms debounce


def ask(r, ser, line, frames=3):
    ser.write(line.encode() + b"\n")
    ser.flush()
    r.wait_serial_input(2.0)
    r.step(frames)
    out = b""
    for _ in range(r.reply_ms // H.FRAME_MS):
        out += ser.read(4096)
        text = out.decode(errors="replace")
        done = [ln for ln in text.splitlines() if ln.startswith(("ok", "err"))]
        if done and text.endswith("\n"):
            return text
        r.step(1)
    raise AssertionError("no reply to %r: %r" % (line, out))


def reply(text):
    return [ln for ln in text.splitlines() if ln.startswith(("ok", "err"))][-1]


def start(target):
    require(target)
    r = make_runner(target).start()
    return r, serial.Serial(r.port, 115200, timeout=0)


@pytest.fixture
def board():
    r, ser = start("unix")
    r.step(1)
    yield r, ser
    ser.close()
    r.stop()


@pytest.fixture(params=TARGETS)
def any_board(request):
    r, ser = start(request.param)
    r.step(1)
    yield r, ser
    ser.close()
    r.stop()


def set_cells(r, cells):
    r.sensors[:] = bytes(16)
    for c in cells:
        H.bit_set(r.sensors, c, 1)
    r.step(SETTLE)


def press(r, name):
    r.buttons = H.button_bit(name)
    r.step(SETTLE)
    r.buttons = 0
    r.step(SETTLE)


def kind(r, i):
    """What LED i shows: off, white (occupied), cyan (seen), orange (never seen), yellow, red,
    green, blue."""
    red, green, blue = r.led(i)
    if red == green == blue == 0:
        return "off"
    if red and green and blue and red == green == blue:
        return "white"
    if red == 0 and green and blue:
        return "cyan"
    if red and green and blue == 0:
        return "orange" if red > 2 * green else "yellow"
    if red and not green and not blue:
        return "red"
    if green and not red and not blue:
        return "green"
    if blue and not red and not green:
        return "blue"
    return "?%r" % ((red, green, blue),)


def led_kinds(r, want, frames=10):
    """What the LEDs show, once they show `want` or after `frames` more frames (the emulated
    board sends a changed frame over its WS2812 line a frame or two after the unix one)."""
    for _ in range(frames):
        got = {kind(r, i) for i in range(H.N_LEDS)}
        if got == want:
            break
        r.step(1)
    return got


def cells_shown(r, what, want, frames=10):
    """cells_of(r, what), once it is `want` or after `frames` more frames (see led_kinds)."""
    for _ in range(frames):
        if cells_of(r, what) == want:
            break
        r.step(1)
    return cells_of(r, what)


def cells_of(r, what):
    return {c for c in range(H.N_CELLS) if kind(r, c) == what}


def test_led_phase_then_every_cell_lights_its_own_led(any_board):
    r, ser = any_board
    out = ask(r, ser, "new selftest")
    assert reply(out) == "ok started", out
    r.step(2)
    assert "selftest leds red" in r.serial_log.decode()
    for colour, button in (("red", "next"), ("green", "confirm"), ("blue", "undo"),
                           ("white", "hint")):
        assert led_kinds(r, {colour}) == {colour}, colour
        press(r, button)
    # chase: one LED at a time, walking along the chain
    lit = [i for i in range(H.N_LEDS) if kind(r, i) != "off"]
    assert len(lit) == 1 and lit[0] <= 1, lit
    r.step(16)                                     # 160 ms later: the next LED
    lit2 = [i for i in range(H.N_LEDS) if kind(r, i) != "off"]
    assert len(lit2) == 1 and lit2[0] == lit[0] + 1, (lit, lit2)
    assert reply(ask(r, ser, "selftest")) == "ok phase=leds step=chase"
    press(r, "end")                                # -> sensor phase
    assert reply(ask(r, ser, "pos")) == "ok selftest phase=sensors seen=0"
    assert cells_of(r, "orange") == set(range(H.N_CELLS))

    # every cell, one at a time: its own LED lights white, no other
    for c in range(H.N_CELLS):
        set_cells(r, [c])
        assert cells_shown(r, "white", {c}) == {c}, (H.cell_name(c), cells_of(r, "white"))
    set_cells(r, [])
    assert cells_shown(r, "cyan", set(range(H.N_CELLS))) == set(range(H.N_CELLS))
    assert reply(ask(r, ser, "seen")) == "ok seen=121 unseen=0 occupied=0"
    # the N score bar is the coverage gauge: full
    n_bar = [H.SCORE_BASE + 2 * H.SCORE_LEN + k for k in range(H.SCORE_LEN)]
    assert {kind(r, i) for i in n_bar} == {"white"}
    text = r.serial_log.decode()
    assert "evt selftest seen a1 n=1" in text and "evt selftest seen k11 n=121" in text
    assert "evt error" not in text and "Traceback" not in text


def test_sensor_coverage_buttons_and_commands(board):
    r, ser = board
    assert reply(ask(r, ser, "new selftest sensors")) == "ok started"
    cells = [0, 5, 17, 60, 119, 120]
    set_cells(r, cells)
    assert cells_of(r, "white") == set(cells)
    assert cells_of(r, "orange") == set(range(H.N_CELLS)) - set(cells)
    set_cells(r, [60])                             # the others lifted: seen, now empty
    assert cells_of(r, "white") == {60}
    assert cells_of(r, "cyan") == set(cells) - {60}
    assert reply(ask(r, ser, "seen")) == "ok seen=6 unseen=115 occupied=1"
    out = ask(r, ser, "unseen")
    listed = " ".join(ln[len("unseen "):] for ln in out.splitlines() if ln.startswith("unseen "))
    assert listed.split() == [H.cell_name(c) for c in range(H.N_CELLS) if c not in cells]
    assert reply(out) == "ok 115"
    # buttons: dim until pressed once, then yellow
    s_bar = [H.SCORE_BASE + k for k in range(H.N_BUTTONS)]
    assert [kind(r, i) for i in s_bar] == ["white"] * 5
    press(r, "undo")
    press(r, "undo")
    press(r, "hint")
    assert [kind(r, i) for i in s_bar] == ["white", "white", "yellow", "yellow", "white"]
    assert reply(ask(r, ser, "buttons")) == "ok confirm=0 next=0 undo=2 hint=1 end=0 held=-"
    assert reply(ask(r, ser, "seen reset")) == "ok seen=1 unseen=120 occupied=1"
    assert reply(ask(r, ser, "selftest leds")) == "ok phase=leds step=red"
    r.step(2)
    assert {kind(r, i) for i in range(H.N_LEDS)} == {"red"}
    assert "err usage" in reply(ask(r, ser, "selftest bogus"))
    assert reply(ask(r, ser, "new selftest upside")).startswith("err selftest: start phase")


def test_a_cell_reading_occupied_blocks_the_start_and_blinks(board):
    """A sensor stuck 'occupied' (or a piece left on the board) shows before the test starts:
    the app's setup assist blinks it (magenta, fast) until it reads empty."""
    r, ser = board
    set_cells(r, [H.parse_cell("c4")])
    assert reply(ask(r, ser, "new selftest")) == "ok setup missing=0 extra=1"
    seen = set()
    for _ in range(20):
        r.step(1)
        seen.add(r.led(H.parse_cell("c4")))
    assert (0, 0, 0) in seen and len(seen) == 2      # blinking
    set_cells(r, [])
    r.step(2)
    assert "evt game selftest started" in r.serial_log.decode()
    assert reply(ask(r, ser, "new selftest empty=no")) == "ok started"


def test_a_button_stuck_pressed_shows_white_not_yellow(board):
    """A switch stuck closed (or a short on its input) is told from a good button and from a
    dead one: its S bar LED is bright white while it reads pressed, and `buttons` names it.
    By presses alone it could not be: stuck before the test began it counts none (its one
    press went to the board's boot game), as a dead button; stuck after one press it counts
    one and would show yellow, as a good button."""
    r, ser = board
    nxt = H.button_bit("next")
    r.buttons = nxt                                # stuck from power-on
    r.step(SETTLE)
    assert reply(ask(r, ser, "new selftest sensors")) == "ok started"
    s_bar = [H.SCORE_BASE + k for k in range(H.N_BUTTONS)]
    r.step(2)
    assert reply(ask(r, ser, "buttons")) == "ok confirm=0 next=0 undo=0 hint=0 end=0 held=next"
    assert max(r.led(s_bar[1])) > 2 * max(r.led(s_bar[0])), (r.led(s_bar[1]), r.led(s_bar[0]))
    assert kind(r, s_bar[1]) == "white"
    r.buttons = 0                                  # freed: never pressed, dim again
    r.step(SETTLE)
    assert r.led(s_bar[1]) == r.led(s_bar[0])
    assert reply(ask(r, ser, "buttons")) == "ok confirm=0 next=0 undo=0 hint=0 end=0 held=-"
    r.buttons = H.button_bit("end")                # pressed once, then stuck: not yellow
    r.step(SETTLE)
    assert kind(r, s_bar[4]) == "white" and max(r.led(s_bar[4])) > 2 * max(r.led(s_bar[0]))
    assert reply(ask(r, ser, "buttons")) == "ok confirm=0 next=0 undo=0 hint=0 end=1 held=end"
    r.buttons = 0
    r.step(SETTLE)
    assert kind(r, s_bar[4]) == "yellow"


def test_revision_b_field_shows_each_cell_s_field_and_sign():
    """Revision B's bring-up checks every cube's magnet points the same way (docs/bringup.md,
    revision B step 5; docs/hardware.md, "The magnets' polarity") and the empty cells' zeros:
    the self-test's `field` gives the field of a cell, or of every occupied cell, with its
    sign, from the console, where before only the REPL with the firmware stopped did. A
    revision-A board says it reads no field."""
    from cargoboard.sim import REVB_HEAP
    from cargoboard.sim.script import Session
    s = Session(revision="B", heapsize=REVB_HEAP, out=lambda t: None)  # calibrated at bring-up
    try:
        assert s.query("new selftest sensors")[1] == "ok started"
        assert s.query("field")[1] == "ok -"
        empty = s.query("field e5")[1]
        assert empty.startswith("ok e5=") and abs(int(empty.split("=")[1])) < 50, empty
        s.execute("drop e5")
        s.execute("drop g7")
        s.step(10)
        final = s.query("field")[1]
        got = dict(w.split("=") for w in final[len("ok "):].split())
        assert set(got) == {"e5", "g7"}, final
        e5, g7 = int(got["e5"]), int(got["g7"])
        assert 600 <= abs(e5) <= 800 and 600 <= abs(g7) <= 800, final
        assert (e5 > 0) == (g7 > 0), final          # both cubes put down the same way up
        assert s.query("field z9")[1].startswith("err usage: field [CELL]")
    finally:
        s.close()


def test_revision_a_has_no_field(board):
    r, ser = board
    assert reply(ask(r, ser, "new selftest sensors")) == "ok started"
    assert reply(ask(r, ser, "field e5")) == (
        "err field: revision B only (this board's Hall switches read no field)")
