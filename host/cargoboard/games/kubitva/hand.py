"""The hand model for КУБитва and whole games played by it on the firmware's scanner and
КУБитва plug-in, in this process (the virtual board runs the same firmware under MicroPython).

How a person's hands turn an action into lifts and places (docs/board-kubitva.md):
- a unit's steps: the unit (and the cube it carries) lifted and put down where the steps end.
  Steps of one unit in a row are made in one motion while the board would read that motion as
  exactly those steps (the fewest steps, the same outcome); else the hand puts the unit down on
  the way (people move cell by cell where the way matters);
- a kill: the victim taken off; a fill: the fillers put down one by one; a purchase that puts
  a piece down: the piece put on the front cell; a rocket or a recycling: a filler of the
  building lifted and put back (a tap), then the choice made on the buttons, then the target
  exchanged for waste (armour: taken off) or the waste exchanged for a building cube;
- `end`: its button.
With pauses of their own between lifts and places, contacts that bounce, the next gesture soon
after. The player presses a button only when the LEDs ask for one: `next` until the right
reading is shown, then `confirm`. Everything is seeded: a run repeats exactly.
"""

import random

from shared_rules.kubitva import engine
from shared_rules.kubitva import rules as kb
from firmware import hal as H
from firmware.games.kubitva import tracker as T
from firmware.games.kubitva.plugin import Game
from cargoboard.sim.table import Table, touch

# The board edition plays on the whole 11x11 grid, corners too (docs/rules/kubitva.md): the
# virtual board's world lets pieces go there (cargoboard.sim.world).
CORNERS_IN_PLAY = True


class Hand:
    """Turns a gesture (cells to empty, cells to fill) into timed raw sensor readings."""

    def __init__(self, seed=0, pause=(60, 350), long_pause=0.05, bounce=0.25, gap=(300, 900)):
        self.rng = random.Random(seed)
        self.pause = pause
        self.long_pause = long_pause  # chance of a 0.7-1.6 s pause within a motion
        self.bounce = bounce
        self.gap = gap

    def segments(self, raw, lift, put):
        """Readings (bytearray(16), hold ms) that empty the cells `lift` and then fill `put`
        (a cell in both is lifted and put back), from the board raw (not changed)."""
        rng = self.rng
        raw = bytearray(raw)
        out = []
        steps = [(c, False) for c in lift] + [(c, True) for c in put]
        for c, on in steps:
            out += touch(raw, c, on, rng, self.bounce)
            hold = rng.randint(*self.pause)
            if on and c != steps[-1][0] and rng.random() < self.long_pause:
                hold = rng.randint(700, 1600)  # the unit put down, the cube after a while
            out.append((bytearray(raw), hold))
        return out, raw

    def next_gap(self):
        return self.rng.randint(*self.gap)


class Stats:
    def __init__(self):
        self.games = 0
        self.actions = 0
        self.no_button = 0  # actions the board committed without any button
        self.presses = 0
        self.asked = 0  # readings the board asked about
        self.gestures = 0
        self.wrong = 0  # games in which the board held an action the hands did not make
        self.by_kind = {}  # kind of action -> [count, without a button]
        self.failures = []

    def add(self, other):
        for k in ("games", "actions", "no_button", "presses", "asked", "gestures", "wrong"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.failures.extend(other.failures)
        for k, v in other.by_kind.items():
            mine = self.by_kind.setdefault(k, [0, 0])
            mine[0] += v[0]
            mine[1] += v[1]


def kind_of(a):
    if a == kb.END:
        return "end"
    code = a & 255
    if code < kb.KILL:
        return "step+cube" if code % 5 else "step"
    if code < kb.FILL:
        return "kill"
    if code < kb.BUY:
        return "fill"
    return kb.item_letter(a) + "@"


def pick_random(pos, rng):
    acts = pos.legal_actions()
    a = acts[rng.randrange(len(acts))]
    if a == kb.END and len(acts) > 1 and rng.random() < 0.85:
        a = acts[rng.randrange(len(acts) - 1)]
    return a


def pick_engine(pos, rng):
    """Mostly the engine (it builds, buys and fights), now and then any legal action."""
    if rng.random() < 0.8:
        return engine.best_action(pos)
    return pick_random(pos, rng)


def board_reading(before, after_occ):
    """What the board reads when it sees after_occ (bytearray(16)) from the position before:
    its readings (tuples of actions), as a fresh tracker finds them."""
    t = T.Tracker(before.copy())
    t.seen[:] = after_occ
    t._evaluate()
    return t.candidates if t.state in (T.READY, T.ASKING) else []


def play_game(seed, start=kb.BOARD, pick=None, hand=None, max_actions=3000, trace=None):
    """Play one seeded game on the plug-in; returns Stats (wrong > 0 if the board ever held an
    action the hands did not make, or did not end on the true position)."""
    rng = random.Random(seed)
    pick = pick or pick_random
    game = Game({"position": start})
    truth = kb.Position.parse(start)
    table = Table(game, trace)
    tracker = game.tracker
    hand = hand or Hand(seed)
    st = Stats()
    st.games = 1
    presses = []  # per true action: buttons pressed for it
    played = 0
    while not truth.is_over() and played < max_actions:
        ok = True
        for seq in motions(truth, pick, rng):
            played += _perform(table, truth, seq, hand, st, presses, rng)
            ok = _agrees(table, tracker, truth, presses, st)
            if not ok:
                break
        if not ok:
            break
    if tracker.pos.notation() != truth.notation() or tracker.pos.ply() != truth.ply():
        st.wrong += 1
        st.failures.append(_divergence(tracker, truth, seed))
    st.actions = len(presses)
    st.no_button = sum(1 for p in presses if not p)
    st.presses = sum(presses)
    for a, p in zip(truth.history(), presses):
        k = st.by_kind.setdefault(kind_of(a), [0, 0])
        k[0] += 1
        k[1] += not p
    return st


def motions(pos, pick, rng):
    """The next actions pick(pos, rng) chooses from pos (not changed), cut into motions: a
    unit's steps in a row are one motion as long as the board reads that motion as exactly
    those steps; anything else is a motion of its own. A list of tuples of actions."""
    run = [pick(pos, rng)]
    while (run[-1] & 255) < kb.KILL and run[-1] != kb.END:
        probe = pos.copy()
        for a in run:
            probe.push(a)
        if probe.active < 0 or probe.is_over():
            break
        nxt = pick(probe, rng)
        if nxt == kb.END or (nxt & 255) >= kb.KILL or nxt >> 8 != probe.active:
            break
        run.append(nxt)
    out = []
    i = 0
    probe = pos.copy()
    while i < len(run):
        j = _motion(probe, run, i)
        out.append(tuple(run[i:j]))
        for a in run[i:j]:
            probe.push(a)
        i = j
    return out


def _motion(truth, run, i):
    """The end (exclusive) of the longest stretch run[i:j] of one unit's steps that the board
    reads as exactly those steps."""
    j = i + 1
    while j < len(run):
        before = truth.copy()
        after = truth.copy()
        for a in run[i:j + 1]:
            after.push(a)
        occ = bytearray(16)
        T.occupancy(after, occ)
        reading = board_reading(before, occ)
        if len(reading) != 1 or T.outcome(before, reading[0])[1] != after.notation():
            break
        j += 1
    return j


def physical_steps(pos, seq, rng=None):
    """What the hands do for the actions seq (one motion) from pos (not changed): a list of
    ("lift" | "place" | "take" | "drop", cell), ("press", button) and ("ask",), where the board
    asks and the player answers with the buttons. rng, if given, shuffles the order of the
    lifts and of the places (hands are not tidy)."""
    first = seq[0]
    if first == kb.END:
        return [("press", "end")]
    letter = kb.item_letter(first)
    if letter in ("k", "K", "x"):
        # a tap on the building's door room, the choice on the buttons, then the exchange
        door = first >> 8
        target = pos.rocket_target(first) if letter != "x" else pos.action_cell(first)
        steps = [("lift", door), ("place", door), ("ask",), ("take", target)]
        if pos.cells[target] != kb.ARMOUR:
            steps.append(("drop", target))
        return steps
    code = first & 255
    if kb.KILL <= code < kb.FILL:
        return [("take", pos.action_cell(first))]
    if kb.FILL <= code < kb.BUY:
        rooms = pos.rooms_of(first >> 8, pos.nb[(first >> 8) * 4 + (code & 3)])
        if rng is not None:
            rng.shuffle(rooms)
        return [("drop", r) for r in rooms]
    if code >= kb.BUY:
        return [("drop", pos.action_cell(first))]
    # a unit's steps: the unit and the cubes it carries, lifted, then put where they end (a
    # cube may end on the unit's old cell: it is lifted and put down all the same)
    probe = pos.copy()
    moved = [first >> 8]
    carried = []  # where the cubes moved so far stand now: the same cube again is not lifted twice
    for a in seq:
        m = probe.moved_cube(a)
        if m is not None:
            if m[0] in carried:
                carried.remove(m[0])
            elif m[0] not in moved:
                moved.append(m[0])
            carried.append(m[1])
        probe.push(a)
    before = bytearray(16)
    after = bytearray(16)
    T.occupancy(pos, before)
    T.occupancy(probe, after)
    ends = [c for c in moved if after[c >> 3] >> (c & 7) & 1]
    for c in range(pos.n):
        if after[c >> 3] >> (c & 7) & 1 and not before[c >> 3] >> (c & 7) & 1:
            ends.append(c)
    if rng is not None:
        rng.shuffle(moved)
        rng.shuffle(ends)
    return [("lift", c) for c in moved] + [("place", c) for c in ends]


def _perform(table, truth, seq, hand, st, presses, rng):
    """Make the actions seq (one motion) with the hands; returns how many were played."""
    steps = physical_steps(truth, seq, rng)
    done = truth.ply()
    for a in seq:
        truth.push(a)
        presses.append(0)
    st.gestures += 1
    lift = []
    put = []
    for step in steps + [("flush",)]:
        what = step[0]
        if what in ("lift", "take"):
            lift.append(step[1])
            continue
        if what in ("place", "drop"):
            put.append(step[1])
            continue
        if lift or put:
            segs, raw = hand.segments(table.raw, lift, put)
            for r, ms in segs:
                table.feed(r, ms)
            lift = []
            put = []
        if what == "press":
            presses[done] += 1
            table.press(H.END)
        elif what == "ask":
            table.settle(200)
            _answer(table, table.game.tracker, truth, presses, st)
            table.settle(hand.rng.randint(*hand.pause))
    table.settle(hand.next_gap())
    return len(seq)


def _agrees(table, tracker, truth, presses, st):
    """After a gesture: the board holds what the hands did (waiting for it to settle, and
    answering its question, as a player would)."""
    for wait in (0, T.PATIENCE_MS + 200):
        if wait:
            table.settle(wait)
        _answer(table, tracker, truth, presses, st)
        if tracker.pos.ply() == truth.ply():
            return tracker.pos.notation() == truth.notation()
    return False


def _answer(table, tracker, truth, presses, st):
    """What a player reading the LEDs presses when the board asks: `next` until the reading of
    what was played is shown (the one that ends on the true position), then `confirm`."""
    for _ in range(6):
        if tracker.state not in (T.READY, T.ASKING) or tracker.auto:
            return
        done = tracker.pos.ply()
        if done >= truth.ply():
            return
        st.asked += 1
        n = 0
        while n < len(tracker.candidates) and not _leads_to(tracker, truth):
            table.press(H.NEXT)
            presses[done] += 1
            n += 1
        if not _leads_to(tracker, truth):
            return
        table.press(H.CONFIRM)
        presses[done] += 1
        table.settle(100)


def _leads_to(tracker, truth):
    """Whether the reading shown brings the board's position to the true one."""
    shown = tracker.shown()
    return bool(shown) and T.outcome(tracker.pos, shown) == (truth.ply(), truth.notation())


def _divergence(tracker, truth, seed):
    return "seed %d: after %d actions the board has %s (ply %d, state %s), the hands %s" % (
        seed, truth.ply(), tracker.pos.notation(), tracker.pos.ply(),
        T.STATE_NAMES[tracker.state], truth.notation())
