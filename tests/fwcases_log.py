"""The app's game log (firmware/system/app.py with firmware/system/gamelog.py), MicroPython-compatible cases:
run by tests/test_app_log.py under CPython (a temporary directory) and under the MicroPython
unix port (littlefs on a RAM block device). The Cargocube plug-in is driven the way the board
drives it: the sensors show the pieces where an action leaves them, frames pass, the tracker
commits; a reboot is a new App on the same flash with the pieces where they were. The games
are the board that asks at once (`wait=0`), which `act` drives; the waiting board's log
(revision A's default) is tests/cargocube/test_cargocube_waiting.py's and test_logfile.py's."""

from binascii import crc32
from fwcases import list_cases, run_cases
from fwcases_app import FakeHal
from gamelog_cases import new_root
from firmware import hal as H
from firmware.drivers import leds as L
from firmware.games.cargocube import tracker as T
from firmware.system import logformat as LF
from firmware.system import logread
from firmware.system.gamelog import GameLog
from firmware.system import logboot
from firmware.system.app import App, PLAY, IDLE, SETUP, CORNERS
from firmware.system.plugins import register, load
from shared_rules.cargocube import rules as cc


def boot(root, sensors=None, reserve=None):
    """A board powered on with the flash at root: (hal, app), resumed if there was a game."""
    hal = FakeHal()
    if sensors is not None:
        hal.sensors[:] = sensors
    gl = GameLog(root, "board-1") if reserve is None else GameLog(root, "board-1", reserve)
    app = App(hal, gamelog=gl)
    hal.app = app
    logboot.resume(app, load)  # as firmware/system/boot.py does
    app.step()
    return hal, app


def events(hal, prefix="evt log "):
    out = []
    for line in bytes(hal.out).decode().split("\n"):
        if line.startswith(prefix):
            out.append(line[len(prefix):])
    return out


def ask(hal, app, line):
    """Send a command line, run a frame, return the reply lines."""
    n = len(hal.out)
    hal.inp = line.encode() + b"\n"
    app.step()
    return [x for x in bytes(hal.out[n:]).decode().split("\n") if x and not x.startswith("evt ")]


def start_game(root):
    hal, app = boot(root)
    app.new_game("cargocube", {"seats": "SN", "wait": "0"})
    hal.sensors[:] = app.mask
    for f in range(5):
        app.step()
    assert app.state == PLAY
    return hal, app


def frames(app, n):
    for f in range(n):
        app.step()


def press(app, bit):
    app._injected |= bit
    app.step()


def act(hal, app, a):
    """Do action a on the board: the pieces move, the board commits it (asked: the right
    candidate is confirmed; a move without a trace: confirm first to be offered it)."""
    g = app.game
    pos = g.pos
    ply = pos.ply()
    if a[0] == cc.END:
        press(app, H.END)
    else:
        pos.push(a)
        T.occupancy(pos, hal.sensors)
        pos.pop()
        frames(app, 60)  # debounce + the tracker's settle time
        if pos.ply() == ply:
            t = g.tracker
            if t.state != T.ASKING:
                press(app, H.CONFIRM)
                frames(app, 50)  # read the move shown (a `confirm` within 0.4 s is the same)
            assert t.state == T.ASKING and a in t.candidates, (cc.format_action(a), t.state)
            while t.candidates[t.index] != a:
                press(app, H.NEXT)
            press(app, H.CONFIRM)
    assert pos.ply() == ply + 1 and pos.history()[-1] == a, cc.format_action(a)
    frames(app, 3)


def undo(hal, app):
    ply = app.game.pos.ply()
    press(app, H.UNDO)
    assert app.game.pos.ply() == ply - 1
    T.occupancy(app.game.pos, hal.sensors)  # the player puts the piece back
    frames(app, 60)


def pick(pos, i):
    legal = [a for a in pos.legal_actions() if a[0] != cc.END]
    return legal[(i * 7) % len(legal)]


def logged(app, n):
    gl = app.glog
    h, recs, good, problem = LF.parse(logread.read(gl, n, 0, logread.size(gl, n)))
    assert problem is None, problem
    return h, recs


def case_game_is_logged_and_resumed_after_a_reboot():
    root = new_root()
    hal, app = start_game(root)
    assert events(hal) == ["begin game=1"]
    pos = app.game.pos
    done = []
    for i in range(4):
        a = pick(pos, i)
        act(hal, app, a)
        done.append(a)
    undo(hal, app)
    done.pop()
    for i in range(4, 6):
        a = pick(pos, i)
        act(hal, app, a)
        done.append(a)
    h, recs = logged(app, 1)
    assert (h.kind, h.variant, h.seats, h.rules, h.board) == (
        "cargocube", "polygon", "SN", cc.RULES_VERSION, "board-1")
    assert h.start == cc.start_position(2).notation()
    assert [r[0] for r in recs] == [LF.ACTION] * 4 + [LF.UNDO] + [LF.ACTION] * 2
    before = pos.notation()
    history = pos.history()
    assert history == done
    # Power cut; power on with the pieces where they are.
    hal2, app2 = boot(root, hal.sensors)
    assert app2.state == PLAY and app2.game_name == "cargocube"
    assert events(hal2) == ["resumed game=1 actions=5 records=7 dropped=0"]
    frames(app2, 5)
    g2 = app2.game
    assert g2.pos.notation() == before and g2.pos.history() == history
    assert g2.tracker.state == T.IDLE  # the board agrees with the position
    assert ask(hal2, app2, "mask") == ["ok %d %s" % (H.bit_count(hal.sensors),
                                                     "".join(["%02x" % b for b in hal.sensors]))]
    # The game goes on and the log with it.
    a = pick(g2.pos, 9)
    act(hal2, app2, a)
    h, recs = logged(app2, 1)
    assert len(recs) == 8 and recs[-1] == (LF.ACTION, cc.encode_action(a))


def case_board_disagreeing_after_a_reboot_shows_it():
    root = new_root()
    hal, app = start_game(root)
    act(hal, app, pick(app.game.pos, 0))
    sensors = bytearray(hal.sensors)
    c = 0
    while not H.bit_get(sensors, c) or c in CORNERS:
        c += 1
    H.bit_set(sensors, c, 0)  # a piece fell off while the power was out
    hal2, app2 = boot(root, sensors)
    frames(app2, 80)
    t = app2.game.tracker
    # a missing piece reads as a piece lifted (moving) or a mistake: the LEDs show it
    assert app2.state == PLAY and t.state in (T.MOVING, T.MISMATCH) and c in t.diff, (
        t.state, t.diff)


def case_abort_and_new_abandon_the_open_game():
    root = new_root()
    hal, app = start_game(root)
    act(hal, app, pick(app.game.pos, 0))
    assert ask(hal, app, "abort") == ["ok"]
    assert events(hal)[-1] == "abandoned game=1"
    assert logread.state(app.glog, 1) == LF.ABANDON and app.glog.current() == 0
    hal2, app2 = boot(root, hal.sensors)
    assert app2.state == IDLE and events(hal2) == []  # nothing to resume
    # A new game while one is in play: the old one is abandoned once the new one is made.
    hal3, app3 = start_game(root)
    assert app3.glog.current() == 2
    app3.new_game("cargocube", {"seats": "SN", "wait": "0"})  # the pieces stand as it wants: it starts
    assert logread.state(app3.glog, 2) == LF.ABANDON
    assert events(hal3)[-2:] == ["abandoned game=2", "begin game=3"]
    try:
        app3.new_game("cargocube", {"seats": "XY"})
        assert False, "bad seats refused"
    except ValueError:
        pass


def case_end_of_game_is_logged_once_and_undo_reopens():
    root = new_root()
    hal, app = start_game(root)
    act(hal, app, pick(app.game.pos, 0))
    g = app.game
    g.record_over()  # what the plug-in reports when the tracker finds the game over
    g.record_over()
    h, recs = logged(app, 1)
    assert [r[0] for r in recs] == [LF.ACTION, LF.FINISH]
    assert events(hal)[-1] == "finished game=1"
    assert logread.state(app.glog, 1) == LF.FINISH
    undo(hal, app)
    h, recs = logged(app, 1)
    assert [r[0] for r in recs] == [LF.ACTION, LF.FINISH, LF.UNDO]
    assert logread.state(app.glog, 1) == 0
    ask(hal, app, "abort")
    assert logread.state(app.glog, 1) == LF.ABANDON


def case_games_logread_logdel_commands():
    root = new_root()
    hal, app = start_game(root)
    act(hal, app, pick(app.game.pos, 0))
    size = logread.size(app.glog, 1)
    lines = ask(hal, app, "games")
    assert lines[0] == "game 1 %d open current" % size
    assert lines[1].startswith("ok 1 free=") and " low=0 current=1 board=board-1" in lines[1]
    assert ask(hal, app, "logread 1 0 5") == ["ok 4342474c01"]
    assert ask(hal, app, "logread 1 %d 10" % size) == ["ok"]
    assert ask(hal, app, "logread 1 0 999")[0].startswith("err COUNT at most")
    assert ask(hal, app, "logread 7 0 4") == ["err no game 7 on the board"]
    assert ask(hal, app, "logread x")[0].startswith("err usage: logread")
    assert ask(hal, app, "logdel 1 00000000") == ["err game 1 is being played (abort it first)"]
    ask(hal, app, "abort")
    assert ask(hal, app, "games")[0] == "game 1 %d abandoned" % (size + 4)
    # deleted only with the CRC-32 of the bytes a host has read (a typed `logdel 1` deleted a
    # game no PC had)
    assert ask(hal, app, "logdel 1")[0].startswith("err usage: logdel GAME CRC32")
    assert ask(hal, app, "logdel 1 xyz")[0].startswith("err usage: logdel GAME CRC32")
    data = b""
    while True:
        got = ask(hal, app, "logread 1 %d 200" % len(data))[0]
        if got == "ok":
            break
        data += bytes.fromhex(got[3:])
    assert len(data) == size + 4
    crc = "%08x" % (crc32(data) & 0xFFFFFFFF)
    wrong = "%08x" % ((crc32(data) ^ 1) & 0xFFFFFFFF)
    assert ask(hal, app, "logdel 1 " + wrong)[0].startswith("err game 1's log has CRC-32 " + crc)
    assert ask(hal, app, "games")[0] == "game 1 %d abandoned" % (size + 4)
    assert ask(hal, app, "logdel 7 " + crc) == ["err no game 7 on the board"]
    assert ask(hal, app, "logdel 1 " + crc.upper()) == ["ok"]
    assert ask(hal, app, "games")[0].startswith("ok 0 free=")
    # the board has heard no host's HELLO: it does not know the time (docs/protocol.md)
    assert ask(hal, app, "hello")[0].endswith(" board=board-1 time=0")


def case_flash_low_refuses_new_games_and_warns():
    root = new_root()
    hal, app = boot(root, None, 1 << 60)
    assert app.flash_low and events(hal)[0].startswith("flash low free=")
    r = ask(hal, app, "new cargocube polygon SN")
    assert r[0].startswith("err flash low:") and "sync" in r[0], r
    assert app.state == IDLE and logread.games(app.glog) == []
    frames(app, 2)
    f = hal.shown
    for c in CORNERS:  # the corners blink orange (slow): on in the first half of 64 frames
        on = max(f[3 * c:3 * c + 3]) != 0
        assert on == (((app.frame_no - 1) & 63) < 32), c
    assert f[3 * 5:3 * 5 + 3] == b"\x00\x00\x00"
    assert ask(hal, app, "games")[0].endswith("low=1 current=0 board=board-1")
    # A game that is not logged is not refused.
    register("test", "sim_testgame")
    assert ask(hal, app, "new test")[0].startswith("ok setup")
    assert app.state == SETUP
    # Room again (the host deleted synced games): the warning goes.
    app.glog.reserve = 0
    ask(hal, app, "abort")
    assert ask(hal, app, "new cargocube polygon SN")[0].startswith("ok setup")
    assert not app.flash_low


def case_plugins_without_log_header_are_not_logged():
    root = new_root()
    register("test", "sim_testgame")
    hal, app = boot(root)
    app.new_game("test", {})
    hal.sensors[:] = app.mask
    frames(app, 5)
    assert app.state == PLAY
    assert logread.games(app.glog) == [] and events(hal) == []


def case_a_log_that_does_not_replay_is_abandoned():
    # (imported here: an earlier case's board set up another game while idle, and the
    # firmware dropped Cargocube's modules, which the module-level `cc` still points into)
    from shared_rules.cargocube import rules as cc
    root = new_root()
    gl = GameLog(root, "board-1")
    gl.begin("cargocube", "polygon", "SN", cc.start_position(2).notation(), None,
             cc.RULES_VERSION, 0)
    gl.append(b"\x7f\x7f")  # no legal action
    hal, app = boot(root)
    ev = events(hal)
    assert app.state == IDLE and ev[0].startswith("resume-failed game=1: RulesError"), ev
    assert ev[1] == "abandoned game=1"
    assert logread.state(app.glog, 1) == LF.ABANDON
    gl = GameLog(root, "board-1")
    gl.begin("cargocube", "polygon", "SN", cc.start_position(2).notation(), None,
             cc.RULES_VERSION + 1, 0)
    hal, app = boot(root)
    assert "rules version" in events(hal)[0]
    gl = GameLog(root, "board-1")
    gl.begin("nosuchgame", "x", "SN", "-", None, 1, 0)
    hal, app = boot(root)
    assert events(hal)[0].startswith("resume-failed game=3: ValueError: unknown game")


class Game:
    """A plug-in whose resume runs out of memory (registered as 'memgame')."""

    def __init__(self, options):
        pass

    def log_header(self):
        return ("v", "SN", "-", 1)

    def resume(self, records):
        raise MemoryError("memory allocation failed")


class QuietGame:
    """A plug-in that starts at once, holds next to nothing and is not logged."""

    def __init__(self, options):
        pass

    def setup_mask(self):
        return None

    def start(self):
        pass

    def tick(self, now_ms):
        pass

    def paint(self, p, frame_no):
        pass


class TightGame(QuietGame):
    """A plug-in that does not fit beside another game the first `fails` times it is made."""
    fails = 1

    def __init__(self, options):
        if TightGame.fails:
            TightGame.fails -= 1
            raise MemoryError("memory allocation failed")


def case_a_new_game_that_does_not_fit_beside_the_old_one_replaces_it():
    root = new_root()
    hal, app = start_game(root)
    register("tight", "fwcases_log")
    import fwcases_log
    memgame = fwcases_log.Game
    fwcases_log.Game = TightGame  # the registry loads a module's Game class
    try:
        TightGame.fails = 1
        app.new_game("tight", {})
        assert app.game_name == "tight" and app.state == PLAY and app.errors == 0
        assert events(hal) == ["begin game=1", "abandoned game=1"], events(hal)
        # Out of memory even alone: no game, a clear error, the old log closed all the same.
        hal, app = start_game(root)
        TightGame.fails = 2
        try:
            app.new_game("tight", {})
            raise AssertionError("new_game should have failed")
        except ValueError as e:
            assert str(e) == "MemoryError: memory allocation failed", e
        assert app.game is None and app.state == IDLE
        assert logread.state(app.glog, 2) == LF.ABANDON
    finally:
        fwcases_log.Game = memgame


def case_out_of_memory_on_resume_keeps_the_log_open():
    root = new_root()
    register("memgame", "fwcases_log")
    gl = GameLog(root, "board-1")
    gl.begin("memgame", "v", "SN", "-", None, 1, 0)
    gl.append(b"\x01")
    hal, app = boot(root)
    assert app.state == IDLE and app.errors == 1
    assert "error log resume game=1: MemoryError" in bytes(hal.out).decode()
    assert logread.state(app.glog, 1) == 0 and app.glog.current() == 0  # open, for the next boot
    hal, app = boot(root)
    assert logread.state(app.glog, 1) == 0


def case_out_of_memory_at_log_begin_is_tried_once_more():
    # Right after a game's modules are loaded the heap may hold no free block for the log's
    # file: the app collects and tries once more (a 4-player game at 192 KiB did this).
    root = new_root()
    hal, app = boot(root)
    real = app.glog.begin
    calls = []

    def tight(*args):
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError("memory allocation failed")
        return real(*args)

    app.glog.begin = tight
    app.new_game("cargocube", {"seats": "SN", "wait": "0"})
    hal.sensors[:] = app.mask
    frames(app, 5)
    assert app.state == PLAY and len(calls) == 2 and app.errors == 0
    assert events(hal) == ["begin game=1"], events(hal)
    assert app.glog.current() == 1

    def full(*args):
        calls.append(1)
        raise MemoryError("memory allocation failed")

    app.glog.begin = full  # out of memory twice: reported once, the game goes on unlogged
    app.new_game("cargocube", {"seats": "SN", "wait": "0"})
    frames(app, 5)
    assert app.state == PLAY and len(calls) == 4 and app.errors == 1
    assert "evt error log begin: MemoryError: memory allocation failed" in bytes(hal.out).decode()


def case_a_failing_flash_stops_the_log_not_the_game():
    root = new_root()
    hal, app = start_game(root)
    act(hal, app, pick(app.game.pos, 0))
    gl = app.glog

    def broken(payload):
        raise OSError(5)

    gl.append = broken
    act(hal, app, pick(app.game.pos, 1))  # the game goes on
    ev = events(hal)
    assert ev[-1] == "stopped game=1" and app.errors == 1, ev
    assert gl.current() == 0
    del gl.append
    act(hal, app, pick(app.game.pos, 2))
    h, recs = logged(app, 1)
    assert len(recs) == 1  # a true prefix of the game: nothing after the gap


class LoggedGame(QuietGame):
    """A logged plug-in (registered as 'small')."""

    def log_header(self):
        return ("v", "SN", "-", 1)


class FillingGame(QuietGame):
    """An unlogged plug-in whose making leaves the heap full and in pieces (on MicroPython; on
    CPython it holds nothing), as a big game set up at 192 KiB does: what stays free lies in
    holes too small for a littlefs file open (registered as 'filling')."""
    held = None

    def __init__(self, options):
        import sys
        if sys.implementation.name != "micropython":
            return
        import gc
        keep = [None] * 4096
        n = 0
        try:
            while n < len(keep):
                keep[n] = bytearray(400)
                bytearray(400)  # garbage beside it: a 400-byte hole after a collection
                n += 1
        except MemoryError:
            pass
        FillingGame.held = keep
        gc.collect()


def case_a_game_switch_closes_the_old_log_in_a_heap_in_pieces():
    # The old game's log is closed once the new game is made, when the heap is at its fullest
    # and in pieces (the soak on the unix port at 192 KiB: `log close: MemoryError ...
    # allocating 1200 bytes`, the old game's log left open). The block for the close's file
    # open is held from before the new game's code comes in.
    import fwcases_log
    root = new_root()
    hal, app = boot(root)
    register("small", "fwcases_log")
    register("filling", "fwcases_log")
    memgame = fwcases_log.Game
    try:
        fwcases_log.Game = LoggedGame
        app.new_game("small", {})
        assert app.state == PLAY and events(hal) == ["begin game=1"], events(hal)
        hal.out = bytearray()  # the replies grow it: it must fit in the heap's holes
        fwcases_log.Game = FillingGame
        app.new_game("filling", {})
        out = bytes(hal.out).decode()
        assert "error" not in out, out
        assert events(hal) == ["abandoned game=1"], out
        assert app.game_name == "filling" and app.glog.spare is None  # not logged: no block
        FillingGame.held = None
        assert logread.state(app.glog, 1) == LF.ABANDON
    finally:
        FillingGame.held = None
        fwcases_log.Game = memgame


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
