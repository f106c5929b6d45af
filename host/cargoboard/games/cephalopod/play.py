"""Whole Cephalopod games played by a modelled hand on the firmware's scanner and Cephalopod
plug-in, in this process (fast; the virtual board runs the same firmware code under MicroPython).

The hand (`DiceHand`) performs each action as people do: the new die first and then the
captured dice taken one by one, or the dice taken first and then the new die put down, or some
of each; with pauses of its own between the steps, now and then a long one in the middle of a
capture, contacts that bounce as a die lands, and the next player starting soon after (often
before the board would have settled). The player presses a button only when the LEDs ask for
one: when the board shows candidates (`next` until the right one, `confirm`), or, with
`confirm_captures`, `confirm` after each capture. The driver checks every commit against the
truth. Everything is seeded: a run repeats exactly.
"""

import random

from shared_rules.cephalopod import rules as ce
from shared_rules.cephalopod.engine import best_action
from firmware import hal as H
from firmware.games.cephalopod import tracker as T
from firmware.games.cephalopod.plugin import Game
from cargoboard.sim.table import Table, touch

ORDERS = ("place-first", "take-first", "mixed")


def capture_steps(pos, action, rng, orders=ORDERS):
    """The order of a hand's steps for action: a list of (cell, occupied after), the new die
    being (cell, True), a captured die (cell, False)."""
    c = action >> 4
    taken = pos.captured_cells(action)
    rng.shuffle(taken)
    order = orders[rng.randrange(len(orders))] if taken else "place-first"
    if order == "place-first":
        k = 0
    elif order == "take-first":
        k = len(taken)
    else:
        k = rng.randrange(1, len(taken))
    steps = [(n, False) for n in taken[:k]] + [(c, True)] + [(n, False) for n in taken[k:]]
    return steps, order


class DiceHand:
    """Turns an action into timed raw sensor readings (bytearray(16), hold ms)."""

    def __init__(self, seed=0, pause=(60, 450), long_pause=0.08, bounce=0.3, next_gap=(450, 1800)):
        self.rng = random.Random(seed)
        self.pause = pause  # ms between two steps of one action
        self.long_pause = long_pause  # chance of a 0.7-1.6 s pause in the middle of a capture
        self.bounce = bounce  # contacts bounce as a die lands or leaves
        self.next_gap = next_gap  # ms before the next player starts

    def segments(self, raw, block, pos, action):
        """Raw readings for action, from the board raw (not changed)."""
        rng = self.rng
        raw = bytearray(raw)
        out = []
        steps, order = capture_steps(pos, action, rng)
        for i, (cell, on) in enumerate(steps):
            out += touch(raw, block[cell], on, rng, self.bounce)
            hold = rng.randint(*self.pause)
            if i < len(steps) - 1 and rng.random() < self.long_pause:
                hold = rng.randint(700, 1600)
            out.append((bytearray(raw), hold))
        return out, raw, order

    def gap(self):
        return self.rng.randint(*self.next_gap)


class Stats:
    def __init__(self):
        self.games = 0
        self.actions = 0
        self.captures = 0
        self.no_button = 0  # actions the board committed without any button
        self.by_how = {}  # commit event (auto, confirm) -> count
        self.presses = 0
        self.asked = 0  # actions the board had to ask about
        self.wrong = 0  # games in which the board committed an action the hand did not make
        self.failures = []
        self.orders = {}

    def add(self, other):
        for k in ("games", "actions", "captures", "no_button", "presses", "asked", "wrong"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.failures.extend(other.failures)
        for d, o in ((self.by_how, other.by_how), (self.orders, other.orders)):
            for k, v in o.items():
                d[k] = d.get(k, 0) + v


def pick_random(pos, legal, rng):
    return legal[rng.randrange(len(legal))]


def pick_engine(pos, legal, rng):
    """Mostly the engine's choice (captures are then common), now and then any action."""
    if rng.random() < 0.8:
        return best_action(pos, 1)
    return legal[rng.randrange(len(legal))]


def _consistent(tracker, truth):
    mine = tracker.pos.history()
    return mine == truth.history()[:len(mine)]


def play_game(seed, size="5x5", pick=None, hand=None, confirm_captures=False, max_actions=400,
              trace=None):
    """Play one seeded game on the plug-in; returns Stats (wrong > 0 if the board ever held an
    action the hand did not make, or did not end on the true position). trace: a list to record
    what the board got (Table.trace)."""
    rng = random.Random(seed)
    pick = pick or pick_random
    game = Game({"layout": size})
    truth = ce.named_position(size)
    table = Table(game, trace)
    tracker = game.tracker
    hand = hand or DiceHand(seed)
    st = Stats()
    st.games = 1
    presses = []
    events = []
    game.emit = events.append
    for _ in range(max_actions):
        legal = truth.legal_actions()
        if not legal:
            break
        a = pick(truth, legal, rng)
        segs, raw, order = hand.segments(table.raw, game.block, truth, a)
        st.orders[order] = st.orders.get(order, 0) + 1
        truth.push(a)
        presses.append(0)
        if a & 15:
            st.captures += 1
        for r, ms in segs:
            table.feed(r, ms)
        table.feed(raw, hand.gap())
        if not _consistent(tracker, truth):
            break
        if confirm_captures and a & 15 and tracker.state == T.READY:
            table.press(H.CONFIRM)
            presses[-1] += 1
        st.asked += _answer(table, tracker, truth, presses)
        if not _consistent(tracker, truth):
            break
    if _consistent(tracker, truth):
        table.settle(T.SETTLE_MS + 200)
        st.asked += _answer(table, tracker, truth, presses)
    if not _consistent(tracker, truth) or tracker.pos.notation() != truth.notation():
        st.wrong += 1
        st.failures.append(_divergence(tracker, truth, seed, size))
    st.actions = len(presses)
    st.no_button = sum(1 for p in presses if not p)
    st.presses = sum(presses)
    for e in events:
        how = e.split(" ", 1)[0]
        if how in ("auto", "confirm"):
            st.by_how[how] = st.by_how.get(how, 0) + 1
    return st


def _answer(table, tracker, truth, presses):
    """What a player reading the LEDs presses: when the board asks, `next` until the action
    that was played is shown, then `confirm`. Returns how many questions were answered."""
    true = truth.history()
    asked = 0
    for _ in range(8):
        if tracker.state != T.ASKING or not _consistent(tracker, truth):
            return asked
        asked += 1
        done = len(tracker.pos.history())
        target = true[done]
        n = 0
        while tracker.shown() != target and n < len(tracker.candidates):
            table.press(H.NEXT)
            presses[done] += 1
            n += 1
        if tracker.shown() != target:
            return asked
        table.press(H.CONFIRM)
        presses[done] += 1
    return asked


def _divergence(tracker, truth, seed, size):
    mine = tracker.pos.history()
    true = truth.history()
    i = 0
    while i < len(mine) and i < len(true) and mine[i] == true[i]:
        i += 1
    p = ce.named_position(size)
    for a in true[:i]:
        p.push(a)
    fmt = p.format_action
    return "%s seed %d: after %d actions the board has %s, the hand did %s (board state %s)" % (
        size, seed, i, " ".join(fmt(a) for a in mine[i:i + 1]) or "-",
        " ".join(fmt(a) for a in true[i:i + 1]) or "-", T.STATE_NAMES[tracker.state])
