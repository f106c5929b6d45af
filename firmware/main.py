"""Cargoboard firmware entry point.

On the board (sys.platform == 'rp2') this file is copied to the flash root as /main.py and
runs the real HAL. Under the MicroPython unix port run it as

    micropython -X heapsize=192k firmware/main.py --sim [--game NAME|none]
        [--layout L] [--seats S] [--plugin NAME=MODULE ...] [--flash IMAGE] [--rev A|B]

(with MICROPYPATH=.frozen:<repo> so `firmware.*` and `shared_rules.*` import); --sim (or the
environment variable CARGOBOARD_SIM=1) selects the simulated HAL speaking the binary channel
of docs/sim-protocol.md on stdin/stdout; --flash IMAGE keeps the simulated flash (the game
logs) in that littlefs image file (created if missing), else in a temporary one.

On the board the host's REPL request (docs/protocol.md) ends the firmware: main() returns and
MicroPython's REPL prompt follows (a SystemExit out of main.py would be a soft reboot on the
rp2 port, running main.py again); so does a fatal error, after its trace. In the simulator
(no REPL) the host's stop ends the process with the HAL's exit status, a fatal error with 1.

At boot an unfinished game in the log is resumed (docs/log-format.md); only without one the
boot game (--game; on the board the first game of the registry, firmware/games/__init__.py)
is set up.
"""

import sys


def main():
    # The boot's code is a module of its own, dropped once the board runs: this file is
    # compiled on the board (from source), and all of it stays in the heap while it runs.
    from firmware.system import boot
    app = boot.start()
    boot = None
    from firmware.hal import unload
    unload("firmware.system.boot")
    try:
        app.run()
    except SystemExit:
        if app.hal.has_repl:
            # The host's REPL request (firmware/system/link.py) ends the firmware. On the rp2
            # port a SystemExit out of main.py is a soft reboot that runs main.py again; a
            # return is followed by the REPL prompt, which the host waits for.
            return
        raise  # the simulator's host stopped it: its exit status tells the host why
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
        if hasattr(app.hal, "log"):
            app.hal.log("fatal: " + msg)
        else:
            sys.stderr.write(msg)
        if app.hal.has_repl:
            return  # the trace, then the REPL prompt (sys.exit would reboot into the failure)
        sys.exit(1)


main()
