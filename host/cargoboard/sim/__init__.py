"""The simulated Cargoboard: firmware under the MicroPython unix port, a physical world model,
scripted and interactive drivers. `add_parser(subparsers)` registers `cargoboard sim`."""


def add_parser(subparsers):
    p = subparsers.add_parser(
        "sim", help="run the firmware on a simulated board",
        description="Run the firmware (MicroPython unix port) on a simulated board: "
                    "--script FILE runs a script (docs in cargoboard.sim.script), "
                    "--interactive shows the LEDs and takes the same verbs at a prompt.")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--script", metavar="FILE", help="run a sim script; exit 0 only if every line held")
    mode.add_argument("--interactive", action="store_true", help="interactive terminal mode")
    p.add_argument("--heapsize", default="192k", help="MicroPython heap (default 192k, the Pico's)")
    p.add_argument("--plugin", action="append", default=[], metavar="NAME=MODULE",
                   help="register an extra game plug-in module in the firmware (repeatable)")
    p.add_argument("--flash", metavar="DIR",
                   help="keep the board's flash (its game logs) in DIR/flash.img across runs")
    p.set_defaults(func=run_sim)
    return p


def run_sim(args) -> int:
    kwargs = {"heapsize": args.heapsize, "plugins": args.plugin}
    if args.flash:
        import os
        os.makedirs(args.flash, exist_ok=True)
        kwargs["flash"] = os.path.join(args.flash, "flash.img")
    if args.script:
        from cargoboard.sim.script import run_script
        return run_script(args.script, **kwargs)
    from cargoboard.sim.interactive import run_interactive
    return run_interactive(**kwargs)
