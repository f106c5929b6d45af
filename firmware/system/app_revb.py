"""Revision B's App (linear Hall sensors): the App of app.py, plus a level scanner over the
fields the HAL reads for every cell (firmware/drivers/levels.py: a baseline per cell, the
steps against it). The boot makes this App only on a revision-B board, so a revision-A board
never loads this module nor the level scanner.

The level scanner goes to the plug-ins in options['levels']; the games that read it have a
plug-in of their own on revision B (firmware/games/revb.py, registered here). It is fed each
frame right after the occupancy scanner and before anything is dispatched, so that a game
started or told of a change in that frame reads that frame's fields. When a reported step changed and no cell's
occupancy did, a game in play that reads the steps (it keeps options['levels'] as its
attribute `levels`) gets on_change with the same occupancy again (docs/firmware.md).

The console's `calibrate` (revision B only) takes every cell's zero on an empty board over a
few frames (firmware/system/calib.py, loaded for it): while it runs, `calibration` is fed each
frame before the scanners.
"""

from firmware.hal import unload
from firmware.drivers.scanner import Scanner
from firmware.drivers.levels import LevelScanner
from firmware.system.app import App, PLAY


class _StepScanner(Scanner):
    """The app's occupancy scanner, which feeds the level scanner after itself and tells the
    game of the steps that changed alone."""

    def __init__(self, app, stable_ms):
        Scanner.__init__(self, stable_ms)
        self.app = app

    def update(self, raw, now):
        app = self.app
        if app.calibration is not None:
            app.calibration.scan()
        n = Scanner.update(self, raw, now)
        hal = app.hal
        if app.levels.update(hal.levels, now, hal.rough, hal.reader.changed) and not n and \
                app.state == PLAY:
            game = app.game
            if getattr(game, "levels", None) is not None:
                try:
                    game.on_change(self.stable, now)
                except Exception as e:
                    app.report_error("on_change", e)
        return n


class HallApp(App):
    def __init__(self, hal, stable_ms=30, cap=96, budget_ma=None, gamelog=None):
        # the HAL's LED budget by default: lower than revision A's, as the sensors draw from
        # the same USB power (docs/hardware.md)
        if budget_ma is None:
            budget_ma = hal.led_budget_ma
        App.__init__(self, hal, stable_ms, cap, budget_ma, gamelog)
        # the plug-ins that read the steps, over the registry's (which keeps them)
        from firmware.system.plugins import register
        from firmware.games.revb import REGISTRY
        for name, module in REGISTRY:
            register(name, module)
        register = REGISTRY = None
        unload("firmware.system.plugins")
        unload("firmware.games.revb")
        self.levels = LevelScanner(stable_ms)
        self.scanner = _StepScanner(self, stable_ms)
        self.calibration = None  # the zeros being taken (`calibrate`, firmware/system/calib.py)

    def command(self, words):
        """App.command, and `calibrate`: firmware/system/calib.py, loaded for it (it stays
        while its scans are being averaged, through the Calibration it leaves here)."""
        cmd = words[0].lower()
        if cmd == "new" and self.calibration is not None:
            return "err calibrating (0.17 s): send `new` after its reply"
        if cmd != "calibrate":
            return App.command(self, words)
        from firmware.system import calib
        try:
            return calib.start(self)
        finally:
            calib = None
            unload("firmware.system.calib")

    def plugin_options(self, opts):
        """App.plugin_options, and the level scanner as options['levels']."""
        App.plugin_options(self, opts)
        opts["levels"] = self.levels
