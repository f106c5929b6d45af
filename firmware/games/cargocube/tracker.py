# Move inference: from stable occupancy changes to committed rules actions.
#
# The sensors see only whether a cell holds something magnetic (cube, keeper or card), so the
# tracker compares the stable occupancy with the occupancy the tracked position implies. The
# cells that differ (the diff) are the evidence; an action explains the evidence when the cells
# it toggles equal the diff. Rules of inference (docs/board-cargocube.md):
#   - exactly one action explains the diff, no other could still grow out of it (the hand may
#     be on its way), and the board has been still for settle_ms: commit it;
#   - several explain it: ask (candidates are shown; `next` cycles, `confirm` commits; past the
#     fitting ones `next` goes on through the other moves the board may have missed); those
#     that end in the same position count once, the first in the board's order (offers.distinct):
#     if all that fit end alike, it is taken as a single one would be;
#   - the diff is the start of some actions (a piece lifted, a cube tipped onto its new cell
#     before it leaves the old one, a cube on the entry portal): in progress, show where the
#     piece may go; the actions that already fit are pending (they may have ended on a stack);
#     a lifted piece may also be coming back to its own cell (comes_back(): through the
#     teleport next to its exit portal, off a wind rose), a move with no delta: in progress too;
#   - a pending action followed by one more explains the diff: it competes with the one-action
#     explanations, and is committed only when it is the only explanation;
#   - moves fit, and the only moves in progress are cubes tipped onto their new cell whose
#     old cell still reads occupied (a keeper stepped next to a lone cube): once the board has
#     been still for settle_ms, ask (a hand may still hold such a cube; a lifted piece may be
#     in the air for long, so a lift keeps the board waiting);
#   - only a move that left no trace at all (onto and off stacks) followed by one more explains
#     it: ask (the board cannot know which traceless move it was);
#   - nothing at all: a mismatch; the differing cells light red, nothing is committed.
# Nothing is ever guessed: with two explanations the player is asked.
#
# Revision B (linear Hall sensors, a LevelScanner given as `levels`): besides occupancy the
# board sees steps, the field at a cell moving while it stays occupied (the top of a stack
# coming or going, a cube put on a card). Each candidate predicts its steps from the tracked
# orientations (firmware/games/cargocube/steps.py); an action explains the evidence only if its
# occupancy change matches and the steps fit. A piece lifted off a stack is a move under way.
# Steps that fit no legal move are noise (a stack nudged): the baseline takes them over once
# the board is still. Where steps do not decide, the player is asked as on revision A.
# That reading is StepTracker (firmware/games/cargocube/steptracker.py), a subclass loaded
# only on revision B: nothing of it is in a revision-A board's heap. The inference loop
# (_infer, _explain_in_two) is this one for both: StepTracker fills in its hooks (the evidence
# beyond occupancy, which explanations it allows, when one is sure), here left empty.
#
# Works on any position object of shared_rules.cargocube.rules (stacks, cards, legal_actions, push, pop).

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from firmware.hal import unload, ticks_diff

IDLE = 0  # the board equals the tracked position
MOVING = 1  # evidence of an action in progress
ASKING = 2  # several actions fit: the player picks with next/confirm
MISMATCH = 3  # no legal continuation fits the board
OVER = 4  # the game has ended

SETTLE_MS = 400  # the board must be still this long before a move that fits is committed
# A missed move the player asked for (`confirm`) and sees shown is taken after this long with
# no press: the player is looking at the board (they just pressed), and `next` restarts it.
OFFER_TAKE_MS = 3000
TOUCHED_MAX = 8  # cells remembered for "the board missed a move" offers

STATE_NAMES = ("idle", "moving", "asking", "mismatch", "over")


def occupancy(pos, out):
    """Fill bytearray(16) out with the occupancy pos implies (bit c: cell c holds something)."""
    stacks = pos.stacks
    cards = pos.cards
    for i in range(16):
        out[i] = 0
    for c in range(121):
        if stacks[c] or cards[c]:
            out[c >> 3] |= 1 << (c & 7)


def pack(cells):
    """A delta of at most two cells as one small int (no heap on the board): 0 for none,
    c + 1 for one, (c1 + 1) | (c2 + 1) << 8 for two (c1 < c2)."""
    if not cells:
        return 0
    if len(cells) == 1:
        return cells[0] + 1
    return (cells[0] + 1) | ((cells[1] + 1) << 8)


def unpack(d):
    """The cells of a packed delta, as a sorted tuple."""
    if not d:
        return ()
    if d < 256:
        return (d - 1,)
    return ((d & 255) - 1, (d >> 8) - 1)


def diff_cells(a, b):
    """The cells whose bits differ between two occupancy bitmaps, as a sorted tuple."""
    out = []
    for i in range(16):
        x = a[i] ^ b[i]
        c = i * 8
        while x:
            if x & 1:
                out.append(c)
            x >>= 1
            c += 1
    return tuple(out)


def action_delta(pos, action):
    """The cells whose occupancy the action toggles, as a sorted tuple. A card leaves its
    terminal cell empty (nothing may stand on a card being used); a biohazard or a sacrifice
    lands on a piece, a lifted biohazard on an empty cell; a spiral turn changes no sensor."""
    return unpack(packed_delta(pos, action))


def packed_delta(pos, action):
    """action_delta() packed (pack()), without making the tuple: it runs for every legal action
    of every position."""
    kind, src, d, dst, code, hops = action
    if kind == cc.END or kind == cc.TURN or src == dst:
        return 0
    if kind == cc.BOOST:
        src_toggles = True
    elif kind == cc.HAZARD:
        src_toggles = False  # the covered cube stays
    else:
        src_toggles = len(pos.stacks[src]) == 1 and not pos.cards[src]
    dst_toggles = not pos.stacks[dst] and not pos.cards[dst]
    if src_toggles:
        if dst_toggles:
            return (src + 1) | ((dst + 1) << 8) if src < dst else (dst + 1) | ((src + 1) << 8)
        return src + 1
    if dst_toggles:
        return dst + 1
    return 0


def comes_back(pos, action):
    """Whether action's piece ends on the cell it left, and that cell empties while the piece is
    away: a cube on its exit portal rolled onto a portal (the walking teleport next to it) and
    sent back there, or a cube hopping back off a wind rose. Its delta is empty, but while it
    is under way the sensors see its cell emptied, as for a move onto a stack."""
    src = action[1]
    return (src == action[3] and action[0] != cc.END and action[0] != cc.TURN
            and len(pos.stacks[src]) == 1 and not pos.cards[src])


def may_grow(action, diff):
    """Whether evidence diff can be the start of action (whose delta strictly contains diff).
    A lifted piece can go anywhere; a piece seen on its new cell before its old cell empties
    can only be a cube tipped over its edge or a keeper stepped: an orthogonal neighbour,
    nothing carried further (no hop, no slide, no teleport, no card)."""
    kind, src, d, dst, code, hops = action
    if src in diff:
        return True
    if kind != cc.ACTIVATE and kind != cc.ROLL and kind != cc.STEP and kind != cc.TMOVE or hops:
        return False
    return dst == g.NEIGHBOUR[src * 4 + d]


def in_hand(moves, evidence):
    """Whether any of moves (in progress, evidence their start) has its piece off the board:
    lifted from its cell (the cell emptied) or waiting on the entry portal. The others are
    cubes tipped onto their new cell, the old one still occupied."""
    if g.ENTRY_PORTAL in evidence:
        return bool(moves)
    for a in moves:
        if a[1] in evidence:
            return True
    return False


def passes_portal(pos, action):
    """Whether the cube of action is sent through the entry portal (the hand puts it there
    before taking it on to the exit portal)."""
    return action[0] == cc.ROLL and g.ENTRY_PORTAL in cc.action_path(pos, action)


def _meets(a, b):
    """Whether two cell tuples share a cell."""
    for c in a:
        if c in b:
            return True
    return False


def _toggled(cells, more):
    """The sorted tuple of cells with those of more toggled (taken out if in, else put in)."""
    out = list(cells)
    for c in more:
        if c in out:
            out.remove(c)
        else:
            out.append(c)
    out.sort()
    return tuple(out)


def _is_subset(small, big):
    for c in small:
        if c not in big:
            return False
    return True


def _find_all(buf, needle, out):
    """Append to out every index of the one-byte needle in buf."""
    i = buf.find(needle)
    while i >= 0:
        out.append(i)
        i = buf.find(needle, i + 1)


def _places(pos, legal, deltas, actions, out):
    """Append to out the place in legal (deltas: its deltas_of()) of each of actions that is in
    it, as legal.index() finds it. Only the entries with the action's own delta are compared,
    found in C by bytearray.find: `a in legal` and legal.index(a) compare the tuples one by one
    (~100 of them with 8 players: 0.5 ms an action on the Pico)."""
    low, high = deltas[0], deltas[1]
    for a in actions:
        d = packed_delta(pos, a)
        needle = bytes((d & 255,))
        hi = d >> 8
        i = low.find(needle)
        while i >= 0:
            if high[i] == hi and legal[i] == a:
                out.append(i)
                break
            i = low.find(needle, i + 1)


def _left_for_second(diff, dl, erased, seen, occ, wide=None, quiet=False):
    """The evidence a second move must explain after a first one whose cells are dl (see
    Tracker._explain_in_two: erased, the cells back as expected that a first move waiting to
    settle may have changed; seen, diff + erased), or None if no second move can. A first
    move's cells must lie in the evidence (waiting to settle: in diff or erased, and some in
    erased); what is left is diff with dl's cells toggled. One more action changes at most 2
    cells (3 with a cube waiting on the portal); with two cells only an action that empties
    one and fills the other toggles both, and none grows into more: the cell the sensors see
    emptied must be the one to empty (the second move's piece is that cell's). With evidence
    beyond occupancy (revision B): wide, diff and the cells changed since that may be back as
    expected, where a pending first move's cells may lie; quiet: nothing may be left (a second
    move that changes no occupancy, seen by its steps alone)."""
    if erased:
        if not _meets(dl, erased) or not _is_subset(dl, seen):
            return None
    elif not _is_subset(dl, diff) and (wide is None or not _is_subset(dl, wide)):
        return None
    rest = _toggled(diff, dl)
    if len(rest) == 2 and g.ENTRY_PORTAL not in rest:
        src, dst = rest
        if (occ[src >> 3] >> (src & 7)) & 1:
            src, dst = dst, src
        if (occ[src >> 3] >> (src & 7)) & 1 or not (occ[dst >> 3] >> (dst & 7)) & 1:
            return None
    elif not rest:
        if not quiet:
            return None
    elif len(rest) > 3 or len(rest) == 3 and g.ENTRY_PORTAL not in rest:
        return None
    return rest


def _seconds_two(pos, src, dst):
    """After a first move (pushed): what explain() must look at for the two-cell evidence src
    emptied, dst filled. The actions of the piece on src (legal_actions_from: no booster uses)
    toggle both cells only if they leave src empty (one piece on it, no card) and land on dst,
    empty and without a card; with a card on either cell none of them can, but a booster use
    can (explain() finds those from the cards by itself): []. None when nothing can explain
    it, so neither generation nor explain() need run (the tries of a lift after a put-back
    mostly end so: the first move landed on src, or the piece on src cannot move)."""
    cards = pos.cards
    if cards[src] or cards[dst]:
        return []
    stacks = pos.stacks
    if len(stacks[src]) != 1 or stacks[dst]:
        return None
    return pos.legal_actions_from(src) or None


def explain(pos, legal, deltas, diff, barred):
    """(match, growing) for the evidence diff in pos: the actions whose cells toggled equal
    diff (not `end`, not barred), and those of which diff can be the start (a piece lifted, a
    cube tipped onto its new cell, a cube waiting on the entry portal). legal: pos's legal
    actions without booster uses, deltas: their packed action_delta() as deltas_of() makes them, or None;
    booster uses are explained here from the cards that may be used, without listing them all.
    With deltas only the actions that have a cell of diff in their delta are looked at (found
    by bytearray.find in C), which is all that can fit unless a cube waits on the portal."""
    match = []
    growing = []
    portal = g.ENTRY_PORTAL
    n = len(diff)
    key = pack(diff) if n <= 2 else -1
    one = diff[0] + 1 if n == 1 else -1
    at_portal = portal in diff
    if at_portal:
        look = range(len(legal))
    elif deltas is not None:
        # an action fits only if the low byte of its delta is diff's first cell (+1), and grows
        # from a single cell only if either byte is that cell
        look = []
        if n <= 2:
            needle = bytes((diff[0] + 1,))
            _find_all(deltas[0], needle, look)
            if n == 1:
                _find_all(deltas[1], needle, look)
                look.sort()
    else:
        look = range(len(legal))
    back = None  # (no deltas) the actions with no delta from the one cell seen emptied
    for i in look:
        a = legal[i]
        if deltas is not None:
            d = deltas[0][i] | (deltas[1][i] << 8)
        elif at_portal or a[1] in diff or a[3] in diff:
            d = packed_delta(pos, a)
        else:
            continue  # its delta, a part of (src, dst), has no cell of diff
        if d == key:
            if a[0] != cc.END and a not in barred:
                match.append(a)
        elif d > 255 and ((d & 255) == one or (d >> 8) == one) and may_grow(a, diff):
            growing.append(a)  # one cell of a two-cell move seen so far
        elif at_portal and passes_portal(pos, a) and _is_subset(diff, unpack(d) + (portal,)):
            growing.append(a)  # the cube waits on the portal: on to the exit portal
        elif not d and a[1] + 1 == one:
            if back is None:
                back = []
            back.append(a)
    if one > 0 and not growing:
        # Nothing else is under way from the one cell seen emptied: its piece may be on its way
        # back to it (comes_back()). Looked for only then: beside another move under way it
        # changes nothing the board does (most lifts have one), and it is never seen on the
        # centre portal (no wind rose or catapult reaches both it and an exit portal).
        if deltas is not None:
            more = []
            if deltas[2] is not None:
                _find_all(deltas[2], bytes((one,)), more)
            for i in more:
                growing.append(legal[i])
        elif back is not None:
            for a in back:
                if comes_back(pos, a):
                    growing.append(a)
    # a booster use starts from a card (nothing on it): none without one under the evidence
    if n <= 2 and (pos.cards[diff[0]] or pos.cards[diff[n - 1]]):
        srcs = pos.boost_sources()
        if srcs:
            if n == 2:
                for src, dst in ((diff[0], diff[1]), (diff[1], diff[0])):
                    if src in srcs and pos.is_boost_target(dst, src):
                        a = (cc.BOOST, src, 0, dst, pos.cards[src], ())
                        if a not in barred:
                            match.append(a)
            elif diff[0] in srcs:
                src = diff[0]
                special = pos.card_targets(src)
                if special is not None:
                    # A biohazard (onto a cube) or a sacrifice (onto the keeper): the card off
                    # its terminal cell is all the sensors see of it.
                    for dst in special:
                        a = (cc.BOOST, src, 0, dst, pos.cards[src], ())
                        if a not in barred:
                            match.append(a)
                else:
                    for dst in range(121):
                        if pos.is_boost_target(dst):
                            growing.append((cc.BOOST, src, 0, dst, pos.cards[src], ()))
    return match, growing



def deltas_of(pos, actions):
    """The packed action_delta() of each of a list of actions, as its two bytes in two
    bytearrays (low, high), and a third (back) with the cell + 1 of each action whose piece
    comes back to its cell (comes_back(): no delta, yet seen under way), else 0: 3 bytes an
    action, and bytearray.find looks up a cell in C."""
    n = len(actions)
    low = bytearray(n)
    high = bytearray(n)
    back = None
    for i in range(n):
        a = actions[i]
        d = packed_delta(pos, a)
        low[i] = d & 255
        high[i] = d >> 8
        if not d and a[1] == a[3] and comes_back(pos, a):
            if back is None:
                back = bytearray(n)
            back[i] = a[1] + 1
    return low, high, back


def _cells(deltas, i):
    """The cells of action i's delta in deltas_of()'s pair, as a sorted tuple (unpack())."""
    return unpack(deltas[0][i] | (deltas[1][i] << 8))


_positions = 0  # _refresh() calls of every tracker: position_id names a tracked position


class Tracker:
    # The moves of the question left open that stay pending while the next move is made, though
    # their pair with it does not fit every frame: none on revision A, where a move under way
    # shows in occupancy; StepTracker's own (a class attribute: no room in each instance).
    asked = ()

    def __init__(self, pos, settle_ms=SETTLE_MS, rank=None):
        self.pos = pos
        # rank(pos, actions) -> the same actions, most likely first (the plug-in gives the
        # hint's order): what a question shows first
        self.rank = rank
        self.settle_ms = settle_ms  # stillness before a move that fits is taken (0: at once)
        self.settling = False
        self.changed_at = 0
        self.expected = bytearray(16)
        self.occ = bytearray(16)
        self.state = IDLE
        self.diff = ()  # cells where the board differs from the tracked position
        self.candidates = []  # actions shown for the player to pick (ASKING)
        self.fitting = 0  # how many of the candidates fit what the sensors saw
        self.index = 0  # the candidate shown now
        self.targets = []  # cells an item in progress may go to (MOVING)
        self.moves = []  # the actions in progress those targets come from (MOVING)
        self.pending = []  # actions that may have completed without a trace (put on a stack)
        self.end_requested = False  # `end` pressed while the board was asking
        # the question was opened by the player (`confirm` with nothing asked: "I made a move
        # you did not see"): the candidate shown is taken when the player goes on playing,
        # presses `end` (or `confirm`) or lets it stand OFFER_TAKE_MS (tick_offered), unless
        # `undo` backed out of the question; only `confirm` takes one that does not fit what
        # the sensors saw (_offer_fits). Only a
        # question counts it (_ask clears it, _offer_hidden sets it): the state says the rest.
        self.offered = False
        self.offered_since = 0  # when the player last pressed a button with a missed move shown
        # the question was shown by `end` with the piece maybe in the hand (press_end): the
        # player has not said a move was missed; a `confirm` says it, taking nothing, and
        # the move shown is then a missed move shown (offered)
        self.end_offer = False
        self.touched = []  # the last TOUCHED_MAX cells whose occupancy changed (even if restored)
        self.recent = []  # cells whose occupancy changed since the last commit
        self.undone_by_next = []  # moves that were pending when the board looked right again
        self.undone = []  # actions taken back, newest last (the LEDs show what to put back)
        self.barred = []  # taken back: not read again from the board until it is put right
        self.log = []  # (event, action) pairs since the last read, for the host and the log file
        self.held = False  # a two-move explanation's second move has its piece in the hand
        self._legal = None
        self._actions = []  # the list _legal is, refilled for each position (legal())
        self._tried = None  # the list of a position tried out (_explain_in_two), refilled too
        self._deltas = None
        self._refresh()
        self.occ[:] = self.expected
        if not self.legal():  # a game set up (or resumed) at its end: no change will come
            self.state = OVER

    # -- cached per position ---------------------------------------------------------------------

    def _refresh(self):
        global _positions
        _positions += 1
        self.position_id = _positions
        occupancy(self.pos, self.expected)
        self._legal = None
        del self._actions[:]  # the old position's actions go; the list keeps its room
        self._deltas = None

    def legal(self):
        """The legal actions but booster uses (see explain()), cached per position."""
        if self._legal is None:
            self._legal = self.pos.legal_actions(False, self._actions)
            self._deltas = deltas_of(self.pos, self._legal)
        return self._legal

    def _diff(self):
        return diff_cells(self.occ, self.expected)

    # -- inputs ---------------------------------------------------------------------------------

    def _offer_fits(self):
        """Whether the missed move shown fits what the sensors saw when it was offered: it
        leaves no trace, or it toggles just the cells that differ, or cells that changed since
        the last commit (a move whose trace the next move undid: a cube rolled onto a stack and
        back). Only such a one is taken without `confirm` (going on, `end`, waiting). The
        others are offered from cells touched before the last commit: taking one makes a
        difference the board then reads as a second move by itself. A stray `confirm` at rest
        offered the keeper's last step again, and 3 s later the board took it and a step back,
        the turn spent, with nothing on the LEDs to say so."""
        dl = action_delta(self.pos, self.candidates[self.index])
        return not dl or dl == self.diff or _is_subset(dl, self.recent)

    def _take_offered(self, occ=None):
        """The player goes on (a new move: its occupancy occ; `end`) after asking for a missed
        move: the one shown is taken if it fits (_offer_fits), else the question goes. The
        new move is read with it pending, not after it, when it may instead be the end of
        the move that made the difference the missed move was offered for (a keeper lifted,
        `confirm`, then put down: the keeper's step onto a card, offered because it fits a
        lifted keeper, was taken and its real step read as a mistake): if one move from
        before the question explains the new board too, the board asks (_offer_read_with)."""
        if not (self.offered and self.state == ASKING):
            return 0
        self.offered = False
        shown = self.candidates[self.index]
        fits = self._offer_fits()
        self.candidates = []
        if fits and occ is not None and self._offer_read_with(occ):
            self.pending = [shown]
            return 0
        if not fits:
            self.pending = []
            return 0
        self._commit(shown, "confirm")
        return 1

    def _offer_read_with(self, occ):
        """Whether the change to occupancy occ, with a missed move shown that fits, is read
        with that move pending rather than after it taken: when the move was offered for a
        difference (a piece in the hand) that one move from before it explains, grown to occ,
        or that is gone (the piece put back: no move at all explains that)."""
        if not self.diff:
            return False
        diff = diff_cells(occ, self.expected)
        if not diff:
            return True
        match, growing = explain(self.pos, self.legal(), self._deltas, diff, self.barred)
        return bool(match or growing)

    def observe(self, occ, now_ms=0):
        """A new stable occupancy (bytearray(16)) at time now_ms; returns the number of actions
        committed. A move that fits is committed only once the board has been still for
        settle_ms (see tick): hands put pieces down and pick them up again."""
        taken = self._take_offered(occ)
        self.changed_at = now_ms
        touched = self.touched
        recent = self.recent
        for c in diff_cells(self.occ, occ):
            if c not in recent:
                recent.append(c)
            if c in touched:
                touched.remove(c)
            elif len(touched) >= TOUCHED_MAX:
                touched.pop(0)
            touched.append(c)
        self.occ[:] = occ
        return taken + self._infer(self.settle_ms == 0)

    def tick(self, now_ms):
        """Time passes: commit a move that fits once the board has been still long enough."""
        if self.settling and now_ms - self.changed_at >= self.settle_ms:
            self.settling = False
            return self._infer(True)
        return 0

    def tick_offered(self, now_ms):
        """Time passes with a missed move shown (offered, ASKING): take it once the player has
        let it stand OFFER_TAKE_MS (the plug-in sets offered_since at each press). Nothing else
        is looked at again meanwhile: the question stays as the player sees it."""
        if self.offered and self.state == ASKING and \
                ticks_diff(now_ms, self.offered_since) >= OFFER_TAKE_MS:
            # (the wait first: _offer_fits makes a tuple, and this runs every frame it stands)
            if self._offer_fits():
                return self._take_offered() + self._infer()
            self.offered_since = now_ms  # (one that does not fit is looked at once a wait)
        return 0

    def _hold(self, actions):
        """A move fits but the hand may not be done: show it as in progress, commit later."""
        self.settling = True
        self.state = MOVING
        self.candidates = []
        self.moves = list(actions)
        targets = []
        for a in actions:
            if a[3] not in targets:
                targets.append(a[3])
        self.targets = targets

    def _infer(self, may_commit=True):
        committed = 0
        self.settling = False
        while True:
            if not self.legal():  # the game is over (cached: is_over() would generate again)
                self.state = OVER
                self.diff = self._diff()
                return committed
            diff = self._diff()
            steps = self._evidence(diff, may_commit)
            self.diff = diff
            self.targets = []
            self.moves = []
            self.held = False
            if not diff and not steps:
                self.state = IDLE
                self.candidates = []
                # Back as expected: put back, or done and then undone by a next move.
                self.undone_by_next = self.pending
                self.pending = []
                self.barred = []  # taken-back moves are restored on the board
                return committed
            if diff:
                match, growing = explain(self.pos, self.legal(), self._deltas, diff,
                                         self.barred)
            else:  # (only with evidence: else the board is at rest)
                match, growing = self._quiet(self.pos, self.legal(), self._deltas, self.barred)
            seen = match  # what occupancy alone explains (the evidence may rule all of it out)
            if steps is None:
                airborne = ()
            else:
                match, growing, airborne = self._by_evidence(diff, steps, match, growing)
            # A move that may already have ended on a stack (pending) followed by another one
            # explains the diff too: it competes with the one-action explanations.
            if self.pending:
                complete, partial, targets = self._explain_in_two(diff, True, (), steps)
            else:
                complete, partial, targets = [], [], []
            fits = list(match)
            for x in complete:
                if x not in fits:
                    fits.append(x)
            if steps and not fits and not partial:
                self._nudged(diff, steps, fits, growing, airborne)
            if fits and not growing and not partial and self.undone_by_next:
                # About to take a move: first, could one that was waiting to settle and whose
                # trace this move erased have happened before it? Then that is a second reading.
                erased = tuple([c for c in self.recent if c not in diff])
                if erased:
                    c2, p2, t2 = self._explain_in_two(diff, True, erased, steps)
                    for x in c2:
                        if x not in fits:
                            fits.append(x)
                    partial = p2
                    targets = t2
            if fits and not growing and not partial:
                if not may_commit:
                    self._hold(fits)
                    return committed
                if (len(fits) == 1) if steps is None else self._sure(fits, match):
                    self._commit(fits[0], "auto")
                    committed += 1
                    continue
                end = self.end_requested
                self._ask(fits, match)
                if self.fitting == 1 and (steps is None or self._sure(self.candidates[:1], match)):
                    # All that fit end in one position: the board cannot tell them apart, and
                    # nothing after depends on which it records (the first in its order).
                    self.end_requested = end
                    self._commit(self.candidates[0], "auto")
                    committed += 1
                    continue
                return committed
            if growing or partial:
                # A move in progress; actions that already fit may have ended on a stack.
                self.state = MOVING
                still = []
                for x in self.pending:
                    # (a move of the question left open stays, though its pair does not fit
                    # this frame: revision B's steps of a hand half-way through the next move
                    # dropped c7w/c6, and the hop c7w/b6 alone was taken for it and c6w)
                    if x in complete or x in partial or x in self.asked:
                        still.append(x)
                for x in match:
                    if x not in still:
                        still.append(x)
                for x in airborne:
                    if x not in still:
                        still.append(x)
                self.pending = still
                self.candidates = []
                # (a piece coming back to its cell, under way only when nothing else is, has
                # no destination to show: its cell is lit as where it came from)
                if growing and growing[0][1] == growing[0][3]:
                    self.moves = match
                else:
                    self.moves = growing + match
                for a in self.moves:
                    if a[3] not in targets:
                        targets.append(a[3])
                self.targets = targets
                if fits and not self.held and not airborne and not in_hand(growing, diff):
                    # Only cubes tipped onto their new cell stand against the moves that fit
                    # (e.g. a keeper stepped next to a lone cube): a tipped cube does not stay
                    # so by itself, so once the board is still the player is asked, and the
                    # pending moves are kept in case the hand does finish a tip. (A piece
                    # in the air, airborne, keeps the board waiting.)
                    if not may_commit:
                        self.settling = True
                        return committed
                    self.moves = []
                    self.targets = []
                    self._ask(fits)
                    self.pending = still
                return committed
            # Nothing the board saw explains it: a move that left no trace at all, then one
            # more. The board cannot know which traceless move it was: it asks.
            complete, partial, targets = self._explain_in_two(diff, False, (), steps)
            if not complete and not partial and diff:
                if seen:
                    # Occupancy alone explains it, the evidence rules every move out (revision
                    # B: two stacks nudged?): the board asks, as revision A would.
                    complete = [a for a in seen if a[0] != cc.END]
                else:
                    complete = self._shown_again(diff)
            if complete and not may_commit:
                self._hold(complete)
                return committed
            if complete:
                self._ask(complete)
                return committed
            if partial:
                self.state = MOVING
                self.candidates = []
                self.targets = targets
                return committed
            if not diff:
                # Only the evidence beyond occupancy changed, and no legal move fits it: noise.
                self.state = IDLE
                self.candidates = []
                self._noise(steps, may_commit)
                return committed
            self.state = MISMATCH
            self.candidates = []
            return committed

    # -- hooks: the evidence beyond occupancy (revision B's steps, StepTracker) ----------------

    def _evidence(self, diff, may_commit):
        """What the board sees beyond the occupancy diff (revision A: None, nothing; revision
        B: the steps, or None with no diff and nothing a hand did: the board is at rest)."""
        return None

    # With evidence (not None) the loop also calls these, which only StepTracker has (on
    # revision A, every explanation occupancy allows is accepted, and nothing more is done):
    # _quiet(pos, legal, deltas, barred) -> (match, growing): explain() for the evidence with
    #     no occupancy changed: the actions that change none (none under way);
    # _by_evidence(diff, steps, match, growing) -> (match, growing, airborne): of the one-action
    #     explanations and the moves of which diff can be the start, those the evidence allows;
    #     airborne: moves that fit whose piece may still be in the hand (they wait, pending);
    # _nudged(diff, steps, fits, growing, airborne): nothing fits; append to fits the
    #     explanations that fit with a piece disturbed beside the hand, to airborne and growing
    #     those that wait for their piece to land;
    # _sure(fits, match): whether fits is one move to take at once; else fits is asked (and may
    #     grow by the moves the board also holds possible);
    # _noise(steps, may_commit): evidence that fits no legal move, with no occupancy changed;
    # _under_way(moves, rest, steps): of the moves a second move may be the start of (after a
    #     first), those the evidence allows;
    # _fits_two(a1, seconds, rest, steps, diff): whether a first move a1 and one of the
    #     second moves (legal after it, rest the diff left to them) together fit the evidence.

    def _explain_in_two(self, diff, seen_only, erased=(), steps=None):
        """Explanations of diff by two moves: a first one that left no visible trace of its own
        and a second one, complete or in progress. The first is, with erased: a move that was
        waiting to settle before the board looked as expected again (undone_by_next), on those
        cells that changed since the last commit and are back as expected (the next move undid
        its trace, e.g. a cube teleported to an empty exit portal and rolled on from there);
        else with seen_only: a pending move (its evidence was seen but it may have ended on a
        stack), whose cells may be back as expected since (the second move took its piece on:
        d11e onto the empty e11, asked about, then e11s); else a move that never shows (onto
        and off stacks). With evidence beyond occupancy (steps, not None), where moves that
        change no occupancy show, a second may change no occupancy after a first that was
        seen; a first with a complete second counts only if together they fit the evidence
        (_fits_two).
        Returns (firsts with a complete second, firsts with a second in progress, the cells the
        moves in progress may go to)."""
        legal = self.legal()
        deltas = self._deltas
        complete = []
        partial = []
        targets = []
        pos = self.pos
        occ = self.occ
        barred = self.barred
        # Only a few of the legal actions can be a first move: those waiting to settle (erased)
        # or pending, and (neither erased nor seen_only) those with no delta. Their places in
        # the list are found in C (bytearray.find) instead of testing every action here;
        # walked in the list's order, as all of them would be (a pending move with no delta
        # may be found twice: tried once). (Booster uses are not in the list: tried after it,
        # with evidence only.)
        look = []
        _places(pos, legal, deltas, self.undone_by_next if erased else self.pending, look)
        if not erased and not seen_only:
            _find_all(deltas[0], b"\x00", look)
        look.sort()
        seen = diff + erased  # the cells a first move waiting to settle may have changed
        # A pending first move's cells may be back as expected since (wide: on revision A
        # until stop 46 only those in diff counted, and d11s then d10e were taken for d11e then
        # e11s); with evidence beyond occupancy, a second move may change no occupancy after a
        # first that was seen (quiet).
        wide = diff + tuple(self.recent) if steps is not None or seen_only else None
        quiet = steps is not None and (seen_only or bool(erased))
        # What a first move leaves for the second depends only on its cells (its delta), and
        # the first moves tried are mostly one piece's (the last lift's moves onto stacks): the
        # evidence left is worked out once for each delta.
        last = -1  # the delta of the last first move looked at
        prev = -1  # its place in the list
        rest = None  # the evidence it leaves for a second move; None: no second move can fit
        for i in look:
            a1 = legal[i]
            if i == prev or a1[0] == cc.END or a1 in barred:
                continue
            prev = i
            d1 = deltas[0][i] | (deltas[1][i] << 8)
            if d1 != last:
                last = d1
                rest = _left_for_second(diff, unpack(d1), erased, seen, occ, wide, quiet)
            if rest is not None:
                self._first_of_two(a1, rest, steps, diff, complete, partial, targets)
        if steps is not None and seen_only:
            # With evidence, a pending booster use is a first move too (found by explain()
            # from its cards, it is in no legal list: asked about and left open, the legal
            # move after it found no reading, and its question was shown again)
            for a1 in self.pending:
                if a1[0] == cc.BOOST and a1 not in barred:
                    rest = _left_for_second(diff, action_delta(pos, a1), erased, seen, occ,
                                            wide, quiet)
                    if rest is not None:
                        self._first_of_two(a1, rest, steps, diff, complete, partial, targets)
        # its actions and its room are garbage now: kept for the game, its 2 KB block was a
        # hole the log's 1.2 KB append missed (the 8-player game with both expansions at 192k)
        self._tried = None
        return complete, partial, targets

    def _first_of_two(self, a1, rest, steps, diff, complete, partial, targets):
        """_explain_in_two for one first move a1 (rest: the evidence it leaves for a second):
        a1 is appended to complete if a second explains rest (and, with steps, the two fit
        them: _fits_two), to partial if one may be under way; targets gets the cells such
        ones may go to."""
        pos = self.pos
        barred = self.barred
        two = len(rest) == 2 and g.ENTRY_PORTAL not in rest
        if two:
            # the second move's piece is on the cell the sensors see emptied
            src, dst = rest
            occ = self.occ
            if (occ[src >> 3] >> (src & 7)) & 1:
                src, dst = dst, src
        pos.push(a1)
        try:  # (taken back whatever happens: a MemoryError must not leave it pushed)
            # (No legal action is the game's end: is_over() would generate them once more.)
            if two:
                # (booster uses are explained from their cards, with none of these too)
                legal2 = _seconds_two(pos, src, dst)
            else:
                # into one list for all the tries (emptied with del [:], its room kept): a new
                # one for each try grows to 2 KB again, a hole the heap may not have. Made
                # once with room for about as many actions as this position has: grown by
                # appends it doubled to 256 slots (2 KB on the 64-bit unix port, its old
                # block held meanwhile)
                legal2 = self._tried
                if legal2 is None:
                    self._tried = legal2 = [None] * min(len(self.legal()) + 16, 120)
                del legal2[:]
                pos.legal_actions(False, legal2)
            seconds = None
            if legal2 is not None and (two or legal2):
                # (a move taken back is barred as the second of two as well: else the
                # undone move, its piece not yet put back, read again after a first that
                # leaves no trace, was asked about instead of shown to put back)
                if rest:
                    match2, growing2 = explain(pos, legal2, None, rest, barred)
                else:  # (only with evidence)
                    match2, growing2 = self._quiet(pos, legal2, None, barred)
                if growing2 and steps is not None:
                    growing2 = self._under_way(growing2, rest, steps)
                if match2:
                    seconds = match2
                if growing2 and a1 not in partial:
                    partial.append(a1)
                if in_hand(growing2, rest):
                    self.held = True
                if growing2 and growing2[0][1] != growing2[0][3]:  # (as in _infer)
                    for a2 in growing2:
                        if a2[3] not in targets:
                            targets.append(a2[3])
        finally:
            pos.pop()
        if seconds and a1 not in complete and (
                steps is None or self._fits_two(a1, seconds, rest, steps, diff)):
            complete.append(a1)

    def _shown_again(self, diff):
        """The moves of a question of the board's own to show again when nothing explains
        the board (diff), not even occupancy alone: none here (a mistake); revision B's
        StepTracker shows its question left unanswered again."""
        return []

    def _ask(self, actions, match=None):
        """Show actions (the ones that fit what was seen) for the player to pick; `next` goes on
        past them into the other moves the board may have missed, so the player's move is
        always among the choices. A question stands until the player answers it or the board
        changes: nothing left to settle from before it may take a move or drop it (a question
        the player opened while the board was letting a move settle lost the player's `next`
        to that move, taken 0.1 s later, and the `confirm` meant for it asked for another).
        Of the candidates that end in one position only the first is shown (_offers), and
        `fitting` counts the positions: 1 when all that fit end alike (_infer then takes it).
        The moves that fit stay pending: a player who plays on without answering made one of
        them, so the next change is read with them first too. Read alone, it may fit one move
        that explains both (hasty play on revision A: g9n asked about, onto g10, then the card
        lifted from e11 for e2; the card onto g10 explained both cells and was taken). match:
        the moves that explain the board alone, where every move that fits explains it now
        (revision A's WaitingTracker may take one for now instead: waiting.py)."""
        self.end_requested = False
        self.offered = False
        self.end_offer = False
        self.settling = False
        self.state = ASKING
        self.candidates, self.fitting = self._offers(self._order(actions)) if actions else ([], 0)
        self.index = 0
        self.pending = self.candidates[:self.fitting]

    def _commit(self, action, how):
        self.recent = []
        self.undone_by_next = []
        self.pos.push(action)
        self.log.append((how, action, self.pos.notation()))
        self.undone = []
        self.pending = []
        self.candidates = []
        self._refresh()

    # -- buttons --------------------------------------------------------------------------------

    def press_next(self):
        """The next candidate of a question. Not asking, nothing: only `confirm` says a move
        was missed (a stray `next` offered one, which the player's next move then took)."""
        if self.state == ASKING and self.candidates:
            self.index = (self.index + 1) % len(self.candidates)
            return True
        return False

    def press_confirm(self):
        if self.state == ASKING and self.candidates:
            if self.end_offer:
                # Shown by `end` with the piece maybe still in the hand (press_end): this press
                # says a move was missed, as the `confirm` that opens an offer does, and takes
                # nothing (`end`, then `confirm` with the keeper lifted took the step shown):
                # the move shown is a missed move shown from now on (offered).
                self.end_offer = False
                self.offered = True
                return True
            self._commit(self.candidates[self.index], "confirm")
            self._infer()
            if self.end_requested and self.state == IDLE:
                self.end_requested = False
                if self.pos.actions_left > 0:
                    self._commit(cc.END_ACTION, "end")
                    self._infer()
            return True
        if self.state != OVER:
            return self._offer_hidden()
        return False

    def _may_be_held(self):
        """Whether the difference may be a piece still in the hand: a move of which it is the
        start may still land on an empty cell (in_hand). Occupancy cannot tell such a piece
        from one put onto a stack, so `end` takes no move onto a stack then (press_end): the
        piece put down is read, and a missed move shown is taken by going on, by `confirm`
        once the player has said a move was missed, or after OFFER_TAKE_MS."""
        if not self.diff:
            return False
        return in_hand(explain(self.pos, self.legal(), self._deltas, self.diff, self.barred)[1],
                       self.diff)

    def _offer_hidden(self):
        """The player says: I made a move the board has not registered. Offer what fits, most
        likely first; the one shown is taken when the player goes on (see `offered`)."""
        offers = self._offers()
        if not offers:
            return False
        self._ask([])
        self.candidates = offers
        self.offered = True
        return True

    def _offers(self, fitting=None):
        """Moves the board may have missed, most likely first (firmware/games/cargocube/
        offers.py: loaded for a question and dropped after, as the hint engine is); those
        that end in the same position as one before them are left out (offers.distinct). With
        fitting, the moves that fit what was seen in the board's order: (those, then the
        others the board may have missed, as the question's candidates; how many fit)."""
        from firmware.games.cargocube import offers
        try:
            if fitting is None:
                return offers.distinct(self.pos, offers.offers(self, _cells, _is_subset))
            fitting = offers.distinct(self.pos, fitting)
            more = offers.offers(self, _cells, _is_subset)
            return offers.distinct(self.pos, fitting + [a for a in more if a not in fitting]), \
                len(fitting)
        finally:
            offers = None
            unload("firmware.games.cargocube.offers")

    def _order(self, actions):
        """actions, most likely first (the plug-in's ranking), for a question."""
        if self.rank is None or len(actions) < 2:
            return actions
        return self.rank(self.pos, actions)

    def press_end(self):
        """End the turn with actions left. The turn's last move must be complete by now: a move
        still pending (it may have ended on a stack) is committed if only one fits, else the
        player is asked first and the turn ends after the answer; a missed move the player
        asked for is taken as shown. While the piece may still be in the hand
        (_may_be_held), no move is taken by the press: one pending move that fits is shown as
        a missed move (taken by going on or by waiting), several are asked about, and a
        `confirm` first only says a move was missed; a pending move that is the first of two
        (a second piece lifted) is not taken."""
        if self.state == OVER:
            return False
        if self.offered and self.state == ASKING:
            if self._may_be_held():
                return False  # the piece may be in the hand: no answer (press_confirm)
            self._take_offered()  # (or the question goes: _offer_fits)
            self._infer()
        if self.state == MOVING:
            # The player says the move is done: what the board was letting settle is read now
            # (left to the tick, a move committed after this press would lose the `end`).
            self._infer(True)
        if self.state == MOVING and self.pending:
            # Only a move that explains the board by itself may be the turn's last: one read
            # as the first of two (a second piece lifted) leaves a piece in the hand, and the
            # end waits for the board to come to rest (the pair is read when it lands).
            alone = [a for a in self.pending if action_delta(self.pos, a) == self.diff]
            if not alone:
                return False
            if self._may_be_held():
                # Onto a stack, or still in the hand (its other moves land on empty cells):
                # `end` took it at once (or asked, and `confirm` took it), the piece still in
                # the hand. One that fits is shown as a missed move, taken when the player
                # goes on (the piece put down is read as its own move if it explains the
                # board) or lets it stand 3 s; several are asked about. A `confirm` first only
                # says a move was missed (end_offer). The end waits (the plug-in).
                self._ask(alone)
                self.offered = self.fitting == 1
                self.end_offer = True
                self.end_requested = True
                return True
            action = alone[0]
            if len(alone) > 1:
                self._ask(alone)
                if self.fitting > 1:
                    self.end_requested = True
                    return True
                action = self.candidates[0]  # all end in one position: the first of them
            self._commit(action, "auto")
            self._infer()
        if self.state == ASKING:
            self.end_requested = True
            return True
        if self.state != IDLE or self.pos.actions_left == 0:
            return False
        self._commit(cc.END_ACTION, "end")
        self._infer()
        return True

    def press_undo(self):
        self._settle_now()
        if self.state == ASKING:
            # Back out of the question, not out of the game: the difference stays shown until
            # the player puts the pieces right or moves on. (None of the moves asked about
            # was made: none stays pending.)
            self.candidates = []
            self.pending = []
            self.state = MISMATCH if self.diff else IDLE
            return True
        if not self.pos.ply():
            return False
        action = self.pos.pop()
        self.undone.append(action)
        self.barred.append(action)
        self.log.append(("undo", action, self.pos.notation()))
        self.pending = []
        self.candidates = []
        self._refresh()
        self._infer()
        return True

    def _settle_now(self):
        """`undo` pressed while a move made waits out settle_ms: that move is the one the
        player takes back, so it is read now (taken, then undone; or asked, and the question
        backed out of). Left to the tick, it was taken after the press, and the press took
        back the move before it."""
        if self.state == MOVING and self.settling:
            self._infer(True)

    def shown(self):
        """The candidate shown now (ASKING), else None."""
        if self.state == ASKING and self.candidates:
            return self.candidates[self.index]
        return None

    def take_log(self):
        out = self.log
        self.log = []
        return out
