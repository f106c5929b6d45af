# Cargoboard pin map (Raspberry Pi Pico, RP2040). GENERATED from hardware/pins.json by
# `python -m circuit.pins`: edit pins.json, never this file (a test compares the two).
# Plain data: device code imports it (`from hardware import pinmap`), nothing here touches
# the hardware. Wiring: docs/hardware.md.

# --- Pins (GPIO numbers) ---
SPI_SCK = 18             # GP18 SPI0 SCK -> 74LVC3G17 buffer -> CLK of every 74HC165
SPI_MOSI = 19            # GP19 SPI0 TX: not connected (the SPI block needs a TX pin); keep free
SPI_MISO = 16            # GP16 SPI0 RX <- QH of chip 0 (the chip nearest the Pico)
PL = 17                  # GP17 -> buffer -> SH/LD (parallel load) of every 74HC165, active low, idle high
CE = 20                  # GP20 -> buffer -> CLK INH of every 74HC165, active low (low while shifting)
WS2812_PIN = 22          # GP22 -> 74AHCT1G125 level shifter (3.3 V -> 5 V) -> 330 R -> DIN of LED 0
STATUS_LED = 25          # on-board LED of the Pico: heartbeat (toggles every 50 frames)

# --- Settings ---
SPI_ID = 0               # hardware SPI0
SPI_BAUD = 1000000       # 1 MHz: 128 bits in 128 us; long board traces, keep it modest
SPI_POLARITY = 1         # SPI mode 2: clock idles high, MISO sampled on the falling edge,
SPI_PHASE = 0            # the 74HC165 shifts on the rising edge -> half a clock of setup time
CHAIN_BYTES = 16         # 16 chips x 8 inputs = 128: cells 0..120, buttons, 2 spare
ACTIVE_LOW = True        # sensors and buttons pull their input low when active (pull-ups on board)
BUTTON_BYTE = 15         # buttons sit on the last chip (chip 15), after cell 120 (input D0):
BUTTON_SHIFT = 1         # D1 confirm, D2 next, D3 undo, D4 hint, D5 end; D6, D7 spare (pulled up = inactive)
WS2812_SM = 0            # PIO0 state machine 0
N_LEDS = 157             # 121 cells + 4 x 9 score-bar LEDs, one data line
LED_BUDGET_MAX_MA = 413  # the largest LED budget (`budget`) that keeps the board within 95 % of USB's 500 mA (circuit/power.py)
