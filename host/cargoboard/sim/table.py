"""The board in this process: the firmware's scanner and a game plug-in, driven frame by frame
with raw sensor bitmaps (cargoboard.games.cargocube.play for Cargocube, cargoboard.games.cephalopod.play for
Cephalopod, tests/driver_tracker_cards.py). Runs under CPython and the MicroPython unix port.
"""

from firmware.drivers.scanner import Scanner

FRAME_MS = 10


class Table:
    """Scanner + plug-in. The sensors start as the game's set-up mask (what the app waits for
    before it starts the game); trace, if a list, records ("feed", raw, ms) and ("press", bit)
    to replay the same input elsewhere."""

    def __init__(self, game, trace=None):
        self.game = game
        self.trace = trace
        self.scanner = Scanner(30)
        self.now = 0
        self.raw = bytearray(game.setup_mask())
        self.scanner.reset(self.raw)
        game.start()

    def feed(self, raw, ms):
        """Hold raw for ms, one scan per frame."""
        if self.trace is not None:
            self.trace.append(("feed", bytes(raw), ms))
        end = self.now + ms
        while self.now < end:
            self.now += FRAME_MS
            if self.scanner.update(raw, self.now):
                self.game.on_change(self.scanner.stable, self.now)
            self.game.tick(self.now)
        self.raw = raw

    def settle(self, ms=100):
        self.feed(self.raw, ms)

    def press(self, bit):
        if self.trace is not None:
            self.trace.append(("press", bit))
        self.game.on_button(bit, self.now)
        self.settle(40)
