"""Revision B: how long one scan of the 121 linear Hall sensors takes, and whether it fits the
10 ms frame of the RP2040; and whether the ADC input settles in the one conversion the scan
discards after each cell address (`settling`) (docs/hardware.md quotes the table; a test
checks it).

    python -m circuit.scantime

The scan (the revision-B HAL, its inner loop in viper): for each of the 11 rows, power the row
(one register write; the 74HC154 turns its P-MOSFET on) and wait for the sensors to come up;
then for each of the row's 11 cells write the cell address (one register write: channel and
multiplexer), discard one conversion while the multiplexer and the ADC input settle, and sum
SAMPLES conversions. Two more channels per scan read the mid-supply reference and GND.

Inputs: the pin map's settings (hardware/pins_revb.json: SAMPLES, ROW_ON_US; the multiplexer
settles during the one discarded conversion, no wait of its own), the datasheets (DRV5055
power-on time, which ROW_ON_US is, the RP2040 ADC's 96 cycles of its 48 MHz clock per
conversion) and our estimate of the loop's own cost per cell. Beside the estimate the table
gives what the emulated RP2040 measured (bench/revb_scan.py): the scan took 0.7 ms more than
estimated; a quiet frame fits the 10 ms frame, a move's frame just (or just not), the worst
(every cell converted anew, and the frame in which the 121 settle in the level scanner)
overruns it; `frame_figures` says by how much. Where the loop is written decides
whether it fits: a Python loop calling `ADC.read_u16()` costs tens of microseconds per
conversion on the 125 MHz RP2040 (an empty Python loop iteration alone is ~3.4 us there, issue
11), a viper loop on the registers about a microsecond per cell; the ADC's FIFO drained by DMA
would take the conversions off the CPU altogether (the way out if the frame ever overruns).
"""

import math
import sys
from pathlib import Path

from circuit import parts as P

ROOT = Path(__file__).resolve().parent.parent
FRAME_US = 10000
ADC_CONVERSION_US = 96 / 48.0         # RP2040 ADC: 96 cycles of the 48 MHz ADC clock
# Our estimates of the CPU's own cost (to be replaced by the figure measured on the emulated
# RP2040, bench/frame.py, once the board runs there):
PYTHON_READ_US = 12.0                 # one ADC.read_u16() call and the sum, in Python
PYTHON_CELL_US = 15.0                 # the cell address written through machine.mem32, in Python
VIPER_CELL_US = 1.0                   # address write, FIFO polls and sum per cell, in viper
VIPER_ROW_US = 2.0                    # row address write and loop per row, in viper
# What the rest of a steady frame costs there (issue 11: 1.6 ms p95 on the emulated RP2040).
APP_STEADY_US = 1600
# Measured on the emulated RP2040 wired as revision B (`.venv/bin/python bench/revb_scan.py`,
# the HAL as deployed, the stock image, the 2-player Cargocube start on the emulator's analog
# front end; docs/hardware.md): the scan alone (p50 of 50; max 6734 us), and the largest
# read_sensors() of 50 when every cell moved (the scan plus the fields and occupancy of all
# 121 cells, in viper: the worst frame's sensor read; p50 7552 us; 15239 with the conversion
# in Python).
MEASURED_SCAN_US = 6726
MEASURED_READ_WORST_US = 7556
# ... and whole frames there (App.step as deployed, Cargocube in play on the 2-player start:
# the bench's second part): a quiet frame (p50), the frame in which a move's 7-8 cells change
# (the most of the move's frames: 8.5-8.6 ms, 10.4 ms in the first, whose level scanner took
# 1.9 ms against 0.5: its emptied list's first append allocates, and 10.6 ms in the second
# frame of a move onto a stack, whose read phase took 1.36 ms against ~0.1 and the rest 1.24
# against ~0.55: a collection's size, not traced), the frame in which every cell is converted
# anew (the mid-supply reference moved: the level scanner compares all 121) and the one 30 ms
# later in which the 121 settle in the level scanner: the worst frames the sensors make. (A
# frame in which the game's tracker works is longer: bench/cargocube/revb_pico.py.)
MEASURED_FRAME_QUIET_US = 7400
MEASURED_FRAME_MOVE_US = 10614
MEASURED_FRAME_ALL_US = 12388
MEASURED_FRAME_SETTLE_US = 17460


# --- The ADC input's settling: does one discarded conversion cover it? ----------------------------
# After the cell address is written, the first conversion (2 us) is thrown away while the ADC
# input node moves from the last channel's voltage to this one's. The node is every
# multiplexer's COM (all eight join on ADC0, 50 pF each), one channel's input, the RP2040's pin
# and the line; it is driven by the sensor (a +-1 mA output) through the multiplexer's
# on-resistance, which TI specifies at 4.5 V and 6 V only (parts.HC4067_RON_*). The worst steps:
# the next cell after a cell reading the largest field the other way (a cube on a card,
# 28.5 mT: 0.86 V from mid-supply); the first cell of a row, whose node the previous row's
# sensor, switched off, or the zero channel left near 0 V: up to 2.51 V. What is left at the
# first kept conversion counts 1/SAMPLES in the average.
MUX_ON_US = 0.2                       # the switch's turn-on at 3.3 V: our allowance (60/75 ns at 4.5 V)
LARGEST_FIELD_MT = 28.5               # circuit.magnet --rev b: card + cube + 8 neighbours
SETTLE_MAX_LSB = 0.25                 # what the average may keep of the step from the last cell


def adc_node_farads(n_mux=8):
    """The ADC input node: every multiplexer's COM (enabled or not), one channel's input, the
    RP2040's pin and the line along the board."""
    return n_mux * P.HC4067_C_COM_F + P.HC4067_C_IN_F + P.ADC_NODE_EXTRA_F


def _left(r, c, dv, t):
    """What is left of a step dv (V) after t (s), driven through r (ohm) into c (F) by an output
    that gives at most DRV5055_DRIVE_MA: slewing at that current while dv / r exceeds it, then
    the RC exponential."""
    imax = P.DRV5055_DRIVE_MA * 1e-3
    if dv > r * imax:
        slew = (dv - r * imax) * c / imax
        if slew >= t:
            return dv - imax * t / c
        return r * imax * math.exp(-(t - slew) / (r * c))
    return dv * math.exp(-t / (r * c))


def settling(r_on=None, samples=None):
    """(figures) the node, its time constant at r_on (default: our bound at 3.3 V) and, for the
    next cell and for a row's first cell, what the SAMPLES-average keeps of the step, in ADC
    steps."""
    PM = settings()
    r = P.HC4067_RON_3V3_OHM if r_on is None else r_on
    n = PM.SAMPLES if samples is None else samples
    c = adc_node_farads()
    lsb = 3.3 / 4096
    t = (ADC_CONVERSION_US - MUX_ON_US) * 1e-6
    mid = 3.3 / 2
    big = LARGEST_FIELD_MT * PM.SENS_UV_PER_MT / 1e6
    out = {"r_on": r, "node_f": c, "tau_us": r * c * 1e6, "settle_us": t * 1e6}
    for name, dv in (("next_cell", big), ("row_start", mid + big)):
        kept = sum(_left(r, c, dv, t + k * ADC_CONVERSION_US * 1e-6) for k in range(n))
        out[name + "_v"] = dv
        out[name + "_lsb"] = kept / n / lsb
    return out


def settles(f=None):
    """A cell's reading keeps at most SETTLE_MAX_LSB of the last cell's: the multiplexer at our
    bound for its on-resistance at 3.3 V."""
    f = f if f is not None else settling()
    return f["next_cell_lsb"] <= SETTLE_MAX_LSB


def settings():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from hardware import pinmap_revb as PM
    return PM


def scan_us(per_cell_cpu_us, per_row_cpu_us, per_read_us=0.0, t_on_us=None):
    """(total, breakdown) of one scan in microseconds."""
    PM = settings()
    rows = 121 // PM.ROW_CELLS
    t_on = PM.ROW_ON_US if t_on_us is None else t_on_us
    reads = PM.SAMPLES + 1                       # one discarded while the input settles
    conv = reads * max(ADC_CONVERSION_US, per_read_us)
    cell = conv + per_cell_cpu_us
    cells = 121 + 2                              # and the mid-supply and zero channels
    total = rows * (t_on + per_row_cpu_us) + cells * cell
    return total, {"rows": rows, "t_on": t_on, "reads": reads, "cell_us": cell}


def table():
    PM = settings()
    lo, hi = P.DRV5055_T_ON_US
    viper_max, d = scan_us(VIPER_CELL_US, VIPER_ROW_US)
    viper_typ, _ = scan_us(VIPER_CELL_US, VIPER_ROW_US, t_on_us=lo)
    python, _ = scan_us(PYTHON_CELL_US, VIPER_ROW_US * 10, per_read_us=PYTHON_READ_US)
    rows = [
        ("rows powered one at a time", "%d x (power-on %d us max allowance, %d us typical)"
         % (d["rows"], hi, lo)),
        ("conversions per cell", "%d (1 discarded while the multiplexer settles, %d averaged)"
         % (d["reads"], PM.SAMPLES)),
        ("one conversion (RP2040 ADC, 96 cycles at 48 MHz)", "%.1f us" % ADC_CONVERSION_US),
        ("one cell, viper loop", "%.1f us" % d["cell_us"]),
        ("scan, viper loop (power-on max / typical)", "%.2f / %.2f ms" % (viper_max / 1000.0,
                                                                          viper_typ / 1000.0)),
        ("scan, Python loop with ADC.read_u16()", "%.1f ms" % (python / 1000.0)),
        ("steady frame, estimated: viper scan + the rest of the frame (%.1f ms)"
         % (APP_STEADY_US / 1000.0),
         "%.2f ms of the %d ms frame" % ((viper_max + APP_STEADY_US) / 1000.0, FRAME_US // 1000)),
        ("scan, measured on the emulated RP2040 (bench/revb_scan.py)",
         "%.2f ms (%.2f ms over the estimate)" % (MEASURED_SCAN_US / 1000.0,
                                                   (MEASURED_SCAN_US - viper_max) / 1000.0)),
        ("quiet frame, measured whole (App.step, bench/revb_scan.py)",
         "%.2f ms of the %d ms frame" % (MEASURED_FRAME_QUIET_US / 1000.0, FRAME_US // 1000)),
        ("a move's frame, measured whole: its 7-8 cells converted and compared (the most of 4)",
         "%.2f ms of the %d ms frame" % (MEASURED_FRAME_MOVE_US / 1000.0, FRAME_US // 1000)),
        ("worst frames, measured whole: every cell converted anew / the 121 settling",
         "%.2f / %.2f ms of the %d ms frame: %s" % (
             MEASURED_FRAME_ALL_US / 1000.0, MEASURED_FRAME_SETTLE_US / 1000.0,
             FRAME_US // 1000, _over(frame_figures()))),
    ]
    f = settling()
    at = {k: settling(k) for k in P.HC4067_RON_4V5_OHM[1:2] + (2 * P.HC4067_RON_3V3_OHM,)}
    rows += [
        ("ADC input node (8 multiplexer COMs, a channel, the pin and the line)",
         "%.0f pF" % (f["node_f"] * 1e12)),
        ("multiplexer on-resistance at 3.3 V: not specified (TI: %d ohm max at 4.5 V, 25 C; %d "
         "at -40..85 C); our bound" % P.HC4067_RON_4V5_OHM[1:],
         "%d ohm: tau %.2f us, %.1f us to settle in the discarded conversion" % (
             f["r_on"], f["tau_us"], f["settle_us"])),
        ("left of the last channel in the %d-average: next cell (%.2f V step) / a row's first "
         "cell (%.2f V from 0 V)" % (PM.SAMPLES, f["next_cell_v"], f["row_start_v"]),
         "%.3f / %.2f ADC steps (at %d ohm: %.3f / %.3f; at %d ohm: %.2f / %.1f)" % (
             f["next_cell_lsb"], f["row_start_lsb"],
             P.HC4067_RON_4V5_OHM[1], at[P.HC4067_RON_4V5_OHM[1]]["next_cell_lsb"],
             at[P.HC4067_RON_4V5_OHM[1]]["row_start_lsb"], 2 * P.HC4067_RON_3V3_OHM,
             at[2 * P.HC4067_RON_3V3_OHM]["next_cell_lsb"],
             at[2 * P.HC4067_RON_3V3_OHM]["row_start_lsb"])),
    ]
    lines = ["| step | time |", "|---|---|"]
    for k, v in rows:
        lines.append("| %s | %s |" % (k, v))
    return "\n".join(lines)


def frame_figures():
    """The whole frames as measured on the emulated RP2040: a steady (quiet) one, a move's and
    the worst the sensors make (every cell converted anew, or the 121 settling), in us."""
    return {"steady_us": MEASURED_FRAME_QUIET_US, "move_us": MEASURED_FRAME_MOVE_US,
            "worst_us": max(MEASURED_FRAME_ALL_US, MEASURED_FRAME_SETTLE_US)}


def _over(f):
    d = f["worst_us"] - FRAME_US
    return "over by %.2f ms" % (d / 1000.0) if d > 0 else "fits"


def fits():
    """Whether the viper scan (at the power-on allowance) and a steady frame fit 10 ms, and
    whether a Python loop would not."""
    viper, _ = scan_us(VIPER_CELL_US, VIPER_ROW_US)
    python, _ = scan_us(PYTHON_CELL_US, VIPER_ROW_US * 10, per_read_us=PYTHON_READ_US)
    return viper + APP_STEADY_US <= FRAME_US, python + APP_STEADY_US <= FRAME_US


def main(argv=None):
    from circuit import cli
    cli.parse(argv, __doc__, rev=False)
    print(table())
    viper_ok, python_ok = fits()
    print()
    print("viper scan fits the frame: %s; a Python loop would: %s" % (
        "yes" if viper_ok else "NO", "yes" if python_ok else "no"))
    st = settling()
    print("the ADC input settles in the discarded conversion: %s (a cell keeps %.3f ADC steps "
          "of the last one's, at most %.2f, at the multiplexer's %d ohm bound; a row's first "
          "cell keeps %.2f steps of ~0 V, an offset `calibrate` takes out)" % (
              "yes" if settles(st) else "NO", st["next_cell_lsb"], SETTLE_MAX_LSB, st["r_on"],
              st["row_start_lsb"]))
    f = frame_figures()
    print("measured (emulated RP2040): a steady frame %.2f ms, the worst frame %.2f ms (%s; "
          "an overrun delays the next frame, docs/hardware.md)" % (
              f["steady_us"] / 1000.0, f["worst_us"] / 1000.0, _over(f)))
    return 0 if viper_ok and settles(st) else 1


if __name__ == "__main__":
    sys.exit(main())
