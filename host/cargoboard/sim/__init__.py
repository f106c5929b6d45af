"""The simulated Cargoboard: the firmware on one of two targets (the MicroPython unix port, or
the stock MicroPython image on an emulated RP2040: cargoboard.sim.pico), a physical world
model, scripted and interactive drivers. `add_parser(subparsers)` registers `cargoboard sim`."""


# Revision B's firmware holds the field readings, the level scanner and the step predictions
# besides revision A's: on the emulated Pico it has 121 488 B in use at boot (bench/heap.py
# --target pico --layout-only --rev-b) of the ~240 KB heap MicroPython leaves there; the 64-bit
# unix port's objects are bigger, and there its 2-player game's set-up found no 2 KB block at
# 216k and 224k (one tracker for both revisions, both expansions' speed-ups, the teleport's
# returning moves) while 208k and 232k passed: the layout decides that close to the edge. The
# tests run revision B at the Pico's own heap size, a margin the board does not need. At 240k
# tests/cargocube/test_cargocube_revb_sim.py's missed-move tests fail (MemoryError when the
# engine is loaded to rank the moves) as soon as the plug-ins bring a few more interned names:
# two of them with 4 new names in Cargocube's plug-in, three with any new module the plug-ins
# import, even an empty one (a try of December 2026, docs/firmware.md "Modules"). Since stop
# 48 those tests pass there with the engine not loaded: a question whose ranking finds no room
# shows the moves in the tracker's own order (firmware/games/cargocube/plugin.py, _engine).
REVB_HEAP = "240k"
# What `cargoboard sim` and `cargoboard demo` give the firmware: the Pico's ~240 KB as this
# 64-bit port needs it. Its objects are bigger than the Pico's 32-bit ones: after `new
# cargocube polygon SWNE cards=base` it has 147 008 B in use where the emulated Pico has
# 100 528 (bench/heap.py --layout-only, both targets: 1.46 times), so 240 KB there is about
# 350 KB here. At 240k a user's virtual board ran out of memory where the emulated Pico did not
# (a sync after switching from КУБитва to «Формула 99»; an 8-player game with both expansions
# and the teleport on revision B, whose move list found no 2 KB block). The tests run at 224k
# (revision A, the runners' default) and 240k (revision B): margins the board does not need.
# (224k since stop 51, 192k before: revision A's default Cargocube tracker waits, and its code,
# firmware/games/cargocube/waiting.py, is ~14 KB more in this port's heap, 11.5 KB on the Pico.)
BOARD_HEAP = "352k"
# The least --heapsize the firmware is run with: it boots at about 100 KB on the unix port,
# and a game needs more.
MIN_HEAP = 128 * 1024
MAX_HEAP = 1024 * 1024 * 1024


def heapsize(text):
    """--heapsize: bytes, or KiB / MiB with k or m (as MicroPython's `-X heapsize=` reads them),
    MIN_HEAP to MAX_HEAP; the text handed to the firmware."""
    import argparse
    import re
    m = re.fullmatch(r"([0-9]+)([kKmM]?)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError("%r is not a size: give bytes, or KiB or MiB with k or "
                                         "m (e.g. 256k, 2m)" % text)
    n = int(m.group(1)) * {"": 1, "k": 1024, "m": 1024 * 1024}[m.group(2).lower()]
    if not MIN_HEAP <= n <= MAX_HEAP:
        raise argparse.ArgumentTypeError("%s is out of range: %dk to %dm (the firmware needs "
                                         "%dk to boot)" % (text, MIN_HEAP // 1024,
                                                           MAX_HEAP // 1024 // 1024,
                                                           MIN_HEAP // 1024))
    return m.group(1) + m.group(2).lower()


def plugin(text):
    """--plugin NAME=MODULE: a game's name and the module path of its plug-in, a file of this
    checkout (as firmware/games/cargocube/plugin.py is firmware.games.cargocube.plugin)."""
    import argparse
    import re
    from cargoboard.sim.runner import REPO_ROOT
    name, eq, module = text.partition("=")
    if not eq or not re.fullmatch(r"[A-Za-z0-9_]+", name) or \
            not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", module):
        raise argparse.ArgumentTypeError("%r: give NAME=MODULE, e.g. "
                                         "test=tests.sim_testgame" % text)
    base = REPO_ROOT.joinpath(*module.split("."))
    if not base.with_suffix(".py").is_file() and not (base / "__init__.py").is_file():
        raise argparse.ArgumentTypeError("no module %s in %s (no %s.py)"
                                         % (module, REPO_ROOT, base.relative_to(REPO_ROOT)))
    return text


def add_parser(subparsers):
    import textwrap
    from cargoboard.sim.faults import KINDS as FAULT_KINDS
    p = subparsers.add_parser(
        "sim", help="run the firmware on a simulated board",
        description="Run the firmware on a simulated board (--target unix: the MicroPython unix "
                    "port; --target pico: the stock MicroPython image on an emulated RP2040): "
                    "--script FILE runs a script, one verb a line (docs/virtual-board.md, \"Script verbs\"; "
                    "`help` at the --interactive prompt lists them; `cargoboard demo --keep-script` "
                    "writes a whole game's as DIR/demo-script.txt), "
                    "--interactive shows the LEDs and takes the same verbs at a prompt.",
        epilog="examples:\n  cargoboard sim --script game.txt\n  cargoboard sim --interactive\n"
               "  cargoboard sim --pty /tmp/cargoboard-pty --flash /tmp/board\n"
               "  cargoboard sim --target pico --script game.txt\n"
               "  cargoboard sim --interactive --fault stuck:c4 --fault dead:next   # then: "
               "send new selftest\n"
               "  cargoboard sim --interactive --rev b --fault row:5\n\n"
               "fault kinds (--fault KIND:ARG, repeatable; docs/bringup.md says what each shows):\n"
               + "".join(textwrap.fill(what, 79, initial_indent="  %-14s " % k,
                                       subsequent_indent=" " * 17) + "\n"
                         for k, what in FAULT_KINDS))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--script", metavar="FILE", help="run a sim script; exit 0 only if every line held")
    mode.add_argument("--interactive", action="store_true", help="interactive terminal mode")
    p.add_argument("--pty", metavar="PATH",
                   help="serve the board's USB serial on a pseudo-terminal linked at PATH until "
                        "interrupted (after the script, if any); meanwhile cargoboard ports lists it "
                        "and sync, deploy and serve find it without --port")
    p.add_argument("--flash", metavar="DIR",
                   help="keep the board's flash (a littlefs image: game logs, deployed firmware) "
                        "in DIR/flash.img across runs (--target pico: and its chip's unique id, "
                        "the board id, in DIR/unique_id)")
    p.add_argument("--target", choices=("unix", "pico"), default="unix",
                   help="unix (default): the firmware under the MicroPython unix port; pico: the "
                        "stock MicroPython image on an emulated RP2040 (rp2040js; boot ROM and "
                        "image from ../shared/pico or $CARGOBOARD_PICO_DIR), time the emulated "
                        "chip's")
    p.add_argument("--heapsize", default=None, type=heapsize, metavar="SIZE",
                   help="MicroPython heap of the unix target, bytes or with k or m, at least "
                        "%dk (default %s: the Pico's ~240 KB as this 64-bit port, whose objects "
                        "are bigger, needs it; the tests run at 224k and 240k, stricter than "
                        "the board, docs/virtual-board.md)"
                        % (MIN_HEAP // 1024, BOARD_HEAP))
    p.add_argument("--plugin", action="append", default=[], metavar="NAME=MODULE", type=plugin,
                   help="register an extra game plug-in module of this checkout in the "
                        "firmware, e.g. test=tests.sim_testgame (repeatable)")
    p.add_argument("--from-flash", action="store_true",
                   help="with --flash: run the firmware deployed on that flash (cargoboard deploy "
                        "--flash DIR), not this checkout's")
    p.add_argument("--rev", choices=("a", "b", "A", "B"), default="a",
                   help="board revision: a (Hall switches, occupancy; the default) or b (linear "
                        "Hall sensors: the field of every cell, from the field model; on the "
                        "emulated Pico its scan converts it on the chip's ADC)")
    p.add_argument("--shift", type=float, default=None, metavar="MM",
                   help="revision b: how far a hand moves the bottom cube of a stack it works on "
                        "(up to MM, default 0.5)")
    p.add_argument("--bumps", type=float, default=None, metavar="P",
                   help="revision b: chance per lift or put-down that the hand nudges a stack "
                        "nearby (default 0)")
    p.add_argument("--fault", action="append", default=[], metavar="KIND:ARG",
                   help="a hardware fault of the board, for rehearsing its bring-up "
                        "(docs/bringup.md): stuck:CELL, dead:CELL, stuck:BUTTON, dead:BUTTON, "
                        "chip:K[:low], led:N, row:Y, reversed:CELL (the list below); "
                        "repeatable")
    p.set_defaults(func=run_sim)
    return p


def _error(text, status=2):
    import sys
    print("cargoboard sim: error: %s" % text, file=sys.stderr)
    return status


def run_sim(args) -> int:
    """Checks every option and path before anything is made or started: a usage error, a
    --flash or --pty path that cannot be used, or a board that does not start is one line and
    exit status 2; a board that breaks down while it is served, exit status 1."""
    from cargoboard.sim.runner import FirmwareError, check_pty_link, flash_image
    rev = args.rev.upper()
    heap = args.heapsize or (None if args.target != "unix" else BOARD_HEAP)
    kwargs = {"heapsize": heap, "plugins": args.plugin, "target": args.target}
    if rev == "B":
        shift = 0.5 if args.shift is None else args.shift
        bumps = 0.0 if args.bumps is None else args.bumps
        if not 0 <= shift < float("inf"):
            return _error("--shift wants mm, 0 or more, not %g" % args.shift)
        if not 0 <= bumps <= 1:
            return _error("--bumps wants a chance 0..1, not %g" % args.bumps)
        from cargoboard.sim.world import revb_physics
        kwargs["revision"] = "B"
        noise = revb_physics().Noise(shift_mm=shift, bump_rate=bumps)
    elif args.shift is not None or args.bumps is not None:
        return _error("--shift and --bumps apply to --rev b only (the revision-A board sees "
                      "no field)")
    if args.fault:
        from cargoboard.sim.faults import Faults, FaultError
        try:
            kwargs["faults"] = Faults.parse(args.fault, rev)
        except FaultError as e:
            return _error(e)
        if kwargs["faults"].reversed and not (args.script or args.interactive):
            return _error("--fault reversed:CELL is a cube's: with --pty alone no cube is ever "
                          "put down (give --script FILE or --interactive)")
    if args.from_flash and not args.flash:
        return _error("--from-flash needs --flash DIR")
    if not (args.script or args.interactive or args.pty):
        return _error("give --script FILE, --interactive or --pty PATH")
    if args.interactive and args.pty:  # (--script with --interactive: argparse refuses it)
        return _error("--interactive and --pty do not fit together: the prompt drives the "
                      "board that --pty would serve to host tools; give one of them (--script "
                      "FILE --pty PATH serves after the script)")
    try:
        if args.pty:
            check_pty_link(args.pty)
        if args.flash:
            kwargs["flash"] = flash_image(args.flash, boot=args.from_flash)
            kwargs["boot_from_flash"] = args.from_flash
            if args.target == "pico":  # the chip's own id, kept beside its image
                from cargoboard.sim.pico.runner import folder_unique_id
                kwargs["unique_id"] = folder_unique_id(args.flash)
    except FirmwareError as e:
        return _error(e)
    try:
        if args.script:
            from cargoboard.sim.script import run_script
            if rev == "B":
                return run_script(args.script, serve=args.pty, noise=noise, **kwargs)
            return run_script(args.script, serve=args.pty, **kwargs)
        if args.pty:
            return _serve(args.pty, rev == "B" and noise, kwargs)
    except FirmwareError as e:  # while it was served
        return _error("the firmware broke down: %s" % str(e).splitlines()[0], 1)
    from cargoboard.sim.interactive import run_interactive
    if rev == "B":
        return run_interactive(noise=noise, **kwargs)
    return run_interactive(**kwargs)


def _serve(path, noise, kwargs):
    """`sim --pty PATH` alone: start the board and run its first frame (a board that cannot
    use its flash says so there), and only then link PATH and say that it is served."""
    from cargoboard.sim.runner import FirmwareError
    from cargoboard.sim.targets import make_runner
    kwargs = dict(kwargs)
    faults = kwargs.pop("faults", None)
    try:
        runner = make_runner(**kwargs)
    except FirmwareError as e:
        return _error("cannot start the simulated board: %s" % str(e).splitlines()[0])
    runner.faults = faults  # (from power-on: a button stuck then pressed the boot game)
    import signal

    class Stopped(Exception):
        pass

    def _term(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # stopping: the others wait till it has
        raise Stopped

    # SIGTERM while the board starts stops it as it does once it is served: exit 0, nothing
    # left behind (by default the process died with 143 until it served)
    old = signal.signal(signal.SIGTERM, _term)
    try:
        try:
            runner.start()
            if noise:
                from cargoboard.sim.world import revb_physics
                runner.sums = revb_physics().HallWorld(noise).adc_sums()   # an empty board
            runner.step()
        except (FirmwareError, OSError) as e:
            return _error("cannot start the simulated board: %s" % str(e).splitlines()[0])
        return runner.serve_on(path)
    except Stopped:
        return 0
    finally:
        # After a SIGTERM (either _term left SIG_IGN) the program ends: further ones stay
        # ignored to its end (the default handler put back would end it with 143 once all
        # is tidied); otherwise the handler it had is put back, after the runner is stopped.
        termed = signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        runner.stop()
        if not termed:
            signal.signal(signal.SIGTERM, old)
