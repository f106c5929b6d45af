# Revision A's tracker with the game option wait=K (plugin.py loads this module only then): a
# look-alike move settled by up to K moves after it, not asked about at once. It takes the
# look-alike where Tracker._infer would ask about moves that all explain the board (_ask with
# match), and reads on (_read).
#
# Occupancy sensors cannot tell some moves apart (a cube rolled onto one stack or another: the
# same cell empties). The moves after such a look-alike often can: the cube rolled onto one
# stack, not the other, is the one that rolls on; the activation value one reading gives runs
# out, or does not, when the turn passes. So instead of asking, this tracker takes the likeliest
# reading for now (the tentative one: the position the board shows and plays on) and keeps the
# others as readings: action lists from the move in doubt (doubt_at), all of which explain what
# the board has seen since. Each later move is read on the tentative position as ever; each
# other reading then takes every move that shows the same (the same occupancy change; a move
# the player picked among the shown ones: the same cells too; `end`), and a reading with none
# is dropped. When one reading is left, the moves are settled: taken into the log (the log and
# the host see settled moves only; a power cut loses the unsettled ones, which the board then
# reads again from the cells, or asks). When no move fits the tentative reading but fits
# another, that one becomes the tentative. The board asks (the question is about the first move
# where the readings differ, `asking_at`) once `wait` moves have come after the look-alike, when
# the game ends on the tentative reading, when the readings would grow past READINGS_MAX, and
# whenever the board would have to ask anything else or read a move that only two moves
# explain: the other readings follow the board one move at a time, and no question is ever
# read on a reading that may be wrong. Nothing is guessed: every reading that fits what was seen
# is kept until a move rules it out or the player picks. docs/board-cargocube.md, "The option
# `wait=K`"; bench/cargocube/inference.py --wait K and reva_pico.py measure it.

from shared_rules.cargocube import rules as cc
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.tracker import explain

WAIT = 4  # moves after a look-alike the board reads before it asks about it (default)
WAIT_MAX = 8
READINGS_MAX = 12  # readings kept at most; one more move that would grow past it: ask first


def _moves(value):
    """The option wait=K's K (text or int): 0 to WAIT_MAX moves, else ValueError."""
    try:
        k = int(value)
    except ValueError:
        k = -1
    if not 0 <= k <= WAIT_MAX:
        raise ValueError("wait=%s: a number of moves, 0 to %d" % (value, WAIT_MAX))
    return k


def maker(value):
    """The plug-in's new_tracker for the option wait=K (value: its text): new_tracker(pos,
    rank=None) -> a WaitingTracker waiting up to K moves. ValueError for a bad K, at once."""
    k = _moves(value)

    def new_tracker(pos, rank=None):
        return WaitingTracker(pos, rank=rank, wait=k)
    return new_tracker


def option(game, wait, variant):
    """The plug-in with the option wait=K (K: wait, or, for a game resumed from its log, the
    variant's `+waitK`): its trackers wait, its log is of format version 2 (doubt records) and
    its variant says so. ValueError for a bad K, at once."""
    if wait is None or wait == "":
        wait = variant[variant.index("+wait") + 5:].split("+")[0]
    k = _moves(wait)
    if k:
        game.new_tracker = maker(k)
        game.log_version = 2
        game.wait_tag = "+wait%d" % k


class _AskFirst(Exception):
    """Raised where the board would have to read a move on a reading that may be wrong: the
    move in doubt is asked about first (caught at every input: observe ... press_undo)."""


class WaitingTracker(T.Tracker):
    def __init__(self, pos, settle_ms=T.SETTLE_MS, rank=None, wait=None):
        self.wait = WAIT if wait is None else _moves(wait)
        self.readings = []  # action lists from doubt_at; [] when every move is settled
        self.mine = []  # the tentative reading: pos's actions from doubt_at
        self.hows = []  # how each of mine was taken ("auto", "confirm", "end"), for the log
        self.doubt_at = 0  # the ply of the move in doubt
        self.later = 0  # moves taken since it
        self.must_ask = False  # a move could not be read on every reading: ask now
        self.asking_at = -1  # the ply a question of the readings is about (ASKING), else -1
        self.end_at_rest = False  # `end` asked for was pressed with the board at rest
        self.picked = None  # a missed move the player picked that the readings could not follow
        self.deferred = False  # a look-alike was taken for now in this reading (_ask, _read)
        self.put_down = False  # the missed moves shown are those after a piece read as put down
        # What the game log holds of the doubt: its moves from doubt_at (the log's line, brought
        # to mine by take_log: _log_line), and the readings its last doubt record lists (None:
        # no doubt record open)
        self.logged = []
        self.doubt_rec = None
        T.Tracker.__init__(self, pos, settle_ms, rank)

    def settled(self):
        """How many of pos's actions are settled (in the log); the rest are the tentative
        reading's."""
        return self.doubt_at if self.readings else self.pos.ply()

    # -- the look-alike, and the moves after it ----------------------------------------------------

    def _defer(self, fits, match):
        if self.wait <= 0 or self.end_requested:
            return False
        single = True
        for a in fits:
            if a not in match:
                single = False
        if self.readings:
            if not single:
                return False  # a first of two: the move in doubt is asked about first
            self._commit(fits[0], "auto")  # one more event: every reading takes what fits
            return True
        if single:
            cands = _distinct(self.pos, self._order(fits))
            if len(cands) < 2:
                return False  # they end alike: taken as the base does
            self._open(cands, "auto")
            return True
        # A move that may have ended on a stack (pending), then the next one: each first move
        # with every second that explains what it leaves, the whole of it seen and settled
        # (nothing that may still be under way).
        readings = []
        pos = self.pos
        expected = bytearray(16)
        for a in self._order(fits):
            if a in match:
                readings.append([a])
                continue
            pos.push(a)
            try:
                T.occupancy(pos, expected)
                rest = T.diff_cells(self.occ, expected)
                if not rest:
                    return False
                seconds, growing = T.explain(pos, pos.legal_actions(False), None, rest,
                                             self.barred)
                if growing or not seconds:
                    return False
                for b in _distinct(pos, seconds):
                    readings.append([a, b])
            finally:
                pos.pop()
            if len(readings) > READINGS_MAX:
                return False
        if len(readings) < 2:
            return False
        first = readings[0]
        self.doubt_at = pos.ply()
        self.readings = readings
        self.mine = list(first)
        self.hows = ["auto"] * len(first)
        self.later = len(first) - 1
        for a in first:
            T.Tracker._commit(self, a, "auto")
            self.log.pop()  # (logged when settled)
        if self._one_ended():
            self.must_ask = True
        return True

    def _ask(self, actions, match=None):
        # (match: called where every move that fits explains the board now, those that explain
        # it alone; Tracker._infer returns after it as after a question: _read reads on)
        if match is not None and self._defer(actions, match):
            self.deferred = True
            self.fitting = 0
            return
        if self.readings and actions:
            raise _AskFirst()  # a question read on the tentative reading: the doubt first
        self.asking_at = -1
        T.Tracker._ask(self, actions)

    def _open(self, cands, how):
        """A new doubt: cands (ending apart; one only after _put_down) read it, the first taken
        for now."""
        self.doubt_at = self.pos.ply()
        self.readings = [[a] for a in cands]
        self.mine = [cands[0]]
        self.hows = [how]
        self.later = 0
        T.Tracker._commit(self, cands[0], how)
        self.log.pop()  # (logged when settled)
        if self._one_ended():
            self.must_ask = True

    def _commit(self, action, how):
        if not self.readings:
            T.Tracker._commit(self, action, how)
            return
        cells = T.action_delta(self.pos, action)
        end = action[0] == cc.END
        if how == "auto" and not end and cells != self.diff:
            raise _AskFirst()  # the first of two moves: the readings follow one at a time
        picked = None if how == "auto" else action
        if how == "auto" and not end and self._read_otherwise(cells):
            raise _AskFirst()
        grown = self._grown((cells, end, picked), action)
        if grown is None:
            if picked is not None:
                self.picked = action  # the player's pick: taken once the doubt is settled
            raise _AskFirst()
        T.Tracker._commit(self, action, how)
        self.log.pop()
        self.mine.append(action)
        self.hows.append(how)
        self.readings = grown
        self.later += 1
        if len(grown) == 1:
            self._settle(grown[0])
        elif self._one_ended():
            self.must_ask = True  # the game may be over: the players would stop

    def _grown(self, event, action):
        """The readings after one more move that showed event (cells toggled, `end`, the
        move picked or None), the tentative one taking action; None past READINGS_MAX."""
        pos = self.pos
        mine = self.mine
        for _ in mine:
            pos.pop()
        out = []
        offers = None  # (loaded once for all the readings, if one needs it: offers.distinct)
        try:
            for r in self.readings:
                for a in r:
                    pos.push(a)
                try:
                    fit = _fitting(pos, event)
                    if not fit and event[2] is not None and _same_cells(pos, event[2]):
                        # the move the player picked, with another trace on this reading (random
                        # seed 2187: h7w after i8s or h7e): the doubt is asked about first
                        return None
                    if r == mine:
                        if action in fit:
                            fit.remove(action)
                        fit.insert(0, action)  # (kept first by distinct: the move taken)
                    if len(fit) > 1:
                        if offers is None:
                            from firmware.games.cargocube import offers
                        fit = offers.distinct(pos, fit)
                    for b in fit:
                        out.append(r + [b])
                    if len(out) > READINGS_MAX:
                        return None
                finally:
                    for _ in r:
                        pos.pop()
        finally:
            for a in mine:
                pos.push(a)
            if offers is not None:
                offers = None
                T.unload("firmware.games.cargocube.offers")
        return out

    def _read_otherwise(self, cells):
        """Whether another reading would read what the sensors saw (cells, read here as one
        move) as more than one move: a move that may have ended on a stack and one more, or,
        where no single move explains it, a move with no trace and one more. (This board would
        read it so, or ask, on that reading: taking one move for every reading would drop the
        one where two were made.)"""
        mine = self.mine
        pending = self.pending
        barred = self.barred
        undone = self.undone_by_next
        held = self.held
        found = False
        try:
            for r in self.readings:
                if r == mine:
                    continue
                self._switch(r, True)
                if self.undone_by_next:
                    found = True  # (a move erased by the next may be this reading's first)
                    break
                complete, partial, _ = self._explain_in_two(self.diff, True)
                if complete or partial:
                    found = True
                    break
                if not explain(self.pos, self.legal(), self._deltas, cells, ())[0]:
                    complete, partial, _ = self._explain_in_two(self.diff, False)
                    if complete or partial:
                        found = True
                        break
        finally:
            if self.mine != mine:
                self._switch(mine)
            self.pending = pending
            self.barred = barred
            self.undone_by_next = undone
            self.held = held
        return found

    def _one_ended(self):
        """Whether the game is over on some reading."""
        pos = self.pos
        mine = self.mine
        for _ in mine:
            pos.pop()
        try:
            for r in self.readings:
                for a in r:
                    pos.push(a)
                over = pos.is_over()  # (no legal action: no move list made for it)
                for _ in r:
                    pos.pop()
                if over:
                    return True
            return False
        finally:
            for a in mine:
                pos.push(a)

    def _switch(self, reading, every=False):
        """Make reading the tentative one (pos plays it). The moves undone by a next one go:
        they may not be legal on this one. The pending moves (seen begun, maybe ended on a stack) become this
        reading's moves between the same cells (the cube on a cell may be another one here);
        with every, every move here whose trace is a part of the difference (_read_otherwise:
        all that this reading may read as the first of two)."""
        pos = self.pos
        cells = [(a[1], a[3]) for a in self.pending]
        erased = [(a[1], a[3]) for a in self.undone_by_next]
        for _ in self.mine:
            pos.pop()
        for a in reading:
            pos.push(a)
        # how each was taken: the old reading's where the two agree
        mine = self.mine
        hows = self.hows
        self.hows = [hows[i] if i < len(mine) and mine[i] == reading[i] else
                     "end" if reading[i][0] == cc.END else "auto" for i in range(len(reading))]
        self.mine = list(reading)
        self.candidates = []  # (barred stays: a move taken back is not read again on any)
        self._refresh()
        pending = []
        # A move seen begun whose trace the next move undid (undone_by_next) may have been
        # made: this reading's moves between the same cells stay so (cleared, random seed 966
        # lost a keeper's step: the board read the cube that went onto its cell as put onto
        # the keeper, on a reading where the keeper could not step).
        undone = []
        if erased:
            legal = self.legal()
            for a in legal:
                if a[0] != cc.END and (a[1], a[3]) in erased:
                    undone.append(a)
        self.undone_by_next = undone
        diff = self.diff
        if diff:
            legal = self.legal()
            for i in range(len(legal)):
                a = legal[i]
                if a[0] == cc.END:
                    continue
                if every:
                    dl = T._cells(self._deltas, i)
                    if dl and T._is_subset(dl, diff):
                        pending.append(a)
                elif (a[1], a[3]) in cells:
                    pending.append(a)
        self.pending = pending

    def _keeping_question(self, reading):
        """_switch(reading), the missed moves shown (and the one shown) kept."""
        cands = self.candidates
        index = self.index
        offered = self.offered
        self._switch(reading)
        self.candidates = cands
        self.index = index
        self.offered = offered

    def _offer_hidden(self):
        """The player says a move was missed: the missed moves of every reading are shown, the
        tentative one's first (the move made may be legal on another reading only: a cube
        rolled on from the stack the likeliest reading did not put it on)."""
        if not self.readings:
            return T.Tracker._offer_hidden(self)
        mine = self.mine
        pending = self.pending
        barred = self.barred
        lists = [self._offers()]
        for r in self.readings:
            if r != mine:
                self._switch(r)
                lists.append(self._offers())
        # Each reading's likeliest first, then each one's second, ... (the move made is mostly
        # the likeliest of its reading, which may not be the tentative one).
        offers = []
        k = 0
        more = True
        while more:
            more = False
            for one in lists:
                if k < len(one):
                    more = True
                    if one[k] not in offers:
                        offers.append(one[k])
            k += 1
        if self.mine != mine:
            self._switch(mine)
        self.pending = pending
        self.barred = barred
        if len(offers) > 1 and mine in self.readings:
            offers = self._by_readings(offers, lists)
        if not offers:
            return False
        self._ask([])
        self.candidates = offers
        self.offered = True
        self._on_shown()  # (the tentative reading may have none: the first is another's)
        return True

    def _by_readings(self, offers, lists):
        """offers (the missed moves of every reading: lists, the tentative one's first, then
        the others in the readings' order), likeliest first: a move weighs each reading that
        offers it by the reading's weight and by what a player trying to win makes of the move
        there (_weights); ties keep the order given."""
        ws = self._weights(0, True)
        if ws is None:
            return offers
        rs = self.readings
        mine = self.mine
        at = [rs.index(mine)] + [k for k in range(len(rs)) if rs[k] != mine]
        score = {}
        for j in range(len(lists)):
            w, best, q = ws[at[j]]
            for a in lists[j]:
                s = w * (q + (0.8 if best is not None and best[:5] == a[:5] else 0))
                score[a] = score.get(a, 0) + s
        order = sorted(range(len(offers)), key=lambda k: (-score[offers[k]], k))
        return [offers[k] for k in order]

    def press_next(self):
        done = T.Tracker.press_next(self)
        if done and self.offered and self.readings:
            self._on_shown()
        return done

    def _on_shown(self):
        """A missed move shown that is not legal on the tentative reading: the first reading
        where it is becomes the tentative one (what the board reads next is read there)."""
        a = self.candidates[self.index]
        if a in self.pos.legal_actions():
            return
        mine = self.mine
        for r in self.readings:
            if r != mine:
                self._keeping_question(r)
                if a in self.pos.legal_actions():
                    return
        self._keeping_question(mine)

    def _settle(self, reading):
        """One reading left: it is the game (the log's line becomes it, the doubt closed)."""
        if reading != self.mine:
            self._switch(reading)
        self._no_doubt(self.mine)

    def _no_doubt(self, line):
        """Every move settled (or the doubt's moves dropped): no readings, nothing to ask. line:
        the doubt's moves pos holds now (pos: the position before them plus line), which the
        log's line becomes before its doubt record is closed."""
        # (no record of the one reading left: until the empty one, the last lists it too)
        self._log_line(line, False)
        if self.doubt_rec is not None:
            self.doubt_rec = None
            self.log.append(("doubt", b"", None))
        self.logged = []
        self.readings = []
        self.mine = []
        self.hows = []
        self.later = 0
        self.must_ask = False
        self.asking_at = -1

    def _infer(self, may_commit=True):
        n = self._read(may_commit)
        if self.state != T.MISMATCH or len(self.readings) < 2 or self.barred:
            # (barred: a move taken back whose pieces are not put back yet; what the board
            # shows is the take-back, to be put right, not another reading)
            return n
        if self.undone_by_next:
            # A move seen begun whose trace the next one undid may have been made first: a pair
            # the other readings do not follow (random seed 966: a keeper's step, then a cube
            # onto the cell it left; another reading, where the keeper could not step, read
            # the cube as put onto the keeper). The move in doubt is asked about first.
            self.must_ask = True
            return n
        # Nothing fits the tentative reading: another one may be the game. Each is tried with
        # the moves seen begun as the tentative reading saw them (random seed 3432: translated
        # through a reading tried before, where the keeper could not step west, the keeper's
        # Kw was lost, and the right reading read its Ks instead).
        mine = self.mine
        pending = list(self.pending)
        erased = list(self.undone_by_next)
        for r in self.readings:
            if r == mine:
                continue
            self.pending = list(pending)
            self.undone_by_next = list(erased)
            self._switch(r)
            got = self._read(may_commit)
            if self.state != T.MISMATCH or got:
                return n + got
        if self.readings and self.mine != mine:
            self.pending = pending
            self.undone_by_next = erased
            self._switch(mine)
            self._read(may_commit)
        return n

    def _read(self, may_commit):
        """Tracker._infer, read on after a look-alike taken for now (_ask)."""
        n = 0
        while True:
            self.deferred = False
            n += T.Tracker._infer(self, may_commit)
            if not self.deferred:
                return n
            n += 1

    # -- the game log: moves as the board reads them now, and the readings of the doubt ----------
    #
    # Every move goes to the log when taken, as on the board that asks at once: a power cut loses
    # nothing the board has read. A doubt record (docs/log-format.md), written before the moves
    # it is about, lists the readings; when the tentative one changes, the log takes back its
    # moves from the first that differs and takes the new ones (undo and action records); a
    # settled or dropped doubt is closed by an empty doubt record, after the moves. So at every
    # point of a power cut the log's last doubt record holds what the board knew, and a resumed
    # game reopens it (reopen).

    def take_log(self):
        if self.readings:
            self._log_line(self.mine)
        return T.Tracker.take_log(self)

    def _log_line(self, line, record=True):
        """The log's line brought to line (pos: the position at doubt_at plus line): a doubt
        record first if the readings changed (record), then the take-backs and moves."""
        if record and self.readings != self.doubt_rec:
            self.log.append(("doubt", self._doubt_payload(), None))
            self.doubt_rec = [list(r) for r in self.readings]
        logged = self.logged
        k = 0
        n = min(len(logged), len(line))
        while k < n and logged[k] == line[k]:
            k += 1
        if k == len(logged) and k == len(line):
            return
        pos = self.pos
        for _ in range(len(line) - k):
            pos.pop()
        for a in logged[k:]:
            pos.push(a)
        for _ in range(len(logged) - k):
            a = pos.pop()
            self.log.append(("undo", a, pos.notation()))
        hows = self.hows
        for i in range(k, len(line)):
            pos.push(line[i])
            self.log.append((hows[i] if i < len(hows) else "auto", line[i], pos.notation()))
        self.logged = list(line)

    def _doubt_payload(self):
        """The doubt record's payload: doubt_at (u16 LE), the tentative reading's index, the
        number of readings, then each reading as its length and its actions (the rules core's
        encoding, each read in the position after the ones before it)."""
        rs = self.readings
        if self.mine not in rs:
            rs = rs + [self.mine]  # (the board shows it: kept, as a reading, never lost)
        out = bytearray((self.doubt_at & 0xFF, self.doubt_at >> 8, rs.index(self.mine), len(rs)))
        for r in rs:
            out.append(len(r))
            for a in r:
                out.extend(cc.encode_action(a))
        return bytes(out)

    # -- the question about the move in doubt ------------------------------------------------------

    def _ask_doubt(self):
        rs = self.readings
        i = 0
        first = rs[0]
        n = len(first)
        for r in rs:
            n = min(n, len(r))
        while i < n - 1:
            a = first[i]
            same = True
            for r in rs:
                if r[i] != a:
                    same = False
                    break
            if not same:
                break
            i += 1
        cands = []
        for r in rs:
            if r[i] not in cands:
                cands.append(r[i])
        if len(cands) > 1:
            cands = self._likeliest(cands, i)
        self.state = T.ASKING
        self.candidates = cands
        self.fitting = len(cands)
        self.index = 0
        self.offered = False
        self.end_offer = False
        self.settling = False
        self.moves = []  # (the pending moves stay: read again after the answer)
        self.targets = []
        self.asking_at = self.doubt_at + i

    def _likeliest(self, cands, i):
        """cands (the moves where the readings first differ, at i), likeliest first by the moves
        after them too: a move weighs the readings that make it (_weights; ties keep the
        readings' order: MicroPython's sort is not stable)."""
        ws = self._weights(i)
        if ws is None:
            return cands
        weight = [0.0] * len(cands)
        for k in range(len(ws)):
            weight[cands.index(self.readings[k][i])] += ws[k][0]
        order = sorted(range(len(cands)), key=lambda k: (-weight[k], k))
        return [cands[k] for k in order]

    def _weights(self, i, ends=False):
        """For each reading: (its weight, and with ends the hint's choice where it ends and
        0.2 / the legal moves there). A reading weighs what a player trying to win makes of its
        moves from i (the hint's choice 4 times in 5, else any legal move: the ranking the
        questions use, engine.py, carried past the move in doubt; the moves before i are every
        reading's). The hint engine is loaded for this and dropped after (None without room
        for it); its choice is worked out once for each position the readings share."""
        try:
            from shared_rules.cargocube import engine
        except MemoryError:
            return None
        pos = self.pos
        back = self.mine[i:]
        out = []
        seen = {}  # the moves from i to a position -> (the hint's choice there, 0.2 / legal)
        for _ in back:
            pos.pop()
        try:
            for r in self.readings:
                p = 1.0
                n = 0
                look = None
                try:
                    for j in range(i, len(r) + 1 if ends else len(r)):
                        key = tuple(r[i:j])
                        look = seen.get(key)
                        if look is None:
                            look = (engine.best_action(pos),
                                    0.2 / max(1, len(pos.legal_actions())))
                            seen[key] = look
                        if j == len(r):
                            break
                        a = r[j]
                        best = look[0]
                        p *= look[1] + (0.8 if best is not None and best[:5] == a[:5] else 0)
                        pos.push(a)
                        n += 1
                finally:
                    for _ in range(n):
                        pos.pop()
                out.append((p, look[0], look[1]) if ends else (p,))
        finally:
            for a in back:
                pos.push(a)
            engine = None
            T.unload("shared_rules.cargocube.engine")
        return out

    def _after_input(self):
        if not self.readings:
            return
        if self.asking_at >= 0 and self.state == T.ASKING:
            return  # (the question stands)
        self.asking_at = -1
        if self.must_ask or self.state == T.OVER or (
                self.later >= self.wait and self.state == T.IDLE):
            self._ask_doubt()

    def _answer(self, action):
        i = self.asking_at - self.doubt_at
        self.asking_at = -1
        self.readings = [r for r in self.readings if i < len(r) and r[i] == action]
        if i < len(self.mine) and self.mine[i] == action:
            self.hows[i] = "confirm"
        if len(self.readings) == 1:
            self._settle(self.readings[0])
            self.state = T.IDLE
            picked = self.picked
            self.picked = None
            if picked is not None and picked in self.pos.legal_actions():
                T.Tracker._commit(self, picked, "confirm")
            if self.end_requested and self.end_at_rest:
                # `end` was pressed at rest: the turn ends before what the board shows now
                # (the next move may be under way already)
                self.end_requested = False
                if self.pos.actions_left > 0:
                    T.Tracker._commit(self, cc.END_ACTION, "end")
            self.end_at_rest = False
            self._infer()
            if self.end_requested and self.state == T.IDLE:
                # (pressed with a move under way: the turn ends after it)
                self.end_requested = False
                if self.pos.actions_left > 0:
                    self._commit(cc.END_ACTION, "end")
                    self._infer()
        else:
            if self.mine not in self.readings:
                self._switch(self.readings[0])
            self.state = T.IDLE
            self.must_ask = True  # the next move where they differ

    # -- inputs: a question the tentative reading cannot read is asked about first ---------------

    def observe(self, occ, now_ms=0):
        if self.put_down and self.offered and self.state == T.ASKING and len(self.mine) == 1:
            self._held(occ)
        try:
            n = T.Tracker.observe(self, occ, now_ms)
        except _AskFirst:
            # (raised taking the missed move shown, before the cells were taken in: they are
            # the board's all the same)
            self.occ[:] = occ
            self.changed_at = now_ms
            n = 0
            self.must_ask = True
        self._after_input()
        return n

    def tick(self, now_ms):
        if not self.settling:
            return 0
        try:
            n = T.Tracker.tick(self, now_ms)
        except _AskFirst:
            n = 0
            self.must_ask = True
        self._after_input()
        return n

    def tick_offered(self, now_ms):
        try:
            n = T.Tracker.tick_offered(self, now_ms)
        except _AskFirst:
            n = 0
            self.must_ask = True
        self._after_input()
        return n

    def press_confirm(self):
        self.put_down = False
        if self.asking_at >= 0 and self.state == T.ASKING:
            try:
                self._answer(self.candidates[self.index])
            except _AskFirst:
                self.must_ask = True
            self._after_input()
            return True
        try:
            if self._put_down():
                done = True
                if self.state == T.IDLE:
                    end = self.end_requested
                    self._offer_hidden()
                    self.put_down = self.offered and (2 if end else 1)
            else:
                done = T.Tracker.press_confirm(self)
        except _AskFirst:
            done = True
            self.must_ask = True
        self._after_input()
        return done

    def _put_down(self):
        """`confirm` while the board waits on a piece that may have ended on a stack (every
        move it waits on explains the board alone): the player says a move was missed, and the
        likeliest is that the piece is down and another move, with no trace, came after it
        (a cube rolled on along stacks). So the piece's moves are taken as a look-alike, for
        now (readings, one or more: nothing is logged until a later move settles them), and
        the press offers the moves missed after them (_offer_hidden). Whether it took them.
        Not with readings open already (taken on every reading, it misread 4 random games in
        200)."""
        if self.state != T.MOVING or self.readings or not self.pending or self.wait <= 0 or \
                self.undone_by_next:
            # (a move erased by the next may have come first: random seed 1786's keeper step,
            # then a cube onto the cell it left, read as put onto the keeper; the base offers it)
            return False
        diff = self.diff
        pos = self.pos
        alone = [a for a in self.pending if a[0] != cc.END and T.action_delta(pos, a) == diff]
        if not alone or len(alone) < len(self.pending):
            return False  # (a move of a question left open, read as the first of two: asked)
        self._open(_distinct(pos, self._order(alone)), "confirm")
        self._read(True)
        return True

    def _held(self, occ):
        """Whether occ (a change with the moves after a piece read as down shown) is that piece
        put down after all, on an empty cell (a `confirm` pressed with the piece in the hand):
        one of its own moves from before explains it exactly, and nothing explains it after
        any reading's move of the piece and the move shown (a move played on from there would:
        seed 45's h9w onto a stack, h6n, then h7n onto h8, where h9s alone also explains the
        board; random seed 395's i7e, f5w, then g8e, explained after i7e only). The piece's
        readings are then dropped (nothing of them was logged) and the change is read from
        before them."""
        pos = self.pos
        shown = self.candidates[self.index]
        down = pos.pop()
        expected = bytearray(16)
        after = False  # something explains occ after a reading's move and the move shown
        for r in self.readings:
            pos.push(r[0])
            if shown in pos.legal_actions():
                pos.push(shown)
                T.occupancy(pos, expected)
                diff = T.diff_cells(occ, expected)
                if diff:
                    match, growing = explain(pos, pos.legal_actions(False), None, diff, ())
                    after = bool(match or growing)
                else:
                    after = True
                pos.pop()
            pos.pop()
            if after:
                break
        if not after:
            T.occupancy(pos, expected)
            diff = T.diff_cells(occ, expected)
            if diff:
                for a in explain(pos, pos.legal_actions(False), None, diff, self.barred)[0]:
                    if a[1] == down[1]:
                        self._no_doubt([])
                        self.put_down = False
                        self.offered = False
                        self.candidates = []
                        self.state = T.IDLE
                        self._refresh()
                        return True
        pos.push(down)
        return False

    def press_end(self):
        if self.asking_at >= 0 and self.state == T.ASKING:
            self.end_requested = True  # the turn ends once the question is answered
            self.end_at_rest = True
            return True
        if self.readings and self.state == T.IDLE and self.pos.actions_left == 0:
            # No `end` on the tentative reading (an activation is due): another reading may
            # have one. Asked, and the turn ends after the answer if it may.
            self.end_requested = True
            self.end_at_rest = True
            self.must_ask = True
            self._after_input()
            return True
        try:
            done = T.Tracker.press_end(self)
        except _AskFirst:
            done = True
            self.end_requested = True
            self.must_ask = True
        self._after_input()
        return done

    def press_undo(self):
        if self.asking_at >= 0 and self.state == T.ASKING:
            return False  # the board needs the answer: a move before the last one is in doubt
        if self.offered and self.state == T.ASKING and self.put_down:
            # Out of the moves offered after a piece read as put down (_put_down): no other
            # move was made; the piece's move (its readings) stays, and an `end` that waited on
            # it ends the turn now.
            end = self.put_down == 2
            self.put_down = False
            self.offered = False
            T.Tracker.press_undo(self)
            if end and self.state == T.IDLE and self.pos.actions_left > 0:
                try:
                    self._commit(cc.END_ACTION, "end")
                    self._read(True)
                except _AskFirst:
                    self.must_ask = True
                self._after_input()
            return True
        if self.offered and self.state == T.ASKING and self.readings:
            # Out of a missed move shown on the tentative reading: the move made may be legal
            # only on another one. Asked about first.
            T.Tracker.press_undo(self)
            self.must_ask = True
            self._after_input()
            return True
        if not self.readings or self.state == T.ASKING:
            try:
                done = T.Tracker.press_undo(self)
            except _AskFirst:
                done = True
                self.must_ask = True
            self._after_input()
            return done
        try:
            self._settle_now()
        except _AskFirst:
            self.must_ask = True
            self._after_input()
            return True
        if not self.readings:
            return self.press_undo()  # (settled meanwhile)
        # A move of the readings taken back: each reading loses its last move.
        action = self.pos.pop()
        self.mine.pop()
        self.hows.pop()
        self.undone.append(action)
        self.barred.append(action)
        self.later = max(0, self.later - 1)
        left = []
        for r in self.readings:
            r = r[:-1]
            if r not in left:
                left.append(r)
        self.pending = []
        self.candidates = []
        self._refresh()
        if not self.mine:
            self._no_doubt([])  # the move in doubt itself: nothing of it is left
        elif len(left) == 1:
            self.readings = left
            self._settle(left[0])
        else:
            self.readings = left
        try:
            self._infer()
        except _AskFirst:
            self.must_ask = True
        self._after_input()
        return True


def _fitting(pos, event):
    """The moves legal in pos that show event (_grown)."""
    cells, end, picked = event
    legal = pos.legal_actions(False)
    if end:
        return [cc.END_ACTION] if cc.END_ACTION in legal else []
    if cells:
        fit = T.explain(pos, legal, None, cells, ())[0]
    else:
        fit = [b for b in legal if b[0] != cc.END and not T.packed_delta(pos, b)]
    if picked is not None:
        # the player picked it on the LEDs: its cells are what they saw
        fit = [b for b in fit if b[1] == picked[1] and b[3] == picked[3]]
    return fit


def _same_cells(pos, picked):
    """Whether a move legal in pos goes between the cells of picked (as the LEDs show it)."""
    for b in pos.legal_actions(False):
        if b[1] == picked[1] and b[3] == picked[3] and b[0] != cc.END:
            return True
    return False


def _distinct(pos, actions):
    """actions without those that end as one before them (offers.distinct, loaded for it)."""
    from firmware.games.cargocube import offers
    try:
        return offers.distinct(pos, actions)
    finally:
        offers = None
        T.unload("firmware.games.cargocube.offers")


def reopen(game, payload, rank=None):
    """A resumed game's tracker with the doubt its log's last doubt record holds (the plug-in's
    resume: game.pos is the position after the log's records). The log may end inside a
    change of the line (a power cut between the doubt record and the moves after it): the
    record's tentative reading is what the board shows, and the log's line is brought to it
    with the next take_log. ValueError for a payload that does not read."""
    pos = game.pos
    d = payload[0] | payload[1] << 8 if len(payload) >= 4 else -1
    if d < 0 or pos.ply() < d:
        raise ValueError("doubt record at ply %d after %d moves" % (d, pos.ply()))
    logged = []
    while pos.ply() > d:
        logged.insert(0, pos.pop())
    readings = []
    i = 4
    try:
        for _ in range(payload[3]):
            r = []
            k = payload[i]
            i += 1
            try:
                for _ in range(k):
                    a, i = cc.decode_action(pos, payload, i)
                    r.append(a)
                    pos.push(a)
            finally:
                for _ in r:
                    pos.pop()
            readings.append(r)
    except (IndexError, cc.RulesError):
        i = -1
    if i != len(payload) or payload[2] >= len(readings):
        for a in logged:
            pos.push(a)
        raise ValueError("doubt record of %d bytes does not read" % len(payload))
    mine = readings[payload[2]]
    for a in mine:
        pos.push(a)
    t = game.new_tracker(pos, rank=rank)
    if not isinstance(t, WaitingTracker):
        t = WaitingTracker(pos, rank=rank)
    t.doubt_at = d
    t.readings = readings
    t.mine = list(mine)
    t.hows = ["end" if a[0] == cc.END else "auto" for a in mine]
    t.later = max(0, len(mine) - 1)
    t.logged = logged
    t.doubt_rec = [list(r) for r in readings]
    if len(readings) < 2:
        t._no_doubt(t.mine)
    elif t._one_ended():
        t.must_ask = True
    return t
