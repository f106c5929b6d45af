"""The pin map: hardware/pins.json is the single source; hardware/pinmap.py is generated from it.

The board cannot parse JSON cheaply at boot (and frozen firmware has no data files), so the
firmware keeps importing a plain module, `hardware/pinmap.py`, which this module writes:

    python -m circuit.pins            # regenerate hardware/pinmap.py
    python -m circuit.pins --check    # exit 1 if it differs from what pins.json gives

The netlist (circuit/board.py) takes the Pico's pin nets from the same file, and
tests/test_circuit_pins.py fails when pinmap.py and pins.json drift apart.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINS_JSON = ROOT / "hardware" / "pins.json"
PINMAP_PY = ROOT / "hardware" / "pinmap.py"

# RP2040 GPIO functions that the pin map relies on (RP2040 datasheet, GPIO function table).
SPI_FUNCTIONS = {
    0: {"RX": (0, 4, 16, 20), "CSN": (1, 5, 17, 21), "SCK": (2, 6, 18, 22), "TX": (3, 7, 19, 23)},
    1: {"RX": (8, 12, 24, 28), "CSN": (9, 13, 25, 29), "SCK": (10, 14, 26), "TX": (11, 15, 27)},
}
# GPIOs of the RP2040 that the Pico module does not bring out to its header.
PICO_INTERNAL = {23: "SMPS mode", 24: "VBUS sense", 25: "on-board LED", 29: "VSYS/3 ADC"}


class PinMapError(ValueError):
    """pins.json is inconsistent (message says what)."""


def load(path=PINS_JSON):
    data = json.loads(Path(path).read_text())
    validate(data)
    return data


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
    spi = SPI_FUNCTIONS.get(v["SPI_ID"])
    if spi is None:
        raise PinMapError("SPI_ID %r: the RP2040 has SPI0 and SPI1" % v["SPI_ID"])
    for pin, fn in (("SPI_SCK", "SCK"), ("SPI_MOSI", "TX"), ("SPI_MISO", "RX")):
        if v[pin] not in spi[fn]:
            raise PinMapError("%s = GP%d is not an SPI%d %s pin (%s)" % (
                pin, v[pin], v["SPI_ID"], fn, ", ".join("GP%d" % g for g in spi[fn])))


def values(data):
    """name -> value for every pin (its GPIO number) and setting."""
    out = {}
    for p in data["pins"]:
        out[p["name"]] = p["gpio"]
    for s in data["settings"]:
        out[s["name"]] = s["value"]
    return out


def pin_nets(data):
    """GPIO number -> board net name, for the pins wired on the board (net not null)."""
    return {p["gpio"]: p["net"] for p in data["pins"] if p.get("net")}


def _literal(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    return repr(v)


def render(data):
    """The text of hardware/pinmap.py for this pin map."""
    lines = [
        "# Cargoboard pin map (Raspberry Pi Pico, RP2040). GENERATED from hardware/pins.json by",
        "# `python -m circuit.pins`: edit pins.json, never this file (a test compares the two).",
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
    argv = sys.argv[1:] if argv is None else argv
    text = render(load())
    if "--check" in argv:
        if PINMAP_PY.read_text() != text:
            print("hardware/pinmap.py is out of date: run `python -m circuit.pins`")
            return 1
        print("hardware/pinmap.py matches hardware/pins.json")
        return 0
    PINMAP_PY.write_text(text)
    print("wrote %s" % PINMAP_PY.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
