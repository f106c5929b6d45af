# Cephalopod on the board: the game plug-in (interface in docs/firmware.md; what the board
# shows and why in docs/board-cephalopod.md).
#
# The game is played on a block of cells in the middle of the 11x11 grid, centred on f6:
# 5x5 on d4..h8 (a1 of the game is the board's d4), 3x5 on d5..h7, 5x3 on e4..g8, 3x3 on e5..g7.
# The other cells are out of play: their sensors are not read (dice put aside there do not
# count) and their LEDs stay dark. The rules come from shared_rules.cephalopod.rules, the inference
# from firmware.games.cephalopod.tracker; this module turns the tracker's state into LED overlays,
# answers the game's serial commands and reports actions to the game log. The overlay is rebuilt
# only when something changes; paint() per render is a short loop over a prepared list.

from shared_rules.cephalopod import rules as ce
from firmware.games.cephalopod import tracker as T
from firmware.drivers import leds as L
from firmware import hal as H
from firmware.system import logwrite as LW
from firmware.hal import unload

HINT_MS = 4000  # how long a hint stays lit
MISMATCH_MS = 500  # a difference must last this long before it lights red (hands are slow)
HINT_DEPTH = 1  # the engine's depth for the hint: depth 1 answers at once on the board

DIE_COLOUR = (L.WHITE, L.BLUE)  # white's dice and turn, black's
COUNT_BAR = (0, 2)  # white's cell count on the S bar (white sits south), black's on the N bar
PIPS_BARS = (1, 3)  # the W and E bars show the pips the new die must show

PLAIN_LEVEL = 48  # an empty cell where the die shows 1: dim
MOVE_LEVEL = 255

SIZES = ("5x5", "3x5", "5x3", "3x3")


def _hint(pos):
    """The engine's action (shared_rules/cephalopod/engine.py), loaded for the hint and dropped
    after: most games never ask for one (docs/firmware.md "Loading on demand")."""
    from shared_rules.cephalopod import engine
    try:
        return engine.best_action(pos, HINT_DEPTH)
    finally:
        name = engine.__name__
        engine = None
        unload(name)


def _nothing(*args):
    pass


def block_cells(rows, cols):
    """The board cell under each cell of the game (index = the rules core's cell): the block is
    centred on the board's f6."""
    x0 = 5 - cols // 2
    y0 = 5 - rows // 2
    out = bytearray(rows * cols)
    for c in range(rows * cols):
        out[c] = (y0 + c // cols) * 11 + x0 + c % cols
    return bytes(out)


class Game:
    # the options of `new` (firmware/system/newgame.py refuses others)
    OPTIONS = ("layout", "seats", "position")

    name = "cephalopod"
    rules_version = ce.RULES_VERSION  # in the log's header; a log of another one is not resumed

    def __init__(self, options):
        self.emit = options.get("emit") or _nothing
        # The app's game log (docs/firmware.md): every committed action, take-back and the end.
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_over = options.get("record_over") or _nothing
        seats = options.get("seats")
        if seats and seats.lower() != "wb":
            raise ValueError("seats %s: Cephalopod is played by w (white, moves first) and b"
                             % seats)
        layout = options.get("layout") or options.get("variant")
        start = options.get("position")
        if start is not None:  # an empty position= is a bad position, not a new game
            try:
                pos = ce.Position.parse(start)
            except ce.RulesError as e:
                raise ValueError("bad position: %s" % (e,))
            size = "%dx%d" % (pos.rows, pos.cols)
            if options.get("layout") and options.get("layout") != size:
                raise ValueError("layout %s but the position is %s" % (layout, size))
            self.variant = options.get("variant") or size
        else:
            layout = layout or "5x5"
            pos = ce.named_position(layout) if layout in SIZES else None
            if pos is None:
                raise ValueError("layout %s: Cephalopod is played on %s" % (layout,
                                                                             ", ".join(SIZES)))
            self.variant = layout
        # (cell, colour, level, blink) lit besides the bars: a few entries a cell at most
        self.overlay = L.Overlay(3 * 25 + 8)
        self.pips = 0  # the pips shown on the W/E bars (0: none)
        self.pips_colour = 0
        self.hint = None
        self.hint_until = 0
        self.mismatch_since = -1
        self.now = 0
        self.paint_version = 0  # bumped whenever what paint() draws changes (docs/firmware.md)
        self._set(pos)

    def _set(self, pos):
        self.pos = pos
        self.block = block_cells(pos.rows, pos.cols)
        self.tracker = None  # (the old one's legal actions need not share the heap)
        self.tracker = T.Tracker(pos)
        self.hint = None
        self.mismatch_since = -1
        self._shown_state = -1
        self._over_told = False
        n = pos.rows * pos.cols
        self.max_count = 9 if n <= 9 else 36  # one LED a cell on 3x3, else a quarter LED a cell
        self._rebuild()

    # -- plug-in interface ------------------------------------------------------------------------

    def setup_mask(self):
        """The start position's dice (none for a new game): the app waits until the board reads
        exactly that, the cells out of play empty too."""
        m = bytearray(H.BITMAP_BYTES)
        cells = self.pos.cells
        block = self.block
        for c in range(len(cells)):
            if cells[c]:
                b = block[c]
                m[b >> 3] |= 1 << (b & 7)
        return m

    def start(self):
        self.emit("cephalopod start %s a1=%s ply=%d" % (self.variant, H.cell_name(self.block[0]),
                                                         self.pos.ply()))
        self._tell_over()
        self._rebuild()

    def load(self, text):
        """Resync (the host's LOAD): the game goes on from this position; what the sensors see
        is compared with it at the next on_change. ValueError if it does not parse."""
        try:
            pos = ce.Position.parse(text)
        except ce.RulesError as e:
            raise ValueError("bad position: %s" % (e,))
        self.variant = "%dx%d" % (pos.rows, pos.cols)
        self._set(pos)

    def log_header(self):
        """(variant, seats, start position, rules version) for the game log's header; asked
        once, before start()."""
        return (self.variant, "wb", self.pos.notation(), self.rules_version)

    def resume(self, records):
        """Go on with a logged game (instead of start()): replay its records, (kind, payload)
        as firmware.system.logformat reports them, through the rules core from the start position.
        Raises the rules' error if a record does not replay."""
        pos = self.pos
        undone = []  # taken back last, not yet played again: the board may still show them
        for kind, payload in records:
            if kind == LW.ACTION:
                pos.push(ce.decode_action(pos, payload, 0)[0])
                if undone:  # (a new list only after a take-back: no garbage per record)
                    undone = []
            elif kind == LW.UNDO:
                undone.append(pos.pop())
        self._set(pos)
        self.tracker.undone = undone
        self.tracker.barred = list(undone)
        self.emit("cephalopod resumed ply=%d" % pos.ply())
        self._tell_over()

    def on_change(self, occ, now_ms):
        self.now = now_ms
        self.hint = None
        block = self.block
        m = 0
        for c in range(len(block)):
            b = block[c]
            if occ[b >> 3] >> (b & 7) & 1:
                m |= 1 << c
        self.tracker.observe(m, now_ms)
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
        elif bit == H.HINT:
            self.hint = _hint(self.pos)
            self.hint_until = (now_ms + HINT_MS) & H.TICKS_MASK
        self._after(now_ms)

    def tick(self, now_ms):
        self.now = now_ms
        t = self.tracker
        if t.settling:
            t.tick(now_ms)
            if not t.settling:
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
            painter.turn(COUNT_BAR[pos.to_move])  # first: the count is drawn over the glow
        sc = pos.scores()
        for s in (0, 1):
            painter.score(COUNT_BAR[s], sc[s], self.max_count, DIE_COLOUR[s])
        if self.pips:
            for seat in PIPS_BARS:
                base = H.SCORE_BASE + seat * H.SCORE_LEN
                for k in range(self.pips):
                    painter.led(base + k, self.pips_colour)

    def scores(self):
        sc = self.pos.scores()
        return [sc[0], 0, sc[1], 0]  # by seat S W N E: white sits south, black north

    def command(self, words):
        cmd = words[0].lower()
        t = self.tracker
        pos = self.pos
        if cmd == "pos":
            return "ok " + pos.notation()
        if cmd == "state":
            diff = T.bit_list(t.plus | t.minus)
            # fix=: the cells the LEDs ask to put right (_rebuild): a mistake's culprits; after
            # a take-back every differing cell. A host shows these, not the whole diff
            fix = t.culprits() if t.state == T.MISMATCH and not t.undone else diff
            return "ok state=%s diff=%s actions=%d fix=%s" % (
                T.STATE_NAMES[t.state], ",".join([pos.cell_name(c) for c in diff]) or "-",
                pos.ply(), ",".join([pos.cell_name(c) for c in fix]) or "-")
        if cmd == "candidates":
            return self._candidate_lines(len(words) > 1 and words[1] == "full")
        if cmd == "history":  # [FROM [COUNT]], as Cargocube's
            lo, hi = H.word_range(words, pos.ply())
            return "ok " + " ".join([pos.format_action(a) for a in pos.history()[lo:hi]])
        if cmd == "legal":
            return "ok " + " ".join([pos.format_action(a) for a in pos.legal_actions()])
        if cmd == "hint":
            a = _hint(pos)
            return "ok " + (pos.format_action(a) if a is not None else "-")
        if cmd == "block":
            return "ok %s a1=%s %s=%s" % (self.variant, H.cell_name(self.block[0]),
                                          pos.cell_name(len(self.block) - 1),
                                          H.cell_name(self.block[-1]))
        return None

    def _candidate_lines(self, full):
        """`cand I ACTION` (with `full`: `cand I ACTION POSITION-AFTER`) for the action the board
        would commit on `confirm` (READY) or the ones it asks about, then `ok N shown=I fit=N
        state=STATE`."""
        t = self.tracker
        pos = self.pos
        if t.state == T.ASKING:
            cands = list(t.candidates)
            shown = t.index
        elif t.state == T.READY and t.ready is not None:
            cands = [t.ready]
            shown = 0
        else:
            cands = []
            shown = 0
        for i in range(len(cands)):
            a = cands[i]
            if full:
                pos.push(a)
                try:  # (a MemoryError must not leave it pushed)
                    after = pos.notation()
                finally:
                    pos.pop()
                yield "cand %d %s %s" % (i, pos.format_action(a), after)
            else:
                yield "cand %d %s" % (i, pos.format_action(a))
        yield "ok %d shown=%d fit=%d state=%s" % (len(cands), shown, len(cands),
                                                  T.STATE_NAMES[t.state])

    # -- internals ------------------------------------------------------------------------------

    def _after(self, now_ms):
        t = self.tracker
        pos = self.pos
        for how, a, after in t.take_log():
            self.emit("%s %s -> %s" % (how, pos.format_action(a), after))
            if how == "undo":
                self.record_undo()
            else:
                self.record(ce.encode_action(a))
        if t.state == T.MISMATCH:
            if self.mismatch_since < 0:
                self.mismatch_since = now_ms
        else:
            self.mismatch_since = -1
        self._tell_over()
        self._rebuild()

    def _tell_over(self):
        """The game's end told to a host and the log, once (_after runs on every change and
        press; start and resume too, for a game set up or resumed with the board full)."""
        pos = self.pos
        if self.tracker.state == T.OVER:
            if not self._over_told:
                self._over_told = True
                w = "".join([ce.SEAT_LETTERS[s] for s in pos.winners()])
                sc = pos.scores()
                self.emit("over winners=%s scores=%d,%d" % (w, sc[0], sc[1]))
                self.record_over()
        else:
            self._over_told = False  # a take-back reopens the game

    def _rebuild(self):
        """Prepare the overlay and the pips for the current state (not per frame)."""
        t = self.tracker
        pos = self.pos
        block = self.block
        out = self.overlay
        out.clear()
        self.pips = 0
        state = t.state
        if state == T.MISMATCH and (self.mismatch_since < 0 or
                                    H.ticks_diff(self.now, self.mismatch_since) < MISMATCH_MS):
            state = T.MOVING  # not yet: a hand may still be on its way
        if state != self._shown_state:
            # what the LEDs now show, for a host following the game (docs/serial-protocol.md)
            self.emit("state " + T.STATE_NAMES[state])
        self._shown_state = state
        mover = DIE_COLOUR[pos.to_move]
        if state == T.OVER:
            for s in pos.winners():
                for c in range(len(block)):
                    if pos.cells[c] and pos.colour(c) == s:
                        out.add(block[c], DIE_COLOUR[s], 255, L.BLINK_SLOW)
        elif t.undone and state in (T.MOVING, T.MISMATCH):
            # Taken back: the dice to put back (slow blink, in their colour), the die to take
            # away (magenta, fast), as the app's set-up assist shows them.
            for c in T.bit_list(t.minus):
                out.add(block[c], DIE_COLOUR[pos.colour(c)], 255, L.BLINK_SLOW)
            for c in T.bit_list(t.plus):
                out.add(block[c], L.MAGENTA, 255, L.BLINK_FAST)
        elif state == T.MISMATCH:
            bad = t.culprits()
            for c in bad:
                out.add(block[c], L.RED, 255, L.BLINK_FAST)
            self._evidence(out, mover, bad)
        elif state == T.ASKING:
            shown = t.candidates[t.index]
            for i in range(len(t.candidates)):
                a = t.candidates[i]
                if a != shown:
                    out.add(block[a >> 4], L.YELLOW, 60, 0)
            self._action(out, shown, L.YELLOW, L.BLINK_FAST, L.CYAN, L.BLINK_SLOW)
        elif state == T.READY:
            a = t.ready
            self._evidence(out, mover, ())
            self._takeable(out, t.moves)
            self._show_pips(a, mover)
        elif state == T.MOVING:
            self._evidence(out, mover, ())
            self._takeable(out, t.moves)
            if not t.plus:
                # dice taken first: where the new die may go
                seen = 0
                for a in t.moves:
                    seen |= 1 << (a >> 4)
                for c in T.bit_list(seen):
                    out.add(block[c], L.YELLOW, 200, 0)
        elif state == T.IDLE:
            self._idle(out, mover)
        if self.hint is not None and state in (T.IDLE, T.MOVING):
            self._action(out, self.hint, L.YELLOW, L.BLINK_FAST, L.YELLOW, L.BLINK_WINK)
        # The counts and the side to move change only with commits and take-backs, which all
        # come through _after() and so through here: one version covers all of paint().
        self.paint_version += 1

    def _idle(self, out, mover):
        """Where the player to move may place: dim where the die shows 1, bright and winking
        where it must capture (from the legal actions the tracker keeps)."""
        block = self.block
        last = -1
        for a in self.tracker.legal():
            c = a >> 4
            if c == last:
                continue  # the other captures on the same cell
            last = c
            if a & 15:
                out.add(block[c], mover, 255, L.BLINK_WINK)
            else:
                out.add(block[c], mover, PLAIN_LEVEL, 0)

    def _evidence(self, out, mover, skip):
        """The move so far: the new die (steady, the mover's colour), the dice taken (orange,
        wink)."""
        t = self.tracker
        block = self.block
        for c in T.bit_list(t.plus):
            if c not in skip:
                out.add(block[c], mover, MOVE_LEVEL, 0)
        for c in T.bit_list(t.minus):
            if c not in skip:
                out.add(block[c], L.ORANGE, 120, L.BLINK_WINK)

    def _takeable(self, out, moves):
        """The neighbours a capture may still take (cyan, slow blink)."""
        t = self.tracker
        more = 0
        for a in moves:
            more |= T.captured_bits(t.nb, a) if a & 15 else 0
        more &= ~t.minus
        for c in T.bit_list(more):
            out.add(self.block[c], L.CYAN, 255, L.BLINK_SLOW)

    def _action(self, out, a, colour, blink, cap_colour, cap_blink):
        """An action: its cell, the dice it takes, and the pips of the new die on the bars."""
        t = self.tracker
        out.add(self.block[a >> 4], colour, 255, blink)
        if a & 15:
            for c in T.bit_list(T.captured_bits(t.nb, a)):
                out.add(self.block[c], cap_colour, 255, cap_blink)
        self._show_pips(a, colour)

    def _show_pips(self, a, colour):
        pos = self.pos
        total = 0
        if a & 15:
            for c in pos.captured_cells(a):
                total += pos.pips(c)
        else:
            total = 1
        self.pips = total
        self.pips_colour = colour

