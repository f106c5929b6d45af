"""The circuit tools: which there are, and the command line they share.

    python -m circuit.cli                    # this list
    python -m circuit.pins                   # hardware/pinmap*.py from hardware/pins*.json
    python -m circuit.board [--rev b]        # ERC and design rules, then the KiCad netlist
    python -m circuit.bom [--rev b] [--check]    # circuit/bom*.csv from the netlist
    python -m circuit.power [--rev b]        # the power budget and the LED rail's soft start
    python -m circuit.magnet [--rev b]       # the field model's table and its design rules
    python -m circuit.magnet --tables [--check]  # firmware/games/cargocube/field.py
    python -m circuit.scantime               # revision B's scan time and its ADC settling

Each tool prints its own usage with --help; a word a tool does not take is an error (exit 2)
rather than ignored, and `--rev A|B` picks the board revision. docs/hardware.md, "Regenerate
and check", says what each output is for.
"""

import sys

# The board's revisions (docs/hardware.md): each has its pin map in circuit.pins.REVISIONS,
# which imports this module, so the letters are kept here (tests/test_host_layers.py checks
# that the two agree).
REVISIONS = ("A", "B")


def parse(argv, doc, flags=(), rev=True):
    """(revision, the flags given) from argv, for a tool whose usage is its docstring `doc`
    and which takes `flags` (and `--rev A|B` if `rev`). Exits 0 after `--help`, 2 on a word
    it does not take."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "-h" in argv or "--help" in argv:
        print(doc.strip())
        raise SystemExit(0)
    revision = "A"
    given = set()
    i = 0
    while i < len(argv):
        word = argv[i]
        if rev and word == "--rev":
            if i + 1 >= len(argv) or argv[i + 1].upper() not in REVISIONS:
                usage("--rev takes A or B")
            revision = argv[i + 1].upper()
            i += 2
            continue
        if word not in flags:
            usage("no option %s" % word)
        given.add(word)
        i += 1
    return revision, given


def usage(message):
    sys.stderr.write("usage error: %s (--help: what this tool takes)\n" % message)
    raise SystemExit(2)


def main(argv=None):
    """`python -m circuit.cli`: the list of the circuit tools (this module's docstring)."""
    parse(argv, __doc__, rev=False)
    print(__doc__.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
