# What the plug-ins of the games whose moves a tracker infers share (docs/firmware.md "Game
# plug-in interface"): the log's callbacks, the buttons, the tick (the tracker's settling, the
# hint's and the mismatch's timers), the work after every input (the log, the mismatch timer,
# the game's end told once) and the serial commands every such game answers alike.
#
# A game's plug-in subclasses TrackedGame and gives:
#   MISMATCH, OVER, STATE_NAMES   its tracker's states, as class attributes (the build folds
#                  «Формула 99» tracker's integers into the modules that use them: its module
#                  has no MISMATCH to read at run time)
#   tracker, pos   its tracker (observe, tick, settling, press_*, take_log, state) and position
#   _format(a)     an action as the notation writes it
#   _encode(a)     an action as the game log stores it (the rules core's encode_action)
#   _best()        the hint's action (None: none)
#   _diff_names()  the names of the cells where the board differs from the position
#   _candidate_lines(full), _rebuild()
# and overrides what it does otherwise (Cephalopod reads only its block of cells, «Формула 99»
# has pickers and no hint).

from firmware import hal as H

HINT_MS = 4000  # how long a hint stays lit
MISMATCH_MS = 500  # a difference must last this long before it lights red (hands are slow)


def _nothing(*args):
    pass


class TrackedGame:
    MISMATCH = -1  # the game's tracker's states (the subclass sets them)
    OVER = -1
    STATE_NAMES = ()

    def _callbacks(self, options):
        """The app's event line and game log (docs/firmware.md): every committed action,
        take-back and the end; and the state every game starts with."""
        self.emit = options.get("emit") or _nothing
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_over = options.get("record_over") or _nothing
        self.hint = None
        self.hint_until = 0
        self.mismatch_since = -1
        self._over_told = False  # the `over` event and the log's finish are sent once
        self._shown_state = -1
        self.now = 0
        self.paint_version = 0  # bumped whenever what paint() draws changes (docs/firmware.md)

    # -- plug-in interface ------------------------------------------------------------------

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
            self._end()
        elif bit == H.HINT:
            self.hint = self._best()
            self.hint_until = (now_ms + HINT_MS) & H.TICKS_MASK
        self._after(now_ms)

    def tick(self, now_ms):
        self.now = now_ms
        t = self.tracker
        if t.settling:
            t.tick(now_ms)
            if not t.settling or t.log:  # settled, or took something while still settling
                self._after(now_ms)
                return
        changed = False
        if self.hint is not None and H.ticks_diff(now_ms, self.hint_until) >= 0:
            self.hint = None
            changed = True
        mismatch = self.MISMATCH
        if t.state == mismatch and self.mismatch_since >= 0 and \
                self._shown_state != mismatch and \
                H.ticks_diff(now_ms, self.mismatch_since) >= MISMATCH_MS:
            changed = True  # a difference has lasted: now it lights red
        if changed:
            self._rebuild()

    def command(self, words):
        cmd = words[0].lower()
        pos = self.pos
        if cmd == "pos":
            return "ok " + pos.notation()
        if cmd == "state":
            return "ok state=%s diff=%s actions=%d" % (
                self.STATE_NAMES[self.tracker.state], ",".join(self._diff_names()) or "-",
                pos.ply())
        if cmd == "candidates":
            return self._candidate_lines(len(words) > 1 and words[1] == "full")
        if cmd == "history":  # [FROM [COUNT]]: a host pages a long game (a reply is <= 1 KB)
            lo, hi = H.word_range(words, pos.ply())
            return "ok " + " ".join([self._format(a) for a in pos.history()[lo:hi]])
        if cmd == "legal":
            return "ok " + " ".join([self._format(a) for a in pos.legal_actions()])
        if cmd == "hint":
            a = self._best()
            return "ok " + (self._format(a) if a is not None else "-")
        return None

    # -- internals --------------------------------------------------------------------------

    def _end(self):
        self.tracker.press_end()

    def _after(self, now_ms):
        """After every input: log what the tracker took, start or stop the mismatch timer,
        tell the end once, and prepare the LEDs."""
        self._take_log(now_ms)
        self._rebuild()

    def _take_log(self, now_ms):
        """The part of _after before the LEDs; True if the tracker took or took back anything."""
        t = self.tracker
        log = t.take_log()
        for entry in log:
            self._logged(entry)
        if t.state == self.MISMATCH:
            if self.mismatch_since < 0:
                self.mismatch_since = now_ms
        else:
            self.mismatch_since = -1
        if self._is_over():
            if not self._over_told:  # once: _after runs on every change and press
                self._over_told = True
                self.emit(self._over_event())
                self.record_over()
        else:
            self._over_told = False  # a take-back reopens the game
        return len(log) > 0

    def _logged(self, entry):
        """One entry of the tracker's log, (how, action, position after): the event line and
        the game log."""
        how, a, after = entry
        self.emit("%s %s -> %s" % (how, self._format(a), after))
        if how == "undo":
            self.record_undo()
        else:
            self.record(self._encode(a))

    def _is_over(self):
        return self.tracker.state == self.OVER

    def _over_event(self):
        pos = self.pos
        return "over winners=%s scores=%s" % (
            "".join([pos.SEAT_LETTERS[s] for s in pos.winners()]),
            ",".join([str(x) for x in pos.scores()]))
