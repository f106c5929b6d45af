"""The Cargoboard circuit as code (SKiDL), with electrical rules checks.

    python -m circuit.board            # revision A: ERC, circuit/build/cargoboard.net (KiCad)
    python -m circuit.board --rev b    # revision B: ERC, circuit/build/cargoboard-revb.net

Revision B (linear Hall sensors that see stacks) shares the Pico, the power path and the LED
chain below and replaces the sensing: `_hall_matrix` and its own rules, `hall_rules`.

What is wired here (docs/hardware.md explains the choices):

- U1 Raspberry Pi Pico: USB power and data. Its pins come from hardware/pins.json (the same
  file that generates the firmware's hardware/pinmap.py); unused pins are marked no-connect.
- 121 cell sensors HS1..HS121 (DRV5032FC omnipolar Hall switches, open drain, 100 nF each):
  cell c = y * 11 + x is HS(c+1), its output on input D(c % 8) of shift register c // 8.
- 16 x 74HC165 (U3..U18, chip k = U(k+3)) in one chain read over SPI0: chip k's SER takes QH
  of chip k+1, chip 15's SER is tied high, QH of chip 0 goes to SPI_MISO. Every input has a
  47 k pull-up (one bussed 8-resistor network per chip, RN(k+1)). The buttons confirm, next,
  undo, hint, end (order of firmware.hal.BUTTON_NAMES) pull inputs D1..D5 of chip 15 low
  (BUTTON_BYTE / BUTTON_SHIFT of the pin map) through 10 k, 100 nF at each switch (`_button`:
  they are touched by hand); D6, D7 stay pulled up (spare).
- CLK, SH/LD and CLK INH reach 16 chips along the board: a 74LVC3G17 Schmitt buffer next to
  the Pico (U2) drives them through 33 ohm series resistors.
- 157 x WS2812B (D1..D157; LED i = D(i+1), firmware LED order: 121 cells then 4 x 9 score
  bars) on one data line: GP22 -> 74AHCT1G125 (5 V, TTL input: the LEDs need 3.5 V highs) ->
  330 ohm -> DIN of D1; DOUT of each LED -> DIN of the next. 100 nF per LED.
- Power: USB 5 V from the Pico's VBUS pin -> 0.75 A polyfuse -> P-MOSFET soft start (the gate
  held at the source by 2.2 uF at plug-in, then ramped by 220 k to GND / 470 k to the source
  against 100 nF gate-drain, so the 1000 uF bulk capacitor does not pull a large inrush from
  the USB port) -> +5V_LED
  (LEDs, level shifter, bulk capacitor). The logic and the sensors run from the Pico's 3V3
  (the RP2040 is not 5 V tolerant, so nothing that drives a GPIO may sit on 5 V).

SKiDL's own ERC (unconnected pins, single-pin nets, driver conflicts, undriven inputs and power
pins) runs together with the board's rules (`board_rules`): logic levels across voltage domains,
pull-ups on open-drain nets, power pins on rails. Any warning counts as a failure.
"""

import contextlib
import io
import logging
import os
import sys
import tempfile
from pathlib import Path

from circuit import parts as P
from circuit import pins as PINS

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The board follows the firmware's numbering of cells, LEDs and buttons: taken from it, not
# restated here.
from firmware import hal as H  # noqa: E402
from shared_rules.geometry import N_CELLS, SEAT_LETTERS, cell_name  # noqa: E402

BUILD_DIR = Path(__file__).resolve().parent / "build"
NETLIST = BUILD_DIR / "cargoboard.net"
NETLISTS = {"A": NETLIST, "B": BUILD_DIR / "cargoboard-revb.net"}

_sk = None


def skidl():
    """The skidl module, imported once, quietly, without log files and without the per-part
    stack trace.

    At import SKiDL warns that no KiCad libraries are installed (none are needed: every part is
    defined here) and opens log files named after the script in the current directory, which it
    deletes again when file output is switched off: two test processes in one directory race on
    that. So it is imported inside a private temporary directory and file output is stopped
    there. It also records the Python call stack of every part it creates (inspect.stack(),
    about 10 ms a part under pytest); we keep none of it."""
    global _sk
    if _sk is None:
        cwd = os.getcwd()
        with tempfile.TemporaryDirectory(prefix="skidl-") as tmp:
            os.chdir(tmp)
            try:
                with contextlib.redirect_stderr(io.StringIO()):
                    import skidl as sk
                    import skidl.circuit as skc
                    from skidl.logger import stop_log_file_output
                    stop_log_file_output(True)
            finally:
                os.chdir(cwd)
        skc.get_skidl_trace = lambda: []
        _sk = sk
    return _sk


def led_role(i):
    """What LED i shows (firmware LED layout, firmware/hal/__init__.py)."""
    if i < H.SCORE_BASE:
        return "cell " + cell_name(i)
    k = i - H.SCORE_BASE
    return "score %s %d" % (SEAT_LETTERS[k // H.SCORE_LEN], k % H.SCORE_LEN)


class Board:
    """The built circuit and handles on its parts (lists indexed like the firmware's)."""

    def __init__(self, circuit):
        self.circuit = circuit
        self.pico = None
        self.chips = []      # 74HC165, chip k
        self.networks = []   # pull-up network of chip k
        self.sensors = []    # sensor of cell c
        self.leds = []       # LED i
        self.buttons = []    # button i (firmware.hal.BUTTON_NAMES order)
        self.buffer = None
        self.shifter = None
        self.bulk = None
        self.fuse = None
        self.fet = None
        self.nets = {}
        self.pinmap = None
        self.revision = "A"
        # revision B
        self.muxes = []      # CD74HC4067, mux m reads cells 16m .. 16m + 15
        self.mux_decoder = None
        self.row_decoder = None
        self.row_fets = []   # P-MOSFET of row y (cells 11y .. 11y + 10)
        self.mid_divider = None
        self.mid_filter = None
        self.row_en_pullup = None


_FUNC = {
    "in": "INPUT", "out": "OUTPUT", "tri": "TRISTATE", "oc": "OPENCOLL", "bidir": "BIDIR",
    "pwr_in": "PWRIN", "pwr_out": "PWROUT", "passive": "PASSIVE",
}


def _templates():
    sk = skidl()
    out = {}
    for spec in P.ALL:
        pins = [sk.Pin(num=p.num, name=p.name, func=getattr(sk.Pin.types, _FUNC[p.type]))
                for p in spec.pins]
        out[spec.key] = sk.Part(name=spec.name, tool=sk.SKIDL, dest=sk.TEMPLATE,
                                ref_prefix=spec.ref, footprint=spec.footprint, pins=pins)
    return out


def build(pinmap=None, tamper=None, revision=None):
    """Build the circuit. pinmap: a pins.json dict (default: hardware/pins.json, or the pin map
    of `revision` "A" or "B"); the revision is the pin map's. tamper(board), if given, runs
    after wiring (tests use it to break the circuit on purpose)."""
    sk = skidl()
    if pinmap is not None:
        data = pinmap
    else:
        data = PINS.load_revision(revision or "A")
    rev = PINS.revision(data)
    pm = PINS.values(data)
    buttons = H.BUTTON_NAMES
    circuit = sk.Circuit()
    circuit.no_files = True
    b = Board(circuit)
    b.pinmap = data
    t = _templates()
    counters = {}

    def part(key, **fields):
        spec = P.BY_KEY[key]
        n = counters.get(spec.ref, 0) + 1
        counters[spec.ref] = n
        p = t[key](ref="%s%d" % (spec.ref, n), value=spec.value)
        p.tag = p.ref           # stable schematic <-> PCB association (SKiDL makes random ones)
        p.fields["MPN"] = spec.mpn
        p.fields["Manufacturer"] = spec.manufacturer
        for k, v in fields.items():
            p.fields[k] = v
        p.spec_key = key
        return p

    with circuit:
        net = {}

        def N(name):
            if name not in net:
                net[name] = sk.Net(name)
            return net[name]

        def connect(name, *pins):
            n = N(name)
            n += pins

        gnd, vbus, v5 = N("GND"), N("VBUS"), N("+5V_LED")
        N("+3V3")
        gnd.drive = sk.POWER          # power flag: every GND pin is a power input
        bulk = {"GND": [], "+3V3": [], "+5V_LED": []}   # big nets: connected in one go (fast)

        def rail(name, pin):
            bulk.setdefault(name, []).append(pin)

        def decouple(rail_name, **fields):
            c = part("c100n", **fields)
            rail(rail_name, c[1])
            rail("GND", c[2])
            return c

        # --- Pico ---------------------------------------------------------------------------
        # the GPIOs the firmware drives on the module itself (GP23: the regulator's mode, GP25:
        # the LED) have no header pin: the netlist names them in a field of the Pico
        pico = part("pico", role="MCU", on_module="; ".join(
            "GP%d %s (Pico-internal: %s)" % (g, name, PINS.PICO_INTERNAL[g])
            for g, name in PINS.on_module_pins(data)))
        b.pico = pico
        gpio_net = PINS.pin_nets(data)
        for num, name in P.PICO_PINOUT.items():
            pin = pico[str(num)]
            if name in ("GND", "AGND"):
                rail("GND", pin)
            elif name == "3V3":
                rail("+3V3", pin)
            elif name == "VBUS":
                vbus += pin
            elif name.startswith("GP") and int(name[2:]) in gpio_net:
                connect(gpio_net[int(name[2:])], pin)
            else:
                circuit.NC += pin  # VSYS, RUN, 3V3_EN, ADC_VREF, unused GPIOs

        if rev == "A":
            # --- Shift-register chain -----------------------------------------------------------
            n_chips = pm["CHAIN_BYTES"]
            buf = part("lvc3g17", role="shift-register clock buffer")
            b.buffer = buf
            rail("+3V3", buf["VCC"])
            rail("GND", buf["GND"])
            decouple("+3V3", role="decoupling " + buf.ref)
            mcu_side = {"1A": "SPI_SCK", "2A": "PL", "3A": "CE"}
            bus = {"1Y": "SR_CLK", "2Y": "SR_PL", "3Y": "SR_INH"}
            for a, pin_name in mcu_side.items():
                connect(gpio_net[pm[pin_name]], buf[a])
            for y, bus_name in bus.items():
                r = part("r33", role="series termination " + bus_name)
                connect(bus_name + "_DRV", buf[y], r[1])
                connect(bus_name, r[2])
            for k in range(n_chips):
                chip = part("hc165", role="sensor chain chip %d" % k)
                rn = part("rn47k", role="pull-ups of chip %d" % k)
                b.chips.append(chip)
                b.networks.append(rn)
                rail("+3V3", chip["VCC"])
                rail("GND", chip["GND"])
                decouple("+3V3", role="decoupling " + chip.ref)
                connect("SR_CLK", chip["CLK"])
                connect("SR_PL", chip["SH/LD"])
                connect("SR_INH", chip["CLK_INH"])
                connect("SR_QH" if k == 0 else "SR_Q%d" % k, chip["QH"])
                if k + 1 < n_chips:
                    connect("SR_Q%d" % (k + 1), chip["SER"])
                else:
                    rail("+3V3", chip["SER"])   # last chip: ones shift in
                circuit.NC += chip["~QH"]
                rail("+3V3", rn["COM"])
                for j in range(8):
                    connect(input_net(k, j, pm, buttons), chip[P.HC165_INPUT_PINS[j]], rn["R%d" % (j + 1)])

            # --- Cell sensors --------------------------------------------------------------------
            for c in range(N_CELLS):
                s = part("drv5032", cell=cell_name(c), role="sensor cell " + cell_name(c))
                b.sensors.append(s)
                rail("+3V3", s["VCC"])
                rail("GND", s["GND"])
                connect(input_net(c >> 3, c & 7, pm, buttons), s["OUT"])
                decouple("+3V3", cell=cell_name(c), role="decoupling " + s.ref)

            # --- Buttons ---------------------------------------------------------------------------
            for i, name in enumerate(buttons):
                _button(b, name, input_net(pm["BUTTON_BYTE"], pm["BUTTON_SHIFT"] + i, pm, buttons),
                        part, connect, rail)

        else:
            _hall_matrix(b, pm, part, connect, rail, N, circuit, sk)

        # --- Power: USB 5 V -> fuse -> soft start -> +5V_LED --------------------------------------
        f = part("f750", role="LED rail fuse")
        q = part("ao3401a", role="LED rail soft start")
        rg = part("r220k", role="soft-start gate pull-down")
        cg = part("c100n50", role="soft-start gate-drain capacitor")
        # The gate must start at the source: with only the gate-drain capacitor it starts at
        # the drain (0 V, the bulk capacitor empty), the MOSFET fully on, and the 1000 uF
        # charges through nothing but the cable. The gate-source capacitor, 22 x the
        # gate-drain one, holds Vgs near 0 at plug-in; the gate-source resistor sets the gate's
        # final level with the pull-down (Vgs -3.4 V) and the ramp's current.
        rs = part("r470k", role="soft-start gate-source resistor")
        cs = part("c2u2", role="soft-start gate-source capacitor")
        cb = part("c1000u", role="LED rail bulk capacitor")
        b.fuse, b.fet, b.bulk = f, q, cb
        vbus += f[1]
        connect("VBUS_F", f[2], q["S"], rs[2], cs[2])
        connect("FET_GATE", q["G"], rg[1], cg[1], rs[1], cs[1])
        rail("GND", rg[2])
        v5 += q["D"], cg[2], cb["+"]
        v5.drive = sk.POWER           # power flag: the rail comes through the MOSFET
        rail("GND", cb["-"])

        # --- LED chain --------------------------------------------------------------------------
        ls = part("ahct1g125", role="LED data level shifter")
        b.shifter = ls
        rail("+5V_LED", ls["VCC"])
        rail("GND", ls["GND"])
        rail("GND", ls["~OE"])
        decouple("+5V_LED", role="decoupling " + ls.ref)
        connect(gpio_net[pm["WS2812_PIN"]], ls["A"])
        rd = part("r330", role="LED data series resistor")
        connect("LED_DATA_5V", ls["Y"], rd[1])
        n_leds = pm["N_LEDS"]
        prev = rd[2]
        for i in range(n_leds):
            cell = {"cell": cell_name(i)} if i < N_CELLS else {}
            led = part("ws2812b", role="LED %d: %s" % (i, led_role(i)), **cell)
            b.leds.append(led)
            rail("+5V_LED", led["VDD"])
            rail("GND", led["VSS"])
            connect("LED_DIN_%d" % i, prev, led["DIN"])
            prev = led["DOUT"]
            decouple("+5V_LED", role="decoupling " + led.ref, **cell)
        circuit.NC += prev   # DOUT of the last LED

        for name, pins in bulk.items():
            if pins:
                connect(name, *pins)
        b.nets = net

    if tamper is not None:
        tamper(b)
    return b


def _hall_matrix(b, pm, part, connect, rail, N, circuit, sk):
    """Revision B's sensing: 121 DRV5055A2 linear Hall sensors, powered one row at a time, read
    through 8 CD74HC4067 into one ADC input; the buttons on their own GPIOs.

    - Cell c is on multiplexer c >> 4, channel c & 15: the 7-bit cell address on GPIOs
      CELL_SHIFT.. selects the channel (S0..S3, shared) and, through a 74HC138, enables exactly
      one multiplexer (its ~E); all eight COMs join on the ADC input. Of mux 7's spare channels,
      MID_ADDR reads +3V3 / 2 (a 10 k / 10 k divider: the sensors' zero-field level, ratiometric)
      and the others are tied to GND (ZERO_ADDR among them: the ADC's zero).
    - Row y (cells 11y .. 11y + 10) is powered from its rail HALL_ROW_<y+1> through a P-MOSFET
      whose gate is output Y(y) of a 74HC154: one output low at a time, so at most one row of
      sensors draws current; ~G1 (ROW_EN) is pulled up (10 k: it must beat the RP2040 pad's
      reset pull-down), so none until the firmware drives it.
    - The buttons pull their GPIOs low through 10 k, 100 nF at each switch (`_button`); pull-ups
      from one 8 x 47 k network.
    """
    b.revision = "B"
    bypass = {}

    def decouple(rail_name, key="c100n", **fields):
        c = part(key, **fields)
        rail(rail_name, c[1])
        rail("GND", c[2])
        return c

    # multiplexers and their decoder
    dec = part("hc138", role="multiplexer enable decoder")
    b.mux_decoder = dec
    rail("+3V3", dec["VCC"])
    rail("GND", dec["GND"])
    rail("+3V3", dec["G1"])
    rail("GND", dec["~G2A"])
    rail("GND", dec["~G2B"])
    decouple("+3V3", role="decoupling " + dec.ref)
    for pin, name in zip("ABC", ("MUX_A0", "MUX_A1", "MUX_A2")):
        connect(name, dec[pin])
    n_mux = (N_CELLS + 15) // 16
    for m in range(n_mux):
        mux = part("hc4067", role="Hall multiplexer %d (cells %d..%d)" % (m, 16 * m, 16 * m + 15))
        b.muxes.append(mux)
        rail("+3V3", mux["VCC"])
        rail("GND", mux["GND"])
        decouple("+3V3", role="decoupling " + mux.ref)
        for i, name in enumerate(("MUX_S0", "MUX_S1", "MUX_S2", "MUX_S3")):
            connect(name, mux["S%d" % i])
        connect("MUX_EN_%d" % m, dec["Y%d" % m], mux["~E"])
        connect("HALL_ADC", mux["COM"])
        for i in range(16):
            addr = 16 * m + i
            if addr < N_CELLS:
                connect(hall_net(addr), mux["I%d" % i])
            elif addr == pm["MID_ADDR"]:
                connect("HALL_MID", mux["I%d" % i])
            else:
                rail("GND", mux["I%d" % i])
    r1 = part("r10k", role="mid-supply reference, upper")
    r2 = part("r10k", role="mid-supply reference, lower")
    b.mid_divider = (r1, r2)
    rail("+3V3", r1[1])
    connect("HALL_MID", r1[2], r2[1])
    rail("GND", r2[2])
    # its filter: 10 uF, not 100 nF. When the multiplexer selects it, the ADC input node (the
    # eight multiplexers' COMs, ~445 pF) shares its charge with the filter: with 100 nF the
    # reference moved by 1/226 of the step from the channel read before it (cell k11: up to
    # 4.7 ADC steps with a cube on a card there, 1.2 with a cube), and the 5 k divider takes
    # 0.5 ms to put it back, longer than the channel's 18 us. hall_rules checks the figure.
    cm = part("c10u", role="mid-supply reference filter")
    b.mid_filter = cm
    connect("HALL_MID", cm[1])
    rail("GND", cm[2])

    # row power: decoder -> P-MOSFET -> row rail
    rdec = part("hc154", role="row power decoder")
    b.row_decoder = rdec
    rail("+3V3", rdec["VCC"])
    rail("GND", rdec["GND"])
    rail("GND", rdec["~G2"])
    decouple("+3V3", role="decoupling " + rdec.ref)
    connect("ROW_EN", rdec["~G1"])
    for pin, name in zip("ABCD", ("ROW_A0", "ROW_A1", "ROW_A2", "ROW_A3")):
        connect(name, rdec[pin])
    rows = N_CELLS // pm["ROW_CELLS"]
    for y in range(16):
        if y < rows:
            q = part("ao3401a", role="row %d power switch" % (y + 1))
            b.row_fets.append(q)
            rail("+3V3", q["S"])
            connect("ROW_G_%d" % (y + 1), rdec["Y%d" % y], q["G"])
            row_rail = "HALL_ROW_%d" % (y + 1)
            N(row_rail).drive = sk.POWER      # power flag: the rail comes through the MOSFET
            rail(row_rail, q["D"])
        else:
            circuit.NC += rdec["Y%d" % y]
    bulk = part("c10u", role="3.3 V bulk at the row switches")
    rail("+3V3", bulk[1])
    rail("GND", bulk[2])

    # sensors
    for c in range(N_CELLS):
        s = part("drv5055", cell=cell_name(c), role="sensor cell " + cell_name(c))
        b.sensors.append(s)
        row_rail = "HALL_ROW_%d" % (c // pm["ROW_CELLS"] + 1)
        rail(row_rail, s["VCC"])
        rail("GND", s["GND"])
        connect(hall_net(c), s["OUT"])
        bypass[c] = decouple(row_rail, "c22n", cell=cell_name(c), role="bypass " + s.ref)

    # ROW_EN's pull-up: 10 k, so that it beats the RP2040 pad's reset pull-down (50 k at its
    # strongest: 2.75 V, above the 74HC154's VIH; 47 k gave 1.69 V, a row could be powered
    # during reset and BOOTSEL). board_rules checks it.
    ru = part("r10k", role="ROW_EN pull-up (no row powered through reset)")
    b.row_en_pullup = ru
    rail("+3V3", ru[1])
    connect("ROW_EN", ru[2])

    # the buttons' pull-ups: one resistor network
    rn = part("rn47k", role="pull-ups of the buttons")
    b.networks.append(rn)
    rail("+3V3", rn["COM"])
    for i, name in enumerate(H.BUTTON_NAMES):
        net = "BTN_" + name.upper()
        connect(net, rn["R%d" % (i + 1)])
        _button(b, name, net, part, connect, rail)
    for j in range(H.N_BUTTONS + 1, 9):
        circuit.NC += rn["R%d" % j]


def _button(b, name, input_net_name, part, connect, rail):
    """A user-touched button (both revisions): the switch from its contact net to GND, a 100 nF
    capacitor there to GND and a 10 k series resistor from there to the logic input (the
    74HC165 on revision A, the RP2040's GPIO on revision B). An ESD discharge into the switch
    (IEC 61000-4-2, 8 kV from 150 pF: 1.2 uC) lifts the capacitor by ~12 V at most, and the
    resistor keeps what reaches the input's clamp diodes under a milliampere. Pressed, the
    input reads the divider of its 47 k pull-up and the 10 k: 0.59 V at most, under the
    RP2040's VIL (0.8 V) and the 74HC165's (0.3 x 3.3 V). `button_rules` checks the wiring."""
    sw = part("b3f", role="button " + name)
    b.buttons.append(sw)
    r = part("r10k", role="button %s series resistor (ESD)" % name)
    c = part("c100n", role="button %s ESD capacitor" % name)
    connect("BTN_%s_SW" % name.upper(), sw["1"], r[1], c[1])
    connect(input_net_name, r[2])
    rail("GND", sw["2"])
    rail("GND", c[2])
    return sw


def hall_net(c):
    """Net of cell c's Hall sensor output (revision B)."""
    return "HALL_" + cell_name(c).upper()


def input_net(chip, j, pm, buttons):
    """Net name of input D(j) of shift register `chip`."""
    bit = chip * 8 + j
    if bit < N_CELLS:
        return "CELL_" + cell_name(bit).upper()
    if chip == pm["BUTTON_BYTE"]:
        i = j - pm["BUTTON_SHIFT"]
        if 0 <= i < len(buttons):
            return "BTN_" + buttons[i].upper()
    return "SPARE_%d_%d" % (chip, j)


# --- Rules checks ----------------------------------------------------------------------------------

class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append((record.levelname, record.getMessage()))


def skidl_erc(board):
    """SKiDL's ERC; returns [(level, message)] of its warnings and errors."""
    sk = skidl()
    h = _Collect()
    logger = sk.erc_logger
    logger.addHandler(h)
    try:
        board.circuit.ERC()
    finally:
        logger.removeHandler(h)
    out = []
    for level, msg in h.records:
        if level in ("WARNING", "ERROR", "CRITICAL") and not msg.strip().endswith(" found while running ERC."):
            out.append((level, msg))
    return out


def _spec(part):
    return P.BY_KEY[part.spec_key]


def _net(pin):
    return pin.net.name if pin.net is not None else None


def _pin_spec(pin):
    for p in _spec(pin.part).pins:
        if p.num == str(pin.num):
            return p
    raise KeyError(pin)


def _rail_of(net):
    return net.name if net is not None and net.name in P.RAILS else None


def _supply_volts(part):
    spec = _spec(part)
    if spec.supply_pin is None:
        return None
    r = _rail_of(part[spec.supply_pin].net)
    return P.RAILS.get(r)


def _vih(level, supply):
    kind, v = level
    if kind == "abs":
        return v
    return None if supply is None else supply * v      # ("rel", k): k x supply


def _vmax(level, supply):
    kind, v = level
    if kind == "abs":
        return v
    return None if supply is None else supply + v      # ("rel", dv): supply + dv


def _pullup_rail(pin):
    """Rail voltage that the resistor owning `pin` pulls it to, or None."""
    spec = _spec(pin.part)
    if spec.key == "rn47k":
        if pin.name == "COM":
            return None
        r = _rail_of(pin.part["COM"].net)
    elif spec.name == "R":
        others = [q for q in pin.part.pins if q is not pin]
        r = _rail_of(others[0].net)
    else:
        return None
    return P.RAILS[r] if r and r != "GND" else None


def _pullup_ohms(pin):
    """The largest resistance (nominal + tolerance) of the pull-up resistor owning `pin`."""
    nominal, tol = P.RESISTANCE[pin.part.spec_key]
    return nominal * (1 + tol)


def _gpio_of(pin):
    """GPIO number of a Pico pin, else None."""
    if pin.part.spec_key != "pico":
        return None
    name = P.PICO_PINOUT.get(int(pin.num), "")
    return int(name[2:]) if name.startswith("GP") else None


def reset_level_rule(name, pins):
    """Problems of one net with a pull-up and an RP2040 GPIO that drives other parts' inputs:
    from reset until the firmware sets the pin up (and in BOOTSEL) the pad's own pull-down is on,
    so the line sits at the divider of the pull-up(s) and that pull-down. At the pull-down's
    strongest (RP2040_PULL_DOWN_OHM[0]) and the pull-ups' weakest it must still reach the VIH of
    every input the GPIO drives: else the line is not in the state its pull-up is there for."""
    if not any(_gpio_of(p) is not None for p in pins):
        return []
    ups = [(p, _pullup_rail(p)) for p in pins]
    ups = [(p, v) for p, v in ups if v is not None]
    if not ups:
        return []
    out = []
    conductance = sum(1.0 / _pullup_ohms(p) for p, _ in ups)
    r_up = 1.0 / conductance
    rail = min(v for _, v in ups)
    r_pd = P.RP2040_PULL_DOWN_OHM[0]
    held = rail * r_pd / (r_pd + r_up)
    who = ", ".join("%s %.0f k" % (p.part.ref, P.RESISTANCE[p.part.spec_key][0] / 1e3)
                    for p, _ in ups)
    for pin in pins:
        ps = _pin_spec(pin)
        if _gpio_of(pin) is not None or ps.type not in ("in", "bidir") or ps.vih is None:
            continue
        vih = _vih(ps.vih, _supply_volts(pin.part))
        if vih is not None and held < vih:
            out.append(("ERROR", "net %s: pull-up %s against the RP2040 pad's reset pull-down "
                        "(%.0f k at its strongest) holds %.2f V through reset, below VIH %.2f V "
                        "of %s/%s (%s)" % (name, who, r_pd / 1e3, held, vih, pin.part.ref,
                                           ps.name, _spec(pin.part).mpn)))
    return out


def footprint_rules(specs=None):
    """Each part's pins are exactly the pads of its footprint (parts.FOOTPRINT_PADS, as KiCad
    numbers them): a pin with no pad is lost on the PCB, a pad with no pin left open, and a
    footprint not in the table is not checked at all. Returns [(level, message)]."""
    out = []
    for spec in specs or P.ALL:
        pads = P.FOOTPRINT_PADS.get(spec.footprint)
        if pads is None:
            out.append(("ERROR", "%s (%s): footprint %s has no pad list to check its pins "
                        "against" % (spec.key, spec.mpn, spec.footprint)))
            continue
        pins = [ps.num for ps in spec.pins]
        if sorted(pins) != sorted(set(pads)):
            out.append(("ERROR", "%s (%s): pins %s, but footprint %s has pads %s" % (
                spec.key, spec.mpn, ",".join(pins), spec.footprint,
                ",".join(sorted(set(pads), key=int)))))
    return out


def board_rules(board):
    """The board's own rules; returns [(level, message)].

    - every power pin of an IC sits on a rail (its supply) or on GND;
    - an open-drain output's net has a pull-up resistor to a rail;
    - logic levels: on every net, the high level of each driver (its supply, or the pull-up
      rail for open drain) reaches each input's VIH and stays below its maximum (e.g. a WS2812B
      on 5 V needs 3.5 V; an RP2040 GPIO takes at most 3.63 V);
    - levels through reset: a pull-up on a line an RP2040 GPIO drives beats the pad's reset
      pull-down (`reset_level_rule`).
    """
    out = []
    nets = {}
    for p in board.circuit.parts:
        for pin in p.pins:
            if pin.net is not None and pin.net.name != board.circuit.NC.name:
                nets.setdefault(pin.net.name, []).append(pin)
    for p in board.circuit.parts:
        spec = _spec(p)
        for ps in spec.pins:
            if ps.type == "pwr_in":
                pin = p[ps.num]
                r = _rail_of(pin.net)
                want_gnd = ps.name in ("GND", "VSS", "AGND")
                if r is None or (r == "GND") != want_gnd:
                    out.append(("ERROR", "power pin %s/%s of %s on net %s, not on %s" % (
                        p.ref, ps.name, spec.mpn, pin.net.name if pin.net else "-",
                        "GND" if want_gnd else "a supply rail")))
    for name, pins in sorted(nets.items()):
        if name in P.RAILS:
            continue
        # sources of a high level: push-pull outputs (their supply) and pull-ups (their rail);
        # an open-drain output only pulls low, its high comes from the pull-ups
        pushpull = []
        pullups = []
        for pin in pins:
            ps = _pin_spec(pin)
            rail = _pullup_rail(pin)
            if rail is not None:
                pullups.append(("pull-up %s" % pin.part.ref, rail))
            elif ps.type in ("out", "tri", "bidir"):
                pushpull.append(("%s/%s" % (pin.part.ref, ps.name), _supply_volts(pin.part), pin))
        if any(_pin_spec(pin).type == "oc" for pin in pins) and not pullups:
            for pin in pins:
                if _pin_spec(pin).type == "oc":
                    out.append(("ERROR", "open-drain %s/%s on net %s has no pull-up to a rail" % (
                        pin.part.ref, pin.name, name)))
        out += reset_level_rule(name, pins)
        for pin in pins:
            ps = _pin_spec(pin)
            if ps.type not in ("in", "bidir") or ps.vih is None:
                continue
            supply = _supply_volts(pin.part)
            vih = _vih(ps.vih, supply)
            vmax = _vmax(ps.vmax, supply) if ps.vmax else None
            others = [(who, v) for who, v, drv in pushpull if drv is not pin and v is not None]
            # the high an input sees: its push-pull drivers', or else the pull-ups'
            highs = others if others else pullups
            for who, high in highs:
                if vih is not None and high < vih:
                    out.append(("ERROR", "net %s: %s drives %.1f V, below VIH %.2f V of %s/%s (%s)"
                                % (name, who, high, vih, pin.part.ref, ps.name,
                                   _spec(pin.part).mpn)))
            for who, high in others + pullups:
                if vmax is not None and high > vmax:
                    out.append(("ERROR", "net %s: %s drives %.1f V, above the %.2f V maximum of "
                                "%s/%s (%s)" % (name, who, high, vmax, pin.part.ref, ps.name,
                                                _spec(pin.part).mpn)))
    return out


def hall_rules(board):
    """Revision B's own rules (the firmware's scan relies on each); returns [(level, message)].

    - addressing: cell c's sensor output reaches exactly one multiplexer channel, and that is
      channel c & 15 of the multiplexer enabled by decoder output c >> 4; every multiplexer's COM
      is on the Pico's ADC pin, which is an ADC input (GP26..GP28);
    - one row at a time: every sensor of row y = c // 11 draws from rail HALL_ROW_<y+1>, fed by
      exactly one P-MOSFET from +3V3 whose gate is on its own output of the row decoder; the
      decoder's ~G1 has a pull-up (no row on before the firmware drives it);
    - analog range: a sensor's supply is no higher than the multiplexer's (a CD74HC4067 passes
      0..VCC) nor than the ADC's full scale (3.3 V: the ratiometric reading);
    - analog figures (`analog_figures`): every sensor's own bypass is at least the DRV5055's
      10 nF after its tolerance; a row switching on dips +3V3 by at most ROW_DIP_MAX_V; the
      mid-supply reference's filter holds it within MID_SHARE_MAX_LSB when the ADC node's
      charge (the last cell read) meets it.
    """
    if board.revision != "B":
        return []
    out = []
    pm = PINS.values(board.pinmap)
    adc_net = _net(board.pico[str(P.pico_pin_of_gpio(pm["HALL_ADC"]))])
    if not PINS.ADC_GPIO_BASE <= pm["HALL_ADC"] <= PINS.ADC_GPIO_BASE + 2:
        out.append(("ERROR", "HALL_ADC on GP%d, not an ADC input" % pm["HALL_ADC"]))
    by_net = {}
    for p in board.circuit.parts:
        for pin in p.pins:
            if pin.net is not None:
                by_net.setdefault(pin.net.name, []).append(pin)
    dec_out = {}
    for i in range(8):
        n = _net(board.mux_decoder["Y%d" % i])
        if n is not None:
            dec_out[n] = i
    mux_addr = {}
    for mux in board.muxes:
        if _net(mux["COM"]) != adc_net:
            out.append(("ERROR", "%s/COM on %s, not on the ADC input %s" % (mux.ref, _net(mux["COM"]), adc_net)))
        m = dec_out.get(_net(mux["~E"]))
        if m is None:
            out.append(("ERROR", "%s/~E is not driven by the multiplexer decoder" % mux.ref))
            continue
        for i in range(16):
            mux_addr.setdefault(_net(mux["I%d" % i]), []).append((16 * m + i, mux))
    if len(set(dec_out[_net(m["~E"])] for m in board.muxes if _net(m["~E"]) in dec_out)) != len(board.muxes):
        out.append(("ERROR", "two multiplexers share a decoder output: both would drive the ADC"))
    row_dec = {}
    for i, pn in enumerate(P.HC154_OUTPUT_PINS):
        n = _net(board.row_decoder[pn])
        if n is not None and n != board.circuit.NC.name:
            row_dec.setdefault(n, []).append(i)
    en_net = _net(board.row_decoder["~G1"])
    if not any(_pullup_rail(pin) for pin in by_net.get(en_net, [])):
        out.append(("ERROR", "row decoder ~G1 (%s) has no pull-up: rows could power up before the "
                    "firmware runs" % en_net))
    fets_of_rail = {}
    for q in board.row_fets:
        fets_of_rail.setdefault(_net(q["D"]), []).append(q)
    mux_volts = P.RAILS.get(_rail_of(board.muxes[0]["VCC"].net)) if board.muxes else None
    for c, s in enumerate(board.sensors):
        row = "HALL_ROW_%d" % (c // pm["ROW_CELLS"] + 1)
        if _net(s["VCC"]) != row:
            out.append(("ERROR", "%s (cell %s) is powered from %s, not its row rail %s" % (
                s.ref, cell_name(c), _net(s["VCC"]), row)))
        chans = mux_addr.get(_net(s["OUT"]), [])
        if [a for a, _ in chans] != [c]:
            out.append(("ERROR", "%s (cell %s): output reaches multiplexer addresses %s, the scan "
                        "reads it at %d" % (s.ref, cell_name(c), [a for a, _ in chans] or "none", c)))
        v = P.RAILS.get(_net(s["VCC"]))
        if v is not None and mux_volts is not None and (v > mux_volts or v > 3.3):
            out.append(("ERROR", "%s on %.1f V: its output can exceed the multiplexer's %.1f V "
                        "supply or the ADC's 3.3 V" % (s.ref, v, mux_volts)))
    for rail_name, qs in sorted(fets_of_rail.items()):
        if len(qs) != 1:
            out.append(("ERROR", "row rail %s fed by %d switches" % (rail_name, len(qs))))
            continue
        q = qs[0]
        if _net(q["S"]) != "+3V3":
            out.append(("ERROR", "%s switches %s from %s, not +3V3" % (q.ref, rail_name, _net(q["S"]))))
        outs = row_dec.get(_net(q["G"]), [])
        if len(outs) != 1:
            out.append(("ERROR", "%s gate (%s) is not on exactly one row decoder output" % (
                q.ref, _net(q["G"]))))
    gates = [_net(q["G"]) for q in board.row_fets]
    if len(set(gates)) != len(gates):
        out.append(("ERROR", "two row switches share a gate: two rows would be on at once"))
    a = analog_figures(board)
    for c, s in enumerate(board.sensors):
        least = a["bypass_by_cell"].get(cell_name(c), 0.0)
        if least < P.DRV5055_BYPASS_MIN_F:
            out.append(("ERROR", "%s (cell %s): bypass %.1f nF at the least (its tolerance), "
                        "under the DRV5055's %.0f nF minimum" % (
                            s.ref, cell_name(c), least * 1e9, P.DRV5055_BYPASS_MIN_F * 1e9)))
    if a["row_dip_v"] > ROW_DIP_MAX_V:
        out.append(("ERROR", "a row switching on puts %.0f nF on +3V3 (%.1f uF): it dips by "
                    "%.2f V, over %.2f V (the ADC's reference and the sensors' supply)" % (
                        a["row_f"] * 1e9, a["v3_f"] * 1e6, a["row_dip_v"], ROW_DIP_MAX_V)))
    if a["mid_share_lsb"] > MID_SHARE_MAX_LSB:
        out.append(("ERROR", "mid-supply reference: %.0f nF against the ADC node's %.0f pF moves "
                    "it by up to %.2f ADC steps when selected, over %.2f" % (
                        a["mid_f"] * 1e9, a["node_f"] * 1e12, a["mid_share_lsb"],
                        MID_SHARE_MAX_LSB)))
    return out


# A user-touched button's protection (button_rules): an IEC 61000-4-2 contact discharge, 8 kV
# from 150 pF, is 1.2 uC; on the capacitor at the switch it must stay within the capacitor's
# 16 V, and the series resistor must hold what reaches the input's clamp diodes (up to 16 V
# over its 3.6 V) under 10 mA.
ESD_CHARGE_C = 150e-12 * 8000
BUTTON_CAP_MAX_V = 16.0
BUTTON_SERIES_MIN_OHM = (BUTTON_CAP_MAX_V - 3.6) / 10e-3


def _vil(pin):
    """The highest level pin reads as low: the RP2040's 0.8 V, an HC input's 0.3 x VCC."""
    if _gpio_of(pin) is not None:
        return P.RP2040_VIL
    ps = _pin_spec(pin)
    if ps.vih is not None and ps.vih[0] == "rel":
        supply = _supply_volts(pin.part)
        return None if supply is None else (1 - ps.vih[1]) * supply
    return None


def _other(pin):
    return [q for q in pin.part.pins if q is not pin][0]


def _least_farads(part):
    return P.CAPACITANCE[part.spec_key] * P.CAP_LEAST.get(part.spec_key, 0.9)


def button_rules(board):
    """A button is touched by hand (both revisions): its switch may take an ESD discharge. Its
    contact net (pad 1; pad 2 on GND) holds a capacitor to GND big enough to take the
    discharge's charge within its rating and no logic input; the input is reached through a
    series resistor of at least BUTTON_SERIES_MIN_OHM, and with the button pressed the input's
    pull-up against that resistor still reads low. Returns [(level, message)]."""
    out = []
    for sw in board.buttons:
        who = "%s (%s)" % (sw.ref, sw.fields.get("role", "button"))
        if _net(sw["2"]) != "GND":
            out.append(("ERROR", "%s: pad 2 on %s, not GND" % (who, _net(sw["2"]))))
        contact = sw["1"].net
        pins = [p for p in (contact.pins if contact is not None else []) if p.part is not sw]
        caps = [p for p in pins if p.part.spec_key in P.CAPACITANCE and _net(_other(p)) == "GND"]
        farads = sum(_least_farads(p.part) for p in caps)
        if farads * BUTTON_CAP_MAX_V < ESD_CHARGE_C:
            out.append(("ERROR", "%s: %.0f nF to GND at the switch; an 8 kV discharge (1.2 uC) "
                        "needs %.0f nF to stay within %.0f V" % (
                            who, farads * 1e9, ESD_CHARGE_C / BUTTON_CAP_MAX_V * 1e9,
                            BUTTON_CAP_MAX_V)))
        direct = [p for p in pins if _pin_spec(p).type in ("in", "bidir")]
        for p in direct:
            out.append(("ERROR", "%s: the switch's net %s goes straight to %s/%s: a discharge "
                        "into the button reaches the input without a series resistor" % (
                            who, contact.name, p.part.ref, _pin_spec(p).name)))
        series = [p for p in pins if p.part.spec_key in P.RESISTANCE
                  and P.BY_KEY[p.part.spec_key].name == "R"]
        reached = False
        for p in series:
            far = _other(p).net
            inputs = [q for q in (far.pins if far is not None else [])
                      if _pin_spec(q).type in ("in", "bidir")]
            if not inputs:
                continue
            reached = True
            ohms, tol = P.RESISTANCE[p.part.spec_key]
            if ohms * (1 - tol) < BUTTON_SERIES_MIN_OHM:
                out.append(("ERROR", "%s: series resistor %s %.0f ohm, under %.0f ohm" % (
                    who, p.part.ref, ohms, BUTTON_SERIES_MIN_OHM)))
            ups = [q for q in far.pins if _pullup_rail(q) is not None]
            if ups:
                g_up = sum(1.0 / (P.RESISTANCE[q.part.spec_key][0]
                                  * (1 - P.RESISTANCE[q.part.spec_key][1])) for q in ups)
                r_ser = ohms * (1 + tol)
                low = min(_pullup_rail(q) for q in ups) * r_ser / (r_ser + 1.0 / g_up)
                for q in inputs:
                    vil = _vil(q)
                    if vil is not None and low > vil:
                        out.append(("ERROR", "%s pressed: %s/%s reads %.2f V through %s, over "
                                    "its VIL %.2f V" % (who, q.part.ref, _pin_spec(q).name,
                                                        low, p.part.ref, vil)))
        if not reached and not direct:
            out.append(("ERROR", "%s reaches no logic input" % who))
    return out


# Revision B's analog rules (hall_rules): what the reference's filter and the sensors' bypass
# must be for the scan's numbers (docs/hardware.md, "Revision B", "Circuit").
MID_SHARE_MAX_LSB = 0.25      # the mid-supply reference's error from the channel read before it
# +3V3's dip when a row's bypass capacitors are switched on (charge shared with the netlist's
# capacitors on +3V3 at their least; the Pico's own output capacitor left out). 0.15 V leaves
# 3.15 V, far over the RP2040's and the flash's minimums, and the Pico's regulator restores it
# long before the scan reads (ROW_ON_US, 330 us). The 10 nF bypass gave 0.05 V; 100 nF a
# sensor would give 0.44 V.
ROW_DIP_MAX_V = 0.15


def analog_figures(board):
    """Revision B's analog figures from the netlist: the least bypass of a sensor (F), the dip
    of +3V3 when a row switches on (V), and the mid-supply reference's error from charge
    sharing with the ADC input node (ADC steps), with what they were computed from."""
    by_cell = {}
    on_3v3 = 0.0
    on_row = {}
    on_mid = 0.0
    for p in board.circuit.parts:
        if p.spec_key not in P.CAPACITANCE:
            continue
        nets = {_net(p[1]), _net(p[2])}
        if "GND" not in nets:
            continue
        other = (nets - {"GND"}).pop() if len(nets) == 2 else None
        if other == "+3V3":
            on_3v3 += _least_farads(p)
        elif other is not None and other.startswith("HALL_ROW_"):
            on_row[other] = on_row.get(other, 0.0) + P.CAPACITANCE[p.spec_key] * 1.1
            cell = p.fields.get("cell")
            if cell:
                by_cell.setdefault(cell, []).append(p)
        elif other == "HALL_MID":
            on_mid += _least_farads(p)
    from circuit.scantime import adc_node_farads
    node = adc_node_farads(len(board.muxes))
    swing = 3.3 / 2                 # the channel read before the reference: anywhere in 0..3.3 V
    share = node / (node + on_mid) * swing if on_mid else swing
    row = max(on_row.values()) if on_row else 0.0
    return {
        "bypass_by_cell": {c: sum(_least_farads(p) for p in ps) for c, ps in by_cell.items()},
        "row_f": row, "v3_f": on_3v3,
        "row_dip_v": 3.3 * row / (row + on_3v3) if row + on_3v3 else 0.0,
        "node_f": node, "mid_f": on_mid, "mid_share_lsb": share / (3.3 / 4096),
    }


def check(board):
    """All rules: SKiDL's ERC and the board's. [] means the design passes."""
    return (skidl_erc(board) + footprint_rules() + board_rules(board) + button_rules(board)
            + hall_rules(board))


def netlist_text(board):
    sk = skidl()
    return str(board.circuit.generate_netlist(tool=sk.KICAD, do_backup=False))


def main(argv=None):
    from circuit import cli
    rev, _ = cli.parse(argv, __doc__)
    b = build(revision=rev)
    problems = check(b)
    for level, msg in problems:
        print("%s: %s" % (level, msg))
    BUILD_DIR.mkdir(exist_ok=True)
    NETLISTS[rev].write_text(netlist_text(b))
    print("revision %s: %d parts, %d nets; ERC: %d problems; wrote %s" % (
        rev, len(b.circuit.parts), len(b.circuit.get_nets()), len(problems),
        NETLISTS[rev].relative_to(ROOT)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
