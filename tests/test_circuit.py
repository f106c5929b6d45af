"""The board's circuit (circuit/board.py, SKiDL): generated here, ERC-checked, its structure
checked, and read end to end through the REAL firmware HAL code (firmware/hal/rp2040.py with
stand-ins for `machine` and `rp2`): cells occupied in the netlist come out as the firmware's
occupancy bitmap, buttons as its button bits. Also: the BOM is what the netlist gives, and the
rules checks catch a broken circuit (a sensor left unconnected, the LED data line without its
level shifter, a missing pull-up, a shift register on 5 V).
"""

import functools
import random
import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from circuit import board as B  # noqa: E402
from circuit import bom as BOM  # noqa: E402
from circuit import parts as P  # noqa: E402
from circuit import pins as PINS  # noqa: E402
from firmware import hal as H  # noqa: E402
from shared_rules import geometry as g  # noqa: E402


@functools.lru_cache(maxsize=None)
def board():
    return B.build()


def _parts(b, key):
    return [p for p in b.circuit.parts if p.spec_key == key]


def _net(pin):
    return pin.net.name if pin.net is not None else None


_INDEX = {}


def _pins_on(b, net_name):
    idx = _INDEX.get(id(b))
    if idx is None:
        idx = {}
        for p in b.circuit.parts:
            for pin in p.pins:
                if pin.net is not None:
                    idx.setdefault(pin.net.name, []).append(pin)
        _INDEX[id(b)] = idx
    return idx.get(net_name, [])


def _pico_net(b, gpio):
    return _net(b.pico[str(P.pico_pin_of_gpio(gpio))])


def test_erc_clean_and_counts():
    b = board()
    problems = B.check(b)
    assert problems == [], "\n".join("%s: %s" % p for p in problems)
    counts = {}
    for p in b.circuit.parts:
        counts[p.spec_key] = counts.get(p.spec_key, 0) + 1
    pm = PINS.values(PINS.load())
    assert counts["pico"] == 1
    assert counts["drv5032"] == H.N_CELLS == 121
    assert counts["hc165"] == pm["CHAIN_BYTES"] == 16
    assert counts["rn47k"] == 16                       # pull-ups: one 8-network per chip
    assert counts["ws2812b"] == H.N_LEDS == 121 + 4 * H.SCORE_LEN
    assert counts["ahct1g125"] == 1                    # LED data level shifter
    assert counts["c1000u"] == 1                       # bulk capacitor
    assert counts["b3f"] == H.N_BUTTONS == 5
    assert counts["lvc3g17"] == 1 and counts["f750"] == 1 and counts["ao3401a"] == 1
    # one 100 nF per sensor, per LED, per logic chip, and one at each button's switch
    assert counts["c100n"] == 121 + 157 + 16 + 2 + H.N_BUTTONS
    assert counts["r10k"] == H.N_BUTTONS                # each button's series resistor
    # USB power: the Pico's VBUS feeds the LED rail through the fuse and the soft-start FET
    assert _net(b.pico["40"]) == "VBUS" and _net(b.fuse["1"]) == "VBUS"
    assert _net(b.fuse["2"]) == _net(b.fet["S"]) and _net(b.fet["D"]) == "+5V_LED"
    assert _net(b.bulk["+"]) == "+5V_LED" and _net(b.bulk["-"]) == "GND"
    assert _net(b.pico["36"]) == "+3V3"


def test_pico_pins_come_from_pins_json():
    b = board()
    data = PINS.load()
    for p in data["pins"]:
        num = P.pico_pin_of_gpio(p["gpio"])
        if p.get("on_module"):
            assert num is None
            continue
        got = _net(b.pico[str(num)])
        if p["net"]:
            assert got == p["net"], p
        else:
            assert got == b.circuit.NC.name, p     # e.g. SPI_MOSI: claimed, not wired
    # a different pin map gives a different netlist (the netlist really reads the file)
    moved = PINS.load()
    for p in moved["pins"]:
        if p["name"] == "WS2812_PIN":
            p["gpio"] = 21
    b2 = B.build(pinmap=moved)
    assert _net(b2.pico[str(P.pico_pin_of_gpio(21))]) == "LED_DATA_3V3"
    assert _net(b2.pico[str(P.pico_pin_of_gpio(22))]) == b2.circuit.NC.name


def _through(b, net_name):
    """Follow a signal net back towards the Pico: across 2-pin resistors and from a buffer
    output to its input. Returns the net reached (the one with a Pico pin) or None."""
    seen = set()
    while net_name not in seen:
        seen.add(net_name)
        pins = _pins_on(b, net_name)
        if any(pin.part is b.pico for pin in pins):
            return net_name
        nxt = None
        for pin in pins:
            spec = P.BY_KEY[pin.part.spec_key]
            if spec.name == "R":
                other = [q for q in pin.part.pins if q is not pin][0]
                nxt = _net(other)
            elif pin.name.endswith("Y") and spec.key in ("lvc3g17", "ahct1g125"):
                a = pin.name[:-1] + "A"
                nxt = _net(pin.part[a])
            if nxt and nxt not in seen:
                break
        if nxt is None:
            return None
        net_name = nxt
    return None


def test_control_lines_and_led_chain_reach_the_right_gpio():
    b = board()
    pm = PINS.values(PINS.load())
    for chip in b.chips:
        assert _through(b, _net(chip["CLK"])) == _pico_net(b, pm["SPI_SCK"])
        assert _through(b, _net(chip["SH/LD"])) == _pico_net(b, pm["PL"])
        assert _through(b, _net(chip["CLK_INH"])) == _pico_net(b, pm["CE"])
    # the LED chain, walked from the Pico's WS2812 pin: every LED once, in firmware order
    leds = {p.ref: p for p in _parts(b, "ws2812b")}
    first = [pin for pin in _pins_on(b, "LED_DIN_0") if pin.name == "DIN"]
    assert len(first) == 1
    assert _through(b, "LED_DIN_0") == _pico_net(b, pm["WS2812_PIN"])
    order = []
    led = first[0].part
    while led is not None:
        order.append(led)
        nxt = [pin.part for pin in _pins_on(b, _net(led["DOUT"])) if pin.name == "DIN"]
        led = nxt[0] if nxt else None
    assert len(order) == len(leds) == H.N_LEDS
    for i, led in enumerate(order[:H.N_CELLS]):
        assert g.parse_cell(led.fields["cell"]) == i


# --- End to end: netlist -> 74HC165 chain -> SPI bytes -> the real HAL code -------------------------

def _chain_bits(b, occupied, pressed):
    """The bit stream the SPI reads: simulate the 74HC165 chain as wired in the netlist."""
    pm = PINS.values(PINS.load())
    miso = _pico_net(b, pm["SPI_MISO"])
    chips = {_net(c["QH"]): c for c in _parts(b, "hc165")}
    low_nets = set()
    for s in _parts(b, "drv5032"):
        if g.parse_cell(s.fields["cell"]) in occupied:
            low_nets.add(_net(s["OUT"]))
    for sw in _parts(b, "b3f"):
        if sw.fields["role"].split()[-1] in pressed:
            # a press joins the switch's two sides: the nets of its pads 1 and 2, as the
            # footprint numbers them (a pin whose number is no pad reaches no copper)
            pads = set(P.FOOTPRINT_PADS[P.BUTTON.footprint])
            sides = {_net(pin) for pin in sw.pins if pin.num in pads}
            if "GND" in sides:
                low_nets.update(sides - {"GND"})
                # ... and the input behind the switch's series resistor reads low too (its
                # pull-up against the resistor: 0.59 V at most, button_rules checks the level)
                for side in sides - {"GND"}:
                    for pin in _pins_on(b, side):
                        if P.BY_KEY[pin.part.spec_key].name == "R":
                            far = [q for q in pin.part.pins if q is not pin][0]
                            if _net(far) not in P.RAILS:
                                low_nets.add(_net(far))
    bits = []
    net = miso
    while net in chips:
        chip = chips[net]
        for name in "HGFEDCBA":                     # QH first; A shifts out last
            n = _net(chip[name])
            pulled_up = any(P.BY_KEY[p.part.spec_key].key == "rn47k" for p in _pins_on(b, n))
            assert pulled_up, n
            bits.append(0 if n in low_nets else 1)
        net = _net(chip["SER"])
    assert net == "+3V3"                            # the last chip shifts in ones
    return bits


class _FakePin:
    def __init__(self):
        self.v = 1
        self.history = []

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.history.append(v)


class _FakeSPI:
    def __init__(self, bits, pl, ce):
        self.bits, self.pl, self.ce = bits, pl, ce

    def readinto(self, buf, write=0):
        assert self.ce.v == 0, "CLK INH must be low while shifting"
        assert self.pl.history[-2:] == [0, 1], "the inputs must be latched (PL low, then high)"
        for i in range(len(buf)):                   # SPI MSB first
            v = 0
            for k in range(8):
                j = 8 * i + k
                v = (v << 1) | (self.bits[j] if j < len(self.bits) else 1)
            buf[i] = v


@pytest.fixture
def rp2040_hal():
    """firmware.hal.rp2040 imported on CPython with stand-ins for machine and rp2."""
    machine = types.ModuleType("machine")
    machine.Pin = type("Pin", (), {"OUT": 1, "IN": 0})
    machine.SPI = type("SPI", (), {"MSB": 0})
    rp2 = types.ModuleType("rp2")
    rp2.asm_pio = lambda **kw: (lambda f: f)
    rp2.PIO = type("PIO", (), {"OUT_LOW": 0, "SHIFT_LEFT": 0})
    rp2.StateMachine = object
    micropython = types.ModuleType("micropython")
    micropython.viper = lambda f: f
    saved = {k: sys.modules.get(k) for k in ("machine", "rp2", "micropython", "firmware.hal.rp2040")}
    sys.modules["machine"] = machine
    sys.modules["rp2"] = rp2
    sys.modules["micropython"] = micropython
    sys.modules.pop("firmware.hal.rp2040", None)
    import firmware.hal.rp2040 as mod
    try:
        yield mod
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def test_netlist_read_through_the_firmware_hal(rp2040_hal):
    b = board()
    pm = PINS.values(PINS.load())
    rng = random.Random(6)
    cases = [(set(), set()), (set(range(H.N_CELLS)), set(H.BUTTON_NAMES)),
             ({0}, {"confirm"}), ({120}, {"end"}), ({10, 110}, {"next", "hint"})]
    cases += [(set(rng.sample(range(H.N_CELLS), rng.randint(1, 60))),
               set(rng.sample(H.BUTTON_NAMES, rng.randint(0, 5)))) for _ in range(8)]
    for occupied, pressed in cases:
        hal = rp2040_hal.Rp2040Hal.__new__(rp2040_hal.Rp2040Hal)
        hal._pl, hal._ce = _FakePin(), _FakePin()
        hal._spi = _FakeSPI(_chain_bits(b, occupied, pressed), hal._pl, hal._ce)
        hal._chain = bytearray(pm["CHAIN_BYTES"])
        hal._buttons = 0
        buf = bytearray(H.BITMAP_BYTES)
        hal.read_sensors(buf)
        want = bytearray(H.BITMAP_BYTES)
        for c in occupied:
            H.bit_set(want, c, 1)
        assert buf == want, (sorted(occupied), buf.hex(), want.hex())
        bits = 0
        for name in pressed:
            bits |= H.button_bit(name)
        assert hal.read_buttons() == bits, pressed
        assert hal._ce.v == 1


# --- BOM ---------------------------------------------------------------------------------------------

def test_bom_is_generated_from_the_netlist():
    b = board()
    assert BOM.BOM_CSV.read_text() == BOM.render(b), "run `python -m circuit.bom`"
    rows = {r["mpn"]: r for r in BOM.rows(b)}
    assert rows[P.DRV5032.mpn]["qty"] == 121 and rows[P.DRV5032.mpn]["per_cell"] == 1
    assert rows[P.WS2812B.mpn]["qty"] == 157 and rows[P.WS2812B.mpn]["per_cell"] == 1
    assert rows[P.C_100N.mpn]["per_cell"] == 2
    assert rows[P.HC165.mpn]["per_cell"] == 0
    assert all(r["mpn"] and r["manufacturer"] for r in rows.values())
    assert BOM.compress_refs(["C3", "C1", "C2", "C5", "R1"]) == "C1-C3 C5 R1"


def test_kicad_netlist_is_written(tmp_path):
    text = B.netlist_text(board())
    assert text.startswith("(export")
    assert len(re.findall(r"\(comp\s", text)) == len(board().circuit.parts)
    assert '"CELL_A1"' in text and '"LED_DIN_156"' in text


# --- The checks catch broken circuits ------------------------------------------------------------------

def test_every_part_has_exactly_its_footprints_pads():
    """A part's pins against its footprint's pads as KiCad numbers them: the buttons were
    modelled with pins 1-4 on SW_PUSH_6mm, whose pads are 1, 2, 1, 2, so both sides of
    every switch sat on one net and GND on no pad (every button dead on a built board)."""
    assert B.footprint_rules() == []
    four_legged = P.BUTTON._replace(pins=P._passive("1", "2", "3", "4"))
    assert B.footprint_rules([four_legged]) == [
        ("ERROR", "b3f (B3F-1000): pins 1,2,3,4, but footprint Button_Switch_THT:SW_PUSH_6mm "
                  "has pads 1,2")]
    unknown = P.BUTTON._replace(footprint="Button_Switch_THT:SW_Tactile_Unknown")
    assert "has no pad list" in B.footprint_rules([unknown])[0][1]


def test_rules_catch_broken_circuits():
    """Four faults at once (one ERC run), each must be reported; repaired, the board is clean."""
    b = B.build()                                  # its own copy: the shared one stays intact
    sensor_out = b.sensors[37]["OUT"]
    din = b.leds[0]["DIN"]
    din_net = din.net
    pullup = b.networks[2]["R4"]
    pullup_net = pullup.net
    vcc = b.chips[3]["VCC"]
    vcc_net = vcc.net
    sensor_net = sensor_out.net

    sensor_out.disconnect()                        # a sensor left unconnected
    din.disconnect()                               # LED data straight from the 3.3 V GPIO
    b.nets["LED_DATA_3V3"] += din
    pullup.disconnect()                            # an input without its pull-up
    vcc.disconnect()                               # a shift register on the 5 V rail
    b.nets["+5V_LED"] += vcc
    found = "\n".join("%s: %s" % p for p in B.check(b))
    assert "Unconnected pin: OPEN-COLLECTOR pin 2/OUT of DRV5032FC/HS38" in found, found
    assert "below VIH 3.50 V of D1/DIN (WS2812B-V5)" in found, found
    assert "has no pull-up to a rail" in found, found
    assert "above the 3.80 V maximum of U" in found, found   # 5 V QH into a 3.3 V chip

    sensor_net += sensor_out
    din.disconnect()
    din_net += din
    pullup_net += pullup
    vcc.disconnect()
    vcc_net += vcc
    assert B.check(b) == []


def test_buttons_reach_their_inputs_through_a_resistor_with_a_capacitor_at_the_switch():
    """The buttons are touched by hand (both revisions): an ESD discharge into a switch meets
    100 nF to GND and 10 k before the input (a 74HC165's on revision A, the RP2040's own GPIO on
    revision B). Both had the switch straight on the input. The rule catches a switch wired
    straight to its input, a missing capacitor, and a series resistor that would let the
    pull-up hold a pressed input over its VIL."""
    for rev in ("A", "B"):
        b = B.build(revision=rev)
        assert B.button_rules(b) == [], rev
        sw = b.buttons[0]
        contact = sw["1"].net
        r = [p for p in contact.pins if p.part.spec_key == "r10k"][0]
        c = [p for p in contact.pins if p.part.spec_key == "c100n"][0]
        input_net = [q for q in r.part.pins if q is not r][0].net
        sw["1"].disconnect()                       # the switch straight on its input, as before
        input_net += sw["1"]
        found = "\n".join(m for _, m in B.button_rules(b))
        assert "goes straight to" in found and "reaches the input without a series resistor" in found, found
        sw["1"].disconnect()
        contact += sw["1"]
        c.disconnect()                             # no capacitor at the switch
        b.circuit.NC += c
        found = "\n".join(m for _, m in B.button_rules(b))
        assert "0 nF to GND at the switch; an 8 kV discharge (1.2 uC) needs 75 nF" in found, found
        c.disconnect()
        contact += c
        assert B.button_rules(b) == []
        r.part.spec_key = "r470k"                  # a series resistor the pull-up beats
        found = "\n".join(m for _, m in B.button_rules(b))
        assert "pressed:" in found and "over its VIL" in found, found
        r.part.spec_key = "r10k"
        assert B.check(b) == [], rev


def test_the_circuit_tools_answer_help_and_refuse_words_they_do_not_take(capsys):
    """`python -m circuit.X --help` prints its usage and writes nothing (it wrote the BOM, and
    a mistyped `--chek` rewrote it instead of checking it); a word a tool does not take is a
    usage error, exit 2."""
    import pytest
    from circuit import bom as BOM, cli as CLI, magnet as MAG, pins as PN, power as PW, scantime as SC
    before = BOM.BOM_CSV.stat().st_mtime_ns
    for tool in (B, BOM, CLI, MAG, PN, PW, SC):
        with pytest.raises(SystemExit) as e:
            tool.main(["--help"])
        assert e.value.code == 0
        assert "python -m circuit." in capsys.readouterr().out
        with pytest.raises(SystemExit) as e:
            tool.main(["--chek"])
        assert e.value.code == 2
        assert "usage error: no option --chek" in capsys.readouterr().err
    for tool in (B, BOM, PW):
        with pytest.raises(SystemExit) as e:
            tool.main(["--rev", "c"])
        assert e.value.code == 2
    assert BOM.BOM_CSV.stat().st_mtime_ns == before


def test_circuit_cli_lists_every_circuit_tool():
    """`python -m circuit.cli` was the tools' shared parser only: run, it printed nothing and
    looked like a tool that did nothing. Now it lists every tool (each module of circuit/ with a
    main()) with how to run it, and its --help says the same."""
    import subprocess
    from circuit import cli as CLI
    tools = sorted(p.stem for p in (ROOT / "circuit").glob("*.py")
                   if p.stem != "cli" and "\ndef main(" in p.read_text())
    assert tools == ["board", "bom", "magnet", "pins", "power", "scantime"]
    for argv in ([], ["--help"]):
        r = subprocess.run([sys.executable, "-m", "circuit.cli"] + argv, cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stderr == "", r
        for t in tools + ["cli"]:
            assert "python -m circuit.%s" % t in r.stdout, (t, r.stdout)
    assert CLI.main([]) == 0
