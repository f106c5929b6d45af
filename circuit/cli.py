"""The command lines of the circuit tools (`python -m circuit.board` and the rest): `--help`
prints the module's own usage, a word a tool does not take is an error (exit 2) rather than
ignored, and `--rev A|B` picks the board revision."""

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
