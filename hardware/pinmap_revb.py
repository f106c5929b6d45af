# Cargoboard pin map (Raspberry Pi Pico, RP2040, revision B). GENERATED from hardware/pins_revb.json by
# `python -m circuit.pins`: edit pins_revb.json, never this file (a test compares the two).
# Plain data: device code imports it (`from hardware import pinmap`), nothing here touches
# the hardware. Wiring: docs/hardware.md.

# --- Pins (GPIO numbers) ---
MUX_S0 = 0               # GP0..GP3: channel select S0..S3 of all 8 CD74HC4067 (cell address bits 0..3)
MUX_S1 = 1               # cell address bit 1
MUX_S2 = 2               # cell address bit 2
MUX_S3 = 3               # cell address bit 3
MUX_A0 = 4               # GP4..GP6: 74HC138 A..C, enables multiplexer c >> 4 (cell address bits 4..6)
MUX_A1 = 5               # cell address bit 5
MUX_A2 = 6               # cell address bit 6
ROW_A0 = 7               # GP7..GP10: 74HC154 A..D, the row y = c // 11 whose sensors are powered
ROW_A1 = 8               # row address bit 1
ROW_A2 = 9               # row address bit 2
ROW_A3 = 10              # row address bit 3
ROW_EN = 11              # GP11 -> 74HC154 ~G1, active low; pulled up: no row powered until the firmware drives it
BTN_CONFIRM = 12         # GP12..GP16: buttons confirm, next, undo, hint, end; active low, 47 k pull-ups
BTN_NEXT = 13            # button next
BTN_UNDO = 14            # button undo
BTN_HINT = 15            # button hint
BTN_END = 16             # button end
WS2812_PIN = 22          # GP22 -> 74AHCT1G125 level shifter (3.3 V -> 5 V) -> 330 R -> DIN of LED 0
HALL_ADC = 26            # GP26 = ADC0 <- COM of all 8 CD74HC4067 (one enabled at a time)
STATUS_LED = 25          # on-board LED of the Pico: heartbeat (toggles every 50 frames)
SMPS_PS = 23             # on the Pico: its RT6150 regulator's PS pin, driven high (PWM mode: less 3V3 ripple while the ADC reads)

# --- Settings ---
ADC_ID = 0               # ADC input 0 (GP26)
CELL_SHIFT = 0           # the cell address (mux << 4 | channel) sits on GPIOs CELL_SHIFT .. CELL_SHIFT + 6
ROW_SHIFT = 7            # the row address on GPIOs ROW_SHIFT .. ROW_SHIFT + 3
BUTTON_FIRST = 12        # buttons on GPIOs BUTTON_FIRST .. + 4 in the order confirm, next, undo, hint, end
ROW_CELLS = 11           # sensors per row rail: cell c is on row c // 11
ZERO_ADDR = 126          # mux 7 channel 14: tied to GND (the ADC's zero, a self-check)
MID_ADDR = 127           # mux 7 channel 15: +3V3 / 2 from a 10 k / 10 k divider (the sensors' zero field level)
SAMPLES = 8              # ADC conversions averaged per cell (2 us each), after one discarded while the multiplexer's output settles
ROW_ON_US = 330          # wait after powering a row: the DRV5055 power-on time, our maximum allowance (circuit/parts.py DRV5055_T_ON_US; a test ties them)
SENS_UV_PER_MT = 30000   # DRV5055A2 sensitivity at 3.3 V: 30 mV/mT
ADC_FULL_MV = 3300       # ADC full scale: ADC_VREF = the Pico's 3V3 (the sensors' supply: ratiometric)
OCC_ON = 320             # a cell reads occupied from |field| >= 3.20 mT (units of 0.01 mT) ...
OCC_OFF = 280            # ... and empty again below 2.80 mT (hysteresis)
DEADBAND = 3             # a cell's reported field moves only by more than 0.03 mT (ADC jitter stays out)
CAL_SCANS = 16           # `calibrate` averages this many scans (each taken whole, no deadband) into every cell's zero
CAL_CLEAR = 300          # `calibrate` refuses while a cell reads |field| > 3.00 mT with no zero taken off (a piece on the board): over a sensor's whole zero error, 2.55 mT, under the least a cube reads with that error against it, 3.21 mT
LED_BUDGET_MA = 320      # the LED current budget that keeps revision B within 500 mA of USB (circuit/power.py)
LED_BUDGET_MAX_MA = 330  # the largest LED budget (`budget`) that keeps the board within 95 % of USB's 500 mA (circuit/power.py)
WS2812_SM = 0            # PIO0 state machine 0
N_LEDS = 157             # 121 cells + 4 x 9 score-bar LEDs, one data line
