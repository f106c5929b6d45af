# «Формула 99» on the board: the game plug-in (interface in docs/firmware.md; what the board
# shows and why in docs/board-formula99.md).
#
# Ships and charge tokens are magnetic pieces on the track of docs/rules/formula99.md §1.2; the
# cells off the track stay dark and unread. Cards are real cards: the board keeps the public
# position and learns a card only when it is shown (the card picker, or the console's `card`
# and `act`), so it never holds a hidden card. With digital cards (`deal=SEED`, or a full
# position) the board holds the seeded deal for a host that shows each seat only its own hand
# (`cargoboard serve`'s seat pages): then nothing on the board itself shows a card (no card
# picker), and a card comes in only from its holder's page (`card`). The rules come from shared_rules.formula99, the
# inference from tracker.py; this module turns the tracker's state into LEDs, runs the two
# pickers, answers the game's serial commands and reports actions to the game log.

import gc
from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as TK
from shared_rules.formula99 import cards as C
from firmware.games.formula99 import tracker as T
from firmware.drivers import leds as L
from firmware import hal as H
from firmware.hal import const, unload

# The notation is needed only for text: a position read (reader.py), the log's header and the
# console's answers (notation.py, alone for `pos`: 4 KB against the reader's 12 KB on the unix
# port); the console's commands themselves are console.py; what is done once a game (the
# set-up, its mask, the start, a resume's replay, a position loaded, the log's header) is
# once.py, making a position the rules' setup.py, and the track's cells on the board (read
# into the grid tables once) layout.py. Each is imported when asked for and dropped after, so
# that a game in play keeps none of them (docs/board-formula99.md "Measured").
TEXT_MODULES = ("shared_rules.formula99.reader", "shared_rules.formula99.notation",
                "firmware.games.formula99.console", "firmware.games.formula99.once",
                "shared_rules.formula99.setup", "shared_rules.formula99.layout")


def drop_text():
    for m in TEXT_MODULES:
        unload(m)
    # Collected at once: the module's space comes back as one piece before the game allocates
    # again (without it a whole game on the unix port at 192 KiB failed to append to its log
    # after a resume, 1.2 KB finding no hole).
    gc.collect()


# Private integers are const(): MicroPython puts them in the code, with no name in the module's
# dictionary or the interned names (the board's heap).
_MISMATCH_MS = const(500)
SUIT_COLOUR = (L.BLUE, L.ORANGE, L.MAGENTA, L.WHITE, L.YELLOW)  # c d h s, joker
SUIT_BLINK = (0, 0, L.BLINK_SLOW, 0, L.BLINK_WINK)

# The option picker: what each kind of action shows on the W bar (LEDs lit, cyan), by the
# action's kind; 0: not an option. (A bytearray: a dict of the 8 was ~100 B more heap. No
# loop variables: names deleted from the module's dictionary would lengthen its look-ups.)
OPTION_CODE = bytearray(R.K_NODEF + 1)
OPTION_CODE[R.K_DRAW] = 1
OPTION_CODE[R.K_PASS] = 3
OPTION_CODE[R.K_END] = 4
OPTION_CODE[R.K_PLAY] = 5
OPTION_CODE[R.K_JOKER] = 6
OPTION_CODE[R.K_DEF] = 7
OPTION_CODE[R.K_NODEF] = 8
OPTION_CODE[R.K_BLOCK] = 9

_PICK_NONE = const(0)
_PICK_SUIT = const(1)
_PICK_RANK = const(2)
_PICK_OPTION = const(3)


def _nothing(*args):
    pass


def fitting_cards(pos):
    """The cards that may be entered now, ascending: at a chance node the cards that may be
    shown, else the cards the player may play from the hand."""
    out = []
    chance = pos.is_chance()
    for a in pos.legal_actions():
        k = a >> 24
        if chance and k == R.K_SHOW:
            c = a & 255
        elif not chance and k == R.K_PLAY:
            c = (a >> 18) & 63
        else:
            continue
        if c not in out:
            out.append(c)
    out.sort()
    return out


class Game:
    # the options of `new` (firmware/system/newgame.py refuses others)
    OPTIONS = ("layout", "seats", "deal", "position")

    name = "formula99"
    rules_version = R.RULES_VERSION
    PICK_OPTION = _PICK_OPTION  # (for console.py: `candidates` lists the option picker's)
    PICK_NONE = _PICK_NONE  # (for once.py, which does not import this module)
    drop_text = staticmethod(drop_text)

    def __init__(self, options):
        # (here: a function of once.py kept would keep that module in the heap)
        self.emit = options.get("emit") or _nothing
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_over = options.get("record_over") or _nothing
        self._once("init", options)

    # -- plug-in interface ------------------------------------------------------------------

    def setup_mask(self):
        return self._once("setup_mask")

    def _once(self, name, *args):
        """once.py's function `name` on this game, the module loaded for it and dropped after."""
        from firmware.games.formula99 import once
        try:
            return getattr(once, name)(self, *args)
        finally:
            once = None
            drop_text()

    def start(self):
        self._once("start")

    def load(self, text):
        self._once("load", text)

    def log_header(self):
        return self._once("log_header")

    def resume(self, records):
        self._once("resume", records)

    def on_change(self, occ, now_ms):
        self.now = now_ms
        self.tracker.observe(occ, now_ms)
        self._after(now_ms)

    def on_button(self, bit, now_ms):
        self.now = now_ms
        t = self.tracker
        if self.pick:
            self._picker_button(bit)
        elif bit == H.CONFIRM:
            if not t.press_confirm():
                self._open_options()
        elif bit == H.NEXT:
            if not t.press_next():
                self._open_options()
        elif bit == H.UNDO:
            if self.end_by >= 0:  # a take-back (or backing out) is no end of the turn
                self.end_by = -1
                self.emit("end-dropped")
            t.press_undo()
        elif bit == H.HINT and not self.pos.full:  # digital cards: entered on the seat's page
            self._open_cards()
        elif bit == H.END:
            t.tick(now_ms, True)  # a move still settling is taken first
            if self.end_by < 0 and t.state != T.IDLE and t.state != T.OVER:
                self.emit("end-waits")  # a piece in the hand, ...: until the board is at rest
            self.end_by = self.pos.turn  # (_after)
        self._after(now_ms)

    def tick(self, now_ms):
        self.now = now_ms
        t = self.tracker
        if t.settling:
            t.tick(now_ms)
            if not t.settling:
                self._after(now_ms)
                return
        if t.state == T.MISMATCH and self.mismatch_since >= 0 and self._shown != T.MISMATCH \
                and H.ticks_diff(now_ms, self.mismatch_since) >= _MISMATCH_MS:
            self._rebuild()

    def paint(self, painter, frame_no):
        painter.cells(self.overlay)  # the map and what the state shows over it, in one call
        for i, colour, level, blink in self.bars:
            painter.led(i, colour, level, blink)

    def scores(self):
        """By bar S W N E: the player to act's race progress, the best other's."""
        pos = self.pos
        sc = pos.scores()
        me = pos.turn
        best = 0
        for s in pos.seats:
            if s != me and sc[s] > best:
                best = sc[s]
        return [sc[me], 0, best, 0]

    def command(self, words):
        """The console's commands (console.py: loaded for a command and dropped after, with
        the notation it uses: a command is rare and its code would stay in the heap)."""
        from firmware.games.formula99 import console
        try:
            return console.command(self, words)
        finally:
            console = None
            drop_text()

    # -- pickers ----------------------------------------------------------------------------

    def _open_cards(self):
        """The card picker: a suit (or joker) first, then a rank of the pool."""
        self.pick = _PICK_SUIT
        self.pick_suit = 0
        self._pick_ranks()

    def _pick_ranks(self):
        """The cards of the chosen suit that fit now: shown at a chance node, else played."""
        pool = []
        for c in fitting_cards(self.pos):
            su = C.suit(c)
            if (su if su >= 0 else 4) == self.pick_suit:
                pool.append(c)
        self.pick_list = pool
        self.pick_index = 0

    def _open_options(self):
        """The option picker: the actions of the decision now that the sensors cannot see."""
        opts = []
        t = self.tracker
        for a in self.pos.legal_actions():
            k = a >> 24
            if k < len(OPTION_CODE) and OPTION_CODE[k] and (k != R.K_PLAY or ((a >> 18) & 63) == t.card) and \
                    not t.effect(a):
                opts.append(a)
        if opts:
            self.pick = _PICK_OPTION
            self.pick_list = opts
            self.pick_index = 0
            self.emit("picker %d" % len(opts))  # (no state of the tracker's says so)

    def _picker_button(self, bit):
        if bit == H.UNDO:
            self.pick = _PICK_NONE
            return
        if self.pick == _PICK_SUIT:
            if bit == H.NEXT:
                self.pick_suit = (self.pick_suit + 1) % 5
                self._pick_ranks()
            elif bit == H.CONFIRM:
                if self.pick_list:
                    self.pick = _PICK_RANK
                else:  # no card of the suit fits now: said, the N bar red until a press
                    self.pick_index = -1
                    self.emit("no-card")
            return
        if bit == H.NEXT and self.pick_list:
            self.pick_index = (self.pick_index + 1) % len(self.pick_list)
            return
        if bit != H.CONFIRM or not self.pick_list:
            return
        chosen = self.pick_list[self.pick_index]
        kind = self.pick
        self.pick = _PICK_NONE
        if kind == _PICK_RANK:
            self.tracker.enter_card(chosen)  # the picker offers only cards that fit
        else:
            self.tracker.act(chosen, "pick")

    # -- after every input ------------------------------------------------------------------

    def _after(self, now_ms):
        t = self.tracker
        pos = self.pos
        by = self.end_by
        if by >= 0 and (t.state == T.IDLE or t.state == T.OVER):
            # `end`, the board at rest (at once, or once the move under way was taken or the
            # piece put back): the turn ends (or passes) if it is still the turn of the seat
            # that pressed it and may end now; else the end is let go, and said so
            self.end_by = -1
            if not (t.state == T.IDLE and by == pos.turn and (t.act(R.END) or t.act(R.PASS))):
                self.emit("end-dropped")
        log = t.take_log()
        for how, a in log:
            if how == "undo":
                self.record_undo()
            else:
                self.record(R.encode_action(a))
        for how, a in log:  # the action's 4-byte code: short, and what the log holds
            self.emit("%s %08x ply=%d" % (how, a, pos.ply()))
        if t.state == T.MISMATCH:
            if self.mismatch_since < 0:
                self.mismatch_since = now_ms
        else:
            self.mismatch_since = -1
        self._tell_over()
        if log:
            self.pick = _PICK_NONE  # what a picker was open for has happened (e.g. by console)
        if pos.is_chance() and self.pick == _PICK_NONE and not pos.full:
            self._open_cards()  # a card to enter: nothing else can happen now
        self._rebuild()

    # -- LEDs -------------------------------------------------------------------------------

    def _sense_cells(self, i):
        """Grid cells of a sense index (a start zone: both cells)."""
        if i < 72:
            return (self.grid[i],)
        if i < T.FIN:
            k = i - T.ZONE
            return (self.start_grid[2 * k], self.start_grid[2 * k + 1])
        if i < T.CTRL:
            return (self.finish_grid[i - T.FIN],)
        return (TK.CONTROL_GRID,)

    def _tell_over(self):
        """The race's end told to a host and the log, once (_after runs on every change and
        press; start and resume too, for a game set up or resumed at its end)."""
        pos = self.pos
        if pos.is_over():
            if not self._over_told:
                self._over_told = True
                self.emit("over winners=%s" % "".join([pos.SEAT_LETTERS[s]
                                                       for s in pos.winners()]))
                self.record_over()
        else:
            self._over_told = False

    def _rebuild(self):
        t = self.tracker
        pos = self.pos
        out = self.overlay
        out.show_kept()  # the map
        bars = []
        state = t.state
        if state == T.MISMATCH and (self.mismatch_since < 0 or
                                    H.ticks_diff(self.now, self.mismatch_since) < _MISMATCH_MS):
            state = T.MOVING
        if state != self._shown and T.MISMATCH in (state, self._shown):
            # a mistake shown or put right, for a host following the game: it then asks
            # `state` for the cells (only these changes: `state` loads console.py)
            self.emit("state " + T.STATE_NAMES[state])
        self._shown = state
        self._map(out)
        if state == T.OVER:
            w = pos.winners()[0]
            for p in pos.ship_places(w):
                g = TK.CONTROL_GRID if p == TK.CONTROL else self.finish_grid[pos.civ(w) - 1]
                out.add(g, L.WHITE, 255, L.BLINK_SLOW)
        elif state in (T.CATCHUP, T.MISMATCH):
            fill, clear = t.owed()
            for i in fill:
                for g in self._sense_cells(i):
                    out.add(g, L.WHITE, 255, L.BLINK_SLOW)
            for i in clear:
                for g in self._sense_cells(i):
                    out.add(g, L.RED if state == T.MISMATCH else L.MAGENTA, 255, L.BLINK_FAST)
        elif state == T.ASKING:
            shown = t.shown()
            for a in t.candidates:
                self._effect_cells(out, a, L.YELLOW, L.BLINK_FAST if a == shown else 0,
                                   255 if a == shown else 60)
        elif state == T.READY:
            self._effect_cells(out, t.ready, L.WHITE, 0, 255)
        elif state == T.MOVING:
            for a, eff in t.effects():
                if a in t.moves and a >> 24 != R.K_SHOW:
                    self._effect_cells(out, a, L.CYAN, 0, 160)
        else:
            self._options(out)
        if self.pick == _PICK_OPTION and self.pick_list:
            a = self.pick_list[self.pick_index]
            if a >> 24 == R.K_BLOCK:  # which ship's red cell: the W bar's 9 does not say
                out.add(self.grid[a & 127], L.CYAN, 255, L.BLINK_FAST)
        self._bars(bars)
        self.bars = bars
        self.paint_version += 1

    def _map(self, out):
        """The start zone and finish cell of the player to act, dim white (the track's map is
        painted from self.map)."""
        who = self.pos.to_move
        if who >= 0:
            k = self.pos.civ(who) - 1
            for g in (self.start_grid[2 * k], self.start_grid[2 * k + 1], self.finish_grid[k]):
                out.add(g, L.WHITE, 40, 0)

    def _effect_cells(self, out, a, colour, blink, level):
        """The cells an action changes: where pieces go (colour) and leave (magenta)."""
        for x in self.tracker.effect_of(a):
            for g in self._sense_cells(x >> 3):
                if (x & 7) > 4:
                    out.add(g, colour, level, blink)
                else:
                    out.add(g, L.MAGENTA, level, L.BLINK_WINK)

    def _options(self, out):
        """IDLE: the ships that may move (wink), where a charge may be laid (cyan, dim), the
        cells an event's choice may use (yellow)."""
        pos = self.pos
        t = self.tracker
        s = pos.st
        if pos.is_over() or pos.to_move < 0:
            return
        if not s[R.O_SP] and s[R.O_PHASE] == R.PH_CHARGES:
            last = -1
            for a in pos.legal_actions():  # the cells of the lays (cached), once each
                if a >> 24 == R.K_LAY and (a >> 6) & 127 != last:
                    last = (a >> 6) & 127
                    out.add(self.grid[last], L.CYAN, 60, 0)
            return
        for a, eff in t.effects():
            k = a >> 24
            if k == R.K_MOVE:
                src = (a >> 7) & 127
                cells = (self.grid[src],) if src < 72 else self._sense_cells(
                    T.ZONE + pos.civ(pos.to_move) - 1)
                for g in cells:
                    out.add(g, L.WHITE, 255, L.BLINK_WINK)
            elif eff:
                for x in eff:
                    if (x & 7) > 4:
                        for g in self._sense_cells(x >> 3):
                            out.add(g, L.YELLOW, 200, 0)

    def _bars(self, bars):
        """The side bars: the pickers when open, else the race (S: the player to act's
        progress, N: the best other's) and, while a card is wanted, the W bar blinking cyan."""
        if self.pick in (_PICK_SUIT, _PICK_RANK):
            su = self.pick_suit
            base = H.SCORE_BASE  # S bar: the suit
            for k in range(H.SCORE_LEN):
                bars.append((base + k, SUIT_COLOUR[su], 255, SUIT_BLINK[su]))
            if self.pick == _PICK_RANK and self.pick_list:
                c = self.pick_list[self.pick_index]
                n = C.rank(c) if c <= 52 else (1 if c == C.RED_JOKER else 2)
                self._count(bars, 2, n, L.WHITE)
            elif self.pick_index < 0:  # `confirm` on a suit with no card that fits: refused
                for k in range(H.SCORE_LEN):
                    bars.append((H.SCORE_BASE + 2 * H.SCORE_LEN + k, L.RED, 255, L.BLINK_FAST))
            self._wanted(bars)
            return
        if self.pick == _PICK_OPTION and self.pick_list:
            a = self.pick_list[self.pick_index]
            k = a >> 24
            n = (OPTION_CODE[k] if k < len(OPTION_CODE) else 0) + (1 if k == R.K_DRAW and a & 3 == 2 else 0)
            self._count(bars, 1, n, L.CYAN)
            if k == R.K_JOKER:
                self._count(bars, 2, a & 255, L.WHITE)
            return
        pos = self.pos
        sc = self.scores()
        for k in range(H.SCORE_LEN):
            lit = (k + 1) * 8 <= sc[0]
            if lit:
                bars.append((H.SCORE_BASE + k, L.WHITE, 255, 0))
            if (k + 1) * 8 <= sc[2]:
                bars.append((H.SCORE_BASE + 2 * H.SCORE_LEN + k, L.ORANGE, 255, 0))
        t = self.tracker
        if pos.is_chance() or t.card or (pos.full and t.state == T.MOVING and t.moves and
                                         t.moves[0] >> 24 == R.K_LAY):
            self._wanted(bars)  # (digital cards: a token laid waits for its card)
        elif self.end_by >= 0:
            self._count(bars, 1, OPTION_CODE[R.K_END], L.CYAN)  # an `end` waits: its code

    def _wanted(self, bars):
        """A card is wanted (or being entered): the W bar blinks cyan."""
        for k in range(H.SCORE_LEN):
            bars.append((H.SCORE_BASE + H.SCORE_LEN + k, L.CYAN, 120, L.BLINK_SLOW))

    def _count(self, bars, bar, n, colour):
        """n LEDs lit from the start of a bar, going on to the next bar after 9."""
        for i in range(n):
            b = (bar + i // H.SCORE_LEN) % 4
            bars.append((H.SCORE_BASE + b * H.SCORE_LEN + i % H.SCORE_LEN, colour, 255, 0))
