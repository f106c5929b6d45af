# Cargocube on a revision-B board (linear Hall sensors): the plug-in of plugin.py, whose
# tracker also reads the steps of the app's level scanner (options['levels'], firmware/drivers/
# levels.py) through StepTracker (steptracker.py). The revision-B App registers this module for
# the game (firmware/games/revb.py); a revision-A board never loads it.
#
# The app gives on_change the same occupancy again when only the steps changed (a game that
# keeps options['levels'] as its attribute `levels` reads them): the tracker reads the steps
# at every on_change.
#
# (cc, H and L are reached through plugin.py's names: importing them here again cost 1.1 KB
# of the emulated Pico's heap, measured with bench/heap.py --rev-b.)

from firmware.games.cargocube import plugin as P
from firmware.games.cargocube.steptracker import StepTracker

ACK_MS = 1500  # how long a `confirm` with nothing moved shows the action last taken (green)
# (a `confirm` within plugin.CONFIRM_REPEAT_MS of that one is the same press: _confirm_shown)


class Game(P.Game):
    WAIT = ""  # the steps tell look-alikes apart as they happen: no waiting tracker

    def __init__(self, options):
        self.levels = options["levels"]
        self.ack_until = -1  # the end of that showing (ticks), -1 when none is shown
        P.Game.__init__(self, options)

    def new_tracker(self, pos, rank=None):
        return StepTracker(pos, self.levels, rank=rank)

    def start(self):
        self.levels.rebase()  # the pieces are in place: their fields are the baseline
        P.Game.start(self)

    def on_button(self, bit, now_ms):
        t = self.tracker
        before = t.acked
        P.Game.on_button(self, bit, now_ms)
        if t.acked is not None and t.acked is not before:
            # the board already took it (StepTracker.press_confirm): said, and shown a while
            self.emit("taken " + P.cc.format_action(t.acked))
            self.confirm_at = now_ms  # a `confirm` again at once is the same press
            self.ack_until = (now_ms + ACK_MS) & P.H.TICKS_MASK
            self._rebuild()

    def _confirm_shown(self):
        return self.ack_until >= 0 or P.Game._confirm_shown(self)

    def tick(self, now_ms):
        P.Game.tick(self, now_ms)
        if self.ack_until >= 0 and P.H.ticks_diff(now_ms, self.ack_until) >= 0:
            self.ack_until = -1
            self._rebuild()

    def _rebuild(self):
        P.Game._rebuild(self)
        a = self.tracker.acked
        if a is not None and self.ack_until >= 0:
            # the move's two cells, slow; the turn's end: the four corners, winking (their
            # slow blink is the next mover's activation due: W's orange would differ from this
            # green by hue alone, which a colour-blind player may not see)
            if a[0] == P.cc.END:
                cells, blink = (0, 10, 110, 120), P.L.BLINK_WINK
            else:
                cells, blink = (a[1], P._led_dst(a)), P.L.BLINK_SLOW
            for c in cells:
                self.overlay.add(c, P.L.GREEN, 255, blink)
