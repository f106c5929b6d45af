"""`cargoboard sim --script FILE`: drive the simulated board from a script.

One command per line; `#` starts a comment (at the line start or after a space). Verbs:

    new-game GAME LAYOUT SEATS [cards|pyramid|bastion|both] [teleport]
                                 e.g. `new-game cargocube polygon SN`: sends `new ...` to the
                                 firmware, lays out the start stacks in the world (cargocube:
                                 shared_rules.cargocube.rules.start_position; other games: one token
                                 on each cell of the firmware's setup mask) and waits (up to
                                 5 s sim time) until the firmware reports state=play.
                                 With `cards` (an extension), each seat's base cards lie in
                                 their default places too (each card carries a magnet); with
                                 `pyramid`, `bastion` or `both` the expansions' cards, with
                                 `teleport` the walking teleport on f6 (docs/rules/cargocube.md
                                 16.11). 8 players: SEATS `12345678`.
                                 `new-game cargocube position=NOTATION` starts from any
                                 position (its spaces written `_`; no SEATS: the position
                                 has them): its pieces and cards are laid out as it stands.
                                 SEATS may be left out for a game that has fixed seats:
                                 `new-game cephalopod 5x5` (white and black, the board empty);
                                 `new-game kubitva board` (the board edition's start) or
                                 `new-game kubitva position=NOTATION` (the notation's spaces
                                 written as `_`; empty cells stay `.`).
                                 The corners are out of play (nothing can be lifted from or put
                                 on them) unless the game's hand model says CORNERS_IN_PLAY
                                 (КУБитва's board edition plays on the whole grid) or the
                                 game is the bring-up self-test (`new-game selftest`, or
                                 `send new selftest ...`: a cube passes over every cell).
                                 `new-game formula99 L2 1357`: «Формула 99» at level 2, both
                                 ships of each civilisation on its start zone; a charge laid
                                 is `drop CELL`, a token taken off `take CELL`, a card entered
                                 `send card Qh` (docs/board-formula99.md).
                                 Words KEY=VALUE go to the game as options:
                                 `new-game formula99 L2 15 deal=7` (digital cards).
    lift CELL                    take the top item of CELL into the hand, then 100 ms pass.
    place CELL                   put the item lifted last on top of CELL, then 100 ms pass.
    drop CELL                    put a new piece from the supply on the empty CELL (a
                                 Cephalopod die, a КУБитва cube filled or bought, a «Формула
                                 99» charge token), then 100 ms pass.
    take CELL                    take the top piece of CELL off the board, back to the
                                 supply (a Cephalopod capture, a «Формула 99» token lifted or
                                 triggered, a КУБитва cube removed), then 100 ms pass.
    press BUTTON                 confirm|next|undo|hint|end: the button is held 50 ms and
                                 released 50 ms (goes through the firmware's debounce,
                                 which takes every press of 41 ms or more on time: 50 ms
                                 is above that on purpose; docs/firmware.md "Frames that
                                 hide a press").
    wait MS                      let MS milliseconds of sim time pass (rounded up to frames);
                                 at most 600000 (10 minutes) in one line.
    expect POSITION              the tracked position (serial `pos`) must equal POSITION (the
                                 rest of the line; cells in any order; in the game's own
                                 notation, e.g. Cephalopod's `...../...../..w1../...../..... b`,
                                 or its size word `5x5` for the empty board). The board commits a
                                 move once the pieces have been still for a moment, so
                                 expect gives it up to 1 s of sim time first: it holds as
                                 soon as the board tracks POSITION, so the position before a
                                 move not yet taken passes too (`wait 1000` first checks that
                                 the move was not taken). A board that holds moves in doubt
                                 (Cargocube, `wait=K`) passes it too when one of its readings
                                 leads to POSITION (console `readings`).
    resolve POSITION             the player gets the board to register the action leading to
                                 POSITION with buttons only, as the LEDs lead: nothing if the
                                 board has it (after up to 1 s to settle); if it shows
                                 candidates, `next` until the right one is shown, then
                                 `confirm`; if it shows none (a move without a trace),
                                 `confirm` first to ask for them (twice when revision B shows
                                 its last move taken, `evt taken`), then 0.5 s to read the
                                 move shown before the `confirm` that takes it (a press
                                 sooner is the same press). If the board is a move behind (an
                                 earlier move it could not see), the earlier move is picked
                                 first the same way. A board that waits (Cargocube, revision
                                 A, `wait=K`, the base game's default wait=2) may take a
                                 look-alike for now: once it has taken a move and holds
                                 moves in doubt (`state` ... doubt=PLY) one of whose
                                 readings leads to POSITION, the player plays on; when it
                                 asks about an earlier move (`candidates` ... at=PLY), the
                                 player picks the move that led to a position an earlier
                                 resolve named. Fails if no candidate leads there.
                                 Counts the presses.
    bounce CELL                  contact bounce: CELL's sensor toggles every frame for 60 ms
                                 (each state 10 ms < stable_ms) and returns to the true
                                 reading; then 50 ms pass. Must produce no accepted change.
    slide CELL CELL... CELL      lift from the first cell, drag across the middle cells (each
                                 reads occupied for 20 ms < stable_ms), place on the last;
                                 then 100 ms pass.
    turn CELL cw|acw             turn the stack on CELL a quarter turn where it stands,
                                 clockwise or anticlockwise seen from above (Cargocube's
                                 spiral turn, `e5cw`); nothing is lifted, so an occupancy
                                 board sees nothing (resolve it with buttons), a revision B
                                 board sees the magnets turn; then 100 ms pass.
    send TEXT                    send a raw serial command line and print the reply; the
                                 line fails if the board answers `err ...`.
    send-err TEXT                the same for a command the board must refuse: the line fails
                                 unless the reply is `err ...` (a mistyped card, an action
                                 not legal now).
    restart                      power cut and power on: the firmware process is killed
                                 between two frames and started again on the same flash
                                 image (`cargoboard sim --flash DIR`; without it the flash
                                 starts empty); the pieces stay where they are. A game in
                                 play resumes from its log (docs/log-format.md).

A revision-B board that boots with no zeros on its flash is calibrated first, while the world
is still empty (`bring-up: calibrate: ok calibrated max=N`; docs/virtual-board.md).

Output: the board's serial events with sim time, committed actions, replies to `send`, and the
button presses each line used. Exit status 0 only if every line held; errors name the line.
"""

from __future__ import annotations

import re
import select
import sys

from cargoboard import games
from cargoboard.rules import boot_game  # the board's game before a script's first new-game
from cargoboard.sim.table import ACK_READ_MS
from cargoboard.sim.runner import FirmwareError, FRAME_MS
from cargoboard.sim.targets import make_runner
from cargoboard.sim.world import World, WorldError, parse_cell, revb_physics

HAND_MS = 100
# a scripted press: nearly a frame above the 41 ms the firmware's Buttons always take on time,
# on purpose (bench/buttons.py; docs/firmware.md "Frames that hide a press")
PRESS_MS = 50
BOUNCE_MS = 60
SETTLE_MS = 50
SLIDE_CROSS_MS = 20
SETUP_TIMEOUT_MS = 5000
# the end of a `candidates` reply when a waiting board asks about a move before its latest ones
ASKING_AT = re.compile(r"\sat=(\d+)$")
SETTLE_WAIT_MS = 1000  # resolve/expect give the board this long to commit a settled move
MAX_RESOLVE_PRESSES = 200  # one resolve: more presses than any question's candidates
MAX_WAIT_MS = 600_000  # one `wait`: 10 minutes of board time (~15 s here); more is a typo
TURNS = {"cw": 0, "acw": 1}  # `turn CELL cw|acw`: the rules' TURN direction
BUTTONS = {"confirm": 1, "next": 2, "undo": 4, "hint": 8, "end": 16}
MEM_REPLY = re.compile(r"ok alloc=(\d+) free=(\d+) max=(\d+)")  # the console's `mem`
VERBS = ("new-game", "lift", "place", "drop", "take", "press", "wait", "expect", "resolve",
         "bounce", "slide", "turn", "send", "send-err", "restart")
COMMITS = ("evt auto ", "evt confirm ", "evt end ", "evt undo ")  # the board took a move
# The bring-up self-test (docs/bringup.md) passes a cube over every cell, the corners too,
# which the games' own layouts keep out of play: begun with `new-game selftest` or `send new
# selftest ...`, the world's corners take pieces until the next new-game.
SELFTEST = "selftest"
# a revision-B board with no zeros on its flash says so at boot (boot_revb.load_zeros)
UNCALIBRATED = "evt not calibrated: no zeros on the flash"


class ScriptError(Exception):
    """A line did not hold (message says why)."""


def _rules(game: str):
    """The rules module of a game kind (no kind: the board's boot game), None for a kind the
    host has no rules for (a test plug-in)."""
    from cargoboard.rules import rules_for, UnknownGame
    try:
        return rules_for(game or boot_game())
    except UnknownGame:
        return None


def new_game_usage() -> str:
    """new-game's usage line: the words after SEATS are the games' own (each game's world part
    that has them says them in NEW_GAME_WORDS)."""
    worlds = [games.part(kind, "world") for kind in games.kinds()]
    own = "".join(" " + w.NEW_GAME_WORDS for w in worlds if hasattr(w, "NEW_GAME_WORDS"))
    return (f"usage: new-game GAME LAYOUT SEATS{own} (SEATS may be left out for a game with "
            "fixed seats), or new-game GAME position=NOTATION (its spaces written _)")


def canonical(position: str, game: str = "") -> str:
    """POSITION in the canonical form of the game's rules core (the rulings notation accepts
    cells in any order; Cephalopod also takes a size word such as 5x5); positions of games the
    host has no rules for are compared as written."""
    rules = _rules(game)
    if rules is None:
        return position
    named = getattr(rules, "named_position", None)
    if named is not None and named(position.strip()) is not None:
        return named(position.strip()).notation()
    try:
        return rules.Position.parse(position).notation()
    except rules.RulesError as e:
        raise ScriptError(f"bad position: {e}") from None


def _candidates(session: "Session"):
    """(N, shown, [(I, ACTION, POSITION-AFTER)], at): the board's question; at is the ply of
    the move it asks about when that is before its latest ones (a waiting board's ` at=PLY`,
    whose positions are asked for with `full`: they follow from the position then), else -1."""
    data, final = session.query("candidates")
    if final.startswith("err"):
        raise ScriptError(f"candidates: {final}")
    at = ASKING_AT.search(final)
    if at:
        data, final = session.query("candidates full")
    m = re.match(r"ok\s+(\d+)\s+shown=(\d+)", final)
    if not m:
        raise ScriptError(f"candidates: unexpected reply '{final}'")
    cands = []
    board = None
    for line in data:
        parts = line.split(" ", 3)
        if len(parts) >= 3 and parts[0] == "cand":
            if len(parts) == 4:
                after = parts[3].strip()
            else:
                # Cargocube lists actions only: the position after each is computed here from
                # the board's tracked position with the same rules core.
                if board is None:
                    board = _rules_position(session.position(), session.game)
                after = _after(board, parts[2])
            cands.append((int(parts[1]), parts[2], after))
    return int(m.group(1)), int(m.group(2)), cands, int(at.group(1)) if at else -1


def _in_doubt(session: "Session", position: str) -> bool:
    """Whether the board is at rest holding moves in doubt, one of whose readings leads to
    POSITION (Cargocube's `wait=K`: `state` says ` doubt=PLY`, `readings` lists where each
    reading leads): it plays on the likeliest reading and settles it by the moves after, or
    asks about it later (the question then has ` at=PLY`)."""
    if not session.doubts:  # (a query lets sim time pass: asked only where it may be)
        return False
    _, final = session.query("state")
    return final.startswith("ok state=idle ") and " doubt=" in final and \
        position in session.readings()


def _rules_position(text, game=""):
    rules = _rules(game)
    if rules is None:
        raise ScriptError(f"no rules for game '{game}' on the host: candidates need `full`")
    try:
        return rules.Position.parse(text)
    except rules.RulesError as e:
        raise ScriptError(f"the board's position does not parse: {e}") from None


def _after(pos, action_text):
    try:
        a = pos.parse_action(action_text)
    except Exception as e:  # the rules core's RulesError
        return f"(unreadable candidate: {e})"
    pos.push(a)
    pushed = 1
    try:
        # a chance node with one outcome (a «Формула 99» full position: the deal decides) is
        # passed at once by the board, so the candidate's position is the one after it
        while getattr(pos, "full", False) is True and pos.is_chance():
            pos.push(pos.legal_actions()[0])
            pushed += 1
        return pos.notation()
    finally:
        for _ in range(pushed):
            pos.pop()


def default_resolve(session: "Session", position: str) -> int:
    """The player makes sure the board has the action leading to POSITION, with buttons only,
    the way the LEDs lead: nothing if the board has it already; if the board shows candidates,
    `next` until the right one is shown, then `confirm`; if it shows none (the move left no
    trace, or the board still waits for the move to settle), `confirm` first to ask for them.
    If the board is a move behind (an earlier move it could not see), the player first picks
    that earlier move, then the one leading to POSITION. Like a player watching the LEDs, it
    looks again after every press: a board that takes the move itself meanwhile (its evidence
    came in late) needs nothing more, and a question that changed is read anew.
    A board that waits (Cargocube's `wait=K`, revision A's default) may take a look-alike move
    for now and hold it in doubt: when it has taken a move since the last resolve and is at rest
    with moves in doubt, the player plays on (0 presses); when it asks about an earlier move
    (` at=PLY`), the player picks the candidate that led to a position an earlier resolve
    named (the truth then).
    Returns the presses used; raises ScriptError if the board cannot get there."""
    position = canonical(position, session.game)
    session.truths.append(position)
    held = _settle_or_doubt(session, position)
    if held is not None and not _asks_earlier(session):
        session.out("  resolved: the board has it, 0 presses" if not held else
                    "  resolved: the board holds it in doubt, 0 presses")
        return 0
    presses = 0
    looked = 0  # `next`s pressed to look at the moves of every reading a waiting board holds
    action = None
    rounds = 0  # the moves picked: the one leading to POSITION, after at most one earlier
    asked = False  # `confirm` pressed to ask for the moves the board may have missed
    fresh = False  # ... and nothing pressed since
    for _ in range(MAX_RESOLVE_PRESSES):
        got = session.position()
        if got == position and asked and session.doubts and \
                session.query("state")[1].startswith("ok state=asking "):
            # A waiting board read the piece it waited on as put down at the `confirm` (the
            # move wanted) and offers a move missed after it: there was none, `undo` says so
            session.press("undo")
            presses += 1
            asked = False
            continue
        if got == position and not _asks_earlier(session):
            break
        n, shown, cands, at = _candidates(session)
        if n == 0 and got != session.seen and _in_doubt(session, position):
            session.seen = got
            session.out(f"  resolved: the board holds it in doubt, {presses} press(es)")
            return presses
        if at >= 0:
            # a question about an earlier move: its candidate that led to the truth then
            target = sorted([c for c in cands if c[2] in session.truths],
                            key=lambda c: -_last_index(session.truths, c[2]))
            if not target:
                listing = "; ".join(f"{a} -> {p}" for _, a, p in cands[:12]) or "none"
                raise ScriptError(f"the question about ply {at} has no candidate that led to a"
                                  f" position resolved before ({listing})")
            idx, action, _ = target[0]
            if idx != shown:
                session.press("next")
            else:
                session.press("confirm")
                session.out(f"  resolved the earlier {action} (ply {at})")
                # the board reads the moves after it again: the player lets it settle and
                # reads what it then shows before pressing again (a `confirm` sooner is the
                # same press, Cargocube's CONFIRM_REPEAT_MS)
                session.wait(ACK_READ_MS)
                _settle_or_doubt(session, position)
            presses += 1
            continue
        if n == 0:
            if asked and not _told_taken(session, mark):
                raise ScriptError("position unreachable from the candidates (none)")
            if asked:
                session.wait(ACK_READ_MS)  # (a player reads the green before pressing again)
            mark = len(session.events)
            session.press("confirm")  # "I made a move you did not see": the board offers moves
            presses += 1
            asked = True
            fresh = True
            continue
        # (the one shown first: a waiting board shows a move of another reading on that
        # reading, and two readings' moves may read alike, a keeper's step naming no cell)
        target = sorted([c for c in cands if c[2] == position], key=lambda c: c[0] != shown)
        final = bool(target)
        doubt = not target and session.doubts and \
            " doubt=" in session.query("state")[1]
        if doubt and looked < n:
            # A waiting board offers the moves of every reading it holds and shows each on its
            # reading (docs/board-cargocube.md "Stop 49"): the player looks at each in turn
            session.press("next")
            presses += 1
            looked += 1
            fresh = False
            continue
        if not target and not doubt and _rules(session.game) is not None:
            target = [c for c in cands if _one_move_from(c[2], position, session.game)]
        if doubt and not target and asked:
            # A waiting board read the piece it waited on as put down (its moves onto stacks
            # in doubt) and offers a move missed after it: there was none, `undo` says so
            session.press("undo")
            presses += 1
            asked = False
            continue
        if not target:
            listing = "; ".join(f"{a} -> {p}" for _, a, p in cands[:12]) or "none"
            raise ScriptError(f"position unreachable from the candidates ({listing})")
        idx, action, _ = target[0]
        if idx != shown:
            session.press("next")
            presses += 1
            fresh = False
            continue
        if fresh:
            # the move shown by the `confirm` just pressed: a player reads it before pressing
            # again (a second press sooner is the same press, Cargocube's CONFIRM_REPEAT_MS)
            session.wait(ACK_READ_MS)
            fresh = False
        session.press("confirm")
        presses += 1
        if final and _asks_earlier(session):
            continue  # a waiting board asks about the move in doubt now: answered above
        if final:
            break
        rounds += 1
        if rounds > 1:
            raise ScriptError(f"position unreachable: two moves behind it ({action})")
        session.out(f"  resolved the earlier {action} first")
        asked = False
        if session.settle(position):
            break
    got = session.position()
    session.seen = got
    if got != position and _in_doubt(session, position):
        session.out(f"  resolved {action}: {presses} press(es) (the board holds it in doubt)")
        return presses
    if got != position:
        raise ScriptError(f"after confirming {action}: position is '{got}', not '{position}'")
    if action is None:  # the board took it itself after a press: its last action
        _, done = session.query("history")
        action = (done.split()[1:] or ["-"])[-1]
    session.out(f"  resolved {action}: {presses} press(es)")
    return presses


def _asks_earlier(session: "Session") -> bool:
    """Whether a waiting board (Cargocube's wait=K) asks about a move before its latest ones
    (` at=PLY`): the player answers it, though the board shows the position it should."""
    if not session.doubts:
        return False
    _, final = session.query("candidates")
    return ASKING_AT.search(final) is not None


def _settle_or_doubt(session: "Session", position: str, max_ms=SETTLE_WAIT_MS):
    """Session.settle, and a board that took a move since the last resolve and holds it in
    doubt (_in_doubt): False once the board tracks POSITION, True once it holds a move in
    doubt, None when neither within max_ms."""
    waited = 0
    while True:
        got = session.position()
        if got == position or (got != session.seen and _in_doubt(session, position)):
            session.seen = got  # (kept here: a query more would let sim time pass)
            return got != position
        if waited >= max_ms:
            return None
        session.wait(100)
        waited += 100


def _last_index(items: list, item) -> int:
    return len(items) - 1 - items[::-1].index(item)


def _told_taken(session: "Session", mark: int) -> bool:
    """Whether the board answered the `confirm` pressed at events[mark] by showing the move it
    last took (revision B, `evt taken`: nothing had moved since): a second `confirm` asks."""
    return any(e.startswith("evt taken ") for e in session.events[mark:])


def _one_move_from(before: str, after: str, game: str = "") -> bool:
    """Whether one legal action leads from position `before` to position `after`."""
    rules = _rules(game)
    try:
        pos = rules.Position.parse(before)
    except rules.RulesError:
        return False
    for a in pos.legal_actions():
        pos.push(a)
        hit = pos.notation() == after
        pos.pop()
        if hit:
            return True
    return False


# The lead may replace this with the tracker-aware version (same signature).
RESOLVE_HOOK = default_resolve


class Session:
    """A running simulated board: firmware process + world + pyserial on the pty."""

    def __init__(self, out=print, noise=None, calibrate=True, faults=None, **runner_kwargs):
        """faults: the board's hardware faults (cargoboard.sim.faults.Faults, `sim --fault`),
        in force from power-on."""
        self.out = out
        self.faults = faults
        # revision B's cells whose first cube has its magnet the wrong way round, till it comes
        self._reversing = set(faults.reversed) if faults else set()
        if runner_kwargs.get("revision", "A").upper() == "B":
            # revision B: linear Hall sensors, the field model (docs/virtual-board.md)
            physics = revb_physics()
            self.world = physics.HallWorld(noise or physics.Noise(), seed=0)
        else:
            self.world = World()
        self._runner_kwargs = runner_kwargs
        self.runner = make_runner(**runner_kwargs)
        self.runner.faults = faults
        self.runner.start()
        self._attach()
        self.replies: list[str] = []
        self.events: list[str] = []
        self.override: dict[int, int] = {}
        self.buttons = 0
        self.presses = 0
        self.game = ""
        self.truths: list[str] = []  # the positions resolve was given (the truth as it went)
        self.seen = None  # the board's position when the last resolve ended
        self.doubts = False  # whether the game may hold moves in doubt (console `readings`)
        self.step(1)
        if calibrate and self.runner.revision == "B" and any(
                e.startswith(UNCALIBRATED) for e in self.events):
            self.bring_up()

    def bring_up(self):
        """A revision-B board is calibrated at its bring-up (docs/bringup.md): a fresh virtual
        one (no zeros on its flash), still empty, is sent `calibrate` (its reply printed as
        an event's), so that its sensors' zero errors (the field model's, Noise.zero_mt) are
        taken out as on a real board. Session(calibrate=False) leaves it uncalibrated. A
        board that resumed a game from its flash (one served uncalibrated, or older than the
        calibration) refuses while it plays: it then plays on uncalibrated, and says so."""
        _, final = self.query("calibrate")
        self.out(f"  [{self.runner.t / 1000:8.2f}s] bring-up: calibrate: {final}")
        if not final.startswith("ok") and "a game is in play" not in final and not self.faults:
            # (a board given faults, `sim --fault row:Y`, may refuse, as docs/bringup.md says
            # a real one does: it then runs uncalibrated, its refusal printed above)
            raise FirmwareError(f"the fresh board did not calibrate: {final}")

    def close(self):
        try:
            self.ser.close()
        finally:
            self.runner.stop()

    def restart(self):
        """Power cut and power on: kill the firmware, start it again (same flash image, same
        pieces on the board; sim time goes on)."""
        t = self.runner.t
        self.ser.close()
        self.runner.kill()
        self.runner = make_runner(**self._runner_kwargs)
        self.runner.t = t
        self.runner.faults = self.faults
        self.runner.start()
        self._attach()
        self.step(1)

    def _attach(self, replay=True):
        """Open the board's pty with pyserial. What the board wrote before (the emulated Pico
        runs until it has booted) comes from the runner's log, not from the pty, whose input
        pyserial may discard when it opens it; replay=False leaves it out (it was said to
        someone else)."""
        import serial  # pyserial
        self.ser = serial.Serial(self.runner.port, 115200, timeout=0)
        self.ser.reset_input_buffer()
        self._rx = bytearray(self.runner.serial_log if replay else b"")
        self._rx_count = len(self.runner.serial_log)

    def load_link(self):
        """The host link loaded as at a PC's first frame: one HELLO (docs/protocol.md) with the
        host's clock, its reply read and dropped; the board then holds the link's code and
        knows the time, as when a PC follows it."""
        from firmware.drivers import frames as F
        from firmware.system import link as L
        from cargoboard.link import hello_body
        body = hello_body()
        # a seq whose frame has no 0x03 byte: the board's Ctrl-C is still on (docs/protocol.md)
        frame = next(f for f in (F.encode(L.HELLO, seq, body) for seq in range(1, 256))
                     if 3 not in f)
        self.ser.write(frame)
        self.ser.flush()
        self.runner.wait_serial_input(2.0)
        self.step(20)
        self.replies.clear()

    def host_tools(self):
        """Context manager: the board is served on its pty for host tools (a Link, `cargoboard
        sync`'s code; the port is what the block gets) while the block runs. The script's
        console is closed meanwhile and opened again after; what the board told the host
        tools is not taken as replies or events."""
        import contextlib

        @contextlib.contextmanager
        def _served():
            self.ser.close()
            try:
                with self.runner.serving():
                    yield self.runner.port
            finally:
                self._attach(replay=False)
        return _served()

    # --- time and I/O ------------------------------------------------------------------------
    def step(self, frames=1):
        r = self.runner
        for _ in range(frames):
            if r.revision == "B":
                for c in list(self._reversing):  # its cube has come: the fault is in it
                    if self.world.reverse_magnet(c):
                        self._reversing.discard(c)
                r.sums = self.world.adc_sums()   # a fresh scan, ADC noise and all
            s = self.world.sensors()
            for c, v in self.override.items():
                if v:
                    s[c >> 3] |= 1 << (c & 7)
                else:
                    s[c >> 3] &= ~(1 << (c & 7)) & 0xFF
            r.sensors[:] = s
            r.buttons = self.buttons
            r.step(1)
            self._sync()

    def wait(self, ms):
        self.step(max(0, (ms + FRAME_MS - 1) // FRAME_MS))

    def _sync(self):
        """Read from the pty slave everything the firmware has written so far."""
        target = len(self.runner.serial_log)
        fd = self.ser.fileno()
        while self._rx_count < target:
            rd, _, _ = select.select([fd], [], [], 2.0)
            if not rd:
                raise ScriptError("serial bytes from the firmware did not arrive on the pty")
            data = self.ser.read(4096)
            self._rx_count += len(data)
            self._rx += data
        while b"\n" in self._rx:
            line, _, rest = bytes(self._rx).partition(b"\n")
            self._rx = bytearray(rest)
            text = line.decode(errors="replace").rstrip("\r")
            if text.startswith("evt "):
                self.events.append(text)
                if text.startswith(COMMITS):
                    self.world.rest()  # the move is taken: a cube lifted next starts anew
                self.out(f"  [{self.runner.t / 1000:8.2f}s] {text}")
            else:
                self.replies.append(text)

    def query(self, command: str, max_frames=None):
        """Send a command line over the pty; returns (data lines, final ok/err line). The
        board has the runner's `reply_ms` to answer (sim time)."""
        if max_frames is None:
            max_frames = self.runner.reply_ms // FRAME_MS
        self.replies.clear()
        self.ser.write(command.encode() + b"\n")
        self.ser.flush()
        self.runner.wait_serial_input(2.0)
        data = []
        for _ in range(max_frames):
            self.step(1)
            while self.replies:
                line = self.replies.pop(0)
                if line == "ok" or line.startswith("ok ") or line == "err" or line.startswith("err "):
                    return data, line
                data.append(line)
        raise ScriptError(f"no reply to '{command}' within {max_frames} frames")

    def settle(self, position: str, max_ms=SETTLE_WAIT_MS) -> bool:
        """Let time pass (up to max_ms) while the board is still taking in the last move (it
        commits a move once the pieces have been still for a moment); True once it tracks
        POSITION."""
        waited = 0
        while True:
            if self.position() == position:
                return True
            if waited >= max_ms:
                return False
            self.wait(100)
            waited += 100

    def heap_in_use(self) -> int:
        """Bytes the board's heap has in use after a collection (console `mem`)."""
        _, final = self.query("mem")
        m = MEM_REPLY.match(final)
        if not m:
            raise ScriptError(f"mem: {final}")
        return int(m.group(1))

    def readings(self) -> list:
        """The positions the board's readings of moves in doubt lead to (Cargocube's `wait=K`,
        console `readings`; [] when none, or for a game without them)."""
        if not self.doubts:
            return []
        data, final = self.query("readings")
        if not final.startswith("ok"):
            return []
        return [line.split(" ", 2)[2] for line in data if line.startswith("reading ")]

    def position(self) -> str:
        data, final = self.query("pos")
        if not final.startswith("ok"):
            raise ScriptError(f"pos: {final}")
        return final[3:].strip()

    # --- physical actions ----------------------------------------------------------------------
    def press(self, name: str):
        bit = BUTTONS.get(name.lower())
        if bit is None:
            raise ScriptError(f"unknown button '{name}' (confirm next undo hint end)")
        self.buttons |= bit
        self.wait(PRESS_MS)
        self.buttons &= ~bit
        self.wait(PRESS_MS)
        self.presses += 1

    def lift(self, cell: int):
        self.world.lift(cell)
        self.wait(HAND_MS)

    def place(self, cell: int):
        self.world.place(cell)
        self.wait(HAND_MS)

    def drop(self, cell: int):
        self.world.drop(cell)
        self.wait(HAND_MS)

    def take(self, cell: int):
        self.world.take(cell)
        self.wait(HAND_MS)

    def turn(self, cell: int, d: int):
        self.world.turn(cell, d)
        self.wait(HAND_MS)

    def bounce(self, cell: int):
        true = self.world.occupied(cell)
        v = not true
        for _ in range(BOUNCE_MS // FRAME_MS):
            self.override[cell] = int(v)
            self.step(1)
            v = not v
        self.override.pop(cell, None)
        self.wait(SETTLE_MS)

    def slide(self, cells: list[int]):
        if len(cells) < 2:
            raise ScriptError("slide needs at least two cells (from ... to)")
        self.world.lift(cells[0])
        for c in cells[1:-1]:
            self.override[c] = 1
            self.wait(SLIDE_CROSS_MS)
            self.override.pop(c, None)
        self.world.place(cells[-1])
        self.wait(HAND_MS)

    def new_game(self, game: str, layout: str, seats: str | None, options=(), setup=None):
        """options: the KEY=VALUE words for the firmware's `new`; setup: the keywords of the
        game's world part's setup (Cargocube's cards and teleport, its new_game_words)."""
        self.game = game
        self.truths = []
        self.seen = None
        self.doubts = False
        extra = "".join(" " + w for w in options)
        words = f"{layout} {seats}" if seats else layout
        data, final = self.query(f"new {game} {words}{extra}")
        if not final.startswith("ok"):
            raise ScriptError(f"new {game}: {final}")
        world_part = games.part(game, "world")
        if world_part is not None:  # the game models its pieces (Cargocube's cubes roll)
            world_part.setup(self.world, layout, seats, **(setup or {}))
        else:
            _, m = self.query("mask")
            parts = m.split()
            if len(parts) != 3 or parts[0] != "ok":
                raise ScriptError(f"mask: {m}")
            hand = games.part(game, "hand")
            self.world.setup_mask(bytes.fromhex(parts[2]),
                                  corners_open=getattr(hand, "CORNERS_IN_PLAY", False)
                                  or game == SELFTEST)
        for _ in range(SETUP_TIMEOUT_MS // 100):
            self.wait(100)
            _, st = self.query("status")
            if "state=play" in st:
                if getattr(world_part, "MAY_HOLD_DOUBTS", False):
                    # a game whose board may wait before it asks (Cargocube's wait=K) answers
                    # `readings` when it has the option (docs/serial-protocol.md)
                    self.doubts = self.query("readings")[1].startswith("ok")
                return
        raise ScriptError(f"the board did not start the game after setup: {st}")

    # --- one script line -----------------------------------------------------------------------
    def execute(self, line: str) -> int:
        """Run one script line; returns the button presses it used. Raises ScriptError."""
        line = strip_comment(line).strip()
        if not line:
            return 0
        verb, _, rest = line.partition(" ")
        rest = rest.strip()
        args = rest.split()
        before = self.presses
        try:
            if verb == "new-game":
                # GAME and LAYOUT come first (a layout may be `position=...`); KEY=VALUE
                # words after them are the game's options; a game's own words after SEATS
                # (Cargocube's cards and teleport) its world part takes off (new_game_words)
                options = [w for w in args[2:] if "=" in w]
                words = args[:2] + [w for w in args[2:] if "=" not in w]
                own_words = getattr(games.part(words[0], "world") if words else None,
                                    "new_game_words", None)
                taken = own_words(words) if own_words else ((), {})
                if taken is None or len(words) not in (2, 3):
                    raise ScriptError(new_game_usage())
                self.new_game(words[0], words[1], words[2] if len(words) == 3 else None,
                              [*taken[0], *options], taken[1])
            elif verb in ("lift", "place", "drop", "take"):
                if len(args) != 1:
                    raise ScriptError(f"usage: {verb} CELL")
                getattr(self, verb)(parse_cell(args[0]))
            elif verb == "press":
                if len(args) != 1:
                    raise ScriptError("usage: press confirm|next|undo|hint|end")
                self.press(args[0])
            elif verb == "wait":
                if len(args) != 1 or not args[0].isdecimal():
                    raise ScriptError("usage: wait MS (a whole number of milliseconds)")
                if int(args[0]) > MAX_WAIT_MS:
                    raise ScriptError(f"wait {args[0]}: at most {MAX_WAIT_MS} ms (10 minutes of "
                                      "board time) in one line")
                self.wait(int(args[0]))
            elif verb == "expect":
                if not rest:
                    raise ScriptError("usage: expect POSITION")
                rest = canonical(rest, self.game)
                self.settle(rest)
                got = self.position()
                if got != rest and rest in self.readings():
                    # a waiting board (Cargocube's wait=K) shows another reading for now
                    self.out("  expected position: a reading the board holds in doubt")
                elif got != rest:
                    raise ScriptError(f"expected position\n    {rest}\n  but the board tracks\n    {got}")
            elif verb == "resolve":
                if not rest:
                    raise ScriptError("usage: resolve POSITION")
                RESOLVE_HOOK(self, rest)
            elif verb == "bounce":
                if len(args) != 1:
                    raise ScriptError("usage: bounce CELL")
                self.bounce(parse_cell(args[0]))
            elif verb == "turn":
                if len(args) != 2 or args[1].lower() not in TURNS:
                    raise ScriptError("usage: turn CELL cw|acw")
                self.turn(parse_cell(args[0]), TURNS[args[1].lower()])
            elif verb == "slide":
                self.slide([parse_cell(a) for a in args])
            elif verb == "restart":
                if args:
                    raise ScriptError("usage: restart")
                self.restart()
            elif verb in ("send", "send-err"):
                if not rest:
                    raise ScriptError(f"usage: {verb} TEXT")
                data, final = self.query(rest)
                if rest.split()[:2] == ["new", SELFTEST] and final.startswith("ok"):
                    # (the firmware's game, no world part: every cell is the test's)
                    self.world.corners_open = True
                for d in data:
                    self.out(f"  {d}")
                self.out(f"  {final}")
                refused = final.startswith("err")
                if refused and verb == "send":
                    raise ScriptError(f"the board refused '{rest}': {final}")
                if not refused and verb == "send-err":
                    raise ScriptError(f"the board took '{rest}' ({final}), it should refuse it")
            else:
                raise ScriptError(f"unknown verb '{verb}' ({' '.join(VERBS)})")
        except WorldError as e:
            raise ScriptError(str(e)) from None
        return self.presses - before


def strip_comment(line: str) -> str:
    if line.lstrip().startswith("#"):
        return ""
    m = re.search(r"\s#", line)
    return line[:m.start()] if m else line


def _stderr_line(text):
    import sys
    print("cargoboard sim: error: %s" % text, file=sys.stderr)


def run_script(path, out=print, serve=None, err=_stderr_line, **runner_kwargs) -> int:
    """Run a script file; returns the exit status (0 = every line held). With `serve` (a
    path), a board whose script held then keeps serving on that pty symlink until
    interrupted (its flash intact), e.g. for `cargoboard sync --port PATH`. A script that
    cannot be read or a board that does not start is one line to err (stderr: not in the
    report that out gets), exit status 2."""
    from cargoboard.clikit import MAX_INPUT_FILE, read_at_most
    try:
        with open(path, "rb") as f:
            data = read_at_most(f)
        if data is None:
            err(f"{path}: cannot read: longer than {MAX_INPUT_FILE >> 20} MiB; a script is "
                f"some KB")
            return 2
        lines = data.decode("utf-8").splitlines()
    except OSError as e:
        err(f"{path}: cannot read: {e.strerror}")
        return 2
    except UnicodeDecodeError as e:
        err(f"{path}: cannot read: not UTF-8 text (byte {e.object[e.start]:#04x} at offset "
            f"{e.start}); a script is UTF-8 text")
        return 2
    try:
        session = Session(out=out, **runner_kwargs)
    except (FirmwareError, OSError) as e:
        err(f"{path}: cannot start the simulated board: {e}")
        return 2
    status = 0
    try:
        for no, raw in enumerate(lines, 1):
            text = strip_comment(raw).strip()
            if not text:
                continue
            out(f"{path}:{no}: {text}")
            before = session.presses
            try:
                used = session.execute(text)
            except (ScriptError, FirmwareError) as e:
                broke = "the firmware broke down: " if isinstance(e, FirmwareError) else ""
                used = session.presses - before  # a failed resolve may have pressed some
                out(f"{path}:{no}: FAILED: {broke}{e}"
                    + (f" (after {used} button press(es) on this line)" if used else ""))
                status = 1
                break
            if used:
                out(f"  buttons used: {used}")
        total = session.presses
        if status == 0 and serve:
            session.ser.close()
            out(f"{path}: ok; {total} button press(es)")
            return session.runner.serve_on(serve, out)
    finally:
        session.close()
    errs = [e for e in session.events if e.startswith("evt error")]
    out(f"{path}: {'ok' if status == 0 else 'FAILED'}; {total} button press(es); "
        f"{len(errs)} firmware error event(s); sim time {session.runner.t / 1000:.2f}s")
    return status
