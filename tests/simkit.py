"""A game on the virtual board as every game's tests drive it: the REAL firmware (MicroPython unix
port, or the emulated Pico) behind a real pty, through the script verbs of
host/cargoboard/sim/script.py, and the LEDs read back from the frames the firmware shows (colour
and blink pattern over 64 frames). A game's tests subclass SimBoard: they start the game and
follow its truth in the rules core (`pos`), and say which board cell a cell name is (`cell`)."""

import re

from shared_rules import geometry as g
from firmware import hal as H
from cargoboard.sim.script import Session

WAIT = "wait 600"  # the hands still, longer than the board's settle time (400 ms)

# Palette after the default brightness cap (96 of 255), as firmware/drivers/leds.py draws it.
PALETTE = {"white": (255, 255, 255), "blue": (0, 40, 255), "orange": (255, 90, 0),
           "magenta": (255, 0, 200), "yellow": (255, 190, 0), "cyan": (0, 200, 255),
           "red": (255, 0, 0), "green": (0, 255, 40)}


def colour_of(rgb):
    """The palette colour an LED shows (by hue, whatever its level), or 'off'."""
    top = max(rgb)
    if top == 0:
        return "off"
    best = None
    for name, ref in PALETTE.items():
        m = max(ref)
        d = sum(abs(rgb[i] / top - ref[i] / m) for i in range(3))
        if best is None or d < best[0]:
            best = (d, name)
    return best[1]


class SimBoard:
    """One virtual board, its console lines in `out`; `first` (a script line such as
    `new-game GAME ...`, or None) is run at once."""

    def __init__(self, first=None, **session_kwargs):
        self.out = []
        self.s = Session(out=self.out.append, **session_kwargs)
        if first:
            self.s.execute(first)

    def close(self):
        self.s.close()

    def cell(self, name):
        """The board cell under the cell `name` (here the board's own names)."""
        return g.parse_cell(name)

    def run(self, *lines):
        for line in lines:
            self.s.execute(line)

    def query(self, command):
        data, final = self.s.query(command)
        return final

    def state(self):
        m = re.match(r"ok state=(\w+) diff=(\S+) actions=(\d+)", self.query("state"))
        return m.group(1), m.group(2), int(m.group(3))

    def position(self):
        return self.s.position()

    def mark(self):
        """From now on events() lists only the events after this call."""
        self._mark = len(self.s.events)

    def events(self):
        """(how, action, position) of every commit/undo event so far (since mark())."""
        out = []
        for line in self.s.events[getattr(self, "_mark", 0):]:
            m = re.match(r"evt (auto|confirm|undo) (\S+) -> (.*)$", line)
            if m:
                out.append((m.group(1), m.group(2), m.group(3).strip()))
        return out

    def leds(self, indices, frames=64):
        """{LED: (colour, pattern)} over `frames` frames: pattern steady, wink (dark 1/8 of
        the time), slow or fast (half the time, by how often it toggles), or off. Each LED's
        brightest channel seen is kept in `peaks` ({LED: 0..255}: its level, as scaled)."""
        seen = {i: [] for i in indices}
        self.peaks = {i: 0 for i in indices}
        for _ in range(frames):
            self.s.step(1)
            for i in indices:
                seen[i].append(self.s.runner.led(i))
        out = {}
        for i, rgbs in seen.items():
            on = [rgb for rgb in rgbs if max(rgb) > 0]
            self.peaks[i] = max([max(rgb) for rgb in rgbs])
            if not on:
                out[i] = ("off", "off")
                continue
            flips = sum(1 for a, b in zip(rgbs, rgbs[1:]) if (max(a) > 0) != (max(b) > 0))
            if len(on) == len(rgbs):
                pattern = "steady"
            elif len(on) >= frames * 3 // 4:
                pattern = "wink"
            else:
                pattern = "fast" if flips >= 6 else "slow"
            out[i] = (colour_of(max(on, key=max)), pattern)
        return out

    def cell_leds(self, names, frames=64):
        """{cell name: (colour, pattern)}."""
        got = self.leds([self.cell(n) for n in names], frames)
        return {n: got[self.cell(n)] for n in names}

    def level(self, name):
        return max(self.s.runner.led(self.cell(name)))

    def bar(self, seat):
        """The 9 LEDs of a score bar (seat S W N E = 0..3) as colour names."""
        base = H.SCORE_BASE + seat * H.SCORE_LEN
        return [colour_of(self.s.runner.led(base + k)) for k in range(H.SCORE_LEN)]


def boards_made(make):
    """The body of a fixture that makes boards (SimBoard) for a test: yields a maker that keeps
    what it made (make(*args, **kwargs) makes one); after the test each is closed, and the
    test fails on a firmware error or a traceback in what it printed."""
    made = []

    def maker(*args, **kwargs):
        b = make(*args, **kwargs)
        made.append(b)
        return b

    yield maker
    for b in made:
        text = "\n".join(b.out)
        b.close()
        assert "evt error" not in text, text
        assert "Traceback" not in text, text


def console_new_from(game, notation):
    """`new GAME position=NOTATION` typed on the USB serial of a virtual board, the notation's
    blanks written `_` (a console word has no spaces); the board's `pos` reply then."""
    s = Session(out=lambda line: None)
    try:
        _, final = s.query("new %s position=%s" % (game, notation.replace(" ", "_")))
        assert final.startswith("ok"), final
        return s.query("pos")[1]
    finally:
        s.close()
