"""Hardware faults of the virtual board (`cargoboard sim --fault KIND:ARG`), for rehearsing a
new board's bring-up (docs/bringup.md) on it: a sensor stuck or dead, a dead 74HC165 of the
chain, the LED chain broken at an LED, a button stuck closed or dead; on revision B a row of
sensors without supply and a cube whose magnet is glued the wrong way round.

They live between the world and the firmware, where the board's parts are: the runner (both
targets) applies them to the inputs it sends each frame (`sensors`, `buttons`, `sums`) and to
the LED frames that come back (`leds`: what a broken chain lets through to the eyes); the
reversed magnet is the world's (`Session` turns the cube round once it stands on its cell).
The firmware is the board's own and knows nothing of them: what it shows is what a real
board with that fault shows."""

from __future__ import annotations

from cargoboard.clikit import InputError, shown
from shared_rules import geometry as g

N_CELLS = 121
N_LEDS = 157
CHIPS = 16                     # the 74HC165 chain: chip k holds cells 8k..8k+7; chip 15 k11 and
BUTTON_NAMES = ("confirm", "next", "undo", "hint", "end")  # the buttons (bit = index)
ALL_BUTTONS = (1 << len(BUTTON_NAMES)) - 1
ROW_CELLS = 11                 # revision B: a row rail powers the sensors of cells 11y..11y+10
ROWS = N_CELLS // ROW_CELLS

# What `--help` says of each kind (KIND:ARG, what it does); the order of the help's list.
KINDS = (
    ("stuck:CELL", "that cell's sensor always reads occupied (a stuck Hall switch, a short "
                   "to GND)"),
    ("dead:CELL", "that cell's sensor never reads occupied (dead, no pull-up, a broken input)"),
    ("stuck:BUTTON", "a button stuck closed (confirm, next, undo, hint, end)"),
    ("dead:BUTTON", "a button that never closes"),
    ("chip:K", "revision a: 74HC165 number K (0..15) dead, its output line high: cells 8K to "
               "120 (k11) read empty and the buttons open; chip:K:low, the line low: they all read "
               "occupied and pressed"),
    ("led:N", "the LED chain broken at LED N (0..156, or a cell's name for its LED): LED N and "
              "every LED after it stay dark"),
    ("row:Y", "revision b: the sensors of row Y (1..11, cells aY..kY) without supply (0 V: "
              "a field of tens of mT)"),
    ("reversed:CELL", "revision b: the first cube to stand on CELL has its magnet glued the "
                      "wrong way round (it keeps it wherever it is moved)"),
)


class FaultError(InputError):
    """A --fault that cannot be: one line saying why."""


def _cell(text, spec):
    c = g.parse_cell(text.strip().lower())
    if c < 0:
        raise FaultError("--fault %s: '%s' is not a cell (a1..k11)" % (spec, text))
    return c


def _number(text, lo, hi, what, spec):
    if not text.isdecimal() or not lo <= int(text) <= hi:
        raise FaultError("--fault %s: %s must be %d..%d, not '%s'" % (spec, what, lo, hi, text))
    return int(text)


class Faults:
    """The faults of one board (parsed from `--fault` specs by `parse`)."""

    def __init__(self):
        self.specs = []                     # as given, for the banner
        self.stuck = bytearray(16)          # cells that read occupied
        self.dead = bytearray(16)           # cells that never do
        self.stuck_buttons = 0
        self.dead_buttons = 0
        self.chip = None                    # the dead 74HC165
        self.chip_low = False               # ... and its output line reads low
        self.led_from = None                # the first dark LED of a broken chain
        self.rows = set()                   # revision B rows without supply (0-based)
        self.reversed = set()               # revision B: cells whose first cube is reversed

    def __bool__(self):
        return bool(self.specs)

    @classmethod
    def parse(cls, specs, revision="A"):
        """The Faults of the specs (`stuck:c4`, `chip:9:low`, ...) for a board of that revision;
        FaultError (one line) for one that is malformed or does not fit the revision."""
        f = cls()
        rev = revision.upper()
        for spec in specs:
            kind, _, arg = spec.partition(":")
            spec, arg = shown(spec), shown(arg)  # (as said in its errors: a long one cut)
            kind = kind.strip().lower()
            if not arg:
                raise FaultError("--fault %s: give KIND:ARG (%s)"
                                 % (spec, ", ".join(k for k, _ in KINDS)))
            if kind in ("stuck", "dead"):
                name = arg.strip().lower()
                if name in BUTTON_NAMES:
                    bit = 1 << BUTTON_NAMES.index(name)
                    if kind == "stuck":
                        f.stuck_buttons |= bit
                    else:
                        f.dead_buttons |= bit
                else:
                    try:
                        c = _cell(arg, spec)
                    except FaultError:
                        raise FaultError("--fault %s: '%s' is neither a cell (a1..k11) nor a "
                                         "button (%s)" % (spec, arg, ", ".join(BUTTON_NAMES))
                                         ) from None
                    mask = f.stuck if kind == "stuck" else f.dead
                    mask[c >> 3] |= 1 << (c & 7)
            elif kind == "chip":
                if rev != "A":
                    raise FaultError("--fault %s: revision b has no 74HC165 chain (its sensors "
                                     "are read through the ADC: row:Y)" % spec)
                number, _, level = arg.partition(":")
                if level not in ("", "low", "high"):
                    raise FaultError("--fault %s: the line reads high (chip:K) or low "
                                     "(chip:K:low), not '%s'" % (spec, level))
                if f.chip is not None:
                    raise FaultError("--fault %s: one dead chip at most (the chain loses "
                                     "everything after the first)" % spec)
                f.chip = _number(number, 0, CHIPS - 1, "the chip K", spec)
                f.chip_low = level == "low"
            elif kind == "led":
                text = arg.strip()
                n = int(text) if text.isdecimal() and int(text) < N_LEDS else None
                if n is None:
                    n = g.parse_cell(text.lower()) if not text.isdecimal() else -1
                if n < 0:
                    raise FaultError("--fault %s: N must be an LED, 0..%d, or a cell (a1..k11), "
                                     "not '%s'" % (spec, N_LEDS - 1, text))
                f.led_from = n if f.led_from is None else min(f.led_from, n)
            elif kind == "row":
                if rev != "B":
                    raise FaultError("--fault %s: rows are powered one at a time on revision b "
                                     "only (--rev b)" % spec)
                f.rows.add(_number(arg.strip(), 1, ROWS, "the row Y", spec) - 1)
            elif kind == "reversed":
                if rev != "B":
                    raise FaultError("--fault %s: the board sees a magnet's sign on revision b "
                                     "only (--rev b)" % spec)
                f.reversed.add(_cell(arg, spec))
            else:
                raise FaultError("--fault %s: no fault kind '%s' (%s)"
                                 % (spec, shown(kind), ", ".join(sorted({k.split(":")[0]
                                                                   for k, _ in KINDS}))))
            f.specs.append(spec)
        if f.stuck_buttons & f.dead_buttons or any(a & b for a, b in zip(f.stuck, f.dead)):
            raise FaultError("--fault: a sensor or button cannot be both stuck and dead")
        return f

    # --- what the runner applies ---------------------------------------------------------------
    def sensors(self, sensors) -> bytes:
        """Revision A: the occupancy bits the firmware reads, from the world's."""
        out = bytearray(sensors)
        for i in range(16):
            out[i] = (out[i] | self.stuck[i]) & ~self.dead[i] & 0xFF
        if self.chip is not None:
            for c in range(8 * self.chip, N_CELLS):
                if self.chip_low:
                    out[c >> 3] |= 1 << (c & 7)
                else:
                    out[c >> 3] &= ~(1 << (c & 7)) & 0xFF
        return bytes(out)

    def buttons(self, buttons) -> int:
        if self.chip is not None:  # every chip's bits pass through the chips before it
            return ALL_BUTTONS if self.chip_low else 0
        return (buttons | self.stuck_buttons) & ~self.dead_buttons & ALL_BUTTONS

    def sums(self, sums):
        """Revision B: the scan's ADC sums (121 cells, the mid-supply reference, the zero
        channel) the firmware reads, from the world's: a sensor without supply or stuck gives
        0 V, a dead one the mid-supply level (no field)."""
        out = list(sums)
        mid = out[N_CELLS]
        for c in range(N_CELLS):
            bit = self.stuck[c >> 3] >> (c & 7) & 1
            if bit or c // ROW_CELLS in self.rows:
                out[c] = 0
            elif self.dead[c >> 3] >> (c & 7) & 1:
                out[c] = mid
        return out

    def leds(self, frame):
        """The LED frame as the eyes see it (in place): dark from a broken chain's LED on."""
        if self.led_from is not None:
            frame[3 * self.led_from:] = bytes(len(frame) - 3 * self.led_from)
