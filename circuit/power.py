"""Power budget of the board on USB power, from the BOM and the firmware's LED limits.

    python -m circuit.power [--rev b]   # print the table (docs/hardware.md quotes both; a test checks)
                                        # and the LED rail's soft start (the same on both)

- Quantities: circuit/bom.csv (generated from the netlist; a test keeps them equal).
- Currents per part: circuit/parts.py (datasheet figures, or our allowance where a datasheet only
  gives a typical value).
- LEDs: the firmware's own limit. The app starts its painter with `cap` (brightness cap) and
  `budget_ma` (LED current budget) defaults (firmware/system/app.py, App.__init__); the painter scales
  every frame so that its estimate I = N_LEDS * IDLE_MA + sum(channels) * CH_MA / 255 stays within
  budget_ma (firmware/drivers/leds.py). Those numbers are imported from the firmware, not restated.
- 3.3 V loads come from the Pico's regulator, so they cost 3.3/5/efficiency of their current at
  the USB port.
- Revision B: the linear Hall sensors draw 6..10 mA each, but only one row of them is powered at
  a time (the 74HC154 row decoder, checked by circuit.board.hall_rules): ROW_CELLS sensors count,
  not 121. Its LED budget is the revision-B HAL's (hardware/pinmap_revb.py LED_BUDGET_MA), lower
  than revision A's to make room for them.
"""

import csv
import inspect
import math
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
PULLUP_OHM = P.RESISTANCE["rn47k"][0]          # the input pull-ups (resistor networks)
ROW_EN_PULLUP_OHM = P.RESISTANCE["r10k"][0]    # revision B: ROW_EN's, while the scan holds it low
MID_DIVIDER_OHM = 2 * P.RESISTANCE["r10k"][0]  # revision B: the 10 k / 10 k mid-supply reference
PICO_3V3_MAX_MA = 300.0     # the Pico's 3V3 output (RT6150), RP2040 included (Pico datasheet)
RP2040_MA = 25.0            # the RP2040's own share of it (typical, at 125 MHz)


def firmware_led_limits(rev="A"):
    """(cap, budget_ma, idle_ma, ch_ma, n_leds) as the firmware uses them: the App's defaults;
    on revision B the budget its HAL gives the App (hardware/pinmap_revb.py)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from firmware import hal
    from firmware.drivers import leds
    from firmware.system.app import App
    params = inspect.signature(App.__init__).parameters
    budget_ma = params["budget_ma"].default
    if rev == "B":
        from hardware import pinmap_revb
        budget_ma = pinmap_revb.LED_BUDGET_MA
    return (params["cap"].default, budget_ma, leds.IDLE_MA, leds.CH_MA, hal.N_LEDS)


def bom_quantities(path=BOM_CSV):
    with open(path, newline="") as f:
        return {row["mpn"]: int(row["qty"]) for row in csv.DictReader(f)}


def _usb(rail, ma):
    """What a load of ma on rail costs at the USB port."""
    return ma * V_LOGIC / V_USB / REG_EFFICIENCY if rail == "+3V3" else ma


def budget(bom=None, rev="A"):
    """Rows (load, rail, qty, each_ma, rail_ma, usb_ma, note) and the totals."""
    from circuit import bom as BOM
    bom = bom if bom is not None else bom_quantities(BOM.BOM_CSVS[rev])
    cap, budget_ma, idle_ma, ch_ma, n_leds = firmware_led_limits(rev)
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
        load = "%s (%s)" % (spec.value, spec.mpn)
        note = "%s; typical %.4g mA each" % (cur.source, cur.typ_ma)
        if spec is P.DRV5055:
            from hardware import pinmap_revb
            qty = pinmap_revb.ROW_CELLS          # one row powered at a time
            load = "%s (%s), one row of %d powered" % (spec.value, spec.mpn, qty)
            note += "; %d on the board, rows switched by the 74HC154" % bom[spec.mpn]
        rail_ma = qty * cur.max_ma
        if cur.rail == "+3V3":
            logic_3v3 += rail_ma
        rows.append((load, cur.rail, qty, cur.max_ma, rail_ma, _usb(cur.rail, rail_ma), note))
    pull = V_LOGIC / PULLUP_OHM * 1e3
    if rev == "A":
        n_inputs = bom[P.DRV5032.mpn] + bom[P.BUTTON.mpn]
        rows.append(("pull-ups of active inputs (every cell occupied, every button held)", "+3V3",
                     n_inputs, pull, n_inputs * pull, _usb("+3V3", n_inputs * pull),
                     "3.3 V / 47 kOhm"))
    else:
        n_inputs = bom[P.BUTTON.mpn]
        rows.append(("pull-ups of active inputs (every button held)", "+3V3",
                     n_inputs, pull, n_inputs * pull, _usb("+3V3", n_inputs * pull),
                     "3.3 V / 47 kOhm"))
        en = V_LOGIC / ROW_EN_PULLUP_OHM * 1e3
        rows.append(("ROW_EN pull-up (ROW_EN low: a row powered)", "+3V3", 1, en, en,
                     _usb("+3V3", en), "3.3 V / 10 kOhm"))
        mid = V_LOGIC / MID_DIVIDER_OHM * 1e3
        rows.append(("mid-supply reference divider", "+3V3", 1, mid, mid, _usb("+3V3", mid),
                     "3.3 V / 20 kOhm"))
    logic_3v3 += sum(r[4] for r in rows if r[1] == "+3V3" and r[0].startswith(("pull", "ROW_EN", "mid")))
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
        "rev": rev,
        "pico_3v3_ma": logic_3v3 + RP2040_MA,
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
    if b["rev"] == "B":
        lines.append("The Pico's 3V3 output carries %.0f mA with the RP2040 (%.0f mA allowed)." % (
            b["pico_3v3_ma"], PICO_3V3_MAX_MA))
    return "\n".join(lines)


# The LED rail's soft start (circuit.board: AO3401A, its gate between a pull-down and a
# gate-source resistor, a gate-source and a gate-drain capacitor). While the drain ramps, the
# gate sits at the MOSFET's plateau, |Vgs| at the current it passes (~0.15 A): about 1.2 to
# 1.8 V for an AO3401A (its threshold is 0.5..1.3 V at 250 uA, datasheet; the plateau is our
# estimate from its transfer curve). Its own capacitances (Ciss ~0.6 nF) are left out: 1/200
# of the gate-drain capacitor.
PLATEAU_V = (1.2, 1.8)
VGS_TH_MIN = 0.5            # AO3401A: the least |Vgs| that starts to conduct
VGS_RDSON = 2.5             # AO3401A: the |Vgs| its on-resistance is specified at (<= 85 mOhm)


def soft_start(b=None):
    """The soft start's figures from the netlist: |Vgs| at plug-in (the capacitive divider of
    the gate), |Vgs| at the end (the resistive one), and for each plateau of PLATEAU_V the delay
    before the rail starts to rise, its slope (the gate's current through the gate-drain
    capacitor), its rise time and the bulk capacitor's charging current."""
    from circuit import board as B
    b = b if b is not None else B.build()
    fet = b.fet
    r_gnd = r_src = None
    c_src = c_drn = 0.0
    source, drain = fet["S"].net.name, fet["D"].net.name
    for pin in fet["G"].net.pins:
        part = pin.part
        if part is fet:
            continue
        other = [p for p in part.pins if p is not pin][0].net.name
        key = part.spec_key
        if key in P.RESISTANCE:
            r = P.RESISTANCE[key][0]
            if other == "GND":
                r_gnd = r
            elif other == source:
                r_src = r
        elif key in P.CAPACITANCE:
            if other == source:
                c_src += P.CAPACITANCE[key]
            elif other == drain:
                c_drn += P.CAPACITANCE[key]
    v = V_USB
    vgs_start = v * c_drn / (c_src + c_drn) if c_src + c_drn else 0.0
    vgs_end = v if r_src is None else v * r_src / (r_src + r_gnd)
    r_th = r_gnd if r_src is None else r_gnd * r_src / (r_gnd + r_src)
    tau = r_th * (c_src + c_drn)
    c_bulk = P.CAPACITANCE[b.bulk.spec_key]
    ramps = []
    for vp in PLATEAU_V:
        # the gate falls from where the capacitors put it towards the resistors' level
        if vgs_start >= vp:
            delay = 0.0
        else:
            delay = tau * math.log((vgs_end - vgs_start) / (vgs_end - vp))
        amps = (v - vp) / r_gnd - (vp / r_src if r_src else 0.0)
        slope = amps / c_drn            # V/s
        ramps.append({"plateau": vp, "delay_s": delay, "v_per_ms": slope / 1e3,
                      "rise_s": v / slope, "inrush_a": c_bulk * slope})
    return {"vgs_start": vgs_start, "vgs_end": vgs_end, "ramps": ramps, "r_gnd": r_gnd,
            "r_src": r_src, "c_src": c_src, "c_drn": c_drn}


def soft_start_ok(s):
    """Off at plug-in, fully on at the end, and the bulk capacitor charged at under 0.2 A."""
    return (s["vgs_start"] < VGS_TH_MIN and s["vgs_end"] >= VGS_RDSON
            and max(r["inrush_a"] for r in s["ramps"]) < 0.2)


def soft_start_text(s=None):
    s = s if s is not None else soft_start()
    lines = ["Soft start (gate %.0f k to GND, %s and %.3g uF to the source, %.3g nF to the "
             "drain): |Vgs| %.2f V at plug-in (off below %.1f V), %.2f V at the end (on-resistance "
             "specified from %.1f V)." % (s["r_gnd"] / 1e3,
                                          "%.0f k" % (s["r_src"] / 1e3) if s["r_src"] else "no R",
                                          s["c_src"] * 1e6, s["c_drn"] * 1e9, s["vgs_start"],
                                          VGS_TH_MIN, s["vgs_end"], VGS_RDSON)]
    for r in s["ramps"]:
        lines.append("- plateau %.1f V: the rail starts %.0f ms after plug-in and rises at %.3f "
                     "V/ms, %.0f ms to 5 V; the 1000 uF charge at %.2f A." % (
                         r["plateau"], r["delay_s"] * 1e3, r["v_per_ms"], r["rise_s"] * 1e3,
                         r["inrush_a"]))
    return "\n".join(lines)


def ok(b):
    """The budget keeps 5 % of USB free and the Pico's 3V3 output within its rating."""
    return b["total_ma"] <= b["allowed_ma"] and b["pico_3v3_ma"] <= PICO_3V3_MAX_MA


def main(argv=None):
    from circuit import cli
    rev, _ = cli.parse(argv, __doc__)
    b = budget(rev=rev)
    print(table(b))
    for load, rail, qty, each, rail_ma, usb, note in b["rows"]:
        print("  - %s: %s" % (load, note))
    from circuit import board as B
    s = soft_start(B.build(revision=rev))
    print()
    print(soft_start_text(s))
    return 0 if ok(b) and soft_start_ok(s) else 1


if __name__ == "__main__":
    sys.exit(main())
