"""The pin maps: hardware/pins.json (revision A, Hall switches) and hardware/pins_revb.json
(revision B, linear Hall sensors) are the single sources; hardware/pinmap.py and
hardware/pinmap_revb.py are generated from them.

The board cannot parse JSON cheaply at boot (and frozen firmware has no data files), so the
firmware keeps importing plain modules, which this module writes:

    python -m circuit.pins            # regenerate hardware/pinmap.py and pinmap_revb.py
    python -m circuit.pins --check    # exit 1 if either differs from what its .json gives

The netlist (circuit/board.py) takes the Pico's pin nets from the same files, and
tests/test_circuit_pins.py fails when a pinmap and its .json drift apart.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINS_JSON = ROOT / "hardware" / "pins.json"
PINMAP_PY = ROOT / "hardware" / "pinmap.py"
PINS_JSON_B = ROOT / "hardware" / "pins_revb.json"
PINMAP_PY_B = ROOT / "hardware" / "pinmap_revb.py"
# revision -> (source, generated module)
REVISIONS = {"A": (PINS_JSON, PINMAP_PY), "B": (PINS_JSON_B, PINMAP_PY_B)}

# RP2040 GPIO functions that the pin map relies on (RP2040 datasheet, GPIO function table).
SPI_FUNCTIONS = {
    0: {"RX": (0, 4, 16, 20), "CSN": (1, 5, 17, 21), "SCK": (2, 6, 18, 22), "TX": (3, 7, 19, 23)},
    1: {"RX": (8, 12, 24, 28), "CSN": (9, 13, 25, 29), "SCK": (10, 14, 26), "TX": (11, 15, 27)},
}
# The RP2040's ADC inputs: GPIO 26..29 are ADC 0..3 (29 is VSYS/3 on the Pico).
ADC_GPIO_BASE = 26
# GPIOs of the RP2040 that the Pico module does not bring out to its header.
PICO_INTERNAL = {23: "SMPS mode", 24: "VBUS sense", 25: "on-board LED", 29: "VSYS/3 ADC"}


class PinMapError(ValueError):
    """pins.json is inconsistent (message says what)."""


def load(path=PINS_JSON):
    data = json.loads(Path(path).read_text())
    validate(data)
    return data


def load_revision(rev):
    """The pin map of board revision "A" or "B"."""
    return load(REVISIONS[rev.upper()][0])


def revision(data):
    return data.get("revision", "A").upper()


def validate(data):
    seen_gpio = {}
    names = set()
    for p in data["pins"]:
        name, gpio = p["name"], p["gpio"]
        if name in names:
            raise PinMapError("pin name %s twice" % name)
        names.add(name)
        if not isinstance(gpio, int) or not 0 <= gpio <= 29:
            raise PinMapError("%s: GPIO %r is not an RP2040 GPIO (0..29)" % (name, gpio))
        if gpio in seen_gpio:
            raise PinMapError("GPIO %d used by %s and %s" % (gpio, seen_gpio[gpio], name))
        seen_gpio[gpio] = name
        if gpio in PICO_INTERNAL and not p.get("on_module"):
            raise PinMapError("%s: GP%d is not on the Pico header (%s)"
                              % (name, gpio, PICO_INTERNAL[gpio]))
        if p.get("on_module") and p.get("net"):
            raise PinMapError("%s: an on-module pin has no board net" % name)
    for s in data["settings"]:
        if s["name"] in names:
            raise PinMapError("%s is both a pin and a setting" % s["name"])
        names.add(s["name"])
    v = values(data)
    if revision(data) == "B":
        _validate_hall(v)
        return
    spi = SPI_FUNCTIONS.get(v["SPI_ID"])
    if spi is None:
        raise PinMapError("SPI_ID %r: the RP2040 has SPI0 and SPI1" % v["SPI_ID"])
    for pin, fn in (("SPI_SCK", "SCK"), ("SPI_MOSI", "TX"), ("SPI_MISO", "RX")):
        if v[pin] not in spi[fn]:
            raise PinMapError("%s = GP%d is not an SPI%d %s pin (%s)" % (
                pin, v[pin], v["SPI_ID"], fn, ", ".join("GP%d" % g for g in spi[fn])))


def _validate_hall(v):
    """Revision B: the scan writes a cell's address (7 bits) and a row's (4 bits) each in one
    register write, so their GPIOs must be consecutive, in bit order; the sensors reach an ADC
    input; the buttons sit on consecutive GPIOs in the firmware's order."""
    groups = (("CELL_SHIFT", ("MUX_S0", "MUX_S1", "MUX_S2", "MUX_S3", "MUX_A0", "MUX_A1", "MUX_A2")),
              ("ROW_SHIFT", ("ROW_A0", "ROW_A1", "ROW_A2", "ROW_A3")),
              ("BUTTON_FIRST", ("BTN_CONFIRM", "BTN_NEXT", "BTN_UNDO", "BTN_HINT", "BTN_END")))
    for shift, names in groups:
        for i, name in enumerate(names):
            if v.get(name) != v[shift] + i:
                raise PinMapError("%s = GP%s: must be GP%d (%s + %d, one register write)" % (
                    name, v.get(name), v[shift] + i, shift, i))
    adc = v["HALL_ADC"] - ADC_GPIO_BASE
    if not 0 <= adc <= 2 or v["ADC_ID"] != adc:
        raise PinMapError("HALL_ADC = GP%d with ADC_ID %r: the sensors need ADC 0..2 on GP26..GP28"
                          % (v["HALL_ADC"], v["ADC_ID"]))
    if not v["OCC_OFF"] < v["OCC_ON"]:
        raise PinMapError("OCC_OFF must be below OCC_ON (hysteresis)")


def values(data):
    """name -> value for every pin (its GPIO number) and setting."""
    out = {}
    for p in data["pins"]:
        out[p["name"]] = p["gpio"]
    for s in data["settings"]:
        out[s["name"]] = s["value"]
    return out


def on_module_pins(data):
    """[(GPIO, name)] of the pins the firmware drives on the Pico module itself (no board net)."""
    return sorted((p["gpio"], p["name"]) for p in data["pins"] if p.get("on_module"))


def pin_nets(data):
    """GPIO number -> board net name, for the pins wired on the board (net not null)."""
    return {p["gpio"]: p["net"] for p in data["pins"] if p.get("net")}


def _literal(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    return repr(v)


def render(data):
    """The text of hardware/pinmap.py (or pinmap_revb.py) for this pin map."""
    src = REVISIONS[revision(data)][0].name
    rev = "" if revision(data) == "A" else ", revision " + revision(data)
    lines = [
        "# Cargoboard pin map (Raspberry Pi Pico, RP2040%s). GENERATED from hardware/%s by" % (rev, src),
        "# `python -m circuit.pins`: edit %s, never this file (a test compares the two)." % src,
        "# Plain data: device code imports it (`from hardware import pinmap`), nothing here touches",
        "# the hardware. Wiring: docs/hardware.md.",
        "",
        "# --- Pins (GPIO numbers) ---",
    ]
    pins = [("%s = %d" % (p["name"], p["gpio"]), p["doc"]) for p in data["pins"]]
    settings = [("%s = %s" % (s["name"], _literal(s["value"])), s["doc"]) for s in data["settings"]]
    col = max(len(code) for code, _ in pins + settings) + 2
    for code, doc in pins:
        lines.append(code.ljust(col) + "# " + doc)
    lines.append("")
    lines.append("# --- Settings ---")
    for code, doc in settings:
        lines.append(code.ljust(col) + "# " + doc)
    return "\n".join(lines) + "\n"


def main(argv=None):
    from circuit import cli
    _, flags = cli.parse(argv, __doc__, flags=("--check",), rev=False)
    status = 0
    for rev, (src, dst) in sorted(REVISIONS.items()):
        text = render(load(src))
        if "--check" in flags:
            if not dst.exists() or dst.read_text() != text:
                print("%s is out of date: run `python -m circuit.pins`" % dst.relative_to(ROOT))
                status = 1
            else:
                print("%s matches %s" % (dst.relative_to(ROOT), src.relative_to(ROOT)))
            continue
        dst.write_text(text)
        print("wrote %s" % dst.relative_to(ROOT))
    return status


if __name__ == "__main__":
    sys.exit(main())
