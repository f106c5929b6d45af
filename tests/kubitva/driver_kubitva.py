# Seeded КУБитва games and perft counts, printed line by line, for comparing CPython with the
# MicroPython unix port (tests/kubitva/test_kubitva_micropython.py). Runs under both: only the
# MicroPython subset, no `random` (a tiny LCG picks the actions, the same everywhere).
#
# Usage:
#   driver_kubitva.py games GAME...      GAME = gid:seed:start:actions:engine
#                                        start = board, full or arena (tests' busy position);
#                                        at most `actions` actions; engine 1: S plays the
#                                        engine's choice, N the LCG (0: both the LCG)
#   driver_kubitva.py perft DEPTH POSITION [DEPTH POSITION ...]
#   driver_kubitva.py sites SEED COUNT   COUNT seeded walled grids (walled_grid), their fill sites
# Output of `games`, per game:
#   G gid start seed
#   A step | legal actions | chosen action | encoded hex | notation after
#   E gid steps scores winners
# Output of `perft`: "P index depth count notation" per pair.
# Output of `sites`, per grid: "W index notation | door/opening ..." (fill_sites, in its order).

import sys

from driverkit import lcg, main, play
from shared_rules.kubitva import rules as kb

ARENA = (".b.baaa..b./bpbraqa.bib/....aaa.b../...x...bmb./..w...s...w/....Sws..../"
         "W...S...W../.bmb...x.../..b.aaa..../bib.aqarbpb/.b..aaab.b."
         " 11N/11N/11N/11N/11N/5S6N/11S/11S/11S/11S/11S S 40,40 5/60")


def run_games(specs):
    write = sys.stdout.write
    for spec in specs:
        gid, seed, start, limit, engine = spec.split(":")
        pos = kb.Position.parse(ARENA) if start == "arena" else kb.start_position(start)
        if engine == "1":
            from shared_rules.kubitva import engine as en
        print("G %s %s %s" % (gid, start, seed))
        x = int(seed) & 0x7FFFFFFF
        step = 0
        while not pos.is_over() and step < int(limit):
            actions = pos.legal_actions()
            if engine == "1" and pos.to_move == kb.S:
                a = en.best_action(pos)
            else:
                x = lcg(x)
                a = actions[(x >> 8) % len(actions)]
                if a == kb.END and len(actions) > 1 and (x >> 4) % 4:
                    a = actions[(x >> 12) % (len(actions) - 1)]
            play(write, "A", step, pos, actions, a, kb.encode_action)
            step += 1
        sc = pos.scores()
        print("E %s %d %d,%d %s" % (gid, step, sc[0], sc[1],
                                    "".join(kb.SEAT_LETTERS[s] for s in pos.winners())))


def walled_grid(x):
    """(notation, next x) of a seeded grid to look for fill sites in: 3-9 rows, 3-12 columns,
    walls (b a) at a density of its own, now and then a unit, waste, a filler or a base cube;
    the land split between the sides at a column per row, or scattered; either side to move;
    and up to 3 walled rooms (1-3 x 1-3 empty cells of the side to move's land) stamped over
    it, each wall with a cell left open now and then."""
    x = lcg(x)
    rows = 3 + (x >> 8) % 7
    x = lcg(x)
    cols = 3 + (x >> 8) % 10
    x = lcg(x)
    dense = (x >> 8) % 70  # walls per 100 cells
    x = lcg(x)
    scattered = (x >> 8) % 3 == 0
    x = lcg(x)
    side = "SN"[(x >> 8) & 1]
    cells = []
    land = []
    for y in range(rows):
        x = lcg(x)
        split = (x >> 8) % (cols + 1)
        for c in range(cols):
            x = lcg(x)
            r = (x >> 8) % 100
            if r < dense:
                cells.append("ba"[(x >> 16) & 1])
            elif r < dense + 5:
                cells.append("xiqWwSs"[(x >> 16) % 7])
            else:
                cells.append(".")
            x = lcg(x)
            if scattered:
                land.append("N" if (x >> 8) % 6 == 0 else "S")
            else:
                land.append("S" if c < split else "N")
    x = lcg(x)
    for _ in range((x >> 8) % 4):
        x = lcg(x)
        w = 1 + (x >> 8) % 3
        h = 1 + (x >> 12) % 3
        x0 = (x >> 16) % cols
        y0 = (x >> 20) % rows
        for y in range(y0 - 1, y0 + h + 1):
            for c in range(x0 - 1, x0 + w + 1):
                if 0 <= y < rows and 0 <= c < cols:
                    i = y * cols + c
                    if y0 <= y < y0 + h and x0 <= c < x0 + w:
                        cells[i] = "."
                        land[i] = side
                    else:
                        x = lcg(x)
                        cells[i] = "ba"[(x >> 8) & 1] if (x >> 9) % 7 else "."
    lines = []
    owners = []
    for y in range(rows - 1, -1, -1):
        lines.append("".join(cells[y * cols:y * cols + cols]))
        owners.append("".join(land[y * cols:y * cols + cols]))
    return "%s %s %s 0,0 1/60" % ("/".join(lines), "/".join(owners), side), x


def run_sites(seed, count):
    x = seed
    for i in range(count):
        text, x = walled_grid(x)
        pos = kb.Position.parse(text)
        out = []
        for r, d in pos.fill_sites():
            out.append("%s/%s" % (pos.cell_name(r), pos.cell_name(pos.nb[r * 4 + d])))
        print("W %d %s | %s" % (i, text, " ".join(out)))


def parse(text):
    if text == "arena":
        return kb.Position.parse(ARENA)
    return kb.named_position(text) or kb.Position.parse(text)


if __name__ == "__main__":  # (the reference test imports walled_grid)
    if sys.argv[1:2] == ["sites"]:
        run_sites(int(sys.argv[2]), int(sys.argv[3]))
    else:
        main("driver_kubitva.py", run_games, parse, kb.perft)
