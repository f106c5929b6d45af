# What the rules drivers (driver_cephalopod.py, driver_kubitva.py, driver_formula99.py) share:
# the LCG that picks actions the same way everywhere, the line of one step, perft pairs and the
# command line. Runs under CPython and the MicroPython unix port (only the MicroPython subset).

import sys


def lcg(x):
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


def play(write, tag, step, pos, actions, a, encode):
    """Write `TAG step | legal actions | chosen action | encoded hex | notation after` and push a."""
    write("%s %d |" % (tag, step))
    for b in actions:
        write(" ")
        write(pos.format_action(b))
    text = pos.format_action(a)
    enc = encode(a)
    pos.push(a)
    write(" | %s | %s | %s\n" % (text, "".join(["%02x" % b for b in enc]), pos.notation()))


def run_perft(args, parse, perft):
    """`DEPTH POSITION` pairs: print `P index depth count notation` for each."""
    i = 0
    while i + 1 < len(args):
        pos = parse(args[i + 1])
        depth = int(args[i])
        print("P %d %d %d %s" % (i // 2, depth, perft(pos, depth), pos.notation()))
        i += 2


def main(name, run_games, parse, perft):
    argv = sys.argv[1:]
    if argv and argv[0] == "games":
        run_games(argv[1:])
    elif argv and argv[0] == "perft":
        run_perft(argv[1:], parse, perft)
    else:
        print("usage: %s games GAME... | perft DEPTH POSITION ..." % name)
        sys.exit(2)
