# Cargocube on a revision-B board (linear Hall sensors): the plug-in of plugin.py, whose
# tracker also reads the steps of the app's level scanner (options['levels'], firmware/drivers/
# levels.py) through StepTracker (steptracker.py). The revision-B App registers this module for
# the game (firmware/games/revb.py); a revision-A board never loads it.
#
# The app gives on_change the same occupancy again when only the steps changed (a game that
# keeps options['levels'] as its attribute `levels` reads them): the tracker reads the steps
# at every on_change.

from firmware.games.cargocube import plugin as P
from firmware.games.cargocube.steptracker import StepTracker


class Game(P.Game):
    def __init__(self, options):
        self.levels = options["levels"]
        P.Game.__init__(self, options)

    def new_tracker(self, pos, rank=None):
        return StepTracker(pos, self.levels, rank=rank)

    def start(self):
        self.levels.rebase()  # the pieces are in place: their fields are the baseline
        P.Game.start(self)
