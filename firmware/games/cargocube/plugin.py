# Cargocube on the board: the game plug-in (interface in docs/firmware.md).
#
# The rules come from shared_rules; move inference from firmware.games.cargocube.tracker. This module turns the
# tracker's state into LED overlays and answers the game's serial commands. The overlay (what to
# light besides the score bars) is rebuilt only when something changes, so paint() per frame is
# a short loop over a prepared list.

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient
from firmware.games.cargocube import tracker as T
from firmware.drivers import leds as L
from firmware import hal as H
from firmware.system import logwrite as LW
from firmware.hal import unload

# Activation values 1..4 as colour + level, so that values differ in hue and in brightness.
VALUE_COLOUR = (L.OFF, L.BLUE, L.CYAN, L.YELLOW, L.WHITE)
VALUE_LEVEL = (0, 90, 140, 200, 255)

HINT_MS = 4000  # how long a hint stays lit
# A `confirm` this soon after one that showed something to read (a missed move; revision B:
# the move it had taken) is the same press, pressed twice in haste or bounced, while that is
# still shown (_confirm_shown): the second took the missed move shown, a guess no one had
# looked at, or (revision B) asked for a missed move the board then took 3 s later.
CONFIRM_REPEAT_MS = 400
MISMATCH_MS = 500  # a difference must last this long before it lights red (hands are slow)


def _engine(pos, actions=None):
    """The hint engine (shared_rules/cargocube/engine.py), loaded for one answer and dropped
    after: most games ask for few (docs/firmware.md "Loading on demand"). Its action for the
    hint; with actions, those most likely first (the tracker's rank: what its questions show
    first)."""
    try:
        from shared_rules.cargocube import engine
    except MemoryError:
        if actions is None:
            raise
        return actions  # (no room for it now: the question shows them in the board's order)
    try:
        return engine.best_action(pos) if actions is None else engine.rank(pos, actions)
    finally:
        name = engine.__name__
        engine = None
        unload(name)


def _done_reading():
    """Drop the rules' notation reader and the start layouts (shared_rules/cargocube/reader.py,
    layouts.py) once the position is made: a game in play reads no position until it is
    loaded or resumed, when the core imports them again (docs/firmware.md "Loading on
    demand")."""
    unload("shared_rules.cargocube.reader")
    unload("shared_rules.cargocube.layouts")


def _drop_unused(pos):
    """Drop the expansions' code (shared_rules/cargocube/expansions.py) and the 8-player
    variant's (eight.py) if pos, the game's position now, does not use them: the core loads
    them only for a position that does, and a game set up after one that did kept them in the
    heap for good (docs/firmware.md "The expansions on the heap"). A game that used them and
    is still there (a `new` makes the next game before the old one goes) keeps what its
    position holds until it goes: the core itself holds nothing of them."""
    if not pos.uses_expansions():
        unload("shared_rules.cargocube.expansions")
    if len(pos.seats) != 8:
        unload("shared_rules.cargocube.eight")


def _nothing(*args):
    pass


def _seats(text):
    if not text:
        return "SN"
    return text.upper()


CARD_LAYOUTS = ("base", "pyramid", "bastion", "both")


def _cards(value):
    """The card layout an option `cards=...` asks for: None, or one of CARD_LAYOUTS."""
    if value in (None, "", "0", "no"):
        return None
    if value in ("1", "yes", True):
        return "base"
    if value not in CARD_LAYOUTS:
        raise ValueError("cards=%s: base, pyramid, bastion or both" % (value,))
    return value


class Game:
    # the options of `new` (firmware/system/newgame.py refuses others)
    OPTIONS = ("layout", "seats", "cards", "teleport", "position", "wait")

    name = "cargocube"
    rules_version = cc.RULES_VERSION  # in the log's header; a log of another one is not resumed
    # the move tracker, made as new_tracker(pos, rank=): revision B's plug-in
    # (plugin_revb.py) makes its StepTracker instead; with the option wait=K, revision A's
    # WaitingTracker (waiting.py, loaded only then)
    new_tracker = T.Tracker
    # the option wait=K when `new` names none, for the base game (2 to 4 players, no cards or
    # the base cards, no teleport; the rest asks at once unless told, waiting.option): a
    # look-alike is settled by up to 2 moves after it before the board asks (waiting.py;
    # docs/board-cargocube.md "The option wait=K"); wait=0 asks at once. A game resumed from
    # its log keeps the option its variant names (none: 0). Revision B's plug-in: "" (none).
    WAIT = "2"
    log_version = 1  # the game log's format version (2 with the option wait=K: doubt records)
    wait_tag = ""  # "+waitK" with the option wait=K: at the variant's end, so a resume has it

    def __init__(self, options):
        self.emit = options.get("emit") or _nothing
        # The app's game log (docs/firmware.md): every committed action, take-back and the end.
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_doubt = options.get("record_doubt") or _nothing
        self.record_over = options.get("record_over") or _nothing
        layout = options.get("layout") or "polygon"
        seats = _seats(options.get("seats"))
        cards = _cards(options.get("cards"))
        teleport = options.get("teleport") in ("1", "yes", True)
        start = options.get("position")
        wait = options.get("wait")
        variant = options.get("variant") or ""  # (a game resumed from its log: its header's)
        try:
            from shared_rules.cargocube import layouts
            players = len(seats)
            if layouts.SEATS_BY_PLAYERS.get(players) != seats:
                raise ValueError("seats %s: play SN, SWN, SWNE or 12345678" % seats)
            if start is not None:  # an empty position= is a bad position, not a new game
                self.pos = cc.Position.parse(start)
                self.variant = variant or "position"
            else:
                try:
                    self.pos = cc.start_position(players, layout, cards or False, teleport)
                except cc.RulesError as e:
                    raise ValueError(str(e))  # a bad layout is a bad option: `err <message>`
                self.variant = layout + ("+cards" if cards == "base" else "+" + cards if cards
                                         else "") + ("+teleport" if teleport else "")
        finally:
            _done_reading()
        if wait != "0" and (wait or "+wait" in variant or self.WAIT and not variant):
            from firmware.games.cargocube.waiting import option
            option(self, wait, variant)  # new_tracker, log_version, wait_tag; ValueError
        if not self.wait_tag:  # (a game before this one may have loaded it: it goes with it)
            unload("firmware.games.cargocube.waiting")
        elif self.wait_tag not in self.variant:
            self.variant += self.wait_tag
        _drop_unused(self.pos)
        self.tracker = self.new_tracker(self.pos, rank=_engine)
        self.overlay = L.Overlay()  # (cell, colour, level, blink) lit besides the score bars
        # The idle overlay depends only on the position (and what was taken back): kept in the
        # overlay (Overlay.keep), made for the tracker's position_id _idle_for, a put-back
        # shows it again (-1: none).
        self._idle_for = -1
        self._idle_undone = None
        self.hint = None
        self.hint_until = 0
        self.mismatch_since = -1
        self._over_told = False  # the `over` event and the log's finish are sent once
        # the seat whose `end` waits for the board to come to rest (a piece in the hand, a
        # question, a mistake): the turn ends then, if it may (_end_at_rest); -1 for none
        self.end_by = -1
        self.confirm_at = -1  # when a `confirm` showed something to read (CONFIRM_REPEAT_MS)
        self.now = 0
        self._shown_state = -1
        self.paint_version = 0  # bumped whenever what paint() draws changes (docs/firmware.md)
        self._rebuild()

    # -- plug-in interface ------------------------------------------------------------------------

    def load(self, text):
        """Resync (the host's LOAD): the game goes on from this position; what the sensors
        see is compared with it at the next on_change. ValueError if it does not parse."""
        try:
            pos = cc.Position.parse(text)
        except cc.RulesError as e:
            raise ValueError("bad position: %s" % (e,))
        finally:
            _done_reading()
        self.pos = pos
        self.variant = "position" + self.wait_tag  # the log that begins now starts from it
        _drop_unused(pos)
        # the old game's tracker dropped first (as resume does): its legal actions and the new
        # tracker's (made at once: a position at its end is over) need not share the heap
        self.tracker = None
        self.tracker = self.new_tracker(pos, rank=_engine)
        self.hint = None
        self.mismatch_since = -1
        self._over_told = False
        self.end_by = -1
        self._rebuild()

    def setup_mask(self):
        return bytearray(self.tracker.expected)

    def start(self):
        # The start position is what `pos` answers; not repeated here (a 4-player layout with
        # cards is over 500 bytes, a large block on a busy heap).
        self.emit("cargocube start ply=%d" % self.pos.ply())
        self._tell_over()
        self._rebuild()

    def log_header(self):
        """(variant, seats, start position, rules version) for the game log's header; asked
        once, before start(). The position itself, which the log streams (notation(out))."""
        letters = self.pos.SEAT_LETTERS
        return (self.variant, "".join([letters[s] for s in self.pos.seats]),
                self.pos, self.rules_version)

    def resume(self, records):
        """Go on with a logged game (instead of start()): replay its records, (kind, payload)
        as firmware.system.logformat reports them, through the rules core from the start position.
        Raises the rules' error if a record does not replay."""
        pos = self.pos
        n = getattr(records, "expected_actions", 0)
        if n:
            # The set-up's tracker is made again after the replay: drop it first, so that the
            # undo record's one large block can take the room it held (no gc.collect() here:
            # the allocation collects by itself if it finds no block, and it costs ~20 ms
            # emulated on a resume that needs none).
            self.tracker = None
            pos.reserve(n)
        undone = []  # taken back last, not yet played again: the board may still show them
        # Every move taken back: the live tracker bars one until the board is at rest, which
        # may be after more moves (`confirm`ed with its trace still standing), and the log
        # does not say when the board was at rest. The first scan clears them if it is.
        barred = []
        doubt = None  # the last doubt record's payload (option wait=K): b"" for none
        for kind, payload in records:
            if kind == LW.ACTION:
                pos.push(cc.decode_action(pos, payload, 0)[0])
                if undone:  # (a new list only after a take-back: no garbage per record)
                    undone = []
            elif kind == LW.UNDO:
                a = pos.pop()
                undone.append(a)
                if a not in barred:
                    barred.append(a)
            elif kind == LW.DOUBT:
                doubt = payload
        if doubt:
            # moves taken for now: the readings come back (waiting.py, loaded for it)
            from firmware.games.cargocube.waiting import reopen
            self.tracker = t = reopen(self, doubt, _engine)
        else:
            self.tracker = t = self.new_tracker(pos, rank=_engine)
        # (a power cut before the pieces were put back must not read the move again)
        t.undone = undone
        t.barred = barred
        self.emit("cargocube resumed ply=%d" % pos.ply())
        self._tell_over()
        self._rebuild()

    def on_change(self, occ, now_ms):
        self.now = now_ms
        self.hint = None
        self.tracker.observe(occ, now_ms)
        self._after(now_ms)

    def on_button(self, bit, now_ms):
        self.now = now_ms
        t = self.tracker
        if bit == H.CONFIRM and self.confirm_at >= 0 and self._confirm_shown() \
                and H.ticks_diff(now_ms, self.confirm_at) < CONFIRM_REPEAT_MS:
            return  # the same press as the one that showed it
        self.confirm_at = -1
        if bit == H.CONFIRM:
            t.press_confirm()
            if self._confirm_shown():
                self.confirm_at = now_ms
        elif bit == H.NEXT:
            t.press_next()
        elif bit == H.UNDO:
            if self.end_by >= 0:  # a take-back (or backing out of a question) is no end
                self.end_by = -1
                self.emit("end-dropped")
            t.press_undo()
        elif bit == H.END:
            t.press_end()
            if t.state != T.IDLE and t.state != T.OVER and not _ended(t.log):
                # not at rest (the piece still in the hand, ...): the end waits for it
                if self.end_by < 0:
                    self.emit("end-waits")
                self.end_by = self.pos.to_move
        elif bit == H.HINT:
            self.hint = _engine(self.pos)
            self.hint_until = (now_ms + HINT_MS) & H.TICKS_MASK
        if t.offered:
            t.offered_since = now_ms  # a missed move shown: taken once it stands OFFER_TAKE_MS
        self._after(now_ms)


    def _confirm_shown(self):
        """Whether what a `confirm` showed is still shown: a missed move (revision B also the
        move it had taken, plugin_revb)."""
        t = self.tracker
        return t.offered and t.state == T.ASKING
    def tick(self, now_ms):
        self.now = now_ms
        t = self.tracker
        if t.settling:
            t.tick(now_ms)
            if not t.settling:
                self._after(now_ms)
                return
        elif t.offered and t.state == T.ASKING:
            if t.tick_offered(now_ms):  # the missed move shown stood long enough: taken
                self._after(now_ms)
                return
        changed = False
        if self.hint is not None and H.ticks_diff(now_ms, self.hint_until) >= 0:
            self.hint = None
            changed = True
        if self.tracker.state == T.MISMATCH and self.mismatch_since >= 0:
            if (H.ticks_diff(now_ms, self.mismatch_since) >= MISMATCH_MS
                    and self._shown_state != T.MISMATCH):
                changed = True
        if changed:
            self._rebuild()

    def paint(self, painter, frame_no):
        painter.cells(self.overlay)
        pos = self.pos
        sc = pos._score
        if len(pos.seats) == 8:
            # Two seats share a side's bar: seat 1 (S, east half) the LEDs toward its half, ...
            # each its half, so that the place on the board, not the colour, tells them apart.
            if self.tracker.state != T.OVER:
                painter.turn(pos.to_move >> 1, _BAR_HALF[pos.to_move & 1])
            for s in pos.seats:
                painter.score(s >> 1, sc[s], pos.max_score, 0, _BAR_HALF[s & 1])
            return
        if self.tracker.state != T.OVER:
            painter.turn(pos.to_move)  # first: the mover's score bar is drawn over its glow
        for s in pos.seats:
            painter.score(s, sc[s], pos.max_score)

    def scores(self):
        return self.pos.scores()

    def command(self, words):
        cmd = words[0].lower()
        t = self.tracker
        if cmd == "pos":
            return "ok " + self.pos.notation()
        if cmd == "state":
            return "ok state=%s diff=%s actions=%d" % (
                T.STATE_NAMES[t.state], ",".join([g.cell_name(c) for c in t.diff]) or "-",
                self.pos.ply())
        if cmd == "candidates":
            return self._candidate_lines(len(words) > 1 and words[1] == "full")
        if cmd == "history":  # [FROM [COUNT]]: a host pages a long game (a reply is <= 1 KB)
            lo, hi = H.word_range(words, self.pos.ply())
            return "ok " + " ".join([cc.format_action(a) for a in self.pos.history()[lo:hi]])
        if cmd == "legal":
            return "ok " + " ".join([cc.format_action(a) for a in self.pos.legal_actions()])
        if cmd == "hint":
            a = _engine(self.pos)
            return "ok " + (cc.format_action(a) if a is not None else "-")
        return None

    def _candidate_lines(self, full):
        """Reply lines `cand I ACTION` (with `full`: `cand I ACTION POSITION-AFTER`), then
        `ok N shown=I fit=F state=STATE` (the first F candidates fit what the sensors saw; the
        rest are other moves the board may have missed). Made one line at a time: a position
        is a few hundred bytes and the board keeps only one in memory."""
        t = self.tracker
        cands = list(t.candidates)
        # (with wait=K the board may ask about a move before its latest ones, asking_at: the
        # candidates are moves of the position then)
        at = getattr(t, "asking_at", -1) if t.state == T.ASKING else -1
        pos = self.pos
        for i in range(len(cands)):
            a = cands[i]
            if full:
                later = [pos.pop() for _ in range(pos.ply() - at)] if at >= 0 else ()
                pos.push(a)
                try:  # (a MemoryError must not leave it pushed)
                    after = pos.notation()
                finally:
                    pos.pop()
                    for b in reversed(later):
                        pos.push(b)
                yield "cand %d %s %s" % (i, cc.format_action(a), after)
            else:
                yield "cand %d %s" % (i, cc.format_action(a))
        yield "ok %d shown=%d fit=%d state=%s%s" % (len(cands), t.index, t.fitting,
                                                    T.STATE_NAMES[t.state],
                                                    " at=%d" % at if at >= 0 else "")

    # -- internals ------------------------------------------------------------------------------

    def _end_at_rest(self):
        """The end that waits (end_by), once the board is at rest: the turn ends if it is still
        that seat's and has actions left (the move under way was taken, or the piece went
        back where it came from: no move), else the end is let go and said so. An end the
        tracker took itself (a question it waited for, answered) is done."""
        t = self.tracker
        if _ended(t.log):
            self.end_by = -1
        elif t.state == T.IDLE or t.state == T.OVER:
            by = self.end_by
            self.end_by = -1
            if not (t.state == T.IDLE and by == self.pos.to_move and t.press_end()):
                self.emit("end-dropped")

    def _after(self, now_ms):
        t = self.tracker
        if self.end_by >= 0:
            self._end_at_rest()
        for how, a, after in t.take_log():
            if how == "doubt":
                self.record_doubt(a)  # (a: the record's payload; the host is told nothing)
                continue
            self.emit("%s %s -> %s" % (how, cc.format_action(a), after))
            if how == "undo":
                self.record_undo()
            else:
                self.record(cc.encode_action(a))
        if t.state == T.MISMATCH:
            if self.mismatch_since < 0:
                self.mismatch_since = now_ms
        else:
            self.mismatch_since = -1
        self._tell_over()
        self._rebuild()

    def _tell_over(self):
        """The game's end told to a host and the log, once (_after runs on every change and
        press; start and resume too, for a game set up or resumed at its end)."""
        if self.tracker.state == T.OVER:
            if not self._over_told:
                self._over_told = True
                w = "".join([self.pos.SEAT_LETTERS[s] for s in self.pos.winners()])
                self.emit("over winners=%s scores=%s" % (w, ",".join([str(x) for x in self.pos.scores()])))
                self.record_over()
        else:
            self._over_told = False  # a take-back reopens the game

    def _rebuild(self):
        """Prepare the overlay for the current state (not per frame)."""
        t = self.tracker
        pos = self.pos
        out = self.overlay
        out.clear()
        state = t.state
        if (state == T.MISMATCH and self.mismatch_since >= 0
                and H.ticks_diff(self.now, self.mismatch_since) < MISMATCH_MS):
            state = T.MOVING  # not yet: a hand may still be on its way
        if state != self._shown_state:
            # what the LEDs now show, for a host following the game (docs/serial-protocol.md)
            self.emit("state " + T.STATE_NAMES[state])
        self._shown_state = state
        if state == T.OVER:
            for s in pos.winners():
                for c in pos.terminal_cells(s):
                    out.add(c, _seat_colour(pos, s), 255, L.BLINK_SLOW)
        elif t.undone and t.barred and state in (T.MOVING, T.MISMATCH):
            # Taken back: put the piece back where it came from (slow blink), from where it
            # went (wink); other differing cells as mistakes.
            a = t.undone[-1]
            for c in t.diff:
                if c == a[1]:
                    out.add(c, L.CYAN, 255, L.BLINK_SLOW)
                elif c == a[3]:
                    out.add(c, L.CYAN, 255, L.BLINK_WINK)
                else:
                    out.add(c, L.RED, 255, L.BLINK_FAST)
        elif state == T.MISMATCH:
            for c in t.diff:
                out.add(c, L.RED, 255, L.BLINK_FAST)
        elif state == T.ASKING:
            # The candidate shown, and dimly the other moves that fit what the sensors saw (not
            # the long tail of moves the board may have missed: `next` reaches those one by one).
            shown = t.candidates[t.index]
            for i in range(t.fitting):
                a = t.candidates[i]
                if a is not shown and a[0] != cc.END:
                    out.add(_led_dst(a), L.YELLOW, 60, 0)
            if shown[0] != cc.END:
                out.add(shown[1], L.CYAN, 255, L.BLINK_SLOW)
                out.add(_led_dst(shown), L.YELLOW, 255, L.BLINK_FAST)
        elif state == T.MOVING:
            # Where the piece may go; during activation each destination in the colour of the
            # value that activation gives.
            done = []
            for a in t.moves:
                if a[0] == cc.ACTIVATE and a[3] not in done:
                    v = orient.VALUE[a[4]]
                    out.add(a[3], VALUE_COLOUR[v], VALUE_LEVEL[v], 0)
                    done.append(a[3])
            for c in t.targets:
                if c not in done:
                    out.add(c, L.YELLOW, 200, 0)
            for c in t.diff:
                if c not in t.targets:
                    out.add(c, L.ORANGE, 120, L.BLINK_WINK)  # where the piece came from
        else:
            last = t.undone[-1] if t.undone else None
            if self._idle_for == t.position_id and self._idle_undone == last and out.kept:
                out.show_kept()
            else:
                out.forget()
                self._idle_overlay(out)
                out.keep()
                self._idle_for = t.position_id
                self._idle_undone = last
        if self.end_by >= 0:
            # an `end` waits for the board to come to rest: the corners blink fast
            colour = _seat_colour(pos, pos.to_move)
            for c in (0, 10, 110, 120):
                out.add(c, colour, 255, L.BLINK_FAST)
        if self.hint is not None and state in (T.IDLE, T.MOVING):
            a = self.hint
            if a[0] != cc.END:
                out.add(a[1], L.YELLOW, 255, L.BLINK_WINK)
                out.add(_led_dst(a), L.YELLOW, 255, L.BLINK_FAST)
        # Scores, the seat to move and the over state change only with commits/undos, which
        # all come through _after() and so through here: one version covers all of paint().
        self.paint_version += 1

    def _idle_overlay(self, out):
        t = self.tracker
        pos = self.pos
        mover = pos.to_move
        colour = _seat_colour(pos, mover)
        if pos.actions_left == 0:
            # Activation candidates, each in the colour of the best value it can give.
            best = {}
            for a in t.legal():
                v = orient.VALUE[a[4]]
                if v > best.get(a[1], 0):
                    best[a[1]] = v
            for c in best:
                v = best[c]
                out.add(c, VALUE_COLOUR[v], VALUE_LEVEL[v], L.BLINK_WINK)
        else:
            seen = pos.boost_sources()
            for a in t.legal():
                if a[0] != cc.END and a[1] not in seen:
                    seen.append(a[1])
            for c in seen:
                out.add(c, colour, 60, 0)
        if t.undone:
            # What a take-back asks the player to put back, when the sensors cannot show it:
            # after the pieces that may act, as the piece taken back is one of them and a later
            # entry wins (drawn first, its cell showed the dim seat colour, not the cyan blink)
            a = t.undone[-1]
            if a[0] != cc.END:
                out.add(a[1], L.CYAN, 255, L.BLINK_SLOW)
                out.add(a[3], L.CYAN, 255, L.BLINK_WINK)
        # Corners: whose turn, and the actions left (1-4 corners lit; activation: all blink).
        corners = (0, 10, 110, 120)
        for i in range(4):
            if pos.actions_left == 0:
                out.add(corners[i], colour, 255, L.BLINK_SLOW)
            elif i < pos.actions_left:
                out.add(corners[i], colour, 255, 0)


# With 8 players, the part of a side's score bar (docs/board-cargocube.md) by seat & 1: the
# side's first seat has the half toward the bar's end (LEDs 5-8), the second LEDs 0-3.
_BAR_HALF = (2, 1)


def _ended(log):
    """Whether the tracker's log (not yet taken) holds an end of the turn."""
    for e in log:
        if e[0] == "end":
            return True
    return False


def _seat_colour(pos, seat):
    """A seat's colour; with 8 players both seats of a side have the side's colour (their
    place tells them apart: their half of the bar and of the terminal)."""
    return L.SEAT_COLOUR[seat >> 1 if len(pos.seats) == 8 else seat]


def _led_dst(a):
    """The cell that shows where action a goes: its destination; for a spiral turn the
    neighbour the north face turns to (east clockwise, west anticlockwise), so that the two
    turns differ by place, not colour."""
    if a[0] == cc.TURN:
        return g.NEIGHBOUR[a[1] * 4 + (g.DIR_E if a[2] == 0 else g.DIR_W)]
    return a[3]

