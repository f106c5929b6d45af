"""The hand model of «Формула 99»: how people turn an action into lifts, placements and presses
on the board (for the in-process games of play.py, the virtual-board scenarios and the bench).

An action's physical part is its effect on what the sensors see (tracker.effect): pieces leave
cells and arrive on others. The hand lifts first and places after, one piece at a time, with a
pause of its own between the steps and now and then a contact that bounces. A ship going to its
start zone takes a free cell of it; one leaving it lifts from an occupied one. A card shown or
played is entered with the card picker (hint, next…, confirm, next…, confirm) or, now and then,
on the console; an action the sensors cannot see is taken with the option picker or `act`.
Everything is seeded: a run repeats exactly.
"""

import random

from shared_rules.formula99 import cards as C
from firmware import hal as H
from firmware.games.formula99 import tracker as T
from cargoboard.sim.table import touch


class Hand:
    def __init__(self, game, seed=0, pause=(80, 400), bounce=0.2, console=0.25,
                 token_first=0.5):
        self.game = game  # the plug-in (its geometry: grid, start_grid, finish_grid)
        self.rng = random.Random(seed)
        self.pause = pause
        self.bounce = bounce
        self.console = console  # share of inputs typed on the console instead of buttons
        self.token_first = token_first  # share of charges whose token goes before the card

    # -- pieces ----------------------------------------------------------------------------

    def cells_of(self, raw, i, occupied):
        """The grid cells of sense index i that hold (occupied) or lack a piece in raw."""
        g = self.game
        if i < 72:
            cells = (g.grid[i],)
        elif i < T.FIN:
            k = i - T.ZONE
            cells = (g.start_grid[2 * k], g.start_grid[2 * k + 1])
        elif i < T.CTRL:
            cells = (g.finish_grid[i - T.FIN],)
        else:
            cells = (60,)
        return [c for c in cells if bool(raw[c >> 3] >> (c & 7) & 1) == occupied]

    def steps(self, raw, effect):
        """[(raw after, hold ms)] for an effect, from raw (not changed)."""
        rng = self.rng
        raw = bytearray(raw)
        leave, arrive = T.pieces(effect)
        rng.shuffle(leave)
        rng.shuffle(arrive)
        out = []
        for i, on in [(i, False) for i in leave] + [(i, True) for i in arrive]:
            cells = self.cells_of(raw, i, not on)
            if not cells:
                continue
            c = rng.choice(cells)
            out += touch(raw, c, on, rng, self.bounce)
            out.append((bytearray(raw), rng.randint(*self.pause)))
        return out

    # -- inputs ----------------------------------------------------------------------------

    def card_presses(self, card, pool):
        """The button presses of the card picker for card (the picker open), pool the cards it
        offers (plugin.fitting_cards)."""
        su = C.suit(card)
        su = 4 if su < 0 else su
        presses = [H.NEXT] * su + [H.CONFIRM]
        ranks = [c for c in pool if (C.suit(c) if C.suit(c) >= 0 else 4) == su]
        presses += [H.NEXT] * ranks.index(card) + [H.CONFIRM]
        return presses

    def use_console(self):
        return self.rng.random() < self.console
