# Revision A's tracker with the game option wait=K (K > 0: the default, plugin.Game.WAIT;
# plugin.py loads this module only then): a look-alike move settled by up to K moves after it,
# not asked about at once. It takes the look-alike where Tracker._infer would ask about moves
# that all explain the board (_ask with match), and reads on (_read).
#
# Occupancy sensors cannot tell some moves apart (a cube rolled onto one stack or another: the
# same cell empties). The moves after such a look-alike often can: the cube rolled onto one
# stack, not the other, is the one that rolls on; the activation value one reading gives runs
# out, or does not, when the turn passes. So instead of asking, this tracker takes the likeliest
# reading for now (the tentative one: the position the board shows and plays on) and keeps the
# others as readings: action lists from the move in doubt (doubt_at), all of which explain what
# the board has seen since. Each later move is read on the tentative position as ever; each
# other reading then takes every move that shows the same (the same occupancy change; a move the
# player picked among the shown ones: the same cells too; `end`), and a reading with none is
# dropped. When one reading is left, the moves are settled. Every move goes to the log when it
# is taken, with doubt records that hold the readings (docs/log-format.md; take_log), so a power
# cut loses no move in doubt: the board resumes with its readings (reopen). When no move fits
# the tentative reading but fits another, that one becomes the tentative. The board asks (the
# question is about the first move where the readings differ, `asking_at`) once `wait` moves
# have come after the look-alike, when the game ends on the tentative reading, when the readings
# would grow past READINGS_MAX, and whenever the board would have to ask anything else or read a
# move that only two moves explain: the other readings follow the board one move at a time, and
# no question is ever read on a reading that may be wrong. Nothing is guessed: every reading
# that fits what was seen is kept until a move rules it out or the player picks.
# docs/board-cargocube.md, "The option `wait=K`"; bench/cargocube/inference.py --wait K and
# reva_pico.py measure it.

from shared_rules.cargocube import rules as cc
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.tracker import explain

WAIT = 2  # moves after a look-alike the board reads before it asks about it (plugin.Game.WAIT)
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
    """The plug-in with the option wait=K (K: wait's text; for a game resumed from its log, the
    variant's `+waitK`; with neither, game.WAIT for a base game, else none): its trackers wait,
    its log is of format version 2 (doubt records), its variant says so and its console has
    the readings (_commands). ValueError for a bad K, or on revision B (its plug-in has
    levels: the steps tell look-alikes apart), at once."""
    if (wait is None or wait == "") and variant:
        wait = variant[variant.index("+wait") + 5:].split("+")[0]
    elif wait is None or wait == "":
        # The default (game.WAIT) is for the base game: the expansions, the teleport and 8
        # players ask at once unless told. Their positions offer hundreds of moves, a list of
        # them for each reading, for which the unix port's heap in pieces found no room.
        if game.pos.uses_expansions() or len(game.pos.seats) > 4:
            return
        wait = game.WAIT
    k = _moves(wait)
    if k and hasattr(game, "levels"):
        raise ValueError("wait=%s: revision A only (revision B sees the steps)" % (wait,))
    if k:
        game.new_tracker = maker(k)
        game.log_version = 2
        game.wait_tag = "+wait%d" % k
        game.command = _commands(game, game.command)


def _commands(game, command):
    """The plug-in's console with the readings (here, so that a board without the option keeps
    none of it): `readings` (WaitingTracker.reading_lines), and `state` ends with ` doubt=PLY`
    while moves from that ply are in doubt (docs/serial-protocol.md)."""
    def with_readings(words):
        t = game.tracker
        cmd = words[0].lower()
        if cmd == "readings":
            return t.reading_lines()
        reply = command(words)
        if cmd == "state" and t.readings:
            reply += " doubt=%d" % t.doubt_at
        return reply
    return with_readings


class _AskFirst(Exception):
    """Raised where the board would have to read a move on a reading that may be wrong: the
    move in doubt is asked about first (caught at every input: observe ... press_undo)."""


class WaitingTracker(T.Tracker):
    AskFirst = _AskFirst  # (waiting_rare.py raises it through the tracker: no import circle)

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

    def reading_lines(self):
        """The console's `readings` (waiting_rare.reading_lines)."""
        return _rare("reading_lines", self)

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
        """Whether another reading would read cells as more than one move
        (waiting_rare.read_otherwise)."""
        return _rare("read_otherwise", self, cells)

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
        """The player says a move was missed: with readings open, the missed moves of every
        reading (waiting_rare.offer_hidden)."""
        if not self.readings:
            return T.Tracker._offer_hidden(self)
        return _rare("offer_hidden", self)

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
        """The question about the move in doubt (waiting_rare.ask_doubt)."""
        return _rare("ask_doubt", self)

    def _likeliest(self, cands, i):
        """cands, likeliest first by the moves after them too (waiting_rare.likeliest)."""
        return _rare("likeliest", self, cands, i)

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
        """A question about the move in doubt answered (waiting_rare.answer)."""
        return _rare("answer", self, action)

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
        """Whether occ is the piece read as down put down after all (waiting_rare.held)."""
        return _rare("held", self, occ)

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
        return _rare("press_undo", self)


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


def _rare(name, *args):
    """waiting_rare.py's function name called with args: the parts of this tracker a game
    seldom needs, loaded for the call and dropped after (as the hint engine is)."""
    from firmware.games.cargocube import waiting_rare
    try:
        return getattr(waiting_rare, name)(*args)
    finally:
        waiting_rare = None
        T.unload("firmware.games.cargocube.waiting_rare")


def _distinct(pos, actions):
    """actions without those that end as one before them (offers.distinct, loaded for it)."""
    from firmware.games.cargocube import offers
    try:
        return offers.distinct(pos, actions)
    finally:
        offers = None
        T.unload("firmware.games.cargocube.offers")


def reopen(game, payload, rank=None):
    """A resumed game's tracker with the doubt its log's last doubt record holds
    (waiting_rare.reopen)."""
    return _rare("reopen", game, payload, rank)
