"""Power budget of the board on USB power, from the BOM and the firmware's LED limits.

    python -m circuit.power      # print the table (docs/hardware.md quotes it; a test checks)

- Quantities: circuit/bom.csv (generated from the netlist; a test keeps them equal).
- Currents per part: circuit/parts.py (datasheet figures, or our allowance where a datasheet only
  gives a typical value).
- LEDs: the firmware's own limit. The app starts its painter with `cap` (brightness cap) and
  `budget_ma` (LED current budget) defaults (firmware/system/app.py, App.__init__); the painter scales
  every frame so that its estimate I = N_LEDS * IDLE_MA + sum(channels) * CH_MA / 255 stays within
  budget_ma (firmware/drivers/leds.py). Those numbers are imported from the firmware, not restated.
- 3.3 V loads come from the Pico's regulator, so they cost 3.3/5/efficiency of their current at
  the USB port.
"""

import csv
import inspect
import sys
from pathlib import Path

from circuit import parts as P

ROOT = Path(__file__).resolve().parent.parent
BOM_CSV = Path(__file__).resolve().parent / "bom.csv"

USB_LIMIT_MA = 500.0        # USB 2.0 port, configured device
MARGIN = 0.05               # keep 5 % of it free
REG_EFFICIENCY = 0.80       # Pico buck-boost (RT6150) at a few mA out: conservative
V_USB = 5.0
V_LOGIC = 3.3
PULLUP_OHM = 47e3


def firmware_led_limits():
    """(cap, budget_ma, idle_ma, ch_ma, n_leds) as the firmware uses them."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from firmware import hal
    from firmware.drivers import leds
    from firmware.system.app import App
    params = inspect.signature(App.__init__).parameters
    return (params["cap"].default, params["budget_ma"].default, leds.IDLE_MA, leds.CH_MA,
            hal.N_LEDS)


def bom_quantities(path=BOM_CSV):
    with open(path, newline="") as f:
        return {row["mpn"]: int(row["qty"]) for row in csv.DictReader(f)}


def budget(bom=None):
    """Rows (load, rail, qty, each_ma, rail_ma, usb_ma, note) and the totals."""
    bom = bom if bom is not None else bom_quantities()
    cap, budget_ma, idle_ma, ch_ma, n_leds = firmware_led_limits()
    rows = []
    if bom.get(P.WS2812B.mpn) != n_leds:
        raise ValueError("BOM has %s LEDs, the firmware drives %d" % (bom.get(P.WS2812B.mpn), n_leds))
    unlimited = n_leds * (idle_ma + 3 * ch_ma * cap / 255.0)
    rows.append(("WS2812B LEDs, at the firmware's budget", "+5V_LED", n_leds, None,
                 float(budget_ma), float(budget_ma),
                 "model: %d mA idle + %d mA per channel at 255; cap %d/255; all white at the cap "
                 "would be %.0f mA, the painter scales it to %d mA"
                 % (idle_ma, ch_ma, cap, unlimited, budget_ma)))
    logic_3v3 = 0.0
    for spec in P.ALL:
        cur = spec.current
        if cur is None or spec.mpn not in bom:
            continue
        qty = bom[spec.mpn]
        rail_ma = qty * cur.max_ma
        if cur.rail == "+3V3":
            logic_3v3 += rail_ma
            usb = rail_ma * V_LOGIC / V_USB / REG_EFFICIENCY
        else:
            usb = rail_ma
        rows.append(("%s (%s)" % (spec.value, spec.mpn), cur.rail, qty, cur.max_ma, rail_ma, usb,
                     "%s; typical %.4g mA each" % (cur.source, cur.typ_ma)))
    n_inputs = bom[P.DRV5032.mpn] + bom[P.BUTTON.mpn]
    pull = V_LOGIC / PULLUP_OHM * 1e3
    rows.append(("pull-ups of active inputs (every cell occupied, every button held)", "+3V3",
                 n_inputs, pull, n_inputs * pull, n_inputs * pull * V_LOGIC / V_USB / REG_EFFICIENCY,
                 "3.3 V / 47 kOhm"))
    total = sum(r[5] for r in rows)
    other = total - budget_ma
    allowed = USB_LIMIT_MA * (1 - MARGIN)
    return {
        "rows": rows,
        "total_ma": total,
        "limit_ma": USB_LIMIT_MA,
        "margin_ma": USB_LIMIT_MA - total,
        "allowed_ma": allowed,
        "max_led_budget_ma": int(allowed - other),
        "led_budget_ma": budget_ma,
        "cap": cap,
    }


def table(b=None):
    b = b if b is not None else budget()
    lines = ["| load | rail | qty | each (mA) | on its rail (mA) | at USB 5 V (mA) |",
             "|---|---|---|---|---|---|"]
    for load, rail, qty, each, rail_ma, usb, note in b["rows"]:
        lines.append("| %s | %s | %d | %s | %.1f | %.1f |" % (
            load, rail, qty, "-" if each is None else "%.4g" % each, rail_ma, usb))
    lines.append("| **total** | USB | | | | **%.1f** |" % b["total_ma"])
    lines.append("")
    lines.append("USB limit %.0f mA: margin %.1f mA (%.1f %%). Largest LED budget that keeps %.0f %% "
                 "of the USB limit free: %d mA (firmware default %d mA, `budget` command)." % (
                     b["limit_ma"], b["margin_ma"], 100.0 * b["margin_ma"] / b["limit_ma"],
                     100 * MARGIN, b["max_led_budget_ma"], b["led_budget_ma"]))
    return "\n".join(lines)


def main():
    b = budget()
    print(table(b))
    for load, rail, qty, each, rail_ma, usb, note in b["rows"]:
        print("  - %s: %s" % (load, note))
    return 0 if b["total_ma"] <= b["allowed_ma"] else 1


if __name__ == "__main__":
    sys.exit(main())
