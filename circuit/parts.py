"""Part library of the board: pins, footprints, manufacturer part numbers, supply currents.

Plain data, no SKiDL here: circuit/board.py turns each spec into a SKiDL part of its own
(tool SKIDL, so no KiCad symbol library is needed), circuit/bom.py reads the commercial fields,
circuit/power.py the currents.

Pin types: in, out, tri (tri-state output), oc (open drain), bidir, pwr_in, pwr_out, passive.
Logic levels for the voltage-domain ERC (circuit/board.py): `vih` is the input-high threshold
(("rel", k): k x the part's own supply, ("abs", v): v volts), `vmax` the highest voltage the
input survives (("rel", dv): supply + dv, ("abs", v)). A driving pin's high level is its own
supply; an open-drain output's is the rail of the pull-up on its net.

Currents (mA) are per part and come from the datasheets where stated ("ds"); "budget" values are
our own conservative allowances where a datasheet gives only a typical figure.
"""

from collections import namedtuple

Spec = namedtuple("Spec", "key name ref value footprint manufacturer mpn description pins "
                          "supply_pin current")
Pin = namedtuple("Pin", "num name type vih vmax")
Current = namedtuple("Current", "rail typ_ma max_ma source")


def _pin(num, name, typ, vih=None, vmax=None):
    return Pin(str(num), name, typ, vih, vmax)


def _passive(*names):
    return [_pin(i + 1, n, "passive") for i, n in enumerate(names)]


# --- Raspberry Pi Pico (module, 40 castellated pins) ---------------------------------------------
# Header pin -> function, Raspberry Pi Pico datasheet pinout.
PICO_PINOUT = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12",
    17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18",
    25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26",
    32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 38: "GND",
    39: "VSYS", 40: "VBUS",
}
# RP2040 at IOVDD = 3.3 V: VIH >= 2.0 V; the pads are not 5 V tolerant (IOVDD + 0.3 V max).
_GPIO_VIH = ("abs", 2.0)
_GPIO_VMAX = ("abs", 3.63)
# Every RP2040 GPIO pad comes out of reset with its pull-down on (PADS_BANK0 GPIOn: PDE = 1,
# PUE = 0) and keeps it through reset, BOOTSEL and the boot until the firmware sets the pin
# up. Its resistance, RP2040 datasheet, 5.2.3 "Pin specifications", GPIO electrical
# characteristics: Pull-Down Resistance RPD 50 kOhm minimum, 80 kOhm maximum. A board pull-up
# that must hold a line high through reset works against the strongest of them (50 kOhm).
RP2040_PULL_DOWN_OHM = (50e3, 80e3)


def _pico_pins():
    pins = []
    for num in sorted(PICO_PINOUT):
        name = PICO_PINOUT[num]
        if name.startswith("GP"):
            pins.append(_pin(num, name, "bidir", _GPIO_VIH, _GPIO_VMAX))
        elif name in ("GND", "AGND"):
            pins.append(_pin(num, name, "pwr_in"))
        elif name in ("3V3", "VBUS"):
            pins.append(_pin(num, name, "pwr_out"))  # 3V3: on-module regulator; VBUS: USB 5 V
        elif name == "VSYS":
            pins.append(_pin(num, name, "pwr_out"))  # VBUS through the module's Schottky diode
        else:  # RUN, 3V3_EN (pulled up on the module), ADC_VREF
            pins.append(_pin(num, name, "in"))
    return pins


def pico_pin_of_gpio(gpio):
    """Header pin number of GPn on the Pico (None if not brought out)."""
    for num, name in PICO_PINOUT.items():
        if name == "GP%d" % gpio:
            return num
    return None


PICO = Spec(
    "pico", "RPi_Pico", "U", "Raspberry Pi Pico", "RPi_Pico:RPi_Pico_SMD_TH",
    "Raspberry Pi", "SC0915", "Raspberry Pi Pico (RP2040) module; USB power and data",
    _pico_pins(), "3V3",
    # RP2040, flash and regulator running MicroPython at 125 MHz: ~25 mA typical at 5 V;
    # 50 mA is our allowance (to be measured at bring-up, docs/bringup.md).
    Current("VBUS", 25.0, 50.0, "budget"),
)

# --- Logic -----------------------------------------------------------------------------------
# 74HC165 (SOIC-16). A..H are the parallel inputs D0..D7 (QH = H after the load; A shifts last).
HC165_INPUT_PINS = ("11", "12", "13", "14", "3", "4", "5", "6")  # D0..D7 = A..H
_HC_VIH = ("rel", 0.7)      # HC CMOS input: VIH = 0.7 x VCC
_HC_VMAX = ("rel", 0.5)     # VCC + 0.5 V

HC165 = Spec(
    "hc165", "74HC165", "U", "74HC165", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "Texas Instruments", "SN74HC165DR", "8-bit parallel-in serial-out shift register",
    [
        _pin(1, "SH/LD", "in", _HC_VIH, _HC_VMAX), _pin(2, "CLK", "in", _HC_VIH, _HC_VMAX),
        _pin(3, "E", "in", _HC_VIH, _HC_VMAX), _pin(4, "F", "in", _HC_VIH, _HC_VMAX),
        _pin(5, "G", "in", _HC_VIH, _HC_VMAX), _pin(6, "H", "in", _HC_VIH, _HC_VMAX),
        _pin(7, "~QH", "out"), _pin(8, "GND", "pwr_in"), _pin(9, "QH", "out"),
        _pin(10, "SER", "in", _HC_VIH, _HC_VMAX), _pin(11, "A", "in", _HC_VIH, _HC_VMAX),
        _pin(12, "B", "in", _HC_VIH, _HC_VMAX), _pin(13, "C", "in", _HC_VIH, _HC_VMAX),
        _pin(14, "D", "in", _HC_VIH, _HC_VMAX), _pin(15, "CLK_INH", "in", _HC_VIH, _HC_VMAX),
        _pin(16, "VCC", "pwr_in"),
    ],
    "VCC",
    # ICC 8 uA max at 25 C, 160 uA max over -40..125 C (static); the 128-bit read at 1 MHz
    # every 10 ms adds nothing measurable.
    Current("+3V3", 0.008, 0.160, "ds"),
)

# Triple Schmitt-trigger buffer for CLK / SH/LD / CLK INH (16 loads each along the board).
LVC3G17 = Spec(
    "lvc3g17", "74LVC3G17", "U", "74LVC3G17", "Package_SO:VSSOP-8_2.3x2mm_P0.5mm",
    "Texas Instruments", "SN74LVC3G17DCUR", "triple Schmitt-trigger buffer (shift-register clocks)",
    [
        _pin(1, "1A", "in", ("abs", 2.0), ("abs", 5.5)), _pin(2, "3Y", "out"),
        _pin(3, "2A", "in", ("abs", 2.0), ("abs", 5.5)), _pin(4, "GND", "pwr_in"),
        _pin(5, "2Y", "out"), _pin(6, "3A", "in", ("abs", 2.0), ("abs", 5.5)),
        _pin(7, "1Y", "out"), _pin(8, "VCC", "pwr_in"),
    ],
    "VCC",
    Current("+3V3", 0.0001, 0.010, "ds"),
)

# Level shifter for the LED data line: TTL-level input (VIH 2.0 V) on a 5 V supply.
AHCT1G125 = Spec(
    "ahct1g125", "74AHCT1G125", "U", "74AHCT1G125", "Package_TO_SOT_SMD:SOT-23-5",
    "Texas Instruments", "SN74AHCT1G125DBVR", "single buffer, TTL inputs: 3.3 V -> 5 V LED data",
    [
        _pin(1, "~OE", "in", ("abs", 2.0), ("rel", 0.5)),
        _pin(2, "A", "in", ("abs", 2.0), ("rel", 0.5)),
        _pin(3, "GND", "pwr_in"), _pin(4, "Y", "tri"), _pin(5, "VCC", "pwr_in"),
    ],
    "VCC",
    # ICC 10 uA max, plus delta-ICC 1.35 mA max while its input sits at a 3.3 V high.
    Current("+5V_LED", 0.001, 1.36, "ds"),
)

# --- Sensors and LEDs --------------------------------------------------------------------------
# DRV5032FC: omnipolar, open drain, 20 Hz sampling; BOP <= 4.8 mT (operates above), BRP >= 0.5 mT
# (releases below); 1.6 uA typical at 3 V.
DRV5032 = Spec(
    "drv5032", "DRV5032FC", "HS", "DRV5032FC", "Package_TO_SOT_SMD:SOT-23",
    "Texas Instruments", "DRV5032FCDBZR",
    "omnipolar Hall switch, open drain, 20 Hz, BOP 4.8 mT max (cell sensor)",
    [_pin(1, "VCC", "pwr_in"), _pin(2, "OUT", "oc"), _pin(3, "GND", "pwr_in")],
    "VCC",
    # 1.6 uA typical (ds); 5 uA is our allowance for the maximum.
    Current("+3V3", 0.0016, 0.005, "ds typ / budget max"),
)

# WS2812B-V5 (5050): VDD 5 V, DIN needs VIH >= 0.7 x VDD = 3.5 V (hence the level shifter).
WS2812B = Spec(
    "ws2812b", "WS2812B", "D", "WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "Worldsemi", "WS2812B-V5", "RGB LED with driver (cell light / score bar)",
    [
        _pin(1, "VDD", "pwr_in"), _pin(2, "DOUT", "out"), _pin(3, "VSS", "pwr_in"),
        _pin(4, "DIN", "in", ("rel", 0.7), ("rel", 0.5)),
    ],
    "VDD",
    None,  # the LED current comes from the firmware's model (circuit/power.py)
)

# --- Revision B: linear Hall sensors, analog multiplexers, row power switching --------------------
# DRV5055A2: ratiometric linear Hall sensor, VCC/2 at 0 mT, 30 mV/mT at VCC = 3.3 V (+-44 mT);
# output push-pull analog (+-1 mA drive), 20 kHz bandwidth. Powered one row at a time through a
# P-MOSFET (its row rail), so it is off most of the time.
DRV5055 = Spec(
    "drv5055", "DRV5055A2", "HS", "DRV5055A2", "Package_TO_SOT_SMD:SOT-23",
    "Texas Instruments", "DRV5055A2QDBZR",
    "ratiometric linear Hall sensor, 30 mV/mT at 3.3 V (cell sensor, revision B)",
    [_pin(1, "VCC", "pwr_in"), _pin(2, "OUT", "out"), _pin(3, "GND", "pwr_in")],
    "VCC",
    # ICC 6 mA typical, 10 mA maximum (ds); only one row of 11 is powered at any time.
    Current("+3V3", 6.0, 10.0, "ds"),
)
# Datasheet figures the scan timing and the physics model use (DRV5055, VCC = 3.3 V).
DRV5055_SENS_MV_PER_MT = 30.0       # A2 sensitivity at 3.3 V
DRV5055_RANGE_MT = 44.0             # linear range at 3.3 V
DRV5055_T_ON_US = (175, 330)        # power-on time: typical, our allowance for the maximum
DRV5055_NOISE_NT_RTHZ = 130         # input-referred noise density
DRV5055_BANDWIDTH_HZ = 20000
DRV5055_BYPASS_MIN_F = 10e-9        # VCC pin: "a ceramic capacitor ... of at least 0.01 uF" (TI)
DRV5055_DRIVE_MA = 1.0              # output drive, +-1 mA ("Low-Noise Output With +-1-mA Drive")

# CD74HC4067: 16-channel analog multiplexer. Channel pins are analog (passive); ~E low enables
# the switch, high isolates COM (so 8 of them share one ADC input, enabled one at a time by a
# 74HC138). Its on-resistance is specified at VCC = 4.5 V and 6 V only (TI SCHS209, HC and HCT
# tables, IO = 1 mA): at 4.5 V 70 typ / 160 max ohm at the rails, 90 / 180 ohm across 0..VCC at
# 25 C, 225 ohm max at -40..85 C. Not at 3.3 V, where the board runs it: HC switches are "extremely
# non-linear" near 2 V (Nexperia's HC405x sheets give no peak figure there), worst in mid-supply,
# where our signals sit. Our bound at 3.3 V: the 4.5 V maximum over temperature (225 ohm) times the
# gate overdrive ratio at mid-supply, (2.25 - 1.0) / (1.65 - 1.0) V ~ 1.9, rounded up: 500 ohm
# (circuit.scantime weighs the ADC input's settling with it; the bring-up measures it).
# Capacitances: TI SCHS209, "Analog Channel Specifications": CI 5 pF per channel, CCOM 50 pF.
HC4067_RON_4V5_OHM = (90, 180, 225)     # typ, max 25 C, max -40..85 C (VIS 0..VCC, VCC = 4.5 V)
HC4067_RON_3V3_OHM = 500                # our bound at VCC = 3.3 V, mid-supply, -40..85 C
HC4067_C_COM_F = 50e-12
HC4067_C_IN_F = 5e-12
# The ADC input node besides the multiplexers' COMs: the RP2040's ADC pin and the ADC line to
# the eight multiplexers along the board (our allowance; the RP2040 datasheet gives the ADC an
# input impedance of 100 kOhm minimum and no capacitance).
ADC_NODE_EXTRA_F = 40e-12
RP2040_VIL = 0.8                        # GPIO input low at IOVDD 3.3 V (RP2040 datasheet)
HC4067_CHANNEL_PINS = ("9", "8", "7", "6", "5", "4", "3", "2",          # I0..I7
                       "23", "22", "21", "20", "19", "18", "17", "16")  # I8..I15
HC4067 = Spec(
    "hc4067", "CD74HC4067", "U", "CD74HC4067", "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "Texas Instruments", "CD74HC4067M96", "16-channel analog multiplexer (cell sensors to the ADC)",
    [_pin(1, "COM", "passive")]
    + [_pin(n, "I%d" % i, "passive") for i, n in enumerate(HC4067_CHANNEL_PINS)]
    + [_pin(10, "S0", "in", _HC_VIH, _HC_VMAX), _pin(11, "S1", "in", _HC_VIH, _HC_VMAX),
       _pin(12, "GND", "pwr_in"), _pin(13, "S3", "in", _HC_VIH, _HC_VMAX),
       _pin(14, "S2", "in", _HC_VIH, _HC_VMAX), _pin(15, "~E", "in", _HC_VIH, _HC_VMAX),
       _pin(24, "VCC", "pwr_in")],
    "VCC",
    # ICC 8 uA max at 25 C, 160 uA max over temperature (static), as the other HC parts.
    Current("+3V3", 0.008, 0.160, "ds"),
)

# 74HC138: 3-to-8 decoder, active-low outputs: enables exactly one multiplexer.
HC138 = Spec(
    "hc138", "74HC138", "U", "74HC138", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "Texas Instruments", "SN74HC138DR", "3-to-8 decoder (enables one analog multiplexer)",
    [_pin(1, "A", "in", _HC_VIH, _HC_VMAX), _pin(2, "B", "in", _HC_VIH, _HC_VMAX),
     _pin(3, "C", "in", _HC_VIH, _HC_VMAX), _pin(4, "~G2A", "in", _HC_VIH, _HC_VMAX),
     _pin(5, "~G2B", "in", _HC_VIH, _HC_VMAX), _pin(6, "G1", "in", _HC_VIH, _HC_VMAX),
     _pin(7, "Y7", "out"), _pin(8, "GND", "pwr_in"), _pin(9, "Y6", "out"), _pin(10, "Y5", "out"),
     _pin(11, "Y4", "out"), _pin(12, "Y3", "out"), _pin(13, "Y2", "out"), _pin(14, "Y1", "out"),
     _pin(15, "Y0", "out"), _pin(16, "VCC", "pwr_in")],
    "VCC",
    Current("+3V3", 0.008, 0.160, "ds"),
)

# 74HC154: 4-to-16 decoder, active-low outputs: turns on exactly one row switch (a P-MOSFET's
# gate pulled low), never two; with ~G1 high (pulled up until the firmware drives it) none.
HC154_OUTPUT_PINS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11",
                     "13", "14", "15", "16", "17")                      # Y0..Y15
HC154 = Spec(
    "hc154", "74HC154", "U", "74HC154", "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "Texas Instruments", "SN74HC154DWR", "4-to-16 decoder (powers one row of Hall sensors)",
    [_pin(n, "Y%d" % i, "out") for i, n in enumerate(HC154_OUTPUT_PINS)]
    + [_pin(12, "GND", "pwr_in"), _pin(18, "~G1", "in", _HC_VIH, _HC_VMAX),
       _pin(19, "~G2", "in", _HC_VIH, _HC_VMAX), _pin(20, "D", "in", _HC_VIH, _HC_VMAX),
       _pin(21, "C", "in", _HC_VIH, _HC_VMAX), _pin(22, "B", "in", _HC_VIH, _HC_VMAX),
       _pin(23, "A", "in", _HC_VIH, _HC_VMAX), _pin(24, "VCC", "pwr_in")],
    "VCC",
    Current("+3V3", 0.008, 0.160, "ds"),
)

# --- Passives and the rest -----------------------------------------------------------------------
R_47K_ARRAY = Spec(
    "rn47k", "R_Network08", "RN", "8x47k", "Resistor_THT:R_Array_SIP9",
    "Bourns", "4609X-101-473LF",
    {"A": "8 x 47 kOhm bussed resistor network (pull-ups of one 74HC165's inputs)",
     "B": "8 x 47 kOhm bussed resistor network (pull-ups of the buttons)"},
    _passive("COM", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"),
    None, None,
)
R_33 = Spec(
    "r33", "R", "R", "33", "Resistor_SMD:R_0603_1608Metric", "Yageo", "RC0603FR-0733RL",
    "33 Ohm 1% 0603 (series termination of the shift-register clocks)", _passive("1", "2"),
    None, None,
)
R_330 = Spec(
    "r330", "R", "R", "330", "Resistor_SMD:R_0603_1608Metric", "Yageo", "RC0603FR-07330RL",
    "330 Ohm 1% 0603 (LED data series resistor)", _passive("1", "2"), None, None,
)
R_220K = Spec(
    "r220k", "R", "R", "220k", "Resistor_SMD:R_0603_1608Metric", "Yageo", "RC0603FR-07220KL",
    "220 kOhm 1% 0603 (soft-start gate pull-down)", _passive("1", "2"), None, None,
)
R_470K = Spec(
    "r470k", "R", "R", "470k", "Resistor_SMD:R_0603_1608Metric", "Yageo", "RC0603FR-07470KL",
    "470 kOhm 1% 0603 (soft-start gate-source resistor: the MOSFET off until the gate ramps)",
    _passive("1", "2"), None, None,
)
C_100N = Spec(
    "c100n", "C", "C", "100n", "Capacitor_SMD:C_0402_1005Metric", "Murata", "GRM155R71C104KA88D",
    {"A": "100 nF 16 V X7R 0402 (decoupling: one per sensor, LED and logic chip; a button's ESD "
          "capacitor)",
     "B": "100 nF 16 V X7R 0402 (decoupling: one per LED and logic chip; a button's ESD capacitor)"},
    _passive("1", "2"),
    None, None,
)
R_10K = Spec(
    "r10k", "R", "R", "10k", "Resistor_SMD:R_0603_1608Metric", "Yageo", "RC0603FR-0710KL",
    {"A": "10 kOhm 1% 0603 (a button's series resistor)",
     "B": "10 kOhm 1% 0603 (mid-supply reference divider of the Hall scan; ROW_EN pull-up; a "
          "button's series resistor)"},
    _passive("1", "2"),
    None, None,
)
C_22N = Spec(
    "c22n", "C", "C", "22n", "Capacitor_SMD:C_0402_1005Metric", "Murata", "GRM155R71H223KA12D",
    "22 nF 50 V X7R 0402 (Hall sensor bypass: over TI's 10 nF minimum with the part's 10 %; "
    "small, the row rail is switched)", _passive("1", "2"),
    None, None,
)
C_10U = Spec(
    "c10u", "C", "C", "10u", "Capacitor_SMD:C_0805_2012Metric", "Murata", "GRM21BR61A106KE19L",
    "10 uF 10 V X5R 0805 (3.3 V rail next to the row switches; the mid-supply reference filter)",
    _passive("1", "2"), None, None,
)
C_100N_50V = Spec(
    "c100n50", "C", "C", "100n", "Capacitor_SMD:C_0603_1608Metric", "Murata", "GRM188R71H104KA93D",
    "100 nF 50 V X7R 0603 (soft-start gate-drain capacitor)", _passive("1", "2"), None, None,
)
C_2U2 = Spec(
    "c2u2", "C", "C", "2.2u", "Capacitor_SMD:C_0603_1608Metric", "Murata", "GRM188R61A225KE34D",
    "2.2 uF 10 V X5R 0603 (soft-start gate-source capacitor: the gate starts at the source)",
    _passive("1", "2"), None, None,
)
C_BULK = Spec(
    "c1000u", "CP", "C", "1000u", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "Panasonic", "EEU-FR1A102", "1000 uF 10 V electrolytic (bulk capacitor at the LED chain input)",
    [_pin(1, "+", "passive"), _pin(2, "-", "passive")], None, None,
)
POLYFUSE = Spec(
    "f750", "Polyfuse", "F", "0.75A", "Fuse:Fuse_1812_4532Metric", "Bourns", "MF-MSMF075-2",
    "PTC resettable fuse, 0.75 A hold / 1.5 A trip (short protection of the LED rail)", _passive("1", "2"),
    None, None,
)
PFET = Spec(
    "ao3401a", "Q_PMOS_GSD", "Q", "AO3401A", "Package_TO_SOT_SMD:SOT-23",
    "Alpha & Omega Semiconductor", "AO3401A",
    {"A": "P-MOSFET -30 V -4 A (LED rail soft start)",
     "B": "P-MOSFET -30 V -4 A (LED rail soft start; one Hall sensor row's power switch each)"},
    [_pin(1, "G", "passive"), _pin(2, "S", "passive"), _pin(3, "D", "passive")], None, None,
)
BUTTON = Spec(
    "b3f", "SW_Push", "SW", "B3F-1000", "Button_Switch_THT:SW_PUSH_6mm", "Omron", "B3F-1000",
    "tactile switch 6x6 mm (confirm / next / undo / hint / end)",
    # KiCad's SW_PUSH_6mm numbers its four pads 1, 2, 1, 2: the two legs of a side are joined
    # inside the switch and share a number, so the switch has two pins (a 4-pin model put
    # both sides on one net and GND on pads that do not exist: every button dead)
    _passive("1", "2"),
    None, None,
)

# The pad numbers of each footprint, as KiCad's library (kicad-footprints) numbers them: a
# part's pins must be exactly its footprint's pads (board.footprint_rules), or the netlist
# puts a pin on no pad, or two pins on one. RPi_Pico_SMD_TH (the Pico's own KiCad library)
# is listed with its 40 header pads only: its SWD pads are not used.
_N = lambda n: tuple(str(i) for i in range(1, n + 1))  # noqa: E731
FOOTPRINT_PADS = {
    "RPi_Pico:RPi_Pico_SMD_TH": _N(40),
    "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm": _N(16),
    "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm": _N(24),
    "Package_SO:VSSOP-8_2.3x2mm_P0.5mm": _N(8),
    "Package_TO_SOT_SMD:SOT-23": _N(3),
    "Package_TO_SOT_SMD:SOT-23-5": _N(5),
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm": _N(4),
    "Resistor_THT:R_Array_SIP9": _N(9),
    "Resistor_SMD:R_0603_1608Metric": _N(2),
    "Capacitor_SMD:C_0402_1005Metric": _N(2),
    "Capacitor_SMD:C_0603_1608Metric": _N(2),
    "Capacitor_SMD:C_0805_2012Metric": _N(2),
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm": _N(2),
    "Fuse:Fuse_1812_4532Metric": _N(2),
    "Button_Switch_THT:SW_PUSH_6mm": _N(2),  # four pads: 1, 2, 1, 2
}

ALL = (PICO, HC165, LVC3G17, AHCT1G125, DRV5032, WS2812B, R_47K_ARRAY, R_33, R_330, R_220K,
       R_470K, C_100N, C_100N_50V, C_2U2, C_BULK, POLYFUSE, PFET, BUTTON,
       DRV5055, HC4067, HC138, HC154, R_10K, C_22N, C_10U)
BY_KEY = {s.key: s for s in ALL}

# Resistors: (nominal ohms, tolerance), for the rules that weigh a pull-up against the RP2040's
# pad pull-down (circuit/board.py) and for the pull-up currents (circuit/power.py).
RESISTANCE = {
    "rn47k": (47e3, 0.02),     # Bourns 4609X: +-2 %
    "r33": (33.0, 0.01), "r330": (330.0, 0.01), "r220k": (220e3, 0.01), "r10k": (10e3, 0.01),
    "r470k": (470e3, 0.01),
}
CAPACITANCE = {  # nominal (F): the soft start's timing (circuit.power.soft_start), revision B's
    # bypass, row-switch and mid-reference rules (circuit.board.hall_rules)
    "c100n50": 100e-9, "c2u2": 2.2e-6, "c1000u": 1000e-6,
    "c100n": 100e-9, "c22n": 22e-9, "c10u": 10e-6,
}
# The least a capacitor gives of its nominal value: its tolerance (the X7R/X5R parts: +-10 %)
# and, for the 10 uF X5R 0805 (10 V) at the 1.65 V of the mid-supply reference, its DC-bias
# loss (our allowance: 20 % more, to be read off the maker's curve; on +3V3 it loses more: with
# 55 % left there, a row switching on still dips +3V3 by only 0.13 V, circuit.board.hall_rules).
CAP_LEAST = {"c100n": 0.9, "c22n": 0.9, "c10u": 0.7}


def description(spec, rev):
    """What a part is for on board revision rev ("A" or "B"): a part used differently on the
    two revisions has one description each, so that a BOM names only its own uses."""
    d = spec.description
    return d[rev] if isinstance(d, dict) else d

# Rail voltages (nominal), for the voltage-domain ERC. Revision B adds the 11 switched row
# rails of the Hall sensors (HALL_ROW_1 .. HALL_ROW_11, 3.3 V when on).
RAILS = {"VBUS": 5.0, "VBUS_F": 5.0, "+5V_LED": 5.0, "+3V3": 3.3, "GND": 0.0}
RAILS.update({"HALL_ROW_%d" % (y + 1): 3.3 for y in range(11)})
