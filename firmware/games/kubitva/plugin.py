# КУБитва on the board: the game plug-in (interface in docs/firmware.md; what the board shows
# and why in docs/board-kubitva.md).
#
# The board edition (docs/rules/kubitva.md section 11) is played on the whole 11x11 grid: the
# rules core's cell c is the board's cell c. The rules come from shared_rules.kubitva.rules, the
# inference from firmware.games.kubitva.tracker; this module turns the tracker's state into LED
# overlays, answers the game's serial commands and reports actions to the game log. The overlay
# is rebuilt only when something changes, into a preallocated painter Overlay (the land border
# kept in it while the position stays); paint() draws it in one painter.cells() call. The
# engine (the hint) is imported when a hint is asked for and dropped after.

from shared_rules.kubitva import rules as kb
from firmware.games.kubitva import tracker as T
from firmware.drivers import leds as L
from firmware import hal as H
from firmware.system import logwrite as LW
from firmware.hal import const, unload

# The parser of the notation (11 KB of the Pico's heap) is needed only to read a position: it is
# dropped once the game's position is read (a later `load` imports it again).
PARSER = "shared_rules.kubitva.text"

HINT_MS = 4000  # how long a hint stays lit
MISMATCH_MS = 500  # a difference must last this long before it lights red (hands are slow)

SIDE_COLOUR = (L.BLUE, L.WHITE)  # S's units and land, N's
MONEY_BAR = (0, 2)  # S's treasury on the S bar, N's on the N bar (the seats of the painter)
ITEM_BAR = 1  # W bar: what the reading shown buys or fills (one LED per step of the code)
POINTS_BAR = 3  # E bar: the move points of the unit in the hand or the active unit
MONEY_MAX = 40  # the bar is full at 40 (two super rockets), a strike rocket is 2.25 LEDs
LAND_LEVEL = 12
UNIT_LEVEL = 90
_SETUP_DIM = const(64)  # the set-up assist's dim kinds (a building cube or waste, a filler)

# What the W bar shows for a purchase (b a w s k K x) or a fill (i p m r): that many LEDs.
ITEM_CODES = "bawskKx"
FILL_CODES = "ipmr"


def _nothing(*args):
    pass


def item_code(a):
    """How many W-bar LEDs name the action's item (0: none)."""
    t = kb.item_letter(a)
    if not t:
        return 0
    if t in FILL_CODES and (a & 255) < kb.BUY:
        return FILL_CODES.index(t) + 1
    return ITEM_CODES.index(t) + 1


class Game:
    # the options of `new` (firmware/system/newgame.py refuses others)
    OPTIONS = ("layout", "seats", "position")

    name = "kubitva"
    rules_version = kb.RULES_VERSION  # in the log's header; a log of another one is not resumed

    def __init__(self, options):
        self.emit = options.get("emit") or _nothing
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_over = options.get("record_over") or _nothing
        seats = options.get("seats")
        if seats and seats.upper() != "SN":
            raise ValueError("seats %s: KUBitva is played by S (moves first) and N" % seats)
        start = options.get("position")
        layout = options.get("layout") or options.get("variant")
        try:
            if start is not None:  # an empty position= is a bad position, not a new game
                try:
                    pos = kb.Position.parse(start)
                except kb.RulesError as e:
                    raise ValueError("bad position: %s" % (e,))
                self.variant = options.get("variant") or "position"
            else:
                layout = layout or "board"
                pos = kb.named_position(layout)
                if pos is None:
                    raise ValueError("layout %s: KUBitva's board edition is 'board'" % layout)
                self.variant = layout
        finally:
            unload(PARSER)
        if pos.rows != 11 or pos.cols != 11:
            raise ValueError("the board holds an 11x11 grid, this game is %dx%d"
                             % (pos.cols, pos.rows))
        # (cell, colour, level, blink) lit besides the bars. Room for two entries a cell: the
        # land border (kept, made once per position) and a lifted unit's reach are both empty
        # cells, and a later entry for a cell wins.
        self.overlay = L.Overlay(2 * H.N_CELLS + 8)
        self.bars = [0, 0]  # W bar item code, E bar points (-1: none)
        self.hint = None
        self.hint_until = 0
        self.mismatch_since = -1
        self.now = 0
        self.paint_version = 0
        self._version = 0  # counts the commits and take-backs (the land overlay's key)
        self._land_key = None  # what the kept land border in the overlay was made for
        self._units = []  # the cells of the units that may move, made with the land border
        self._seen = bytearray(kb.NONE + 1)  # a lift's reach: the cells met (NONE: always)
        self._seen[kb.NONE] = 1
        self._set(pos)

    def _set(self, pos):
        self.pos = pos
        self._land_key = None
        self.tracker = T.Tracker(pos)
        self.hint = None
        self.mismatch_since = -1
        self._shown_state = -1
        self._over_told = False
        self._end_told = False
        self._rebuild()

    # -- plug-in interface ------------------------------------------------------------------------

    def setup_mask(self):
        m = bytearray(H.BITMAP_BYTES)
        T.occupancy(self.pos, m)
        return m

    def setup_colour(self, c):
        """How the set-up assist lights a cell still to be filled: what goes there, told by its
        colour and also by its blink pattern or level, not by hue alone (colour | pattern << 4
        | level << 8, docs/firmware.md; a bare colour: full level, slow blink). A unit slow,
        full (the side's colour); a building cube or waste slow, dim; armour wink, full; the
        base cube steady, full; a filler steady, dim. Clearing a cell is magenta, fast."""
        v = self.pos.cells[c]
        if v >= kb.WORKER:
            return SIDE_COLOUR[v & 1]
        if v == kb.ARMOUR:
            return L.CYAN | L.BLINK_WINK << 4 | 255 << 8
        if v == kb.BASE:
            return L.YELLOW | 255 << 8
        if v >= kb.INCOME:
            return L.GREEN | _SETUP_DIM << 8
        return L.ORANGE | L.BLINK_SLOW << 4 | _SETUP_DIM << 8

    def start(self):
        self.emit("kubitva start %s ply=%d" % (self.variant, self.pos.ply()))
        self._tell_over()
        self._rebuild()

    def load(self, text):
        try:
            pos = kb.Position.parse(text)
        except kb.RulesError as e:
            raise ValueError("bad position: %s" % (e,))
        finally:
            unload(PARSER)
        if pos.rows != 11 or pos.cols != 11:
            raise ValueError("the board holds an 11x11 grid")
        self.variant = "position"
        self._set(pos)

    def log_header(self):
        return (self.variant, "SN", self.pos.notation(), self.rules_version)

    def resume(self, records):
        pos = self.pos
        undone = False  # the last record takes an action back: the board may still show it
        for kind, payload in records:
            if kind == LW.ACTION:
                pos.push(kb.decode_action(pos, payload, 0)[0])
                undone = False
            elif kind == LW.UNDO:
                pos.pop()
                undone = True
        self._set(pos)
        if undone and self.tracker.state != T.OVER:
            # As after the take-back itself: nothing is read until the board shows the position
            # (a power cut before the pieces were put back must not read the action again).
            self.tracker.state = T.FIX
            self._rebuild()
        self.emit("kubitva resumed ply=%d" % pos.ply())
        self._tell_over()

    def on_change(self, occ, now_ms):
        self.now = now_ms
        self.hint = None
        self.tracker.observe(occ, now_ms)
        self._after(now_ms)

    def on_button(self, bit, now_ms):
        self.now = now_ms
        t = self.tracker
        if bit == H.CONFIRM:
            t.press_confirm()
        elif bit == H.NEXT:
            t.press_next()
        elif bit == H.UNDO:
            t.press_undo()
        elif bit == H.END:
            t.press_end()
        elif bit == H.HINT:
            self.hint = self._hint()
            self.hint_until = (now_ms + HINT_MS) & H.TICKS_MASK
        self._after(now_ms)

    def tick(self, now_ms):
        self.now = now_ms
        t = self.tracker
        if t.settling:
            t.tick(now_ms)
            if not t.settling or t.log:
                self._after(now_ms)
                return
        changed = False
        if self.hint is not None and H.ticks_diff(now_ms, self.hint_until) >= 0:
            self.hint = None
            changed = True
        if t.state == T.MISMATCH and self.mismatch_since >= 0 and \
                self._shown_state != T.MISMATCH and \
                H.ticks_diff(now_ms, self.mismatch_since) >= MISMATCH_MS:
            changed = True
        if changed:
            self._rebuild()

    def paint(self, painter, frame_no):
        painter.cells(self.overlay)
        pos = self.pos
        if self.tracker.state != T.OVER:
            painter.turn(MONEY_BAR[pos.to_move])
        for s in (0, 1):
            painter.score(MONEY_BAR[s], pos.treasury[s], MONEY_MAX, SIDE_COLOUR[s])
        code, points = self.bars
        if code:
            base = H.SCORE_BASE + ITEM_BAR * H.SCORE_LEN
            for k in range(code):
                painter.led(base + k, L.YELLOW)
        if points >= 0:
            painter.score(POINTS_BAR, points, kb.MOVE_POINTS, SIDE_COLOUR[pos.to_move])

    def scores(self):
        sc = self.pos.scores()
        return [sc[0], 0, sc[1], 0]  # by seat S W N E: land cells of S and N

    def command(self, words):
        cmd = words[0].lower()
        t = self.tracker
        pos = self.pos
        if cmd == "pos":
            return "ok " + pos.notation()
        if cmd == "state":
            names = [pos.cell_name(c) for c in t.minus + t.plus]
            return "ok state=%s diff=%s actions=%d" % (T.STATE_NAMES[t.state],
                                                      ",".join(names) or "-", pos.ply())
        if cmd == "candidates":
            return self._candidate_lines()
        if cmd == "history":  # [FROM [COUNT]], as Cargocube's (a reply is <= 1 KB)
            lo, hi = H.word_range(words, pos.ply())
            return "ok " + " ".join([pos.format_action(a) for a in pos.history()[lo:hi]])
        if cmd == "legal":
            return "ok " + " ".join([pos.format_action(a) for a in pos.legal_actions()])
        if cmd == "hint":
            a = self._hint()
            return "ok " + (pos.format_action(a) if a is not None else "-")
        return None

    def _hint(self):
        """The engine's choice; the engine is loaded for it and dropped after (a hint is rare
        and the engine's bytecode would stay in the heap)."""
        from shared_rules.kubitva import engine
        try:
            return engine.best_action(self.pos)
        finally:
            name = engine.__name__
            engine = None
            unload(name)

    def _candidate_lines(self):
        """`cand I ACTIONS POSITION-AFTER` for each reading offered (READY: the one the board
        would take on `confirm`; ASKING: those it asks about), then `ok N shown=I state=S`;
        `candidates full` answers the same."""
        t = self.tracker
        pos = self.pos
        cands = list(t.candidates) if t.state in (T.READY, T.ASKING) else []
        for i in range(len(cands)):
            seq = cands[i]
            words = []
            if seq[0] < 0:
                words.append("undo%d" % -seq[0])
                seq = seq[1:]
            for j in range(len(seq)):
                words.append(pos.format_action(seq[j]))
            # One word (the actions joined by commas), then the position after it: a reading
            # of several actions is no single action a reader could replay.
            yield "cand %d %s %s" % (i, ",".join(words), T.outcome(pos, cands[i])[1])
        yield "ok %d shown=%d state=%s" % (len(cands), t.index, T.STATE_NAMES[t.state])

    # -- internals ------------------------------------------------------------------------------

    def _after(self, now_ms):
        t = self.tracker
        pos = self.pos
        ended = t.end_at_rest()
        for how, a, after in t.take_log():
            self._version += 1
            self.emit("%s %s -> %s" % (how, pos.format_action(a), after))
            if how == "undo":
                self.record_undo()
            else:
                self.record(kb.encode_action(a))
        if t.state == T.MISMATCH:
            if self.mismatch_since < 0:
                self.mismatch_since = now_ms
        else:
            self.mismatch_since = -1
        self._tell_over()
        waits = t.end_by >= 0
        if waits != self._end_told:
            # an `end` the board keeps until it is at rest, and one it let go untaken (the
            # W bar shows it while it waits)
            self._end_told = waits
            if waits or not ended:
                self.emit("end-waits" if waits else "end-dropped")
        self._rebuild()

    def _tell_over(self):
        """The game's end told to a host and the log, once (_after runs on every change and
        press; start and resume too, for a game set up or resumed at its end)."""
        pos = self.pos
        if self.tracker.state == T.OVER:
            if not self._over_told:
                self._over_told = True
                w = "".join([kb.SEAT_LETTERS[s] for s in pos.winners()])
                sc = pos.scores()
                self.emit("over winners=%s scores=%d,%d" % (w, sc[0], sc[1]))
                self.record_over()
        else:
            self._over_told = False

    def _rebuild(self):
        """Prepare the overlay and the bars for the current state (not per frame)."""
        t = self.tracker
        pos = self.pos
        out = self.overlay
        self.bars = [0, -1]
        state = t.state
        if state == T.MISMATCH and (self.mismatch_since < 0 or
                                    H.ticks_diff(self.now, self.mismatch_since) < MISMATCH_MS):
            state = T.MOVING
        if state != self._shown_state and T.MISMATCH in (state, self._shown_state):
            # a mistake shown or put right, for a host following the game: it then asks
            # `state` for the cells (not every change: at `ready`, which every move passes
            # through, a host would ask for the `candidates`)
            self.emit("state " + T.STATE_NAMES[state])
        self._shown_state = state
        self._land(out)
        mover = SIDE_COLOUR[pos.to_move]
        if state == T.OVER:
            for s in pos.winners():
                for c in range(pos.n):
                    if pos.terr[c] & 1 == s and not pos.cells[c]:
                        out.add(c, SIDE_COLOUR[s], 200, L.BLINK_SLOW)
        elif state == T.FIX:
            for c in t.minus:
                out.add(c, L.WHITE, 255, L.BLINK_SLOW)
            for c in t.plus:
                out.add(c, L.MAGENTA, 255, L.BLINK_FAST)
        elif state == T.MISMATCH:
            for c in t.culprits():
                out.add(c, L.RED, 255, L.BLINK_FAST)
        elif state in (T.READY, T.ASKING):
            shown = t.shown()
            for i in range(len(t.candidates)):
                last = t.candidates[i][-1]
                if i != t.index and last != kb.END and last >= 0:
                    out.add(pos.action_cell(last), L.YELLOW, 60, 0)
            self._reading(out, shown, L.YELLOW, L.BLINK_FAST)
        elif state == T.MOVING:
            for c in t.minus:
                out.add(c, L.ORANGE, 160, L.BLINK_WINK)
            if t.unit >= 0:
                self._reach(out, t.unit)
                self.bars[1] = pos.points[t.unit]
            if t.cube >= 0:
                for c in t.cube_reach(t.cube):
                    out.add(c, L.CYAN, 255, L.BLINK_SLOW)
            for c in t.plus:
                out.add(c, mover, 255, 0)
        else:
            for c in self._units:
                out.add(c, mover, 255 if c == pos.active else UNIT_LEVEL,
                        L.BLINK_WINK if c == pos.active else 0)
        if t.end_by >= 0 and not self.bars[0]:
            self.bars[0] = 9  # an `end` waits for the board to come to rest: `end`'s code
        if pos.active >= 0 and self.bars[1] < 0:
            self.bars[1] = pos.points[pos.active]
        for c in t.swap:
            out.add(c, L.CYAN, 255, L.BLINK_FAST)
        if self.hint is not None and state in (T.IDLE, T.MOVING):
            self._reading(out, (self.hint,), L.YELLOW, L.BLINK_WINK)
        self.paint_version += 1

    def _land(self, out):
        """The border: the empty cells next to the other side's land glow dimly in their side's
        colour (winking where captured this turn). Made once per position and kept at the front
        of the overlay (Overlay.keep); only the border, so that a render stays short. The units
        of the side to move that may still move (the idle overlay's) are found with it."""
        key = (self.pos.ply(), self._version)
        if self._land_key == key:
            out.show_kept()
            return
        out.forget()
        pos = self.pos
        terr = pos.terr
        cells = pos.cells
        nb = pos.nb
        for c in range(pos.n):
            if cells[c]:
                continue
            t = terr[c]
            edge = t & kb.FRESH
            for d in range(4):
                u = nb[c * 4 + d]
                if u != kb.NONE and (terr[u] ^ t) & 1:
                    edge = 1
            if edge:
                out.add(c, SIDE_COLOUR[t & 1], LAND_LEVEL * (3 if t & kb.FRESH else 1),
                        L.BLINK_WINK if t & kb.FRESH else 0)
        out.keep()
        units = []
        side = pos.to_move
        points = pos.points
        for c in range(pos.n):
            if cells[c] >= kb.WORKER and cells[c] & 1 == side and points[c]:
                units.append(c)
        self._units = units
        self._land_key = key

    def _reach(self, out, u):
        """Light the cells the unit on u may walk to this turn by plain steps (Position.walk's
        cells): a breadth-first search whose queue is the overlay's own entries, ring by ring
        up to the unit's points. A lift's frame: no list, no add() per cell (on the Pico the
        walk, then an add() a cell, cost 3 + 2.7 ms of a lift with 36 cells in reach)."""
        pos = self.pos
        cells = pos.cells
        terr = pos.terr
        nb = pos.nb
        seen = self._seen
        seen[:pos.n] = cells  # an occupied cell is no step
        seen[u] = 1
        v = cells[u]
        side = 2 if v & 2 else v & 1  # a worker keeps to its side's land; 2: a soldier
        limit = pos.points[u]
        b = out.buf
        last = len(b) - 4
        w = out.n * 4  # where the next cell is written
        q = w  # the next cell to take its steps from
        ring_end = w
        depth = 0
        yellow = L.YELLOW
        x = u
        while depth < limit:
            for i in range(x * 4, x * 4 + 4):
                t = nb[i]
                if seen[t] or (side < 2 and terr[t] & 1 != side):
                    continue
                seen[t] = 1
                if w <= last:
                    b[w] = t
                    b[w + 1] = yellow
                    b[w + 2] = 140
                    b[w + 3] = 0
                    w += 4
            if q == ring_end:  # the ring is done: the cells one step further
                depth += 1
                ring_end = w
            if q >= w:
                break
            x = b[q]
            q += 4
        out.n = w >> 2

    def _reading(self, out, seq, colour, blink):
        """A reading (a tuple of actions): a unit's way and where it and its cube end; a fill's
        rooms; a purchase's front cell and its item on the W bar; a rocket's flight and
        target."""
        pos = self.pos
        if seq and seq[0] < 0:
            seq = seq[1:]  # an amendment: the unit's move read again with its cube
        if not seq:
            return
        a = seq[-1]
        if a == kb.END:
            self.bars[0] = 9
            return
        code = a & 255
        nb = pos.nb
        if code < kb.KILL:
            c = seq[0] >> 8
            for s in seq[:-1]:
                out.add(nb[(s >> 8) * 4 + (s & 255) // 5], colour, 90, 0)
            last = nb[(a >> 8) * 4 + code // 5]
            out.add(c, L.ORANGE, 160, L.BLINK_WINK)
            out.add(last, colour, 255, blink)
            self.bars[1] = pos.points[c] - len(seq)
            for s in seq:
                cube = pos.moved_cube(s) if s == seq[0] else None
                if cube is not None:
                    out.add(cube[0], L.CYAN, 160, L.BLINK_WINK)
            return
        if code < kb.FILL:
            out.add(pos.action_cell(a), L.MAGENTA, 255, blink)
            return
        self.bars[0] = item_code(a)
        d = code & 3
        o = nb[(a >> 8) * 4 + d]
        if code < kb.BUY:
            for r in pos.rooms_of(a >> 8, o):
                out.add(r, colour, 255, blink)
            return
        t = pos.rocket_target(a)
        if t >= 0:
            c = o
            while c != t:
                out.add(c, colour, 90, 0)
                c = nb[c * 4 + d]
            out.add(t, L.MAGENTA, 255, L.BLINK_FAST)
            return
        out.add(pos.action_cell(a), colour, 255, blink)
