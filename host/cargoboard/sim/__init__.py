"""The simulated Cargoboard: the firmware on one of two targets (the MicroPython unix port, or
the stock MicroPython image on an emulated RP2040: cargoboard.sim.pico), a physical world
model, scripted and interactive drivers. `add_parser(subparsers)` registers `cargoboard sim`."""


# Revision B's firmware holds the field readings, the level scanner and the step predictions
# besides revision A's: on the emulated Pico it has 121 488 B in use at boot (bench/heap.py
# --target pico --layout-only --rev-b) of the ~240 KB heap MicroPython leaves there; the 64-bit
# unix port's objects are bigger, and there its 2-player game's set-up found no 2 KB block at
# 216k and 224k (one tracker for both revisions, both expansions' speed-ups, the teleport's
# returning moves) while 208k and 232k passed: the layout decides that close to the edge. So
# the rev-B virtual board runs with the Pico's own heap size.
REVB_HEAP = "240k"


def add_parser(subparsers):
    p = subparsers.add_parser(
        "sim", help="run the firmware on a simulated board",
        description="Run the firmware on a simulated board (--target unix: the MicroPython unix "
                    "port; --target pico: the stock MicroPython image on an emulated RP2040): "
                    "--script FILE runs a script (docs in cargoboard.sim.script), "
                    "--interactive shows the LEDs and takes the same verbs at a prompt.",
        epilog="examples:\n  cargoboard sim --script game.txt\n  cargoboard sim --interactive\n"
               "  cargoboard sim --pty /tmp/cargoboard-pty --flash /tmp/board\n"
               "  cargoboard sim --target pico --script game.txt")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--script", metavar="FILE", help="run a sim script; exit 0 only if every line held")
    mode.add_argument("--interactive", action="store_true", help="interactive terminal mode")
    p.add_argument("--pty", metavar="PATH",
                   help="serve the board's USB serial on a pseudo-terminal linked at PATH until "
                        "interrupted (after the script, if any), e.g. for cargoboard sync --port PATH")
    p.add_argument("--flash", metavar="DIR",
                   help="keep the board's flash (a littlefs image: game logs, deployed firmware) "
                        "in DIR/flash.img across runs")
    p.add_argument("--target", choices=("unix", "pico"), default="unix",
                   help="unix (default): the firmware under the MicroPython unix port; pico: the "
                        "stock MicroPython image on an emulated RP2040 (rp2040js; boot ROM and "
                        "image from ../shared/pico or $CARGOBOARD_PICO_DIR), time the emulated "
                        "chip's")
    p.add_argument("--heapsize", default=None,
                   help="MicroPython heap of the unix target (default 192k, below the ~240 KB "
                        "the Pico has, whose 32-bit objects are smaller; with --rev b %s: on "
                        "this 64-bit port revision B needs more, docs/virtual-board.md)"
                        % REVB_HEAP)
    p.add_argument("--plugin", action="append", default=[], metavar="NAME=MODULE",
                   help="register an extra game plug-in module in the firmware (repeatable)")
    p.add_argument("--from-flash", action="store_true",
                   help="with --flash: run the firmware deployed on that flash (cargoboard deploy "
                        "--flash DIR), not this checkout's")
    p.add_argument("--rev", choices=("a", "b", "A", "B"), default="a",
                   help="board revision: a (Hall switches, occupancy; the default) or b (linear "
                        "Hall sensors: the field of every cell, from the field model)")
    p.add_argument("--shift", type=float, default=0.5, metavar="MM",
                   help="revision b: how far a hand moves the bottom cube of a stack it works on "
                        "(up to MM, default 0.5)")
    p.add_argument("--bumps", type=float, default=0.0, metavar="P",
                   help="revision b: chance per lift or put-down that the hand nudges a stack "
                        "nearby (default 0)")
    p.set_defaults(func=run_sim)
    return p


def run_sim(args) -> int:
    rev = args.rev.upper()
    heap = args.heapsize or (REVB_HEAP if rev == "B" else "192k")
    kwargs = {"heapsize": heap, "plugins": args.plugin, "target": args.target}
    if rev == "B":
        import sys
        if args.target != "unix":
            print("cargoboard sim: error: --rev b runs on the unix target only (the emulated "
                  "Pico has no revision-B sensors)", file=sys.stderr)
            return 2
        if args.shift < 0 or args.bumps < 0 or args.bumps > 1:
            print("cargoboard sim: error: --shift wants mm >= 0, --bumps a chance 0..1",
                  file=sys.stderr)
            return 2
        from cargoboard.sim.hallfield import Noise
        kwargs["revision"] = "B"
        noise = Noise(shift_mm=args.shift, bump_rate=args.bumps)
    if args.flash:
        import os
        os.makedirs(args.flash, exist_ok=True)
        kwargs["flash"] = os.path.join(args.flash, "flash.img")
        kwargs["boot_from_flash"] = args.from_flash
    elif args.from_flash:
        import sys
        print("cargoboard sim: error: --from-flash needs --flash DIR", file=sys.stderr)
        return 2
    if args.script:
        from cargoboard.sim.script import run_script
        if rev == "B":
            return run_script(args.script, serve=args.pty, noise=noise, **kwargs)
        return run_script(args.script, serve=args.pty, **kwargs)
    if args.pty:
        from cargoboard.sim.runner import make_runner
        with make_runner(**kwargs) as runner:
            if rev == "B":
                from cargoboard.sim.hallfield import HallWorld
                runner.sums = HallWorld(noise).adc_sums()   # an empty board
            return runner.serve_on(args.pty)
    if not args.interactive:
        import sys
        print("cargoboard sim: error: give --script FILE, --interactive or --pty PATH", file=sys.stderr)
        return 2
    from cargoboard.sim.interactive import run_interactive
    if rev == "B":
        return run_interactive(noise=noise, **kwargs)
    return run_interactive(**kwargs)
