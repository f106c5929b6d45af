"""Whole games played by a modelled hand on the firmware's scanner and Cargocube plug-in,
in this process (fast; the virtual board runs the same firmware code under MicroPython).

The player picks legal actions at random (seeded), performs them with `hand.Hand`, and then
behaves as a player reading the LEDs would: nothing to do if the board shows the action taken
or still waiting for the move to settle; answer with `next`/`confirm` when it shows candidates;
press `confirm` when it has not seen a move that left no trace (onto or off a stack). The driver
counts the presses per action kind and checks every commit against the truth: a commit is
right when it is the hand's action or one that ends in the same position (a hop through a wind
rose or straight on; the board offers such actions once and records the first in its order,
docs/board-cargocube.md "Moves that end in the same position"), wrong otherwise (GameStats.wrong).
"""

import random

from shared_rules.cargocube import layouts, rules as cc
from firmware import hal as H
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.plugin import Game
from shared_rules.cargocube.engine import best_action
from cargoboard.games.cargocube.hand import Hand, physical_steps
from cargoboard.sim.table import ACK_READ_MS, Table

KIND_NAMES = ("activation", "roll", "step", "booster", "end", "ride", "teleport", "turn",
              "biohazard")  # by action kind (cc.ACTIVATE ... cc.HAZARD)

# What each press was for (GameStats.press_causes), in the order the bench prints them. The
# first two are the ones occupancy sensors force (GameStats.forced counts the actions that need
# one); the others are what the board's questions cost on top.
PRESS_CAUSES = (
    "declare",      # `confirm`: "you missed a move" (no trace, or the board still waits)
    "answer",       # `confirm` of a question the board asked (several moves fit)
    "take before",  # `confirm` of a missed move shown, to declare the next one (a second
                    # move the board did not see came before playing on could take it), if
                    # letting it stand did not take it (0 since OFFER_TAKE_MS: kept to show it)
    "take last",    # the same for the game's last move (nothing comes after it)
    "next hint",    # `next`: the move made was the hint's choice, not shown first
    "next other",   # `next`: a move the hint would not play, not shown first
    "undo",         # backing out of a question that did not hold the move
    "end again",    # `end` once more: the turn ended during a question has not ended
)


class GameStats:
    def __init__(self):
        self.actions = 0
        self.no_button = 0
        self.wrong = 0
        # commits of another action than the hand's that ends in the same position (right: the
        # board offers such actions once; the record names the board's hops)
        self.alike = 0
        self.by_kind = {}  # kind name -> [actions, actions that needed a button, presses]
        self.reasons = {}  # why a button was needed -> count
        self.press_causes = {}  # what each press was for (PRESS_CAUSES) -> presses
        # actions (not `end`) that change no sensor or the same sensors as another legal
        # action: each needs a press at least, whatever the board does (revision A's floor)
        self.forced = 0
        self.ended_naturally = 0
        self.stood = 0  # missed moves shown that the player let stand until the board took them
        # times the board lit red (a mistake: the plug-in's `state mismatch`, once a difference
        # nothing explains has lasted MISMATCH_MS), by when: "hand" while the hand was making
        # its move, "at rest" after it (its piece put down, the board looked at or answered)
        self.reds = {}
        self.games = 0
        self.failures = []
        self.final = ""  # the board's position at the end of the (last) game

    def add(self, other):
        self.actions += other.actions
        self.no_button += other.no_button
        self.wrong += other.wrong
        self.alike += other.alike
        self.ended_naturally += other.ended_naturally
        self.stood += other.stood
        for k, v in other.reds.items():
            self.reds[k] = self.reds.get(k, 0) + v
        self.forced += other.forced
        for k, v in other.press_causes.items():
            self.press_causes[k] = self.press_causes.get(k, 0) + v
        self.games += other.games
        self.failures.extend(other.failures)
        for k, v in other.by_kind.items():
            mine = self.by_kind.setdefault(k, [0, 0, 0])
            for i in range(3):
                mine[i] += v[i]
        for k, v in other.reasons.items():
            self.reasons[k] = self.reasons.get(k, 0) + v


def play_game(seed, players=2, cards=True, max_actions=400, hand=None, pick=None,
              teleport=False, noise=None, trace=None, plays_on=False, wait=None):
    """Play one seeded game; return its GameStats. cards: False, True (base) or a card layout
    (pyramid, bastion, both); pick(pos, legal, rng) chooses the actions (default: uniformly at
    random). noise: a hallfield.Noise (this game's revision-B physics) plays it on a revision-B
    board (linear sensors, steps) with that noise; None on revision A. trace: a list that gets the table's
    input (cargoboard.sim.table.Table), to play it again elsewhere. plays_on: the player
    leaves a question the board asks about the move just made unanswered and plays the next
    move (a hasty player; answered, as ever, when the board still asks or shows red after it).
    wait: the game's option `wait=K` (revision A: a look-alike settled by up to K later moves,
    firmware/games/cargocube/waiting.py; 0 asks at once; None: the board's default,
    firmware/games/cargocube/plugin.py Game.WAIT)."""
    rng = random.Random(seed)
    if cards is True:
        cards = "base"
    truth = cc.start_position(players, cards=cards, teleport=teleport)
    options = {"seats": layouts.SEATS_BY_PLAYERS[players], "cards": cards or "",
               "teleport": "1" if teleport else "", "wait": "" if wait is None else str(wait)}
    st = GameStats()
    st.games = 1
    phase = ["at rest"]  # what the hand is doing: "hand" while it makes a move

    def emit(text):
        if text == "state mismatch":
            st.reds[phase[0]] = st.reds.get(phase[0], 0) + 1

    options["emit"] = emit
    world = None
    if noise is None:
        game = Game(options)
        table = Table(game, trace)
    else:
        from cargoboard.games.cargocube.hallfield import HallBoard, HallWorld
        from firmware.hal.hall import reader
        from firmware.drivers.levels import LevelScanner
        from firmware.games.cargocube import plugin_revb
        from hardware import pinmap_revb
        world = HallWorld(noise, seed=seed)
        world.load_position(truth)
        levels = LevelScanner()
        options["levels"] = levels
        game = plugin_revb.Game(options)
        raw = world.adc_sums()
        if trace is not None:
            trace.append(("start", raw, 0))
        table = Table(game, trace, hall=(reader(pinmap_revb), levels), raw=raw)
    tracker = game.tracker
    hand = hand or Hand(seed)
    presses = []  # per truth action: presses spent to get it registered
    reasons = []  # per truth action: why (first reason)
    truth.ends = []  # the truth's position (notation) after each of its actions (_consistent)
    truth.alike = set()  # (i, the board's action i) found to end as the truth's action i
    for _ in range(max_actions):
        acts = truth.legal_actions()
        if not acts:
            st.ended_naturally = 1
            break
        action = pick(truth, acts, rng) if pick else acts[rng.randrange(len(acts))]
        st.forced += _needs_press(truth, acts, action)
        if world is None:
            segs = hand.segments(truth, physical_steps(truth, action))
            truth.push(action)
        else:
            steps = physical_steps(truth, action)
            truth.push(action)
            dst = truth.stacks[action[3]] if action[0] != cc.END else None
            landed = dst[-1] if dst else None
            truth.pop()
            segs = hand.segments(truth, steps, HallBoard(world, landed))
            truth.push(action)
            world.sync_items(truth)
        truth.ends.append(truth.notation())
        presses.append(0)
        reasons.append("")
        phase[0] = "hand"
        for raw, ms in segs:
            table.feed(raw, ms)
        phase[0] = "at rest"
        table.settle(T.SETTLE_MS + 100)  # the player looks at the board once it is still
        if action[0] == cc.END:
            # `end` also tells the board the last move is complete; a player answers only what
            # the board still asks after that.
            if _done(tracker, truth) < len(presses) - 2 or tracker.state == T.MISMATCH:
                _answer(table, tracker, truth, presses, reasons, len(presses) - 1, final=True,
                        st=st)
            table.press(H.END)
            _answer(table, tracker, truth, presses, reasons, len(presses), final=True, st=st)
        else:
            _answer(table, tracker, truth, presses, reasons, len(presses), final=False, st=st,
                    plays_on=plays_on)
        if not _consistent(tracker, truth):
            st.wrong += 1
            st.failures.append(_divergence(tracker, truth, seed))
            break
    else:
        pass
    if not st.wrong:
        _answer(table, tracker, truth, presses, reasons, len(presses), final=True, last=True,
                st=st)
        # (a game cut at max_actions may leave a look-alike's readings open on revision A's
        # board: its settled moves are checked, the rest is not taken yet)
        settled = _settled(tracker) == tracker.pos.ply()
        if not _consistent(tracker, truth) or (
                settled and tracker.pos.notation() != truth.notation()):
            st.wrong += 1
            st.failures.append(_divergence(tracker, truth, seed))
    st.final = tracker.pos.notation()  # where the board ended (a trace played again must agree)
    st.alike = len(truth.alike)
    history = truth.history()
    for i in range(len(presses)):
        kind = KIND_NAMES[history[i][0]]
        rec = st.by_kind.setdefault(kind, [0, 0, 0])
        rec[0] += 1
        if history[i][0] == cc.END:
            continue  # `end` is a button by design; counted apart
        st.actions += 1
        if presses[i]:
            rec[1] += 1
            rec[2] += presses[i]
            st.reasons[reasons[i]] = st.reasons.get(reasons[i], 0) + 1
        else:
            st.no_button += 1
    return st


def _needs_press(pos, legal, action):
    """Whether action (legal in pos, not yet played) needs a press on occupancy sensors: it
    changes no sensor, or the same ones as another legal action (`end` is a press by design)."""
    if action[0] == cc.END:
        return 0
    mine = T.action_delta(pos, action)
    if not mine:
        return 1
    for b in legal:
        if b != action and b[0] != cc.END and T.action_delta(pos, b) == mine:
            return 1
    return 0


def _count(st, cause):
    if st is not None:
        st.press_causes[cause] = st.press_causes.get(cause, 0) + 1


def _divergence(tracker, truth, seed):
    mine = tracker.pos.history()
    true = truth.history()
    i = 0
    while i < len(mine) and i < len(true) and mine[i] == true[i]:
        i += 1
    fmt = cc.format_action
    return "seed %d: after %d actions the board has %s, the hand did %s (board state %s)" % (
        seed, i, " ".join(fmt(a) for a in mine[i:i + 3]) or "-",
        " ".join(fmt(a) for a in true[i:i + 3]) or "-", T.STATE_NAMES[tracker.state])


def _settled(tracker):
    """How many of the board's actions are settled: taken into its log. Revision A's board
    plays on a look-alike's likeliest reading until later moves (or the player) settle it
    (firmware/games/cargocube/waiting.py); those moves are not taken yet, right or not."""
    settled = getattr(tracker, "settled", None)
    return settled() if settled is not None else tracker.pos.ply()


def _key(a):
    """What a player sees of an action on the LEDs: its kind, piece and cells (actions alike in
    these end alike but for a catapult's throw: offers.distinct)."""
    return a[0], a[1], a[3], a[4]


def _done(tracker, truth):
    """How many of the truth's actions the board has: its actions, or, while it keeps readings
    of a look-alike (waiting.py), the settled ones and the longest reading that is the truth's
    next ones. (A reading may read one move as two: its length is not the truth's.)"""
    readings = getattr(tracker, "readings", None)
    if not readings:
        return tracker.pos.ply()
    at = tracker.doubt_at
    true = truth.history()
    best = at
    for r in readings:
        n = len(r)
        if at + n <= len(true) and at + n > best:
            for i in range(n):
                if _key(r[i]) != _key(true[at + i]):
                    break
            else:
                best = at + n
    return best


def _shows(tracker, target, truth=None, at=0):
    """Whether the board shows target, the truth's action at (or one that ends alike there)."""
    if getattr(tracker, "readings", None) and truth is not None:
        shown = tracker.shown()
        if shown is None or _key(shown) != _key(target):
            return False
        if shown == target:
            return True
        later = [truth.pop() for _ in range(len(truth.history()) - at)]
        try:
            return _same(truth, shown, target)
        finally:
            for a in reversed(later):
                truth.push(a)
    return _same(tracker.pos, tracker.shown(), target)


def _consistent(tracker, truth):
    """Whether the board's settled actions so far are the truth's: each the truth's action, or
    one that ends in the same position (the board cannot tell them apart and offers them
    once)."""
    mine = tracker.pos.history()
    true = truth.history()
    n = _settled(tracker)
    if n > len(true):
        return False
    for i in range(n):
        if mine[i] != true[i] and (i, mine[i]) not in truth.alike:
            if not _ends_alike(tracker.pos, len(mine) - 1 - i, truth.ends[i]):
                return False
            truth.alike.add((i, mine[i]))
    return True


def _answer_late(table, tracker, truth, presses, reasons, st):
    """The board asks about a move before its latest one (asking_at: the readings of a
    look-alike it kept differ there): the player finds that move on the LEDs and confirms it."""
    i = tracker.asking_at
    true = truth.history()
    target = true[i]
    later = [truth.pop() for _ in range(len(true) - i)]  # (the truth before that move)
    try:
        reasons[i] = reasons[i] or "late"
        n = 0
        next_cause = None
        if not _same(truth, tracker.shown(), target):
            next_cause = "next hint" if best_action(truth) == target else "next other"
        while not _same(truth, tracker.shown(), target) and n < len(tracker.candidates):
            table.press(H.NEXT)
            presses[i] += 1
            _count(st, next_cause)
            n += 1
    finally:
        for a in reversed(later):
            truth.push(a)
    _count(st, "answer")
    table.press(H.CONFIRM)
    presses[i] += 1


def _ends_alike(pos, back, end):
    """Whether pos, `back` of its actions taken back, is the position notated end."""
    undone = [pos.pop() for _ in range(back)]
    try:
        return pos.notation() == end
    finally:
        for a in reversed(undone):
            pos.push(a)


def _same(pos, a, b):
    """Whether a (None: nothing shown) is action b, legal in pos, or ends in the same position:
    the board offers one of those (docs/board-cargocube.md), and a player cannot tell them apart."""
    if a is None or a == b:
        return a == b
    if a[1] != b[1] or a[3] != b[3]:
        return False
    pos.push(a)
    end = pos.notation()
    pos.pop()
    pos.push(b)
    other = pos.notation()
    pos.pop()
    return end == other


def _answer(table, tracker, truth, presses, reasons, upto, final, last=False, st=None,
            plays_on=False):
    """Press what a player reading the LEDs would press until the board has the first `upto`
    actions of the truth (or, when not final, is visibly waiting for the latest move). A missed
    move the player asked for and sees shown is taken when the player goes on (the next move,
    `end`) or lets it stand (tracker.OFFER_TAKE_MS): no more presses for it; where nothing comes
    after it (another unseen move, the game's `last`) the player waits. Each press is counted
    in st.press_causes by what it was for. plays_on: a question the board asks by itself about
    the latest move is left unanswered (play_game)."""
    true = truth.history()
    for _ in range(60):
        if getattr(tracker, "asking_at", -1) >= 0 and tracker.state == T.ASKING:
            _answer_late(table, tracker, truth, presses, reasons, st)
            continue
        done = _done(tracker, truth)
        if done >= upto or not _consistent(tracker, truth):
            return
        target = true[done]
        state = tracker.state
        if tracker.offered and _shows(tracker, target, truth, done) and done == upto - 1 \
                and not last:
            return  # shown as the move made: playing on takes it
        if state == T.MOVING and not final and done == upto - 1 and (
                target in tracker.moves or target in tracker.pending):
            return  # the board shows the move under way (its destination lit): play on
        if plays_on and state == T.ASKING and not tracker.offered and done == upto - 1:
            return  # the board asks about the move just made: the hasty player plays on
        if target[0] == cc.END and state != T.ASKING:
            # The turn the player ended (`end` while the board was asking) has not ended: the
            # player presses `end` again.
            table.press(H.END)
            presses[done] += 1
            _count(st, "end again")
            if _done(tracker, truth) == done and not (
                    getattr(tracker, "asking_at", -1) >= 0 and tracker.state == T.ASKING):
                return
            continue
        if state != T.ASKING:
            # The board has not seen a move (it left no trace, or the board still waits):
            # `confirm` asks it for the moves that fit.
            why = {T.IDLE: "no trace", T.MOVING: "settle", T.MISMATCH: "mismatch"}.get(state, "?")
            table.press(H.CONFIRM)
            if getattr(tracker, "acked", None) is not None:
                # revision B shows its last move taken (green): not the one made, so the
                # player, having seen it, presses again for the moves it may have missed
                presses[done] += 1
                reasons[done] = reasons[done] or why
                _count(st, "declare")
                table.settle(ACK_READ_MS)
                table.press(H.CONFIRM)
            if tracker.state != T.ASKING and _done(tracker, truth) == done:
                return  # nothing to offer
            presses[done] += 1
            reasons[done] = reasons[done] or why
            _count(st, "declare")
            continue
        reasons[done] = reasons[done] or ("%d fit" % min(tracker.fitting, 3)).replace("3 fit", "3+ fit").replace("0 fit", "asked")
        n = 0
        next_cause = None
        if not _shows(tracker, target, truth, done) and st is not None:
            # (the board's position is the truth's before target: the hint of that position)
            next_cause = "next hint" if best_action(tracker.pos) == target else "next other"
        while not _shows(tracker, target, truth, done) and n < len(tracker.candidates):
            table.press(H.NEXT)
            presses[done] += 1
            _count(st, next_cause)
            n += 1
        if not _shows(tracker, target, truth, done):
            # not among them: the player backs out of the question (else playing on would take
            # the one shown)
            table.press(H.UNDO)
            presses[done] += 1
            _count(st, "undo")
            return
        if tracker.offered and done == upto - 1 and not last:
            return  # shown: playing on takes it
        if tracker.offered:
            # Shown, and nothing comes to take it (another move went unseen after it, or it is
            # the game's last): the player lets it stand until the board takes it.
            table.settle(T.OFFER_TAKE_MS + 100)
            if _done(tracker, truth) > done:
                if st is not None:
                    st.stood += 1
                continue
            if getattr(tracker, "asking_at", -1) >= 0 and tracker.state == T.ASKING:
                continue  # the board asks about an earlier move now: the player reads it
        _count(st, "answer" if not tracker.offered else "take before" if done < upto - 1
               else "take last")
        table.press(H.CONFIRM)
        presses[done] += 1
