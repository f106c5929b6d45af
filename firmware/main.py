"""Cargoboard firmware entry point.

On the board (sys.platform == 'rp2') this file is copied to the flash root as /main.py and
runs the real HAL. Under the MicroPython unix port run it as

    micropython -X heapsize=192k firmware/main.py --sim [--game NAME|none]
        [--layout L] [--seats S] [--plugin NAME=MODULE ...] [--flash IMAGE] [--rev A|B]

(with MICROPYPATH=.frozen:<repo> so `firmware.*` and `shared_rules.*` import); --sim (or the
environment variable CARGOBOARD_SIM=1) selects the simulated HAL speaking the binary channel
of docs/sim-protocol.md on stdin/stdout; --flash IMAGE keeps the simulated flash (the game
logs) in that littlefs image file (created if missing), else in a temporary one.

At boot an unfinished game in the log is resumed (docs/log-format.md); only without one the
boot game (--game; on the board the first game of the registry, firmware/games/__init__.py)
is set up.
"""

import sys


def _args():
    a = {"sim": False, "game": None, "layout": None, "seats": None, "plugins": [], "flash": None,
         "rev": "A"}
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
            elif w == "--rev":
                if argv[i].upper() not in ("A", "B"):
                    raise ValueError("--rev wants A or B, got '%s'" % argv[i])
                a["rev"] = argv[i].upper()
            else:
                a[w[2:]] = argv[i]
        else:
            raise ValueError("bad argument '%s'" % w)
        i += 1
    try:
        import os
        if os.getenv("CARGOBOARD_SIM") == "1":
            a["sim"] = True
    except (ImportError, AttributeError):
        pass
    return a


def main():
    try:
        a = _args()
    except ValueError as e:
        sys.stderr.write("main.py: %s\n" % e)
        sys.stderr.write("usage: main.py --sim [--game NAME|none] [--layout L] [--seats S] "
                         "[--plugin NAME=MODULE] [--flash IMAGE] [--rev A|B]\n")
        sys.exit(2)
    if a["sim"]:
        from firmware.hal.sim import SimHal
        hal = SimHal(revision=a["rev"])
    elif sys.platform == "rp2":
        if a["rev"] == "A":
            try:  # a revision-B board has "B" in /board_rev (written by cargoboard deploy --rev b)
                with open("/board_rev") as f:
                    a["rev"] = f.read().strip().upper() or "A"
            except OSError:
                pass
        if a["rev"] == "B":
            from firmware.hal.rp2040_revb import Rp2040HallHal
            hal = Rp2040HallHal()
        else:
            from firmware.hal.rp2040 import Rp2040Hal
            hal = Rp2040Hal()
    else:
        sys.stderr.write("main.py: not on the board; use --sim\n")
        sys.exit(2)

    from firmware.system.app import App, VERSION, register, names
    for p in a["plugins"]:
        i = p.find("=")
        if i <= 0:
            sys.stderr.write("main.py: --plugin wants NAME=MODULE, got '%s'\n" % p)
            sys.exit(2)
        register(p[:i], p[i + 1:])

    glog = None
    glog_error = None
    if a["sim"]:
        # The simulator's flash is mounted here, as MicroPython mounts the Pico's before
        # main.py runs; its driver leaves the heap again (the Pico has none of it).
        from firmware.hal import unload
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
    # revision B's HAL gives a lower LED budget (its sensors draw from the same USB power)
    app = App(hal, gamelog=glog, budget_ma=getattr(hal, "led_budget_ma", 400))
    game = a["game"]
    if game is None:
        game = "none" if a["sim"] else names()[0]
    app.emit("boot cargoboard fw=%s hal=%s" % (VERSION, hal.name))
    if glog_error is not None:
        app.report_error("log open", glog_error)
    if app.resume():
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
    try:
        app.run()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        raise
    except Exception as e:
        # Last resort: never die silently. In the simulator the trace goes over the channel.
        try:
            import io
            s = io.StringIO()
            sys.print_exception(e, s)
            msg = s.getvalue()
        except Exception:
            msg = "%s: %s" % (type(e).__name__, e)
        if hasattr(hal, "log"):
            hal.log("fatal: " + msg)
        else:
            sys.stderr.write(msg)
        sys.exit(1)


main()
