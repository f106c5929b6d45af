"""Magnet, cube and cell geometry, and the field a cell sensor sees: the numbers behind the
sensor choice in docs/hardware.md.

    python -m circuit.magnet            # print the design table (the doc quotes it)
    python -m circuit.magnet --rev b    # revision B: what a linear sensor sees of stacks
    python -m circuit.magnet --tables   # firmware/games/cargocube/field.py: the step tables

Model
-----
A cylinder magnet (diameter D, length L, remanence Br) magnetised along its axis is a thin
solenoid: a surface current K = Br / mu0 around its side. On its axis, at distance z from its
centre, the field is exact and closed-form:

    Bz(z) = Br/2 * [ (z + L/2) / sqrt(R^2 + (z + L/2)^2) - (z - L/2) / sqrt(R^2 + (z - L/2)^2) ]

Off the axis (neighbouring cells, a cube off-centre, a tilted magnet) we integrate Biot-Savart
over rings of that surface current numerically (`field`); a test checks it against the formula.
The Hall switch measures Bz, the component normal to its package (vertical).

Orientation. A cube can lie on any of its 6 faces, 24 orientations in all. A magnet whose axis is
a face axis of the cube is vertical for 2 faces and horizontal for the other 4: then the field
straight below it is horizontal (Bz = 0 under a point dipole) and the sensor sees nothing. So
the magnet sits at the cube's centre with its axis along a BODY DIAGONAL of the cube: every
orientation puts one of the 8 diagonals vertical-ish, at arccos(1/sqrt 3) = 54.7 deg from
vertical, so the vertical component of the moment is always 1/sqrt 3 = 0.577 of it, up or down
(hence an omnipolar sensor: cubes roll, the pole that faces down changes). Directly below the
cube centre the field is the same for all 24 orientations: 0.58 x the on-axis value for a point
dipole, 0.66 x for the 7 x 3 mm disc 13 mm away (its near field); off-centre
the tilted moment makes it depend on the orientation, which is why cubes must sit centred on
their cell within `PLACEMENT_TOL_MM` (a cell recess in the top plate, docs/hardware.md).

A stack is two (or more) magnets on one axis, one cube height apart: the sensor sees their sum,
whose sign per magnet depends on each cube's orientation; the bottom one dominates.
"""

import itertools
import math
import sys
from pathlib import Path

MU0 = 4e-7 * math.pi
G = 9.81

# --- Design values (docs/hardware.md) ----------------------------------------------------------
CUBE_MM = 20.0              # cargo cube edge (keepers: same cube, never rolled)
CELL_PITCH_MM = 32.0        # cell centre to cell centre (board play area 11 x 32 = 352 mm)
CELL_RECESS_MM = 21.0       # square recess in the top plate per cell (1 mm deep): centres cubes
PLACEMENT_TOL_MM = 1.0      # cube centre within this of the cell centre ((21 - 20) / 2 + play)
SMALL_OFFSET_MM = 0.25      # a well-placed cube: how much the reading still varies (height option)
TOP_PLATE_MM = 1.5          # top plate under the recess floor (2.5 mm opal acrylic, 1 mm recesses)
LED_GAP_MM = 2.0            # spacer between PCB top and top plate (WS2812B is 1.6 mm tall)
HALL_ELEMENT_MM = 0.5       # Hall element height above the PCB (SOT-23 on the top side)
CUBE_DENSITY = 1.24e3       # kg/m^3: PLA, printed solid (a beech cube: ~0.7e3)

MAGNET = {"name": "N52 disc 7 x 3 mm, axis on the cube's body diagonal",
          "d_mm": 7.0, "l_mm": 3.0, "br_min": 1.42, "br_max": 1.48, "density": 7.5e3}

# Booster cards lie flat in a cell (a 20 x 20 x 1.5 mm tile), a disc magnet in the middle with a
# vertical axis (which side is up is not defined: either pole may face down).
CARD_MM = 1.5
CARD_MAGNET = {"name": "N35 disc 3 x 1 mm, axis vertical", "d_mm": 3.0, "l_mm": 1.0,
               "br_min": 1.17, "br_max": 1.21}

# Sensor: DRV5032FC (omnipolar). Guaranteed thresholds (datasheet): it operates (output low) at
# |B| >= BOP_MAX and releases at |B| <= BRP_MIN; somewhere in between for a given part.
BOP_MAX_MT = 4.8
BRP_MIN_MT = 0.5
OWN_MARGIN = 1.2            # own field must reach 1.2 x BOP_MAX in the worst case


def sensor_depth_mm(cube_mm=CUBE_MM):
    """Vertical distance from the magnet (cube centre) to the Hall element under the cell."""
    return cube_mm / 2 + TOP_PLATE_MM + LED_GAP_MM - HALL_ELEMENT_MM


# --- Field -----------------------------------------------------------------------------------------

def on_axis_mt(br, d_mm, l_mm, z_mm):
    """Exact Bz on the axis of a cylinder magnet, z from its centre (mm), in mT."""
    r = d_mm / 2
    a = z_mm + l_mm / 2
    b = z_mm - l_mm / 2
    return 1e3 * br / 2 * (a / math.hypot(r, a) - b / math.hypot(r, b))


def _basis(m):
    e3 = m
    t = (1.0, 0.0, 0.0) if abs(m[0]) < 0.9 else (0.0, 1.0, 0.0)
    e1 = (t[1] * e3[2] - t[2] * e3[1], t[2] * e3[0] - t[0] * e3[2], t[0] * e3[1] - t[1] * e3[0])
    n = math.sqrt(sum(x * x for x in e1))
    e1 = tuple(x / n for x in e1)
    e2 = (e3[1] * e1[2] - e3[2] * e1[1], e3[2] * e1[0] - e3[0] * e1[2],
          e3[0] * e1[1] - e3[1] * e1[0])
    return e1, e2, e3


def field(br, d_mm, l_mm, axis, p_mm, rings=8, segments=48):
    """B (mT, vector) at point p (mm, from the magnet centre) of a cylinder magnet whose
    magnetisation points along the unit vector `axis`: Biot-Savart over `rings` rings of the
    side surface current, each cut in `segments` straight pieces."""
    e1, e2, e3 = _basis(axis)
    x = sum(a * b for a, b in zip(p_mm, e1))
    y = sum(a * b for a, b in zip(p_mm, e2))
    z = sum(a * b for a, b in zip(p_mm, e3))
    r = d_mm / 2
    dz = l_mm / rings
    dphi = 2 * math.pi / segments
    cs = [(math.cos((j + 0.5) * dphi), math.sin((j + 0.5) * dphi)) for j in range(segments)]
    bx = by = bz = 0.0
    for i in range(rings):
        rz = z - (-l_mm / 2 + (i + 0.5) * dz)
        for c, s in cs:
            dlx = -r * s * dphi
            dly = r * c * dphi
            rx = x - r * c
            ry = y - r * s
            r2 = rx * rx + ry * ry + rz * rz
            k = 1.0 / (r2 * math.sqrt(r2))
            bx += dly * rz * k
            by -= dlx * rz * k
            bz += (dlx * ry - dly * rx) * k
    k = 1e3 * br * dz / (4 * math.pi)    # mm units cancel: (mm * mm) / mm^3 * mm = 1
    bl = (bx * k, by * k, bz * k)
    return tuple(bl[0] * e1[i] + bl[1] * e2[i] + bl[2] * e3[i] for i in range(3))


S3 = 1 / math.sqrt(3)
DIAGONALS = tuple((a * S3, b * S3, c * S3) for a in (1, -1) for b in (1, -1) for c in (1, -1))
FACE_AXES = ((0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0))


def cube_orientations():
    """The 24 rotations of a cube, as 3x3 matrices (rows)."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = [[0, 0, 0] for _ in range(3)]
            for i in range(3):
                m[i][perm[i]] = signs[i]
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                   - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
            if det == 1:
                out.append(m)
    return out


def rotate(m, v):
    return tuple(sum(m[i][j] * v[j] for j in range(3)) for i in range(3))


def dipole_force(m1, m2, r_mm):
    """Force (N, vector) on dipole m2 (A m^2) at r (mm) from dipole m1."""
    r = [x * 1e-3 for x in r_mm]
    rn = math.sqrt(sum(x * x for x in r))
    rh = [x / rn for x in r]
    a = sum(p * q for p, q in zip(m1, rh))
    b = sum(p * q for p, q in zip(m2, rh))
    c = sum(p * q for p, q in zip(m1, m2))
    k = 3 * MU0 / (4 * math.pi * rn ** 4)
    return tuple(k * (a * m2[i] + b * m1[i] + c * rh[i] - 5 * a * b * rh[i]) for i in range(3))


# --- The analysis ---------------------------------------------------------------------------------

def analyse(magnet=MAGNET, pitch=CELL_PITCH_MM, cube=CUBE_MM, tol=PLACEMENT_TOL_MM, fast=False):
    """Worst cases over the 8 diagonal moment directions (all 24 orientations) and the
    placement tolerance. Returns a dict of numbers (fields in mT, forces in N)."""
    d, l_ = magnet["d_mm"], magnet["l_mm"]
    lo, hi = magnet["br_min"], magnet["br_max"]
    h = sensor_depth_mm(cube)
    angles = [k * math.pi / (4 if fast else 8) for k in range(8 if fast else 16)]

    def bz(br, axis, dx, dy, dz=0.0):
        return field(br, d, l_, axis, (dx, dy, -h - dz))[2]

    centre = abs(bz(lo, DIAGONALS[0], 0, 0))
    own = min(abs(bz(lo, a, tol * math.cos(t), tol * math.sin(t))) for a in DIAGONALS for t in angles)
    # the same magnet with its axis on a face axis: worst face
    face = min(abs(bz(lo, a, 0, 0)) for a in FACE_AXES)
    # one neighbour, anywhere within tol of its cell's centre, worst orientation (the cell
    # next to ours, (pitch, 0), and the one diagonally next to it, (pitch, pitch); the 8
    # diagonal moments cover the other 6 by symmetry)
    near = pitch - tol
    neighbour = max(abs(bz(hi, a, pitch + tol * math.cos(t), tol * math.sin(t)))
                    for a in DIAGONALS for t in angles)
    neighbour_diag = max(abs(bz(hi, a, pitch + tol * math.cos(t), pitch + tol * math.sin(t)))
                         for a in DIAGONALS for t in angles)
    # stacks: bottom cube and one more on top, every pair of orientations
    top = [bz(lo, a, 0, 0, cube) for a in DIAGONALS]
    third = max(abs(bz(lo, a, 0, 0, 2 * cube)) for a in DIAGONALS)
    # a nearly centred cube at the grade's nominal Br: the spread that orientation alone gives
    nominal = (lo + hi) / 2
    small = [abs(bz(nominal, a, SMALL_OFFSET_MM * math.cos(t), SMALL_OFFSET_MM * math.sin(t)))
             for a in DIAGONALS for t in angles]
    bottom = [bz(lo, a, 0, 0) for a in DIAGONALS]
    stack2_min = min(abs(b + t) for b in bottom for t in top)
    stack2_max = max(abs(b + t) for b in bottom for t in top)
    # forces: moment m = Br V / mu0
    vol = math.pi * (d / 2) ** 2 * l_ * 1e-9
    m = hi * vol / MU0
    fz = max(dipole_force([m * x for x in a], [m * x for x in b], (0, 0, cube))[2]
             for a in DIAGONALS for b in DIAGONALS)
    fh = max(math.hypot(*dipole_force([m * x for x in a], [m * x for x in b], (pitch, 0, 0))[:2])
             for a in DIAGONALS for b in DIAGONALS)
    # a card (vertical moment, close to the sensor), alone and under a cube
    cm = CARD_MAGNET
    ch = CARD_MM / 2 + TOP_PLATE_MM + LED_GAP_MM - HALL_ELEMENT_MM
    card = abs(field(cm["br_min"], cm["d_mm"], cm["l_mm"], (0, 0, 1),
                     (tol, 0, -ch))[2])
    card_neighbour = max(abs(field(cm["br_max"], cm["d_mm"], cm["l_mm"], (0, 0, 1),
                                   (near, 0, -ch))[2]), 0.0)
    cube_on_card = [abs(bz(hi, a, 0, 0, CARD_MM)) for a in DIAGONALS]
    card_cube_min = min(abs(card - c) for c in cube_on_card)
    card_m = cm["br_max"] * math.pi * (cm["d_mm"] / 2) ** 2 * cm["l_mm"] * 1e-9 / MU0
    card_lift = max(dipole_force((0, 0, sg * card_m), [m * x for x in a],
                                 (0, 0, cube / 2 + CARD_MM / 2))[2]
                    for a in DIAGONALS for sg in (1, -1))
    weight = (CUBE_DENSITY * (cube * 1e-3) ** 3 + magnet["density"] * vol) * G
    return {
        "depth_mm": h,
        "on_axis_mt": on_axis_mt(lo, d, l_, h),
        "centre_mt": centre,
        "own_min_mt": own,
        "face_axis_min_mt": face,
        "neighbour_max_mt": neighbour,
        "neighbour_diag_max_mt": neighbour_diag,
        "surrounded_max_mt": 4 * neighbour + 4 * neighbour_diag,
        "stack2_min_mt": stack2_min,
        "stack2_max_mt": stack2_max,
        "top_alone_mt": max(abs(t) for t in top),
        "third_alone_mt": third,
        "nominal_br": nominal,
        "small_offset_min_mt": min(small),
        "small_offset_max_mt": max(small),
        "moment_am2": m,
        "stack_lift_n": fz,
        "neighbour_force_n": fh,
        "cube_weight_n": weight,
        "card_mt": card,
        "card_neighbour_mt": card_neighbour,
        "card_under_cube_min_mt": card_cube_min,
        "card_lift_n": card_lift,
    }


def requirements(a):
    """(name, ok, text) for each design rule on an analyse() result."""
    return [
        ("own", a["own_min_mt"] >= OWN_MARGIN * BOP_MAX_MT,
         "own cell, worst orientation and placement: %.2f mT >= %.1f x BOP max %.1f mT"
         % (a["own_min_mt"], OWN_MARGIN, BOP_MAX_MT)),
        ("stack", a["stack2_min_mt"] >= OWN_MARGIN * BOP_MAX_MT,
         "2-stack, worst pair of orientations: %.2f mT >= %.2f mT"
         % (a["stack2_min_mt"], OWN_MARGIN * BOP_MAX_MT)),
        ("neighbour", a["neighbour_max_mt"] <= BRP_MIN_MT,
         "one neighbouring cube, worst case: %.2f mT <= BRP min %.1f mT (the empty cell's sensor "
         "always releases)" % (a["neighbour_max_mt"], BRP_MIN_MT)),
        ("card", a["card_under_cube_min_mt"] >= OWN_MARGIN * BOP_MAX_MT
         and a["card_neighbour_mt"] <= BRP_MIN_MT,
         "a card: %.1f mT alone, %.1f mT with a cube of the opposite pole on it, %.2f mT at the "
         "next cell" % (a["card_mt"], a["card_under_cube_min_mt"], a["card_neighbour_mt"])),
        ("lift", max(a["stack_lift_n"], a["card_lift_n"]) <= 0.5 * a["cube_weight_n"],
         "magnetic lift on a cube on a cube %.3f N, on a card %.3f N <= half its weight %.3f N"
         % (a["stack_lift_n"], a["card_lift_n"], 0.5 * a["cube_weight_n"])),
    ]


def table(a):
    rows = [
        ("magnet", MAGNET["name"] + ", Br %.2f..%.2f T" % (MAGNET["br_min"], MAGNET["br_max"])),
        ("cube / pitch / recess", "%.0f mm / %.0f mm / %.0f mm" % (CUBE_MM, CELL_PITCH_MM,
                                                                   CELL_RECESS_MM)),
        ("magnet centre to Hall element", "%.1f mm" % a["depth_mm"]),
        ("on-axis field at the sensor (formula)", "%.1f mT" % a["on_axis_mt"]),
        ("centred cube, any of 24 orientations", "%.2f mT" % a["centre_mt"]),
        ("cube %.2g mm off centre, any orientation, nominal Br %.2f T" % (
            SMALL_OFFSET_MM, a["nominal_br"]),
         "%.2f..%.2f mT" % (a["small_offset_min_mt"], a["small_offset_max_mt"])),
        ("worst orientation, cube %.0f mm off centre" % PLACEMENT_TOL_MM, "%.2f mT" % a["own_min_mt"]),
        ("same magnet on a face axis, worst face", "%.2f mT" % a["face_axis_min_mt"]),
        ("2-stack, worst / best pair", "%.2f / %.2f mT" % (a["stack2_min_mt"], a["stack2_max_mt"])),
        ("second cube of a stack alone (1 cube up)", "%.2f mT" % a["top_alone_mt"]),
        ("third cube of a stack alone (2 cubes up)", "%.2f mT" % a["third_alone_mt"]),
        ("one orthogonal neighbour, worst", "%.2f mT" % a["neighbour_max_mt"]),
        ("one diagonal neighbour, worst", "%.2f mT" % a["neighbour_diag_max_mt"]),
        ("8 neighbours all in their worst orientation", "%.2f mT" % a["surrounded_max_mt"]),
        ("card magnet", CARD_MAGNET["name"] + ", in a %.1f mm card" % CARD_MM),
        ("card alone / under a cube (worst) / at the next cell", "%.1f / %.1f / %.2f mT"
         % (a["card_mt"], a["card_under_cube_min_mt"], a["card_neighbour_mt"])),
        ("largest magnetic lift on a cube: on a cube / on a card", "%.3f / %.3f N (cube weight "
         "%.3f N)" % (a["stack_lift_n"], a["card_lift_n"], a["cube_weight_n"])),
        ("neighbouring cubes: largest sideways force", "%.3f N" % a["neighbour_force_n"]),
    ]
    lines = ["| quantity | value |", "|---|---|"]
    for k, v in rows:
        lines.append("| %s | %s |" % (k, v))
    return "\n".join(lines)


# --- Revision B: linear sensors that see stacks -----------------------------------------------------
# A DRV5055A2 reads Bz linearly (30 mV/mT at 3.3 V, +-44 mT) into the RP2040's 12-bit ADC, whose
# full scale is the same 3.3 V (ratiometric). The RP2040's ADC has DNL spikes at four codes
# (RP2040 datasheet, errata RP2040-E11): a reading should not sit next to them.
HALL_SENS_MV_PER_MT = 30.0
HALL_RANGE_MT = 44.0
ADC_FULL_MV = 3300.0
ADC_CODES = 4096
ADC_DNL_CODES = (512, 1536, 2560, 3584)
SHIFTS_MM = (0.25, 0.5, 1.0)
# The spread of the parts (docs/hardware.md, "What the model assumes"): sensitivity +-5 %;
# zero +-2.55 mT before `calibrate`: the DRV5055's quiescent voltage at 3.3 V is 1.65 V +- 60 mV
# (+-2.0 mT at 30 mV/mT; its datasheet's limits as quoted, to be checked on the bench) and the
# mid-supply divider's 1 % resistors move the reference by +-16.5 mV (+-0.55 mT). (The
# virtual board's field model draws +-0.5 mT by default, Noise.zero_mt: it calibrates at
# bring-up, and what is left after is the same.) `calibrate` takes every cell's zero on the
# empty board (firmware/system/calib.py), the sensitivity stays. The ADC's own noise per
# conversion (RMS).
HALL_GAIN_TOL = 0.05
HALL_ZERO_MT = 2.55
ADC_NOISE_LSB = 1.0
NOISE_SIGMAS = 5            # a bound on noise: 5 sigma (1 cell in ~3.5 million beyond it)


def lsb_mt():
    """One ADC step in mT."""
    return ADC_FULL_MV / ADC_CODES / HALL_SENS_MV_PER_MT


def analyse_revb(magnet=MAGNET, pitch=CELL_PITCH_MM, cube=CUBE_MM, tol=PLACEMENT_TOL_MM):
    """What a linear sensor sees of stacks: the step of each level, the shift of a bottom cube,
    neighbours, the largest field, and where the readings fall on the ADC's codes. Fields in
    mT at the grade's nominal Br (a step is relative: the baseline absorbs the absolute level)."""
    d, l_ = magnet["d_mm"], magnet["l_mm"]
    br = (magnet["br_min"] + magnet["br_max"]) / 2
    h = sensor_depth_mm(cube)

    def bz(axis, dx, dy, dz=0.0, b=br):
        return field(b, d, l_, axis, (dx, dy, -h - dz))[2]

    a = DIAGONALS[0]
    steps = [abs(bz(a, 0, 0, cube * k)) for k in range(4)]
    card_steps = [abs(bz(a, 0, 0, CARD_MM + cube * k)) for k in range(2)]
    shift = {}
    for r in SHIFTS_MM:
        shift[r] = max(abs(bz(x, r * math.cos(t), r * math.sin(t)) - bz(x, 0, 0))
                       for x in DIAGONALS for t in (k * math.pi / 4 for k in range(8)))
    near = [max(abs(bz(x, pitch, 0, cube * k)) for x in DIAGONALS) for k in range(3)]
    cm = CARD_MAGNET
    ch = CARD_MM / 2 + TOP_PLATE_MM + LED_GAP_MM - HALL_ELEMENT_MM
    card = abs(field(cm["br_max"], cm["d_mm"], cm["l_mm"], (0, 0, 1), (0, 0, -ch))[2])
    base = analyse(magnet, pitch, cube, tol, fast=True)
    largest = card + abs(bz(a, 0, 0, CARD_MM, magnet["br_max"])) + base["surrounded_max_mt"]
    lsb = lsb_mt()
    mid = ADC_CODES // 2
    single = (base["small_offset_max_mt"] + base["surrounded_max_mt"]) / lsb
    return {
        "br": br,
        "steps_mt": steps,
        "card_steps_mt": card_steps,
        "shift_mt": shift,
        "neighbour_mt": near,
        "card_mt": card,
        "largest_mt": largest,
        "lsb_mt": lsb,
        "step1_lsb": steps[1] / lsb,
        "single_codes": (mid - single, mid + single),
        "dnl_gap_codes": min(abs(mid + sg * single - k) for k in ADC_DNL_CODES for sg in (1, -1)),
        "own_min_mt": base["own_min_mt"],
        "surrounded_max_mt": base["surrounded_max_mt"],
    }


def sensor_noise_lsb():
    """The sensor's own noise at the ADC, RMS in ADC steps: its noise density over its
    bandwidth (a first-order roll-off: pi/2 times the -3 dB bandwidth)."""
    from circuit import parts as P
    rms_mt = P.DRV5055_NOISE_NT_RTHZ * 1e-6 * math.sqrt(P.DRV5055_BANDWIDTH_HZ * math.pi / 2)
    return rms_mt / lsb_mt()


def calibration_revb():
    """What is left of a sensor's zero after `calibrate` (firmware/system/calib.py: CAL_SCANS
    scans of SAMPLES conversions averaged per cell, the HAL's firmware/hal/hall.py after it),
    in mT: the noise of that average (NOISE_SIGMAS of it), the mid-supply reference the fields
    are read against (held until its average moved by more than MID_BAND units of a sum: off
    by up to that plus 3 sigma of its average, once when the zeros were taken and once now),
    and the rounding of the zero and of the field to 0.01 mT. Besides, what any reading may be
    off by: the HAL's deadband (a cell's field is taken over only when it moved by more)."""
    from firmware.hal import hall
    from hardware import pinmap_revb as PM
    lsb = lsb_mt()
    conv = math.hypot(ADC_NOISE_LSB, sensor_noise_lsb())     # one conversion, ADC steps RMS
    noise = NOISE_SIGMAS * conv / math.sqrt(PM.SAMPLES * PM.CAL_SCANS) * lsb
    # the reference's average over ~16 scans (x += (sum - x / 16)): 1/31 of one sum's variance
    mid_sigma = conv * math.sqrt(PM.SAMPLES) / math.sqrt(31) / PM.SAMPLES
    mid = 2 * (hall.MID_BAND / PM.SAMPLES + 3 * mid_sigma) * lsb
    rounding = 0.01
    return {"scans": PM.CAL_SCANS, "conversion_lsb": conv, "noise_mt": noise, "mid_mt": mid,
            "rounding_mt": rounding, "zero_mt": noise + mid + rounding,
            "deadband_mt": PM.DEADBAND / 100.0}


def occupancy_revb(a, zero_mt):
    """(occupied, empty): the least field a cell with a cube reads (the worst cube, 8 worst
    neighbours against it) and the most an empty one reads (8 worst neighbours), in mT, with
    the sensors' sensitivity spread, a zero error of zero_mt and the deadband."""
    dead = calibration_revb()["deadband_mt"]
    occupied = (a["own_min_mt"] - a["surrounded_max_mt"]) * (1 - HALL_GAIN_TOL) - zero_mt - dead
    empty = a["surrounded_max_mt"] * (1 + HALL_GAIN_TOL) + zero_mt + dead
    return occupied, empty


def uncalibrated_revb(a):
    """A line of information (no rule): the occupancy's worst cases with the sensors' whole
    zero error left in, as on a board never calibrated."""
    from hardware import pinmap_revb as PM
    on, off = PM.OCC_ON / 100.0, PM.OCC_OFF / 100.0
    occupied, empty = occupancy_revb(a, HALL_ZERO_MT)
    return ("not calibrated (zero +-%.2f mT left in): occupied >= %.2f mT vs OCC_ON %.2f%s; "
            "empty <= %.2f mT vs OCC_OFF %.2f%s" % (
                HALL_ZERO_MT, occupied, on, "" if occupied >= on else ": short",
                empty, off, "" if empty < off else ": over (a cell emptied may read occupied on)"))


def requirements_revb(a):
    """(name, ok, text) for revision B's design rules."""
    from hardware import pinmap_revb as PM
    on, off = PM.OCC_ON / 100.0, PM.OCC_OFF / 100.0
    cal = calibration_revb()
    occupied, empty = occupancy_revb(a, cal["zero_mt"])
    return [
        ("step", a["step1_lsb"] >= 10,
         "1 <-> 2 cubes: a %.2f mT step = %.0f ADC steps (>= 10)" % (a["steps_mt"][1], a["step1_lsb"])),
        ("range", a["largest_mt"] <= HALL_RANGE_MT,
         "largest field (card, cube of the same pole, 8 worst neighbours) %.1f mT within the "
         "sensor's +-%.0f mT" % (a["largest_mt"], HALL_RANGE_MT)),
        ("dnl", a["dnl_gap_codes"] >= 64,
         "a cube and its neighbours read codes %.0f..%.0f: %.0f codes from the ADC's DNL spikes "
         "(>= 64)" % (a["single_codes"][0], a["single_codes"][1], a["dnl_gap_codes"])),
        ("occupancy", occupied >= on and empty < off,
         "occupied >= %.2f mT (worst cube, 8 worst neighbours against it) vs OCC_ON %.2f; empty "
         "<= %.2f mT (8 worst neighbours) vs OCC_OFF %.2f; sensitivity +-%.0f %%, zero "
         "+-%.3f mT after `calibrate`, deadband %.2f mT" % (
             occupied, on, empty, off, 100 * HALL_GAIN_TOL, cal["zero_mt"], cal["deadband_mt"])),
    ]


def table_revb(a):
    s = a["steps_mt"]
    cal = calibration_revb()
    rows = [
        ("sensor, ADC", "DRV5055A2 %.0f mV/mT (+-%.0f mT), 12 bits of 3.3 V: %.4f mT per step"
         % (HALL_SENS_MV_PER_MT, HALL_RANGE_MT, a["lsb_mt"])),
        ("cube on the cell (the bottom cube)", "%.2f mT" % s[0]),
        ("step of the 2nd / 3rd / 4th cube of a stack", "%.3f / %.3f / %.3f mT" % (s[1], s[2], s[3])),
        ("2nd cube of a stack, in ADC steps", "%.0f" % a["step1_lsb"]),
        ("cube on a card / 2nd cube on a card", "%.2f / %.3f mT" % tuple(a["card_steps_mt"])),
        ("bottom cube shifted 0.25 / 0.5 / 1 mm, worst", "%.2f / %.2f / %.2f mT" % tuple(
            a["shift_mt"][r] for r in SHIFTS_MM)),
        ("orthogonal neighbour at level 1 / 2 / 3, worst", "%.3f / %.3f / %.3f mT" % tuple(
            a["neighbour_mt"])),
        ("largest field (card + cube + 8 neighbours)", "%.1f mT" % a["largest_mt"]),
        ("a cube with its neighbours, ADC codes", "%.0f..%.0f" % a["single_codes"]),
        ("zero left after `calibrate` (%d scans averaged)" % cal["scans"],
         "+-%.3f mT: noise %.3f (%d sigma of %.2f steps per conversion), mid reference %.3f, "
         "rounding %.3f" % (cal["zero_mt"], cal["noise_mt"], NOISE_SIGMAS,
                            cal["conversion_lsb"], cal["mid_mt"], cal["rounding_mt"])),
    ]
    lines = ["| quantity (revision B, nominal Br %.2f T) | value |" % a["br"], "|---|---|"]
    for k, v in rows:
        lines.append("| %s | %s |" % (k, v))
    return "\n".join(lines)


# The tables the revision-B firmware predicts steps from (firmware/games/cargocube/field.py, generated).
FIELD_TABLES_PY = Path(__file__).resolve().parent.parent / "firmware" / "games" / "cargocube" / "field.py"
# Directions to a neighbouring magnet, in the order of shared_rules.geometry's 8 surrounding
# cells (N, NE, E, SE, S, SW, W, NW), and the 8 magnet diagonals (x east, y north, z up) in the
# order the firmware numbers them: z up first, then y, then x, each + before -.
NEAR_DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
FW_DIAGONALS = tuple((sx, sy, sz) for sz in (1, -1) for sy in (1, -1) for sx in (1, -1))


def firmware_tables(magnet=MAGNET, pitch=CELL_PITCH_MM, cube=CUBE_MM):
    """Centred fields in units of 0.01 mT at the grade's nominal Br: STEP[L] (STEP_CARD[L] on a
    card) is |Bz| at a sensor from the cube L levels up its own stack (L = 0: the bottom cube),
    whose sign is its magnet's vertical sense; NEAR[(k * 8 + d) * 3 + L] is Bz from a cube
    L levels up on the neighbouring cell in direction k, magnet along diagonal d."""
    d_, l_ = magnet["d_mm"], magnet["l_mm"]
    br = (magnet["br_min"] + magnet["br_max"]) / 2
    h = sensor_depth_mm(cube)
    up = tuple(c * S3 for c in FW_DIAGONALS[0])

    def bz(axis, dx, dy, dz):
        return field(br, d_, l_, axis, (dx, dy, -h - dz))[2]

    step = tuple(int(round(100 * abs(bz(up, 0, 0, cube * k)))) for k in range(5))
    step_card = tuple(int(round(100 * abs(bz(up, 0, 0, CARD_MM + cube * k)))) for k in range(5))
    near = []
    for kx, ky in NEAR_DIRS:
        for dg in FW_DIAGONALS:
            axis = tuple(c * S3 for c in dg)
            for level in range(3):
                # the sensor sits at minus the neighbour's offset from the magnet
                near.append(int(round(100 * bz(axis, -kx * pitch, -ky * pitch, cube * level))))
    return {"STEP": step, "STEP_CARD": step_card, "NEAR": tuple(near)}


def render_tables(t=None):
    t = t if t is not None else firmware_tables()
    lines = [
        "# Revision B: centred magnet fields for the firmware's step predictions, in 0.01 mT.",
        "# GENERATED by `python -m circuit.magnet --tables` from the field model (circuit/magnet.py);",
        "# never edit (a test compares). STEP[L] / STEP_CARD[L]: |Bz| at a sensor from the cube L",
        "# levels up its own stack (on a card: STEP_CARD); its sign is its magnet's vertical sense.",
        "# NEAR[(k * 8 + d) * 3 + L]: Bz from a cube L levels up on the neighbouring cell in direction",
        "# k (N, NE, E, SE, S, SW, W, NW), its magnet along diagonal d (z up first, then y, then x,",
        "# each + before -), a signed byte. Plain data for device code: NEAR is a bytes literal,",
        "# which a compiled module keeps as a constant (nothing to build on the heap).",
        "",
        "STEP = %r" % (t["STEP"],),
        "STEP_CARD = %r" % (t["STEP_CARD"],),
        "NEAR = (",
    ]
    near = bytes(v & 0xFF for v in t["NEAR"])
    for k in range(8):
        lines.append("    %r" % near[k * 24:(k + 1) * 24])
    lines.append(")  # signed bytes: v - 256 above 127")
    return "\n".join(lines) + "\n"


def main(argv=None):
    from circuit import cli
    rev, flags = cli.parse(argv, __doc__, flags=("--tables", "--check"))
    if "--check" in flags and "--tables" not in flags:
        cli.usage("--check checks the step tables: --tables --check")
    if "--tables" in flags:
        text = render_tables()
        if "--check" in flags:
            ok = FIELD_TABLES_PY.exists() and FIELD_TABLES_PY.read_text() == text
            print("firmware/games/cargocube/field.py %s" % ("matches the field model" if ok else
                                                 "is out of date: run `python -m circuit.magnet --tables`"))
            return 0 if ok else 1
        FIELD_TABLES_PY.write_text(text)
        print("wrote firmware/games/cargocube/field.py")
        return 0
    if rev == "B":
        a = analyse_revb()
        print(table_revb(a))
        print()
        rules = requirements_revb(a)
        info = uncalibrated_revb(a)
    else:
        a = analyse()
        print(table(a))
        print()
        rules = requirements(a)
        info = None
    for name, ok, text in rules:
        print("%-9s %s  %s" % (name, "ok  " if ok else "FAIL", text))
    if info:
        print("%-9s %s  %s" % ("info", "    ", info))
    return 0 if all(ok for _, ok, _ in rules) else 1


if __name__ == "__main__":
    sys.exit(main())
