"""The simulated Cargoboard: the firmware on one of two targets (the MicroPython unix port, or
the stock MicroPython image on an emulated RP2040: cargoboard.sim.pico), a physical world
model, scripted and interactive drivers. `add_parser(subparsers)` registers `cargoboard sim`."""


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
    p.add_argument("--heapsize", default="192k",
                   help="MicroPython heap of the unix target (default 192k, the Pico's)")
    p.add_argument("--plugin", action="append", default=[], metavar="NAME=MODULE",
                   help="register an extra game plug-in module in the firmware (repeatable)")
    p.add_argument("--from-flash", action="store_true",
                   help="with --flash: run the firmware deployed on that flash (cargoboard deploy "
                        "--flash DIR), not this checkout's")
    p.set_defaults(func=run_sim)
    return p


def run_sim(args) -> int:
    kwargs = {"heapsize": args.heapsize, "plugins": args.plugin, "target": args.target}
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
        return run_script(args.script, serve=args.pty, **kwargs)
    if args.pty:
        from cargoboard.sim.runner import make_runner
        with make_runner(**kwargs) as runner:
            return runner.serve_on(args.pty)
    if not args.interactive:
        import sys
        print("cargoboard sim: error: give --script FILE, --interactive or --pty PATH", file=sys.stderr)
        return 2
    from cargoboard.sim.interactive import run_interactive
    return run_interactive(**kwargs)
