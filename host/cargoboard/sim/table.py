"""The board in this process: the firmware's scanner and a game plug-in, driven frame by frame
with raw sensor bitmaps (cargoboard.games.cargocube.play for Cargocube, cargoboard.games.cephalopod.play for
Cephalopod, tests/cargocube/driver_tracker_cards.py). Runs under CPython and the MicroPython unix port.
"""

from firmware.drivers.scanner import Scanner
from firmware.hal import bit_set
from firmware.hal.hall import settle
from hardware.pinmap_revb import DEADBAND

# how long a modelled player looks at the board's answer to a `confirm` before pressing again
# (the bench's hand, the script's `resolve`): past CONFIRM_REPEAT_MS
# (firmware/games/cargocube/plugin.py), which takes a second press sooner as the same one
ACK_READ_MS = 500

FRAME_MS = 10
BOUNCE_MS = 10  # a bouncing contact's flick, and its return, are one short reading each


def touch(raw, bit, on, rng, bounce):
    """A hand puts a piece on sensor `bit` (on) or takes it off (a revision-A bitmap, raw, is
    changed in place). Returns the readings before it lands, [(reading, ms)]: with probability
    `bounce` (drawn from rng, whose one draw a seeded hand counts on) the contact flicks the other
    way and back first."""
    out = []
    if rng.random() < bounce:
        flick = bytearray(raw)
        flick[bit >> 3] ^= 1 << (bit & 7)
        out.append((flick, BOUNCE_MS))
        out.append((bytearray(raw), BOUNCE_MS))
    bit_set(raw, bit, on)
    return out


class Table:
    """Scanner + plug-in. The sensors start as the game's set-up mask (what the app waits for
    before it starts the game); trace, if a list, records ("feed", raw, ms) and ("press", bit)
    to replay the same input elsewhere.

    Revision B (hall = (HallReader, LevelScanner), firmware/hal/hall.py and levels.py): a raw
    reading is the scan's ADC sums (revision B's physics, cargoboard.sim.world.revb_physics),
    which go through the HAL's logic (deadband, fields, occupancy) to the occupancy Scanner and
    to the LevelScanner, whose step changes reach the game's on_change (the same occupancy
    again) as the app gives them; `raw` is the first reading."""

    def __init__(self, game, trace=None, hall=None, raw=None):
        self.game = game
        self.trace = trace
        self.scanner = Scanner(30)
        self.now = 0
        self.hall = hall
        if hall is None:
            self.raw = bytearray(game.setup_mask())
            self.scanner.reset(self.raw)
        else:
            reader, levels = hall
            self.sums = list(raw)
            self.occ = bytearray(16)
            self.deadband = reader.sum_units(DEADBAND)
            reader.update(self.sums, self.occ)
            self.scanner.reset(self.occ)
            levels.reset(reader.levels)
            self.raw = raw
            self._seen = raw
        game.start()

    def feed(self, raw, ms):
        """Hold raw for ms, one scan per frame."""
        if self.trace is not None:
            self.trace.append(("feed", bytes(raw) if self.hall is None else list(raw), ms))
        end = self.now + ms
        hall = self.hall
        scanner = self.scanner
        levels = hall[1] if hall is not None else None
        quiet = False  # nothing left for the scanners to do: this reading is taken in
        while self.now < end:
            self.now += FRAME_MS
            if not quiet:
                occ = raw if hall is None else self._hall_frame(raw)
                if scanner.update(occ, self.now):
                    self.game.on_change(scanner.stable, self.now)
                if levels is not None and levels.update(hall[0].levels, self.now, hall[0].rough,
                                                      hall[0].changed):
                    self.game.on_change(scanner.stable, self.now)  # the steps alone changed
                quiet = not scanner.pending() and (levels is None or not levels.pending())
            self.game.tick(self.now)
        self.raw = raw

    def _hall_frame(self, raw):
        """Revision B: one scan's sums through the HAL's logic; the occupancy it reads."""
        if raw is not self._seen:       # a reading held over several frames is one scan's
            self._seen = raw
            if settle(raw, self.sums, self.deadband):
                self.hall[0].update(self.sums, self.occ)
        return self.occ

    def settle(self, ms=100):
        self.feed(self.raw, ms)

    def press(self, bit):
        if self.trace is not None:
            self.trace.append(("press", bit))
        self.game.on_button(bit, self.now)
        self.settle(40)


def write_trace(trace, path):
    """Write a Table's recorded input (trace) as tests/cargocube/driver_replay.py reads it: one
    line per event; revision B: `S sums...` the first scan, `F ms sums...` a reading held for
    ms; revision A: `R ms HEX` an occupancy held for ms; `P bit` a button."""
    with open(path, "w") as f:
        for ev in trace:
            if ev[0] == "start":
                f.write("S " + " ".join(str(v) for v in ev[1]) + "\n")
            elif ev[0] == "feed" and isinstance(ev[1], bytes):
                f.write("R %d %s\n" % (ev[2], ev[1].hex()))
            elif ev[0] == "feed":
                f.write("F %d %s\n" % (ev[2], " ".join(str(v) for v in ev[1])))
            else:
                f.write("P %d\n" % ev[1])
