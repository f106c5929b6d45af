"""Revision B: how long one scan of the 121 linear Hall sensors takes, and whether it fits the
10 ms frame of the RP2040 (docs/hardware.md quotes the table; a test checks it).

    python -m circuit.scantime

The scan (the revision-B HAL, its inner loop in viper): for each of the 11 rows, power the row
(one register write; the 74HC154 turns its P-MOSFET on) and wait for the sensors to come up;
then for each of the row's 11 cells write the cell address (one register write: channel and
multiplexer), discard one conversion while the multiplexer and the ADC input settle, and sum
SAMPLES conversions. Two more channels per scan read the mid-supply reference and GND.

Inputs: the pin map's settings (hardware/pins_revb.json: SAMPLES, ROW_ON_US, MUX_SETTLE_US), the
datasheets (DRV5055 power-on time, the RP2040 ADC's 96 cycles of its 48 MHz clock per
conversion) and our estimate of the loop's own cost per cell. Where the loop is written decides
whether it fits: a Python loop calling `ADC.read_u16()` costs tens of microseconds per
conversion on the 125 MHz RP2040 (an empty Python loop iteration alone is ~3.4 us there, issue
11), a viper loop on the registers about a microsecond per cell; the ADC's FIFO drained by DMA
would take the conversions off the CPU altogether (the way out if the frame ever overruns).
"""

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
        ("steady frame: viper scan + the rest of the frame (%.1f ms)" % (APP_STEADY_US / 1000.0),
         "%.2f ms of the %d ms frame" % ((viper_max + APP_STEADY_US) / 1000.0, FRAME_US // 1000)),
    ]
    lines = ["| step | time |", "|---|---|"]
    for k, v in rows:
        lines.append("| %s | %s |" % (k, v))
    return "\n".join(lines)


def fits():
    """Whether the viper scan (at the power-on allowance) and a steady frame fit 10 ms, and
    whether a Python loop would not."""
    viper, _ = scan_us(VIPER_CELL_US, VIPER_ROW_US)
    python, _ = scan_us(PYTHON_CELL_US, VIPER_ROW_US * 10, per_read_us=PYTHON_READ_US)
    return viper + APP_STEADY_US <= FRAME_US, python + APP_STEADY_US <= FRAME_US


def main():
    print(table())
    viper_ok, python_ok = fits()
    print()
    print("viper scan fits the frame: %s; a Python loop would: %s" % (
        "yes" if viper_ok else "NO", "yes" if python_ok else "no"))
    return 0 if viper_ok else 1


if __name__ == "__main__":
    sys.exit(main())
