"""Whole «Формула 99» games played by the hand model (hand.py) on the firmware's scanner and
plug-in, in this process (the virtual board runs the same firmware under MicroPython).

The truth is a full-view game dealt from a seed; its players are chosen by `pick` (random,
favouring cards and charges, or the engine). Each action goes to the board as people would do
it: its physical part by the hand (tokens of crossed charges taken off before or after the card
is entered), its card with the picker or the console, what the sensors cannot see with the
option picker or the console; a player presses a button only when the board asks (a question:
`next` until the candidate leading to the true position, `confirm`). After each action the
board's public position must equal the truth's. Everything is seeded.

With `digital=True` the board holds the deal itself (`deal=SEED`: digital cards, as for
`cargoboard serve`'s seat pages): a card played or laid comes from its holder as `card X` (the
seat page's command; a charge's card before its token or after it, when the board asks), a
card shown needs nothing, and the board's full position must equal the truth.
"""

import random

from shared_rules.formula99 import cards as C
from shared_rules.formula99 import engine as E
from shared_rules.formula99 import rules as R
from firmware import hal as H
from firmware.games.formula99 import tracker as T
from firmware.games.formula99.plugin import Game, fitting_cards
from cargoboard.games.formula99.hand import Hand
from cargoboard.sim.table import Table

MAX_PRESS = 80


class Stats:
    def __init__(self):
        self.games = 0
        self.actions = 0
        self.physical = 0  # actions with a physical part
        self.by_sensors = 0  # of those, taken from the sensors alone (no button, no console)
        self.cards = 0  # cards entered
        self.presses = 0
        self.console = 0
        self.asked = 0
        self.wrong = 0  # games where the board's position left the truth
        self.failures = []

    def add(self, o):
        for k in ("games", "actions", "physical", "by_sensors", "cards", "presses", "console",
                  "asked", "wrong"):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        self.failures.extend(o.failures)


def choose(truth, rng, how):
    acts = truth.legal_actions()
    if truth.to_move < 0:
        return acts[0]
    if how == "engine" and rng.random() < 0.8:
        return E.choose(truth, truth.to_move, 2, rng.randrange(1 << 30))
    weights = {R.K_PLAY: 6, R.K_LAY: 4, R.K_BLOCK: 6, R.K_LIFT: 1, R.K_DRAW: 2}
    by_kind = {}
    for a in acts:
        by_kind.setdefault(a >> 24, []).append(a)
    kinds = sorted(by_kind)
    k = rng.choices(kinds, [weights.get(x, 1) for x in kinds])[0]
    return rng.choice(by_kind[k])


def truth_steps(seed, players, level, how="random", plies=250):
    """The seeded full-view game, one action at a time, as the board sees it: yields (truth after
    the action, its public view before and after, the public action and its text, its effect
    on what the sensors see)."""
    rng = random.Random(seed)
    truth = R.start_position(players, level, seed)
    while not truth.is_over() and truth.ply() < plies:
        a = choose(truth, rng, how)
        before = truth.public()
        pa = R.public_action(a)
        text = before.format_action(pa)
        truth.push(a)
        after = truth.public()
        yield truth, before, after, pa, text, T.diff(T.expected(after), T.expected(before))


def play_game(seed, players=3, level=2, how="random", max_actions=250, hand_seed=None,
              trace=None, digital=False):
    """One seeded game on the plug-in; returns Stats (wrong 1 if the board left the truth)."""
    st = Stats()
    st.games = 1
    events = []
    seats = R.start_position(players, level).SEAT_LETTERS
    options = {"layout": "L%d" % level, "seats": seats, "emit": events.append}
    if digital:
        options["deal"] = str(seed)
    game = Game(options)
    table = Table(game, trace)
    hand = Hand(game, seed if hand_seed is None else hand_seed)
    for truth, before, after, pa, text, board_eff in truth_steps(seed, players, level, how,
                                                                  max_actions):
        st.actions += 1
        k = pa >> 24
        used_input = False
        if digital:
            a = truth.pop()
            text = truth.format_action(a)
            truth.push(a)
            after = known(truth)
            if k == R.K_SHOW:
                k = -1  # the board knows the card: only its token is to take off
            elif k == R.K_LAY and hand.rng.random() < 0.5:
                k = -2  # the token first: the board asks which card, the card answers
            elif k == R.K_PLAY or k == R.K_LAY:
                st.cards += 1
                st.console += 1
                _command(table, game, ["card", C.name((a >> 18) & 63 if k == R.K_PLAY
                                                      else a & 63)])
                used_input = True
                k = -3  # entered
        if k == R.K_SHOW or k == R.K_PLAY:
            card = (pa & 255) if k == R.K_SHOW else (pa >> 18) & 63
            st.cards += 1
            token = T.Tracker(before).shown_effect() if k == R.K_SHOW else []
            if token and token[0] in board_eff and hand.rng.random() < hand.token_first:
                _feed(table, hand, token)  # the token first, the card after
                board_eff = [x for x in board_eff if x != token[0]]
            used_input = _enter_card(table, game, hand, card, before, st)
        if board_eff:
            st.physical += 1
            _feed(table, hand, board_eff)
        table.settle(800)
        if k == -2 and game.pos.notation() != after.notation():
            st.cards += 1
            st.console += 1
            _command(table, game, ["card", C.name(a & 63)])
            table.settle(40)
            used_input = True
        if game.pos.notation() != after.notation():
            used_input = _resolve(table, game, hand, text, after, st) or used_input
        if board_eff and not used_input:
            st.by_sensors += 1
        if game.pos.notation() != after.notation():
            st.wrong = 1
            st.failures.append((seed, truth.ply(), text, game.pos.notation(), after.notation(),
                                T.STATE_NAMES[game.tracker.state]))
            break
    return st


def known(pos):
    """pos with the cards it knows shown (a full position's chance nodes have one outcome: the
    board with digital cards shows them at once); pos itself if nothing is to show."""
    if not (pos.full and pos.is_chance()):
        return pos
    pos = pos.copy()
    while pos.is_chance():
        pos.push(pos.legal_actions()[0])
    return pos


def _feed(table, hand, effect):
    for raw, ms in hand.steps(table.raw, effect):
        table.feed(raw, ms)


def _command(table, game, words):
    """A console command, recorded in the table's trace (for replays elsewhere)."""
    if table.trace is not None:
        table.trace.append(("cmd", words))
    return game.command(words)


def _enter_card(table, game, hand, card, before, st):
    if hand.use_console():
        st.console += 1
        _command(table, game, ["card", C.name(card)])
        table.settle(40)
        return True
    pool = fitting_cards(before)
    if game.pick == 0:
        table.press(H.HINT)
        st.presses += 1
    for b in hand.card_presses(card, pool):
        table.press(b)
        st.presses += 1
    return True


def _resolve(table, game, hand, text, after, st):
    """The board has not reached the truth after the physical part: it asks (pick the right
    candidate), it waits for confirm, or the action is one the sensors cannot see."""
    t = game.tracker
    if t.state == T.ASKING or t.state == T.READY:
        if t.state == T.READY:
            table.press(H.CONFIRM)
            st.presses += 1
        else:
            st.asked += 1
        n = 0
        while t.state == T.ASKING and n < MAX_PRESS:
            a = t.shown()
            game.pos.push(a)
            right = known(game.pos).notation() == after.notation()
            game.pos.pop()
            table.press(H.CONFIRM if right else H.NEXT)
            st.presses += 1
            n += 1
        if game.pos.notation() == after.notation():
            return True
    if hand.use_console():
        st.console += 1
        _command(table, game, ["act", text])
        table.settle(40)
        return True
    # the option picker (leaving the card picker first, if the board opened it)
    if game.pick in (1, 2):
        table.press(H.UNDO)
        st.presses += 1
    if game.pick == 0:
        table.press(H.CONFIRM)
        st.presses += 1
    n = 0
    while game.pick == 3 and n < MAX_PRESS:
        a = game.pick_list[game.pick_index]
        right = game.pos.format_action(a) == text
        table.press(H.CONFIRM if right else H.NEXT)
        st.presses += 1
        n += 1
    if game.pos.notation() != after.notation():
        st.console += 1
        _command(table, game, ["act", text])
        table.settle(40)
    return True
