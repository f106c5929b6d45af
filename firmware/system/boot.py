"""The boot, run once by firmware/main.py and dropped before the first frame (docs/firmware.md
"Loading on demand"): main.py's command line (the simulator's), the HAL, the simulator's flash,
the game log, the App (on revision B with the cells' zeros from the flash); then an unfinished
game in the log is resumed, else the boot game is set up. A board playing or idling keeps none
of this code in the heap.
"""

import gc
import sys


def _args():
    a = {"sim": False, "game": None, "layout": None, "seats": None, "plugins": [], "flash": None}
    argv = sys.argv[1:] if hasattr(sys, "argv") else []
    i = 0
    while i < len(argv):
        w = argv[i]
        if w == "--sim":
            a["sim"] = True
        elif w in ("--game", "--layout", "--seats", "--plugin", "--flash", "--rev") and \
                i + 1 < len(argv):
            i += 1
            if w == "--plugin":
                a["plugins"].append(argv[i])
            else:
                a[w[2:]] = argv[i]
        else:
            raise ValueError("bad argument '%s'" % w)
        i += 1
    if a.get("rev") not in (None, "A", "B"):  # (a revision, from --rev)
        raise ValueError("--rev wants A or B, got '%s'" % a["rev"])
    try:
        import os
        if os.getenv("CARGOBOARD_SIM") == "1":
            a["sim"] = True
    except (ImportError, AttributeError):
        pass
    return a


def _resume(app):
    """The newest game in the log goes on if it is still open: True if it does. The code that
    reads logs is loaded for this and dropped again (firmware/system/logboot.py), and so are
    the plug-ins by name (firmware/system/plugins.py; loaded only if a game is resumed)."""
    from firmware.hal import unload
    from firmware.system import logboot
    try:
        return logboot.resume(app)
    finally:
        logboot = None
        unload("firmware.system.logboot")
        unload("firmware.system.logformat")
        unload("firmware.system.plugins")
        gc.collect()


def start():
    """The App, booted (ready for App.run). A bad command line exits with status 2."""
    try:
        a = _args()
    except ValueError as e:
        sys.stderr.write("main.py: %s\n" % e)
        sys.stderr.write("usage: main.py --sim [--game NAME|none] [--layout L] [--seats S] "
                         "[--plugin NAME=MODULE] [--flash IMAGE] [--rev A|B]\n")
        sys.exit(2)
    rev = a.get("rev")
    if rev is None and sys.platform == "rp2" and not a["sim"]:
        # the board's revision, /board_rev as `cargoboard deploy --rev a|b` writes it; looked
        # up with stat before it is opened: after a failed open the emulated Pico kept about
        # 6 KB more in use for good, after os.listdir 1.2 KB (bench/heap.py --target pico)
        import os
        try:
            os.stat("/board_rev")
        except OSError:
            rev = "A"
        if rev is None:
            with open("/board_rev") as f:
                rev = f.read().strip().upper()
    if rev == "B":
        # revision B's HAL and App (firmware/system/boot_revb.py); a revision-A board loads
        # none of its modules
        from firmware.system import boot_revb
        hal, App = boot_revb.start(a["sim"])   # (kept until the zeros are loaded, below)
    elif a["sim"]:
        from firmware.hal.sim import SimHal
        hal = SimHal()
    elif sys.platform == "rp2":
        from firmware.hal.rp2040 import Rp2040Hal
        hal = Rp2040Hal()
    else:
        sys.stderr.write("main.py: not on the board; use --sim\n")
        sys.exit(2)

    from firmware.hal import unload
    if rev != "B":
        from firmware.system.app import App
    from firmware.system.app import VERSION
    for p in a["plugins"]:
        i = p.find("=")
        if i <= 0:
            sys.stderr.write("main.py: --plugin wants NAME=MODULE, got '%s'\n" % p)
            sys.exit(2)
        from firmware.system.plugins import register  # the registry keeps it; dropped below
        register(p[:i], p[i + 1:])
    register = None

    glog = None
    glog_error = None
    if a["sim"]:
        # The simulator's flash is mounted here, as MicroPython mounts the Pico's before
        # main.py runs; its driver leaves the heap again (the Pico has none of it).
        from firmware.drivers import flashdev
        flashdev.attach_sim_flash(hal, a["flash"])
        flashdev = None
        unload("firmware.drivers.flashdev")
    root = hal.flash_root()
    if root is not None:
        try:
            from firmware.system.gamelog import GameLog
            glog = GameLog(root, hal.board_id())
        except Exception as e:
            glog_error = e
    app = App(hal, gamelog=glog)
    game = a["game"]
    if game is None:
        game = "none"
        if not a["sim"]:
            from firmware.system.plugins import names
            game = names()[0]
            names = None
    app.emit("boot cargoboard fw=%s hal=%s" % (VERSION, hal.name))
    if glog_error is not None:
        app.report_error("log open", glog_error)
    if rev == "B":
        # every cell's zero, kept on the flash by `calibrate`; none: `evt not calibrated: ...`
        boot_revb.load_zeros(app)
        boot_revb = None
        unload("firmware.system.boot_revb")
    if hal.holds_heap:
        # before any game's code is loaded: the heap blocks that the native code's words would
        # pin for good are taken by objects of the board's own (firmware/hal/heldblocks.py)
        from firmware.hal import heldblocks
        heldblocks.hold()
        heldblocks = None
        unload("firmware.hal.heldblocks")
    if _resume(app):
        pass  # the unfinished game goes on
    elif game != "none":
        opts = {}
        if a["layout"]:
            opts["layout"] = a["layout"]
        if a["seats"]:
            opts["seats"] = a["seats"]
        try:
            app.new_game(game, opts)
        except ValueError as e:
            app.errors += 1
            app.emit("error boot: %s" % e)
    return app
