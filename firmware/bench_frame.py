"""Frame-time benchmark of the real frame loop (App.step: scan -> debounce -> app -> plug-in ->
render or blink animation -> show when changed). Runs on the board (`mpremote run
firmware/bench_frame.py`, with firmware/ and shared_rules/ on the board) and under the unix
port (bench/frame.py does that and prints the ratio to the target):

    MICROPYPATH=.frozen:. micropython -X heapsize=192k firmware/bench_frame.py [GAME] [FRAMES]

GAME defaults to "cargocube". A game with a bench part (firmware/games/<game>/framebench.py)
starts from the position that part gives and lifts the cells it names: Cargocube a busy
mid-game position (4 players, base cards; its docstring), `key=value` words after the other
arguments picking another start as serial `new` takes them (`bench_frame.py cargocube 300
cards=both teleport=1 players=8`: the expansions loaded), КУБитва the board edition's start
and the mover's units; a game without one starts from its default start and lifts every
occupied cell.
If the plug-in cannot be loaded
the built-in "paintall" plug-in (lights every occupied cell, scores, blinks; no paint_version,
so it is painted every frame) is used instead, and the output says so.

On the board the HAL's sensor/button reads, show() and the wait for the next 10 ms frame run
as in play, but the input is synthetic: the game's setup occupancy (the position), with light noise (a one-frame bounce on
a cell every 50 frames, never accepted by the debounce).

Printed:
  `render_us`   a full render (begin, game.paint, finish) of the position, forced
  `lift_us`     the frame in which the lift of a movable cube is accepted (tracker on_change,
                overlay rebuild, render of the destinations); LIFTS lifts cycling over the
                movable cubes, each put back and settled before the next
  `back_us`     the frame in which the cube put back is accepted
  `lift_gc`, `back_gc`  how many of those frames ran a garbage collection (the heap's free
                bytes went up), and `gc_us`: one gc.collect() with the game set up
  `phases_lift`, `phases_back`  where the time of those frames goes, mean us over the first
                PHASE_LIFTS lifts (timers around the phases; the sum is a little more than the
                frame): read_sensors, scan (debounce), event (the `evt change` line), observe
                (the tracker), overlay (the plug-in's LED overlay), plugin (the rest of on_change),
                render (begin, paint, finish), show, rest (the frame's other work)
  `lift_each`, `back_each`  with a third argument `each` (`bench_frame.py cargocube 300
                each`): the phases of every one of the LIFTS lifts and put-backs, one line
                each (cell, us, g=1 if a collection ran, tracker state/targets, phases), and
                `phases_lift`/`phases_back` are then the means over all of them
  `alloc_bytes_per_frame`  gc.mem_alloc() growth per steady frame (gc disabled while timed)
  `frame_us`    steady frames (last line), FRAMES of them (default 1000)
"""

import sys
import time
import gc
from array import array
from firmware import hal as H
from firmware.drivers.leds import SEAT_COLOUR, YELLOW, BLINK_SLOW

GAME = "cargocube"
N_FRAMES = 1000
LIFTS = 32
PHASE_LIFTS = 8
PHASES = ("read_sensors", "scan", "event", "observe", "overlay", "plugin", "render", "show", "rest")
BOUNCE_CELL = 60
ON_BOARD = sys.platform == "rp2"


class PaintAll:
    """Fallback plug-in: lights every occupied cell, two score bars and a blinking cell."""

    def __init__(self, options):
        self.occ = bytearray(16)
        m = bytearray(16)
        for c in range(24, 97):
            if (c % 11) in (2, 3, 7, 8):
                H.bit_set(m, c, 1)
        self.mask = m
        self.n = 0

    def setup_mask(self):
        return self.mask

    def start(self):
        pass

    def on_change(self, occ, now_ms):
        for i in range(16):
            self.occ[i] = occ[i]
        self.n += 1

    def on_button(self, bit, now_ms):
        pass

    def tick(self, now_ms):
        pass

    def paint(self, p, frame_no):
        occ = self.occ
        for c in range(H.N_CELLS):
            if (occ[c >> 3] >> (c & 7)) & 1:
                p.cell(c, SEAT_COLOUR[c & 3], 128)
        p.cell(60, YELLOW, 255, BLINK_SLOW)
        p.turn(0)
        p.score(0, self.n % 37, 36)
        p.score(2, 12, 36)

    def command(self, words):
        return None

    def scores(self):
        return [0, 0, 0, 0]


class _PaintAllModule:
    Game = PaintAll


class BenchHal:
    """Synthetic input at 10 ms per frame; on the board the real reads and show() run too."""

    name = "bench"

    def __init__(self, real):
        self.real = real
        from hardware.pinmap import LED_BUDGET_MAX_MA
        self.led_budget_max_ma = LED_BUDGET_MAX_MA
        self.raw = bytearray(16)
        self.t = 0
        self.shows = 0
        self.waited = 0  # us spent in the last wait_frame (the board's 10 ms grid)
        self._dummy = bytearray(16)

    def wait_frame(self):
        # On the board frames keep the real 10 ms grid (the LED transfer of the last frame runs
        # beside the next one, as in play); the wait is not part of a frame's time (waited,
        # subtracted). The app's clock is synthetic everywhere.
        if self.real is not None:
            t0 = time.ticks_us()
            self.real.wait_frame()
            self.waited = time.ticks_diff(time.ticks_us(), t0)
        self.t += H.FRAME_MS

    def ticks_ms(self):
        return self.t

    def ticks_us(self):
        return time.ticks_us()

    def read_sensors(self, buf):
        if self.real is not None:
            self.real.read_sensors(self._dummy)
        raw = self.raw
        for i in range(16):
            buf[i] = raw[i]

    def read_buttons(self):
        if self.real is not None:
            self.real.read_buttons()
        return 0

    def show(self, frame):
        self.shows += 1
        if self.real is not None:
            self.real.show(frame)

    def serial_read(self):
        return None

    def serial_write(self, b):
        pass


def game_bench(name):
    """The game's part for this benchmark, firmware/games/<name>/framebench.py: options(words)
    (its bench position, as new-game options), lift_cells(game), and maybe lift_state(game)
    (a few words on the tracker after a lift); None for a game without one (it starts from its
    default start, and every occupied cell is lifted)."""
    module = "firmware.games.%s.framebench" % name
    try:
        return __import__(module, None, None, ["options"])
    except ImportError as e:
        if module in str(e):
            return None  # the game has none
        raise  # a part that is there but broken must not pass for a missing one


def make_app(name, hal, words=()):
    """An App in play with the game `name` (from its bench part's position for `words`,
    game_bench) and the board holding its setup occupancy. Returns (game name,
    app, base occupancy)."""
    from firmware.system.app import App
    from firmware.system.plugins import load, register
    gname = name
    opts = {}
    if name != "paintall":
        try:
            load(name)                # import (compile) the plug-in while RAM is free
        except Exception as e:
            print("bench: game %s not loadable (%s: %s)" % (name, type(e).__name__, e))
            gname = "paintall"
        gc.collect()
    part = game_bench(gname) if gname != "paintall" else None
    if part is not None:
        try:
            opts = part.options(words)
        except Exception as e:
            print("bench: no bench position (%s: %s)" % (type(e).__name__, e))
            gname = "paintall"
    gc.collect()
    app = App(hal)
    hal.app = app
    app.step()                              # the scanner takes the (empty) board as it is
    if gname != "paintall":
        try:
            app.new_game(gname, opts)
        except Exception as e:
            print("bench: game %s not usable (%s: %s); using paintall" % (gname, type(e).__name__, e))
            gname = "paintall"
            app.abort()
    if gname == "paintall":
        sys.modules["_bench_paintall"] = _PaintAllModule
        register("paintall", "_bench_paintall")
        app.new_game("paintall", {})
    opts = None
    gc.collect()
    # the pieces are put on the board: setup is complete once the debounce accepts them
    for i in range(16):
        hal.raw[i] = app.mask[i]
    for f in range(5):
        app.step()
    if app.state != 2:
        raise RuntimeError("game %s did not start (setup incomplete)" % gname)
    return gname, app, bytearray(hal.raw)


def lift_cells(app, gname, base):
    """Cells whose lift is the start of a legal action (the game's bench part), else the
    occupied cells."""
    part = game_bench(gname) if gname != "paintall" else None
    if part is not None:
        return part.lift_cells(app.game)
    out = []
    for c in range(H.N_CELLS):
        if H.bit_get(base, c):
            out.append(c)
    return out


def _sort(a, n):
    """In-place heapsort of a[:n] (no allocation: the heap may be too fragmented for a list)."""
    def sift(start, end):
        root = start
        while True:
            child = 2 * root + 1
            if child > end:
                return
            if child + 1 <= end and a[child] < a[child + 1]:
                child += 1
            if a[root] < a[child]:
                a[root], a[child] = a[child], a[root]
                root = child
            else:
                return
    start = (n - 2) // 2
    while start >= 0:
        sift(start, n - 1)
        start -= 1
    end = n - 1
    while end > 0:
        a[end], a[0] = a[0], a[end]
        end -= 1
        sift(0, end)


def stats(name, arr, n):
    gc.collect()
    _sort(arr, n)
    s = arr
    p95 = s[(n * 95) // 100]
    tot = 0
    for i in range(n):
        tot += s[i]
    return "%s max=%d p95=%d mean=%d min=%d n=%d" % (name, s[n - 1], p95, tot // n, s[0], n)


def _accepted_frame_us(app, c, collected=None, k=0, acc=None):
    """Step frames until the scanner accepts the change of cell c; the time of that frame, us
    (0 if it was not accepted within 8 frames). collected[k] = 1 if a garbage collection ran in
    that frame (the heap's free bytes went up); acc (phase timers) is zeroed before each frame."""
    for f in range(8):
        if acc is not None:
            for i in range(len(acc)):
                acc[i] = 0
        free0 = gc.mem_free()
        t0 = time.ticks_us()
        app.step()
        dt = time.ticks_diff(time.ticks_us(), t0) - app.hal.waited
        if app.scanner.changed[c >> 3]:
            if collected is not None:
                collected[k] = 1 if gc.mem_free() > free0 else 0
            return dt
    return 0


def _timed(fn, acc, k):
    """fn, its time added to acc[k] (us)."""
    def timed(*args):
        t0 = time.ticks_us()
        r = fn(*args)
        acc[k] += time.ticks_diff(time.ticks_us(), t0)
        return r
    return timed


def phases(app, hal, cells, base, nl, each=False):
    """(lift, back): where the time of the accepted frames of nl lifts goes, mean us per phase
    (PHASES), measured by timers put around the phases' methods on the instances. each: print
    every lift's and put-back's frame (`lift_each`/`back_each`: the cell, the frame's us, g=1
    if a garbage collection ran in it, the tracker's state/targets, then the phases)."""
    raw = hal.raw
    game = app.game
    lift = array("i", bytearray(4 * len(PHASES)))
    back = array("i", bytearray(4 * len(PHASES)))
    acc = array("i", bytearray(4 * len(PHASES)))
    gcflag = bytearray(1)
    timers = [(hal, "read_sensors", 0), (app.scanner, "update", 1), (app, "_on_change", 2),
              (app, "_paint", 6), (hal, "show", 7)]
    if hasattr(game, "tracker"):
        timers.append((game.tracker, "observe", 3))
    if hasattr(game, "_rebuild"):
        timers.append((game, "_rebuild", 4))
    timers.append((game, "on_change", 5))
    for obj, name, k in timers:
        setattr(obj, name, _timed(getattr(obj, name), acc, k))
    for j in range(nl):
        c = cells[j % len(cells)]
        for out, v in ((lift, 0), (back, 1)):
            for i in range(16):
                raw[i] = base[i]
            if not v:
                H.bit_set(raw, c, 0)
            gcflag[0] = 0
            dt = _accepted_frame_us(app, c, gcflag, 0, acc)
            # nested timers: the event includes the plug-in's on_change, which includes the
            # tracker and the overlay
            acc[2] -= acc[5]
            acc[5] -= acc[3] + acc[4]
            acc[8] = dt
            for i in range(8):
                acc[8] -= acc[i]
            for i in range(len(PHASES)):
                out[i] += acc[i]
            if each:
                tr = getattr(game, "tracker", None)
                print("%s %s us=%d g=%d %s %s" % (
                    "back_each" if v else "lift_each", H.cell_name(c), dt, gcflag[0],
                    # Cargocube's tracker lists its targets, КУБитва's its candidates
                    "%d/%d" % (tr.state, len(getattr(tr, "targets", None) or
                                             getattr(tr, "candidates", None) or ()))
                    if tr is not None else "-",
                    " ".join(["%s=%d" % (PHASES[i], acc[i]) for i in range(len(PHASES))])))
        for f in range(10):
            app.step()
    for obj, name, k in timers:
        delattr(obj, name)  # the class's method again
    return lift, back


def _phase_line(name, acc, n):
    return name + " " + " ".join(["%s=%d" % (PHASES[i], acc[i] // n) for i in range(len(PHASES))])


def main():
    gc.collect()
    argv = sys.argv[1:] if hasattr(sys, "argv") else []
    args = [a for a in argv if "=" not in a]
    words = [a for a in argv if "=" in a]
    name = args[0] if args else GAME
    n = int(args[1]) if len(args) > 1 else N_FRAMES
    each = len(args) > 2 and args[2] == "each"
    real = None
    if ON_BOARD:
        from firmware.hal.rp2040 import Rp2040Hal
        real = Rp2040Hal()
    hal = BenchHal(real)
    gname, app, base = make_app(name, hal, words)
    raw = hal.raw
    step = app.step
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    for f in range(20):        # settle
        step()

    # 1) a full render of the position (what every frame cost before render-on-change)
    nr = 100
    rend = array("I", range(nr))
    p = app.painter
    for k in range(nr):
        t0 = ticks_us()
        app._paint()
        rend[k] = ticks_diff(ticks_us(), t0)

    # 2) lifts: the frame in which a lift is accepted, then the put-back, then settle
    cells = lift_cells(app, gname, base)
    part = game_bench(gname) if gname != "paintall" else None
    lift_state = getattr(part, "lift_state", None)
    part = None
    nl = LIFTS if cells else 0
    lift = array("I", range(max(nl, 1)))
    back = array("I", range(max(nl, 1)))
    lift_gc = bytearray(max(nl, 1))
    back_gc = bytearray(max(nl, 1))
    states = ""
    for k in range(nl):
        c = cells[k % len(cells)]
        H.bit_set(raw, c, 0)
        r0 = p.renders
        lift[k] = _accepted_frame_us(app, c, lift_gc, k)
        if k < 4 and lift_state is not None:
            states += " %s:%s" % (H.cell_name(c), lift_state(app.game))
        for i in range(16):
            raw[i] = base[i]
        back[k] = _accepted_frame_us(app, c, back_gc, k)
        for f in range(10):
            step()
        if p.renders == r0:
            print("bench: lift of %s was not rendered" % H.cell_name(c))
    gc.collect()
    t0 = ticks_us()
    gc.collect()
    gc_us = ticks_diff(ticks_us(), t0)
    npl = (LIFTS if each else PHASE_LIFTS) if nl else 0
    if npl:
        ph_lift, ph_back = phases(app, hal, cells, base, npl, each)
    gc.collect()

    # 3) steady frames with light noise, gc off while timed (in chunks of 50 frames)
    full = array("I", range(n))
    alloc = 0
    shows0 = hal.shows
    renders0 = p.renders
    f = 0
    while f < n:
        gc.collect()
        gc.disable()
        end = f + 50
        if end > n:
            end = n
        m0 = gc.mem_alloc()
        while f < end:
            for i in range(16):
                raw[i] = base[i]
            if f % 50 == 25:
                raw[BOUNCE_CELL >> 3] ^= 1 << (BOUNCE_CELL & 7)  # one-frame bounce
            t0 = ticks_us()
            step()
            full[f] = ticks_diff(ticks_us(), t0) - hal.waited
            f += 1
        alloc += gc.mem_alloc() - m0
        gc.enable()
    print("bench: game=%s%s frames=%d platform=%s hal=%s lift_cells=%d blinking=%d" % (
        gname, "".join([" " + w for w in words]), n, sys.platform, "rp2040" if real else "none",
        len(cells), p.blinking()))
    print("bench: steady renders=%d shows=%d; lifts%s" % (
        p.renders - renders0, hal.shows - shows0, states))
    print(stats("render_us", rend, nr))
    if nl:
        print(stats("back_us", back, nl))
        print(stats("lift_us", lift, nl))
        print("lift_gc=%d back_gc=%d gc_us=%d" % (sum(lift_gc), sum(back_gc), gc_us))
    if npl:
        print(_phase_line("phases_lift", ph_lift, npl))
        print(_phase_line("phases_back", ph_back, npl))
    print("alloc_bytes_per_frame=%d" % (alloc // n))
    print(stats("frame_us", full, n))


if __name__ == "__main__":
    try:
        main()
    except MemoryError:
        print("bench: out of memory (fewer frames? e.g. `bench_frame.py cargocube 300`)")
        print("frame_us max=-1 p95=-1")
