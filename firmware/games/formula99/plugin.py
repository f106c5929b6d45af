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
from firmware.system import logwrite as LF
from firmware.hal import unload

# The notation is needed only for text: a position read (reader.py), the log's header and the
# console's answers (notation.py, alone for `pos`: 4 KB against the reader's 12 KB on the unix
# port). Each is imported when asked for and dropped after, so that a game in play keeps
# neither (docs/board-formula99.md "Heap").
TEXT_MODULES = ("shared_rules.formula99.reader", "shared_rules.formula99.notation")


def drop_text():
    for m in TEXT_MODULES:
        unload(m)
    # Collected at once: the module's space comes back as one piece before the game allocates
    # again (without it a whole game on the unix port at 192 KiB failed to append to its log
    # after a resume, 1.2 KB finding no hole).
    gc.collect()


MISMATCH_MS = 500
LANE_COLOUR = (L.BLUE, L.YELLOW)  # blue lane, yellow lane; red cells in RED (dim, steady)
MAP_LEVEL = 14  # the track's map, under everything
SUIT_COLOUR = (L.BLUE, L.ORANGE, L.MAGENTA, L.WHITE, L.YELLOW)  # c d h s, joker
SUIT_BLINK = (0, 0, L.BLINK_SLOW, 0, L.BLINK_WINK)

# The option picker: what each kind of action shows on the W bar (LEDs lit, cyan)
OPTION_CODE = {R.K_DRAW: 1, R.K_PASS: 3, R.K_END: 4, R.K_PLAY: 5, R.K_JOKER: 6, R.K_DEF: 7,
               R.K_NODEF: 8, R.K_BLOCK: 9}

PICK_NONE = 0
PICK_SUIT = 1
PICK_RANK = 2
PICK_OPTION = 3

LEVELS = {"1": 1, "2": 2, "3": 3, "L1": 1, "L2": 2, "L3": 3, "l1": 1, "l2": 2, "l3": 3}


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
    name = "formula99"
    rules_version = R.RULES_VERSION

    def __init__(self, options):
        self.emit = options.get("emit") or _nothing
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_over = options.get("record_over") or _nothing
        start = options.get("position")
        if start:
            try:
                pos = R.Position.parse(start)
            except R.RulesError as e:
                raise ValueError("bad position: %s" % (e,))
            finally:
                drop_text()
        else:
            layout = options.get("layout") or options.get("variant") or "L1"
            level = LEVELS.get(layout)
            if level is None:
                raise ValueError("layout %s: the level, L1, L2 or L3" % layout)
            seats = options.get("seats") or "15"
            civs = []
            for ch in seats:
                if ch < "1" or ch > "9" or (civs and int(ch) <= civs[-1]):
                    raise ValueError("seats %s: civilisations 1-9 in ascending order, e.g. 1357"
                                     % seats)
                civs.append(int(ch))
            deal = options.get("deal")
            if deal is not None:
                try:
                    deal = int(deal)
                except ValueError:
                    deal = -1
                if deal < 0 or deal >= 0x80000000:
                    raise ValueError("deal=%s: the deck's seed, 0 to 2147483647" %
                                     options.get("deal"))
            try:
                pos = R.start_position(len(civs), level, seed=deal, civs=civs)
            except R.RulesError as e:
                raise ValueError(str(e))
        self.grid, self.start_grid, self.finish_grid = TK.grid_tables()
        self.map = self._track_map()
        self.overlay = []
        self.bars = []  # (led, colour, level, blink) drawn on the side bars
        self.now = 0
        self.mismatch_since = -1
        self.paint_version = 0
        self.pick = PICK_NONE
        self.pick_suit = 0
        self.pick_list = []
        self.pick_index = 0
        self._set(pos)

    def _set(self, pos):
        self.pos = pos
        self.tracker = T.Tracker(pos)
        self._over_told = False
        self.pick = PICK_NONE
        self._rebuild()

    # -- plug-in interface ------------------------------------------------------------------

    def setup_mask(self):
        """The position's pieces: at the start, two ships in each start zone in play."""
        m = bytearray(H.BITMAP_BYTES)
        v = T.expected(self.pos)
        for i in range(72):
            if v[i]:
                self._set_bit(m, self.grid[i])
        for k in range(9):
            for j in range(v[T.ZONE + k]):
                self._set_bit(m, self.start_grid[2 * k + j])
            if v[T.FIN + k]:
                self._set_bit(m, self.finish_grid[k])
        if v[T.CTRL]:
            self._set_bit(m, TK.CONTROL_GRID)
        return m

    @staticmethod
    def _set_bit(m, g):
        m[g >> 3] |= 1 << (g & 7)

    def start(self):
        self.emit("formula99 start L%d seats=%s ply=%d" % (self.pos.level, self.pos.SEAT_LETTERS,
                                                           self.pos.ply()))
        self._rebuild()

    def load(self, text):
        try:
            pos = R.Position.parse(text)
        except R.RulesError as e:
            raise ValueError("bad position: %s" % (e,))
        finally:
            drop_text()
        self._set(pos)

    def log_header(self):
        try:
            return ("L%d" % self.pos.level, self.pos.SEAT_LETTERS, self.pos.notation(),
                    self.rules_version)
        finally:
            drop_text()

    def resume(self, records):
        pos = self.pos
        if pos.full:
            pos.set_lay_card(R.LAY_FIRST)  # the lays of the card logged only (rules.py)
        for kind, payload in records:
            if kind == LF.ACTION:
                if pos.full and payload[0] == R.K_LAY:
                    pos.set_lay_card(payload[3] & 63)
                pos.push(R.decode_action(pos, payload, 0)[0])
                if pos.full:
                    pos.set_lay_card(R.LAY_FIRST)
            elif kind == LF.UNDO:
                pos.pop()
        self._set(pos)
        self.emit("formula99 resumed ply=%d" % pos.ply())

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
            t.press_undo()
        elif bit == H.HINT and not self.pos.full:  # digital cards: entered on the seat's page
            self._open_cards()
        elif bit == H.END:
            t.act(R.END) or t.act(R.PASS)
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
                and H.ticks_diff(now_ms, self.mismatch_since) >= MISMATCH_MS:
            self._rebuild()

    def paint(self, painter, frame_no):
        led = painter.led  # the map's and the overlay's cells are LEDs 0..120: no cell() check
        m = self.map
        for i in range(0, len(m), 2):
            led(m[i], m[i + 1], MAP_LEVEL, 0)
        for c, colour, level, blink in self.overlay:
            led(c, colour, level, blink)
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
        try:
            return self._command(words)
        finally:
            drop_text()

    def _command(self, words):
        cmd = words[0].lower()
        t = self.tracker
        pos = self.pos
        if cmd == "pos":
            return "ok " + pos.notation()
        if cmd == "state":
            return "ok state=%s actor=%s card=%s actions=%d" % (
                T.STATE_NAMES[t.state], self._actor_name(),
                C.name(t.card) if t.card else "-", pos.ply())
        if cmd == "candidates":
            return self._candidates()
        if cmd == "history":
            return "ok " + " ".join(self._texts(pos.history(), True))
        if cmd == "legal":
            return "ok " + " ".join([pos.format_action(a) for a in pos.legal_actions()])
        if cmd == "pool":
            return "ok " + " ".join([C.name(c) for c in range(1, 55)
                                     if c not in pos.discard()])
        if cmd == "hands":
            return "ok " + " ".join(["%d=%d" % (pos.civ(s), pos.hand_size(s))
                                     for s in pos.seats])
        if cmd == "act" and len(words) == 2:
            try:
                a = pos.parse_action(words[1])
            except R.RulesError as e:
                return "err %s" % (e,)
            t.act(a)
            self._after(self.now)
            return "ok " + words[1]
        if cmd == "card" and len(words) == 2:
            card = C.parse(words[1])
            if not card:
                return "err %s is no card (e.g. 7h, Ts, Xr)" % words[1]
            if not t.enter_card(card):
                return "err %s fits nothing now (the pool: `pool`; legal: `legal`)" % words[1]
            self._after(self.now)
            return "ok " + words[1]
        return None

    def _actor_name(self):
        who = self.pos.to_move
        return "chance" if who < 0 else str(self.pos.civ(who))

    def _texts(self, actions, replay):
        """Action texts; with replay, of the history from the start."""
        pos = self.pos
        if not replay:
            return [pos.format_action(a) for a in actions]
        n = len(actions)
        undone = []
        for _ in range(n):
            undone.append(pos.pop())
        out = []
        while undone:
            a = undone.pop()
            out.append(pos.format_action(a))
            pos.push(a)
        return out

    def _candidates(self):
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
        lines = ["cand %d %s" % (i, pos.format_action(cands[i])) for i in range(len(cands))]
        lines.append("ok %d shown=%d state=%s" % (len(cands), shown, T.STATE_NAMES[t.state]))
        return "\n".join(lines)

    # -- pickers ----------------------------------------------------------------------------

    def _open_cards(self):
        """The card picker: a suit (or joker) first, then a rank of the pool."""
        self.pick = PICK_SUIT
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
            if k in OPTION_CODE and (k != R.K_PLAY or ((a >> 18) & 63) == t.card) and \
                    not t.effect(a):
                opts.append(a)
        if opts:
            self.pick = PICK_OPTION
            self.pick_list = opts
            self.pick_index = 0

    def _picker_button(self, bit):
        if bit == H.UNDO:
            self.pick = PICK_NONE
            return
        if self.pick == PICK_SUIT:
            if bit == H.NEXT:
                self.pick_suit = (self.pick_suit + 1) % 5
                self._pick_ranks()
            elif bit == H.CONFIRM and self.pick_list:
                self.pick = PICK_RANK
            return
        if bit == H.NEXT and self.pick_list:
            self.pick_index = (self.pick_index + 1) % len(self.pick_list)
            return
        if bit != H.CONFIRM or not self.pick_list:
            return
        chosen = self.pick_list[self.pick_index]
        kind = self.pick
        self.pick = PICK_NONE
        if kind == PICK_RANK:
            self.tracker.enter_card(chosen)  # the picker offers only cards that fit
        else:
            self.tracker.act(chosen, "pick")

    # -- after every input ------------------------------------------------------------------

    def _after(self, now_ms):
        t = self.tracker
        pos = self.pos
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
        if pos.is_over():
            if not self._over_told:
                self._over_told = True
                self.emit("over winners=%s" % "".join([pos.SEAT_LETTERS[s]
                                                       for s in pos.winners()]))
                self.record_over()
        else:
            self._over_told = False
        if log:
            self.pick = PICK_NONE  # what a picker was open for has happened (e.g. by console)
        if pos.is_chance() and self.pick == PICK_NONE and not pos.full:
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

    def _rebuild(self):
        t = self.tracker
        pos = self.pos
        out = []
        bars = []
        state = t.state
        if state == T.MISMATCH and (self.mismatch_since < 0 or
                                    H.ticks_diff(self.now, self.mismatch_since) < MISMATCH_MS):
            state = T.MOVING
        self._shown = state
        self._map(out)
        if state == T.OVER:
            w = pos.winners()[0]
            for p in pos.ship_places(w):
                g = TK.CONTROL_GRID if p == TK.CONTROL else self.finish_grid[pos.civ(w) - 1]
                out.append((g, L.WHITE, 255, L.BLINK_SLOW))
        elif state in (T.CATCHUP, T.MISMATCH):
            fill, clear = t.owed()
            for i in fill:
                for g in self._sense_cells(i):
                    out.append((g, L.WHITE, 255, L.BLINK_SLOW))
            for i in clear:
                for g in self._sense_cells(i):
                    out.append((g, L.RED if state == T.MISMATCH else L.MAGENTA, 255,
                                L.BLINK_FAST))
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
        self._bars(bars)
        self.overlay = out
        self.bars = bars
        self.paint_version += 1

    def _track_map(self):
        """bytes: grid cell, colour of each track cell (painted dim under everything)."""
        m = bytearray()
        for c in range(72):
            if TK.is_track(c):
                m.append(self.grid[c])
                m.append(L.RED if TK.is_red(c) else LANE_COLOUR[c & 1])
        return bytes(m)

    def _map(self, out):
        """The start zone and finish cell of the player to act, dim white (the track's map is
        painted from self.map)."""
        who = self.pos.to_move
        if who >= 0:
            k = self.pos.civ(who) - 1
            for g in (self.start_grid[2 * k], self.start_grid[2 * k + 1], self.finish_grid[k]):
                out.append((g, L.WHITE, 40, 0))

    def _effect_cells(self, out, a, colour, blink, level):
        """The cells an action changes: where pieces go (colour) and leave (magenta)."""
        for x in self.tracker.effect_of(a):
            for g in self._sense_cells(x >> 3):
                if (x & 7) > 4:
                    out.append((g, colour, level, blink))
                else:
                    out.append((g, L.MAGENTA, level, L.BLINK_WINK))

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
                    out.append((self.grid[last], L.CYAN, 60, 0))
            return
        for a, eff in t.effects():
            k = a >> 24
            if k == R.K_MOVE:
                src = (a >> 7) & 127
                cells = (self.grid[src],) if src < 72 else self._sense_cells(
                    T.ZONE + pos.civ(pos.to_move) - 1)
                for g in cells:
                    out.append((g, L.WHITE, 255, L.BLINK_WINK))
            elif eff:
                for x in eff:
                    if (x & 7) > 4:
                        for g in self._sense_cells(x >> 3):
                            out.append((g, L.YELLOW, 200, 0))

    def _bars(self, bars):
        """The side bars: the pickers when open, else the race (S: the player to act's
        progress, N: the best other's) and, while a card is wanted, the W bar blinking cyan."""
        if self.pick in (PICK_SUIT, PICK_RANK):
            su = self.pick_suit
            base = H.SCORE_BASE  # S bar: the suit
            for k in range(H.SCORE_LEN):
                bars.append((base + k, SUIT_COLOUR[su], 255, SUIT_BLINK[su]))
            if self.pick == PICK_RANK and self.pick_list:
                c = self.pick_list[self.pick_index]
                n = C.rank(c) if c <= 52 else (1 if c == C.RED_JOKER else 2)
                self._count(bars, 2, n, L.WHITE)
            self._wanted(bars)
            return
        if self.pick == PICK_OPTION and self.pick_list:
            a = self.pick_list[self.pick_index]
            k = a >> 24
            n = OPTION_CODE.get(k, 0) + (1 if k == R.K_DRAW and a & 3 == 2 else 0)
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

    def _wanted(self, bars):
        """A card is wanted (or being entered): the W bar blinks cyan."""
        for k in range(H.SCORE_LEN):
            bars.append((H.SCORE_BASE + H.SCORE_LEN + k, L.CYAN, 120, L.BLINK_SLOW))

    def _count(self, bars, bar, n, colour):
        """n LEDs lit from the start of a bar, going on to the next bar after 9."""
        for i in range(n):
            b = (bar + i // H.SCORE_LEN) % 4
            bars.append((H.SCORE_BASE + b * H.SCORE_LEN + i % H.SCORE_LEN, colour, 255, 0))
