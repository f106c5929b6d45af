"""Revision B physics for the virtual board and the benchmarks: what each cell's linear Hall
sensor reads, from the field model of circuit/magnet.py, per cube orientation, stack and
position in the recess, with the noise a real board would add.

The field model itself stays in circuit.magnet (Biot-Savart over the magnet's surface current);
this module only samples it once per process into small polynomial fits (about a second) and
adds up the magnets around each sensor:

- a cube's magnet points along a body diagonal; orientation o (shared_rules.orient) puts it along
  one of the 8 world diagonals (`diagonal_of`), a keeper never rolls (always the start's);
- the sensor at a cell reads Bz of every magnet within one cell of it (own stack, the 8
  neighbours' stacks), each magnet at its height (level in the stack, on a card or not) and its
  horizontal offset from the cell centre; a card's magnet is vertical, either pole up;
- `HallWorld` is the sim's World with a position in the recess, a remanence (Br of the grade's
  range) per piece, a gain and a zero error per sensor, and `Noise`: how far a hand shifts the
  bottom cube of the stack it works on, how often it bumps a stack nearby, the ADC's noise and
  its DNL spikes.

What the board's HAL gets is what its scan produces: per cell the sum of SAMPLES conversions of
the 12-bit ADC (`HallWorld.adc_sums`), plus the mid-supply and zero references.
"""

from __future__ import annotations

import functools
import math
import random

from circuit import magnet as M
from circuit import parts as P
from firmware.games.cargocube import steps as STEPS
from hardware import pinmap_revb as PM
from shared_rules.cargocube import board as g

from cargoboard.games.cargocube.world import physical_stack, turn_stack
from cargoboard.sim.world import CARD_BASE, World

N_CELLS = 121
PITCH = M.CELL_PITCH_MM
CODES_PER_MT = P.DRV5055_SENS_MV_PER_MT / PM.ADC_FULL_MV * 4096     # 37.2 ADC codes per mT
MID_CODE = 2048.0
LEVELS = 5                     # magnets up to the 5th cube of a stack are summed
OWN_SPAN_MM = 1.6              # the own-cell fits hold for offsets up to this (cube + its top)

# The 8 world diagonals (x east, y north, z up) in the firmware's order (circuit.magnet).
DIAGONALS = M.FW_DIAGONALS


def diagonal_of(item: int) -> int:
    """Index into DIAGONALS of the magnet of item: a cargo cube's orientation, or a keeper, a
    dead keeper or the teleport as the firmware knows them (firmware/games/cargocube/steps.py);
    a generic piece of another game points as a cube in the start orientation."""
    if 0 <= item < len(STEPS.DIAG):
        return STEPS.DIAG[item]
    return 0


def height_mm(level: int, on_card: bool) -> float:
    """Height of a magnet above the bottom cube's (level 0 straight on the recess floor)."""
    return level * M.CUBE_MM + (M.CARD_MM if on_card else 0.0)


# --- fits of the field model -------------------------------------------------------------------

def _poly_terms(x, y):
    return (1.0, x, y, x * x, x * y, y * y, x * x * x, x * x * y, x * y * y, y * y * y)


def _solve(a, b):
    """Least squares a x = b by the normal equations (10 unknowns: small, plain Python)."""
    n = len(a[0])
    ata = [[sum(r[i] * r[j] for r in a) for j in range(n)] for i in range(n)]
    atb = [sum(r[i] * v for r, v in zip(a, b)) for i in range(n)]
    for i in range(n):                                   # Gauss-Jordan with partial pivoting
        p = max(range(i, n), key=lambda k: abs(ata[k][i]))
        ata[i], ata[p] = ata[p], ata[i]
        atb[i], atb[p] = atb[p], atb[i]
        for k in range(n):
            if k != i:
                f = ata[k][i] / ata[i][i]
                for j in range(i, n):
                    ata[k][j] -= f * ata[i][j]
                atb[k] -= f * atb[i]
    return [atb[i] / ata[i][i] for i in range(n)]


class Fits:
    """Bz at a sensor from one magnet, sampled from circuit.magnet.field.

    own[h][on_card]: cubic in the magnet's offset (x, y) from the sensor, for the reference
    magnet along DIAGONALS[0] at nominal Br; near[(i, j)][h]: value and gradient at a neighbour
    cell's centre (i, j in -1..1). Other diagonals follow by symmetry (`bz`)."""

    def __init__(self):
        mag = M.MAGNET
        self.br = (mag["br_min"] + mag["br_max"]) / 2
        d0 = tuple(c / math.sqrt(3) for c in DIAGONALS[0])
        depth = M.sensor_depth_mm()

        def f(x, y, z, fast=False):
            # the sensor sits at (-x, -y, -(depth + z)) from a magnet at offset (x, y), height z
            kw = {"rings": 4, "segments": 24} if fast else {}
            return M.field(self.br, mag["d_mm"], mag["l_mm"], d0, (-x, -y, -(depth + z)), **kw)[2]

        grid = [-OWN_SPAN_MM + k * OWN_SPAN_MM / 3 for k in range(7)]
        self.own = []
        for level in range(LEVELS):
            per_card = []
            for on_card in (False, True):
                z = height_mm(level, on_card)
                rows, vals = [], []
                fast = level >= 2                      # far magnets: smooth, cheaper sampling
                for x in grid:
                    for y in grid:
                        rows.append(_poly_terms(x, y))
                        vals.append(f(x, y, z, fast))
                per_card.append(_solve(rows, vals))
            self.own.append(per_card)
        self.near = {}
        step = 1.0
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                if i == 0 and j == 0:
                    continue
                per = []
                for level in range(3):
                    z = height_mm(level, False)
                    x0, y0 = i * PITCH, j * PITCH
                    v = f(x0, y0, z, True)
                    gx = (f(x0 + step, y0, z, True) - f(x0 - step, y0, z, True)) / (2 * step)
                    gy = (f(x0, y0 + step, z, True) - f(x0, y0 - step, z, True)) / (2 * step)
                    per.append((v, gx, gy))
                self.near[(i, j)] = per
        cm = M.CARD_MAGNET
        self.card_br = (cm["br_min"] + cm["br_max"]) / 2
        ch = M.CARD_MM / 2 + M.TOP_PLATE_MM + M.LED_GAP_MM - M.HALL_ELEMENT_MM
        rows, vals = [], []
        for x in grid:
            for y in grid:
                rows.append(_poly_terms(x, y))
                vals.append(M.field(self.card_br, cm["d_mm"], cm["l_mm"], (0, 0, 1),
                                    (-x, -y, -ch))[2])
        self.card = _solve(rows, vals)
        # a card lying on `level` pieces (a biohazard on a cube, the sacrifice card on a keeper):
        # its field at its own sensor, centred (0.10 mT one cube up, 0.02 two up; at a
        # neighbour's sensor under 0.001 mT, left out)
        self.card_on = [0.0] + [M.field(self.card_br, cm["d_mm"], cm["l_mm"], (0, 0, 1),
                                        (0, 0, -(ch + level * M.CUBE_MM)))[2]
                                for level in range(1, LEVELS)]

    def bz(self, diag: int, dx: float, dy: float, level: int, on_card: bool) -> float:
        """Bz (mT, nominal Br) at a sensor from a magnet along DIAGONALS[diag] at horizontal
        offset (dx, dy) mm from the sensor (any cell within one of it), `level` cubes up."""
        sx, sy, sz = DIAGONALS[diag]
        if sz < 0:
            sign = -1.0
            sx, sy = -sx, -sy
        else:
            sign = 1.0
        # rotate (dx, dy) by the quarter turns that take this diagonal's (sx, sy) to (1, 1)
        if (sx, sy) == (1, 1):
            x, y = dx, dy
        elif (sx, sy) == (-1, 1):
            x, y = dy, -dx
        elif (sx, sy) == (-1, -1):
            x, y = -dx, -dy
        else:
            x, y = -dy, dx
        i = int(round(x / PITCH))
        j = int(round(y / PITCH))
        if i == 0 and j == 0:
            if level >= LEVELS:
                return 0.0
            c = self.own[level][1 if on_card else 0]
            t = _poly_terms(x, y)
            return sign * sum(a * b for a, b in zip(c, t))
        if level >= 3 or abs(i) > 1 or abs(j) > 1:
            return 0.0
        v, gx, gy = self.near[(i, j)][level]
        return sign * (v + gx * (x - i * PITCH) + gy * (y - j * PITCH))

    def card_bz(self, dx: float, dy: float, up: bool, level: int = 0) -> float:
        """Bz (mT) at a card's own sensor from its magnet: lying on the cell at offset (dx, dy),
        or on `level` pieces (centred)."""
        if level:
            v = self.card_on[level] if level < LEVELS else 0.0
        else:
            t = _poly_terms(dx, dy)
            v = sum(a * b for a, b in zip(self.card, t))
        return v if up else -v


@functools.lru_cache(maxsize=1)
def fits() -> Fits:
    return Fits()


# --- the physical board ------------------------------------------------------------------------

class Noise:
    """What the model does not know about a real board: each is a parameter of the benchmarks
    (bench/cargocube/inference.py) and a guess until the bring-up protocol has measured it (docs/hardware.md).

    shift_mm: a hand working on a stack (lifting its top, putting a piece on it) moves the stack's
        bottom cube in its recess by up to this (uniform in length and direction; the offset
        stays within the recess's play, PLACEMENT_TOL_MM);
    bump_rate: chance per lift or put-down that the hand also nudges one other piece around the
        cell (by the same shift distribution);
    place_mm: a piece is put down within this of its cell centre (the recess);
    coupling: neighbouring cells' magnets count (off: each sensor sees only its own stack);
    adc_lsb, sensor_lsb: RMS noise per conversion of the ADC and of the sensor, in ADC steps;
    dnl_lsb: extra width of the ADC's codes 512, 1536, 2560, 3584 (RP2040-E11);
    gain_tol, zero_mt: the spread of the sensors' sensitivity (+-, relative) and zero (+-, mT);
    br_spread: magnets' remanence anywhere in the grade's range (else all nominal)."""

    def __init__(self, shift_mm=0.5, bump_rate=0.0, place_mm=0.5, coupling=True, adc_lsb=1.0,
                 sensor_lsb=0.9, dnl_lsb=8.0, gain_tol=0.05, zero_mt=0.5, br_spread=True):
        self.shift_mm = shift_mm
        self.bump_rate = bump_rate
        self.place_mm = place_mm
        self.coupling = coupling
        self.adc_lsb = adc_lsb
        self.sensor_lsb = sensor_lsb
        self.dnl_lsb = dnl_lsb
        self.gain_tol = gain_tol
        self.zero_mt = zero_mt
        self.br_spread = br_spread

    def __repr__(self):
        return ("Noise(shift_mm=%g, bump_rate=%g, place_mm=%g, coupling=%s, adc_lsb=%g, "
                "sensor_lsb=%g, dnl_lsb=%g, gain_tol=%g, zero_mt=%g)" % (
                    self.shift_mm, self.bump_rate, self.place_mm, self.coupling, self.adc_lsb,
                    self.sensor_lsb, self.dnl_lsb, self.gain_tol, self.zero_mt))


def _disc(rng, r):
    """A point uniform in length (0..r) and direction."""
    a = rng.random() * 2 * math.pi
    d = rng.random() * r
    return d * math.cos(a), d * math.sin(a)


def adc_code(x: float, dnl: float) -> float:
    """The 12-bit ADC's transfer for an input of x codes (before rounding): codes at the DNL
    spikes are `dnl` steps wider, so everything above a spike reads that much lower."""
    for k in (512, 1536, 2560, 3584):
        if x >= k + dnl:
            x -= dnl
        elif x >= k:
            x = k
        else:
            break
    return min(4095.0, max(0.0, x))


class HallWorld(World):
    """The sim's World (stacks of items) with the physics of revision B. Every piece in a stack
    has [x, y, br] beside it (offset from the cell centre in mm, remanence scale); the hand's
    lifts and put-downs shift the stack it works on, and sometimes bump one nearby."""

    def __init__(self, noise: Noise | None = None, seed: int = 0):
        # (a cube put down on a neighbour rolls as World says when the layout was set up
        # by the game's layout (the virtual board's script); the benchmark's hand gives each
        # piece its orientation from the rules instead, sync_items)
        super().__init__()
        self.noise = noise or Noise()
        self.rng = random.Random(seed)
        rng = random.Random(seed ^ 0x5EED)
        n = self.noise
        self.gain = [1.0 + n.gain_tol * (2 * rng.random() - 1) for _ in range(N_CELLS)]
        self.zero = [n.zero_mt * (2 * rng.random() - 1) for _ in range(N_CELLS)]
        self.phys: list[list[list[float]]] = [[] for _ in range(N_CELLS)]
        self.held: list[list[float]] = []         # physics of the items in the hand
        self.card_up = {}                          # card code -> its magnet's north pole is up
        self._field = [0.0] * N_CELLS
        self._dirty = set(range(N_CELLS))
        self._laid_out = True  # nothing on the board yet
        self.fits = fits()

    # --- pieces ---------------------------------------------------------------------------
    def _new_piece(self):
        n = self.noise
        x, y = _disc(self.rng, n.place_mm)
        lo, hi = M.MAGNET["br_min"], M.MAGNET["br_max"]
        br = (lo + (hi - lo) * self.rng.random()) if n.br_spread else (lo + hi) / 2
        return [x, y, br / self.fits.br]

    def _touch(self, c):
        for t in g.around(c):
            self._dirty.add(t)
        self._dirty.add(c)

    def _shift(self, c):
        """The hand moves the stack on c (all but a card at its bottom) in its recess."""
        items = self.stacks[c]
        phys = self.phys[c]
        dx, dy = _disc(self.rng, self.noise.shift_mm)
        lim = M.PLACEMENT_TOL_MM
        for k, it in enumerate(items):
            if it >= CARD_BASE:
                continue
            p = phys[k]
            x, y = p[0] + dx, p[1] + dy
            r = math.hypot(x, y)
            if r > lim:
                x, y = x * lim / r, y * lim / r
            p[0], p[1] = x, y
        self._touch(c)

    def _handled(self, c):
        """The hand worked on the stack at c: its remaining pieces shift; maybe a bump nearby."""
        if any(it < CARD_BASE for it in self.stacks[c]):
            self._shift(c)
        if self.noise.bump_rate and self.rng.random() < self.noise.bump_rate:
            near = [t for t in g.around(c) if self.stacks[t]]
            if near:
                self._shift(near[self.rng.randrange(len(near))])

    def clear(self):
        super().clear()
        for p in self.phys:
            p.clear()
        self.held.clear()
        self._dirty = set(range(N_CELLS))
        # a game's layout (cargoboard/games/<game>/world.py) fills the stacks after clearing:
        # their pieces get physics at the next look
        self._laid_out = False

    def _catch_up(self):
        if not self._laid_out:
            self._sync_phys()

    def lift(self, cell: int) -> int:
        self._catch_up()
        item = super().lift(cell)
        self.held.append(self.phys[cell].pop())
        self._touch(cell)
        self._handled(cell)
        return item

    def place(self, cell: int) -> int:
        self._catch_up()
        p = self.held.pop() if self.held else self._new_piece()
        try:
            item = super().place(cell)
        except Exception:
            self.held.append(p)
            raise
        x, y = _disc(self.rng, self.noise.place_mm)
        p[0], p[1] = x, y
        if item >= CARD_BASE:
            self.phys[cell].append(p)  # (on the cell, or on the pieces there: a biohazard)
            self.card_up.setdefault(item - CARD_BASE, self.rng.random() < 0.5)
        else:
            below = [q for q, it in zip(self.phys[cell], self.stacks[cell]) if it < CARD_BASE]
            if len(below) > 1:                     # on a stack: it sits on the cube below
                p[0], p[1] = below[-2][0] + x / 2, below[-2][1] + y / 2
            self.phys[cell].append(p)
        self._touch(cell)
        self._handled(cell)
        return item

    def turn(self, cell: int, d: int):
        """A spiral turn (d as the rules' TURN: 0 clockwise, 1 anticlockwise): the hand turns
        the stack on cell a quarter turn where it stands; its cubes' magnets turn about the
        vertical as the rules turn their orientations (a keeper's item stays), and its pieces
        shift in their recess as under any hand."""
        self._catch_up()
        if self.physics is not None:  # a script's world: the game's physics turns the pieces
            super().turn(cell, d)
        else:
            turn_stack(self.stacks[cell], d)
        self._touch(cell)
        self._handled(cell)

    def drop(self, cell: int, item: int = 0) -> int:
        item = super().drop(cell, item)
        self.phys[cell].append(self._new_piece())
        self._touch(cell)
        return item

    def take(self, cell: int) -> int:
        item = super().take(cell)
        self.phys[cell].pop()
        self._touch(cell)
        return item

    def reverse_magnet(self, cell: int) -> bool:
        """A fault (`sim --fault reversed:CELL`): the magnet of the top cube on cell glued the
        wrong way round, its field's sign turned for good (it goes where the cube goes). False
        if no cube stands there (nothing, or a card on top)."""
        self._catch_up()
        items = self.stacks[cell]
        if not items or items[-1] >= CARD_BASE:
            return False
        self.phys[cell][-1][2] = -self.phys[cell][-1][2]
        self._touch(cell)
        return True

    def setup_mask(self, mask, corners_open=False):
        super().setup_mask(mask, corners_open)
        self._sync_phys()

    def load_position(self, pos):
        """Lay out a Cargocube position (stacks and cards) as it stands."""
        self.clear()
        for c in range(N_CELLS):
            self.stacks[c].extend(physical_stack(pos, c))
        self._sync_phys()

    def sync_items(self, pos):
        """After the hand moved a piece as an action says, give each piece on the board what the
        rules say it is now (a rolled cube's new orientation, a keeper that died); pieces stay
        where they lie, and a card stays the card it is. Raises ValueError if a cell's pieces
        and cards differ from pos's in number or order."""
        for c in range(N_CELLS):
            want = physical_stack(pos, c)
            have = self.stacks[c]
            if len(want) != len(have) or any((a >= CARD_BASE) != (b >= CARD_BASE)
                                             for a, b in zip(want, have)):
                raise ValueError("cell %s holds %d pieces, the position %d" % (
                    g.cell_name(c), len(have), len(want)))
            now = [b if b >= CARD_BASE else a for a, b in zip(want, have)]
            if now != have:
                have[:] = now
                self._touch(c)

    def _sync_phys(self):
        self._laid_out = True
        for c in range(N_CELLS):
            self.phys[c] = [self._new_piece() for _ in self.stacks[c]]
            for k, it in enumerate(self.stacks[c]):
                if it >= CARD_BASE:
                    self.card_up.setdefault(it - CARD_BASE, self.rng.random() < 0.5)
        self._dirty = set(range(N_CELLS))

    # --- fields -------------------------------------------------------------------------------
    def _contributions(self, c, extra=None):
        """Bz at the sensor of c: every magnet on c and (with coupling) on its neighbours.
        extra: (cell, item, phys) of a piece held just above a cell (a hand passing over)."""
        cx, cy = c % 11, c // 11
        fits = self.fits
        total = 0.0
        cells = (c,) + (tuple(g.around(c)) if self.noise.coupling else ())
        for t in cells:
            items = self.stacks[t]
            phys = self.phys[t]
            if extra is not None and extra[0] == t:
                items = items + [extra[1]]
                phys = phys + [extra[2]]
            if not items:
                continue
            ox = (t % 11 - cx) * PITCH
            oy = (t // 11 - cy) * PITCH
            on_card = items[0] >= CARD_BASE
            level = 0
            for it, p in zip(items, phys):
                if it >= CARD_BASE:
                    if t == c:
                        total += fits.card_bz(p[0], p[1], self.card_up.get(it - CARD_BASE, True),
                                              level)
                    continue
                total += p[2] * fits.bz(diagonal_of(it), ox + p[0], oy + p[1], level, on_card)
                level += 1
        return total

    def fields(self, extra=()):
        """The field (mT) each cell's sensor sees now. extra: cells over which the hand holds
        the piece it carries (or the top of the stack it is about to lift)."""
        self._catch_up()
        for c in self._dirty:
            self._field[c] = self._contributions(c)
        self._dirty = set()
        if not extra:
            return list(self._field)
        out = list(self._field)
        for e in extra:
            cell, item, p = e
            for t in [cell] + g.around(cell):
                out[t] = self._contributions(t, e)
        return out

    def held_piece(self, source=None):
        """(item, phys) the hand carries, or the top of `source` it is tipping over."""
        if self.hand:
            return self.hand[-1], self.held[-1]
        if source is not None and self.stacks[source]:
            return self.stacks[source][-1], self.phys[source][-1]
        return 0, self._new_piece()

    def occupancy(self) -> bytearray:
        return self.sensors()

    # --- the sensors and the ADC ------------------------------------------------------------------
    def codes(self, fields):
        """The mean ADC code each sensor gives (before the ADC's transfer and noise)."""
        out = []
        for c in range(N_CELLS):
            out.append(MID_CODE + (fields[c] * self.gain[c] + self.zero[c]) * CODES_PER_MT)
        return out

    def adc_sums(self, fields=None, rng=None):
        """What the scan reads: per cell the sum of SAMPLES conversions, then the sums of the
        mid-supply reference and of the zero channel (a list of 123 ints). rng: noise drawn
        from it (else from the world's own)."""
        rng = rng or self.rng
        fields = self.fields() if fields is None else fields
        n = self.noise
        k = PM.SAMPLES
        dnl = n.dnl_lsb
        sigma = math.hypot(n.adc_lsb, n.sensor_lsb)
        band = dnl + 6 * sigma
        spread = sigma * math.sqrt(k)
        pool = _NORMAL
        at = rng.randrange(len(pool))
        gain = self.gain
        zero = self.zero
        out = []
        codes = [MID_CODE + (fields[c] * gain[c] + zero[c]) * CODES_PER_MT for c in range(N_CELLS)]
        codes.append(MID_CODE)
        codes.append(0.0)
        for x in codes:
            if (-band < x - 1536 < band) or (-band < x - 2560 < band) or \
                    (-band < x - 512 < band) or (-band < x - 3584 < band):
                tot = 0                                       # next to a spike: each conversion
                for _ in range(k):
                    tot += int(adc_code(x + rng.gauss(0.0, sigma), dnl))
            else:
                y = x - dnl * ((x >= 512) + (x >= 1536) + (x >= 2560) + (x >= 3584))
                y = 4095.0 if y > 4095.0 else (0.0 if y < 0.0 else y)
                tot = int(round(k * (y - 0.5) + spread * pool[at]))
                at += 1
                if at == len(pool):
                    at = 0
            out.append(tot if tot > 0 else 0)
        return out


# Standard normal draws for the ADC noise of the many cells far from a DNL spike (drawing 123
# gaussians per reading with random.gauss would dominate a benchmark's run time).
_NORMAL = tuple(random.Random(7).gauss(0.0, 1.0) for _ in range(8191))


class HallBoard:
    """What the hand model (hand.Hand, beside this module) works on for revision B: a
    HallWorld, read as the scan's ADC sums. `item` is what the moving piece is once it lands (a rolled cube's new orientation:
    it turns as it rolls onto its new cell, before a portal, a wind rose or an acceleration
    carries it on unturned)."""

    def __init__(self, world: HallWorld, item=None, rng=None):
        self.world = world
        self.item = item
        self.rng = rng          # ADC noise per reading (else the world's own)

    def read(self, extra=(), source=None):
        w = self.world
        if extra:
            it, p = w.held_piece(source)
            if self.item is not None and it < CARD_BASE:
                it = self.item
            fields = w.fields([(c, it, p) for c in extra])
        else:
            fields = w.fields()
        return w.adc_sums(fields, self.rng)

    def lift(self, a):
        self.world.lift(a)

    def place(self, b):
        w = self.world
        if self.item is not None and w.hand and w.hand[-1] < CARD_BASE:
            w.hand[-1] = self.item
        w.place(b)

    def empty(self, b):
        return not self.world.stacks[b]

    def turn(self, c, d):
        self.world.turn(c, d)
