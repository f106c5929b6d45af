# What the plug-ins of the games whose moves a tracker infers (cargocube, cephalopod, kubitva,
# formula99) do alike, in one place (docs/firmware.md "Game plug-in interface"): the app's
# callbacks, the frame's tick (the tracker's settling, the hint's expiry, a mistake shown once
# it has lasted), the work after every input (the tracker's log told and written, the mistake's
# clock, the game's end told once) and the state the LEDs show.
#
# A game's Game subclasses TrackedGame and gives what differs:
#   MISMATCH, MOVING, OVER, STATE_NAMES   its tracker's states (class attributes: «Формула 99»'s
#                  tracker integers are folded by the build, its tracker module has none to read)
#   encode_action  the rules core's encode_action (a staticmethod): an action as the log stores it
#   _rebuild()     prepares its LEDs (calling _state_to_show() for the state they show)
# and, where it does more or otherwise, sets the flags below (TAKES_WHILE_SETTLING,
# TELLS_EVERY_STATE) or overrides a method, calling it for the rest: on_change (Cephalopod
# reads only its block of cells), tick (Cargocube takes a missed move shown once it has
# stood), _after (an `end` that waits for the board to come to rest, first: Cargocube's and
# КУБитва's; «Формула 99»'s own log and pickers), _tell_over (КУБитва's waiting end told;
# «Формула 99»'s race, told without scores).
#
# The module is loaded with each such game (the board loads one game at a time) and what it
# holds costs heap with each: only what the games run, no hook of its own (each would be a
# function object more with every game), its private integers const(); measured in
# docs/firmware.md ("Modules").

from firmware.hal import const, ticks_diff

HINT_MS = 4000  # how long a hint stays lit (the games with a hint engine)
_MISMATCH_MS = const(500)  # a difference must last this long before it lights red (hands are slow)


def _nothing(*args):
    pass


class TrackedGame:
    hint = None  # the hint's action shown (a game without a hint never sets it)
    # True: the tracker's tick may take an action and still be settling (КУБитва): what it
    # took is told and shown at once, not once the settling ends
    TAKES_WHILE_SETTLING = False
    # True: every change of the state shown is told on the event line; False: only a mistake
    # shown or put right (a host then asks `state` for the cells)
    TELLS_EVERY_STATE = True

    def __init__(self, options):
        # The app's event line and game log (docs/firmware.md): every committed action,
        # take-back and the end.
        self.emit = options.get("emit") or _nothing
        self.record = options.get("record") or _nothing
        self.record_undo = options.get("record_undo") or _nothing
        self.record_over = options.get("record_over") or _nothing
        self.now = 0
        self.mismatch_since = -1  # since when the tracker has seen a mistake (-1: none)
        self._shown_state = -1  # the state the LEDs show (none yet)
        self._over_told = False  # the `over` event and the log's finish are sent once
        self.paint_version = 0  # bumped whenever what paint() draws changes (docs/firmware.md)

    # -- plug-in interface ------------------------------------------------------------------

    def on_change(self, occ, now_ms):
        self.now = now_ms
        if self.hint is not None:  # (read, not written, on a game without a hint)
            self.hint = None
        self.tracker.observe(occ, now_ms)
        self._after(now_ms)

    def tick(self, now_ms):
        self.now = now_ms
        t = self.tracker
        if t.settling:
            t.tick(now_ms)
            if not t.settling or (self.TAKES_WHILE_SETTLING and t.log):
                self._after(now_ms)
                return
        changed = False
        if self.hint is not None and ticks_diff(now_ms, self.hint_until) >= 0:
            self.hint = None
            changed = True
        mismatch = self.MISMATCH
        if t.state == mismatch and self.mismatch_since >= 0 and \
                self._shown_state != mismatch and \
                ticks_diff(now_ms, self.mismatch_since) >= _MISMATCH_MS:
            changed = True  # a difference has lasted: now it lights red
        if changed:
            self._rebuild()

    # -- after every input ------------------------------------------------------------------

    def _after(self, now_ms):
        """After every input: the tracker's log, (how, action, position after) each, told on the
        event line and written to the game log; the mistake's clock started or stopped; the
        game's end told once; the LEDs prepared."""
        t = self.tracker
        pos = self.pos
        for how, a, after in t.take_log():
            self.emit("%s %s -> %s" % (how, pos.format_action(a), after))
            if how == "undo":
                self.record_undo()
            else:
                self.record(self.encode_action(a))
        if t.state == self.MISMATCH:
            if self.mismatch_since < 0:
                self.mismatch_since = now_ms
        else:
            self.mismatch_since = -1
        self._tell_over()
        self._rebuild()

    def _tell_over(self):
        """The game's end told to a host and the log, once (_after runs on every change and
        press; start and resume too, for a game set up or resumed at its end)."""
        if self.tracker.state == self.OVER:
            if not self._over_told:
                self._over_told = True
                pos = self.pos
                self.emit("over winners=%s scores=%s" % (
                    "".join([pos.SEAT_LETTERS[s] for s in pos.winners()]),
                    ",".join([str(x) for x in pos.scores()])))
                self.record_over()
        else:
            self._over_told = False  # a take-back reopens the game

    def _state_to_show(self):
        """The tracker's state as the LEDs show it now: a mistake only once it has lasted
        _MISMATCH_MS (a hand may still be on its way: moving until then). A change is told on
        the event line, for a host following the game (docs/serial-protocol.md)."""
        state = self.tracker.state
        mismatch = self.MISMATCH
        if state == mismatch and (self.mismatch_since < 0 or
                                  ticks_diff(self.now, self.mismatch_since) < _MISMATCH_MS):
            state = self.MOVING
        shown = self._shown_state
        if state != shown and (self.TELLS_EVERY_STATE or mismatch in (state, shown)):
            self.emit("state " + self.STATE_NAMES[state])
        self._shown_state = state
        return state
