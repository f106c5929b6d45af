"""App render-on-change cases, MicroPython-compatible: run by tests/test_firmware_cases.py under
CPython (each case a pytest test) and under the MicroPython unix port (run_all()).

The module is also a tiny game plug-in (class Game, with paint_version) for these cases."""

import sys

from fwcases import list_cases, run_cases
from firmware import hal as H
from firmware.drivers import leds as L
from firmware.system.app import App, PLAY, SETUP
from firmware.system.plugins import register
from hardware.pinmap import LED_BUDGET_MAX_MA


class FakeHal(H.Hal):
    """In-process HAL: 10 ms per frame, settable sensors, records every show(); no clock (the
    interface's defaults)."""

    led_budget_max_ma = LED_BUDGET_MAX_MA

    name = "fake"

    def __init__(self):
        self.t = 0
        self.sensors = bytearray(16)
        self.inp = None
        self.out = bytearray()
        self.shows = []          # frame numbers of the show() calls
        self.shown = None        # the last frame shown (what the LEDs display)
        self.app = None

    def wait_frame(self):
        self.t += 10

    def ticks_ms(self):
        return self.t

    def ticks_us(self):
        return self.t * 1000

    def read_sensors(self, buf):
        for i in range(16):
            buf[i] = self.sensors[i]

    def read_buttons(self):
        return 0

    def serial_read(self):
        d = self.inp
        self.inp = None
        return d

    def serial_write(self, b):
        self.out.extend(b)

    def show(self, frame):
        self.shows.append(self.app.frame_no)
        self.shown = bytes(frame)


def draw(p, version):
    """What Game.paint draws for a version (also used for the reference renders)."""
    p.cell(5, L.BLUE, 128)
    p.cell(6, L.YELLOW, 255, L.BLINK_FAST)
    p.cell(7 + version % 3, L.CYAN, 255, L.BLINK_SLOW)
    p.cell(20, L.WHITE, 255, L.BLINK_WINK)
    p.turn(0)
    p.score(0, version, 9)
    p.score(2, 3, 9)


class Game:
    """Versioned test plug-in: no setup; every accepted change bumps paint_version."""

    made_with = None  # the modules loaded when the last game of it was made

    def __init__(self, options):
        self.paint_version = 0
        self.paints = 0
        Game.made_with = set(sys.modules)

    def setup_mask(self):
        return None

    def start(self):
        pass

    def on_change(self, occ, now_ms):
        self.paint_version += 1

    def on_button(self, bit, now_ms):
        pass

    def tick(self, now_ms):
        pass

    def paint(self, p, frame_no):
        self.paints += 1
        draw(p, self.paint_version)

    def command(self, words):
        return None

    def scores(self):
        return [0, 0, 0, 0]


class Unversioned(Game):
    """The same plug-in without paint_version (older plug-ins): painted every frame."""

    def __init__(self, options):
        self.paints = 0
        self.v = 0

    def on_change(self, occ, now_ms):
        self.v += 1

    def paint(self, p, frame_no):
        self.paints += 1
        draw(p, self.v)



def _app(name="vtest"):
    register("vtest", "fwcases_app")
    hal = FakeHal()
    app = App(hal)
    hal.app = app
    app.new_game(name, {})
    return hal, app


def _reference(app, version):
    ref = L.Painter(app.painter.cap, app.painter.budget_ma)
    ref.begin(app.frame_no - 1)
    draw(ref, version)
    ref.finish()
    return bytes(ref.frame)


def case_unchanged_frame_not_rendered():
    hal, app = _app()
    g = app.game
    assert app.state == PLAY
    p = app.painter
    for f in range(300):
        app.step()
        # what the LEDs show is, at every frame, what a render from scratch would show
        assert hal.shown == _reference(app, g.paint_version), f
    assert g.paints == 1 and p.renders == 1
    # shown only when the frame changed: the first frame, then blink boundaries only
    # (FAST every 8 frames covers SLOW's and WINK's boundaries too)
    assert hal.shows[0] == 0
    for f in hal.shows[1:]:
        assert f % 8 == 0, f
    assert len(hal.shows) == 1 + 299 // 8


def case_version_change_renders_once():
    hal, app = _app()
    g = app.game
    for f in range(20):
        app.step()
    assert g.paints == 1
    hal.sensors[2] = 4                      # a cell occupied: accepted after 30 ms
    for f in range(10):
        app.step()
    assert g.paint_version == 1
    assert g.paints == 2 and app.painter.renders == 2
    assert hal.shown == _reference(app, 1)
    for f in range(40):
        app.step()
        assert hal.shown == _reference(app, 1)
    assert g.paints == 2


def case_blink_toggles_without_render():
    hal, app = _app()
    for f in range(200):
        app.step()
    assert app.painter.renders == 1
    # LED 6 blinks FAST: on for frames with (f & 15) < 8
    for f in range(200, 264):
        app.step()
        on = max(hal.shown[18:21]) != 0
        assert on == ((f & 15) < 8), f
    assert app.painter.renders == 1


def case_unversioned_plugin_repaints_every_frame():
    hal, app = _app()
    g = Unversioned({})
    app.game = g
    app._versioned = hasattr(g, "paint_version")
    assert not app._versioned
    r0 = app.painter.renders
    for f in range(50):
        app.step()
        assert hal.shown == _reference(app, 0)
    assert g.paints == 50 and app.painter.renders == r0 + 50
    # the HAL still gets show() only when the frame changed
    assert len(hal.shows) < 20


def case_setup_renders_on_occupancy_change():
    register("test", "sim_testgame")
    hal, app = _app("test")
    assert app.state == SETUP
    for f in range(50):
        app.step()
    r = app.painter.renders
    assert r == 1
    H.bit_set(hal.sensors, 12, 1)           # b2: one of the setup cells
    for f in range(10):
        app.step()
    assert app.painter.renders == r + 1
    assert max(hal.shown[36:39]) == 0       # b2 no longer asks for a piece
    assert max(hal.shown[39:42]) != 0 or app.frame_no % 64 >= 32   # c2 still does (slow blink)


def case_bright_and_errors_render():
    hal, app = _app()
    for f in range(10):
        app.step()
    r = app.painter.renders
    hal.inp = b"bright 40\n"
    app.step()
    assert app.painter.renders == r + 1 and app.painter.cap == 40
    assert hal.shown == _reference(app, 0)
    hal.inp = b"abort\n"
    app.step()
    assert app.painter.renders == r + 2
    assert hal.shown == bytes(H.FRAME_BYTES)
    for f in range(10):
        app.step()
    assert app.painter.renders == r + 2
    hal.inp = b"new nosuchgame\n"           # an err reply, not an error count
    app.step()
    app.errors += 1                          # an error outside play lights the error LED
    app.step()
    assert app.painter.renders == r + 3
    assert max(hal.shown[3 * H.SCORE_BASE:3 * H.SCORE_BASE + 3]) != 0 or (app.frame_no - 1) & 15 >= 8


def case_console_commands_leave_nothing_loaded():
    # The app's console commands (firmware/system/console.py) are loaded for the command and
    # dropped after; `new` is read by the console and the game made once it is gone (a game's
    # set-up is the heap's high point). unload() does nothing on CPython: replies only there.
    hal, app = _app()
    hal.out = bytearray()
    console = "firmware.system.console"
    on_board = sys.implementation.name == "micropython"
    hal.inp = b"help\nbright 50\nocc\nnew vtest\nnosuchcommand\n"
    app.step()
    lines = [x for x in bytes(hal.out).decode().splitlines() if not x.startswith("evt ")]
    assert lines[0].startswith("ok commands: hello help status mem"), lines
    assert lines[1:4] == ["ok 50", "ok 0 " + "00" * 16, "ok started"], lines
    assert lines[4].startswith("err unknown command 'nosuchcommand' ("), lines
    assert app.state == PLAY and app.painter.cap == 50
    if on_board:
        assert console not in sys.modules and console not in Game.made_with
        for m in ("firmware.system.newgame", "firmware.system.plugins"):
            assert m not in sys.modules, m  # the set-up's code went with the console


def case_unload_drops_the_module_and_its_name_in_the_package():
    # H.unload takes the module out of sys.modules and out of its package's names (asked with
    # getattr: dir() tried every interned name), and a module not loaded is no error.
    if sys.implementation.name != "micropython":
        return
    import firmware.system.logformat  # noqa: F401
    package = sys.modules["firmware.system"]
    assert getattr(package, "logformat", None) is not None
    for _ in range(2):
        H.unload("firmware.system.logformat")
        assert "firmware.system.logformat" not in sys.modules
        assert getattr(package, "logformat", None) is None
    H.unload("nosuchmodule")
    H.unload("firmware.nosuchmodule")

def case_other_games_leave_cargocubes_board_unloaded():
    # Every board keeps the grid (shared_rules/geometry.py: the HAL names cells with it), but
    # Cargocube's board tables (shared_rules/cargocube/board.py: cell kinds, neighbours,
    # portals; ~2 KB of the heap) are for its games only. Before, they lay in geometry.py and
    # every board carried them. Only on the board: CPython keeps whatever it imported.
    if sys.implementation.name != "micropython":
        return
    hal, app = _app()
    for words in (b"new cephalopod 5x5", b"new formula99 L2 1357"):
        for m in [k for k in sys.modules if k.startswith("shared_rules.cargocube")]:
            H.unload(m)
        hal.out = bytearray()
        hal.inp = words + b"\n"
        app.step()
        lines = [x for x in bytes(hal.out).decode().splitlines() if not x.startswith("evt ")]
        assert lines and lines[0].startswith("ok "), (words, lines)
        grid = sys.modules["shared_rules.geometry"]
        assert sorted(n for n in dir(grid) if not n.startswith("_")) == [
            "COLUMNS", "E", "N", "N_CELLS", "S", "SEAT_LETTERS", "SIZE", "W", "cell",
            "cell_name", "parse_cell"], dir(grid)
        loaded = [k for k in sys.modules if k.startswith("shared_rules.cargocube")]
        assert not loaded, (words, loaded)


def case_steady_frames_do_not_allocate():
    try:
        import micropython
        lock = micropython.heap_lock
        unlock = micropython.heap_unlock
    except (ImportError, AttributeError):
        return
    hal, app = _app()
    hal.show = lambda frame: None
    for f in range(5):
        app.step()
    lock()
    try:
        for f in range(200):
            app.step()
    finally:
        unlock()
    assert app.painter.renders == 1


def case_board_set_up_at_power_on_starts_the_game():
    # The pieces already stand as the layout wants before the first scan: the game must start
    # although the first scan reports no change.
    register("test", "sim_testgame")
    hal = FakeHal()
    app = App(hal)
    hal.app = app
    app.new_game("test", {})
    assert app.state == SETUP
    m = app.mask
    for i in range(16):
        hal.sensors[i] = m[i]
    app.step()
    assert app.state == PLAY


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
