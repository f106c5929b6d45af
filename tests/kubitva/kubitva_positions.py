"""Hand-built КУБитва positions for the tests: a picture of the grid (top row first) and of the
territory, turned into the notation of docs/rules/kubitva.md section 9.

The small test grids have both bases, so that a game is going on: S's base cube on b2 walled by
b1 a2 c2 b3, N's on f6 walled by f7 e6 g6 f5 (7 x 7 grid; rows 1-3 are S's, 4-7 N's unless a
test draws the territory); the 9 x 9 grid (grid9) has S's base cube on b2 and N's on h8.
"""

from shared_rules.kubitva import rules as kb

BASES = """
.....a.
....aqa
.....a.
.......
.a.....
aqa....
.a.....
"""

# A busy 11 x 11 position (board edition map): every kind of building on each side, soldiers
# at the border, waste in front of the recyclers, money to buy everything.
ARENA = (".b.baaa..b./bpbraqa.bib/....aaa.b../...x...bmb./..w...s...w/....Sws..../"
         "W...S...W../.bmb...x.../..b.aaa..../bib.aqarbpb/.b..aaab.b."
         " 11N/11N/11N/11N/11N/5S6N/11S/11S/11S/11S/11S S 40,40 5/60")


def runs(row):
    out = []
    for ch in row:
        if out and out[-1][1] == ch:
            out[-1][0] += 1
        else:
            out.append([1, ch])
    return "".join("%d%s" % (n, ch) for n, ch in out)


def notation(grid, land=None, side="S", money="0,0", turn="1/60"):
    """The notation of a grid picture (rows top down, one letter per cell, a unit's points as a
    digit after it) and a territory picture (S N s n per cell; by default the lower half of the
    rows is S's, the rest N's)."""
    rows = [r.strip() for r in grid.strip().splitlines()]
    cols = len(tokens(rows[0]))
    if land is None:
        n = len(rows)
        land = ["N" * cols if i < n - n // 2 else "S" * cols for i in range(n)]
    else:
        land = [r.strip() for r in land.strip().splitlines()]
    return "%s %s %s %s %s" % ("/".join(rows), "/".join(runs(r) for r in land), side, money,
                               turn)


def position(grid, land=None, side="S", money="0,0", turn="1/60"):
    return kb.Position.parse(notation(grid, land, side, money, turn))


def tokens(row):
    """The cells of a picture row: a letter, and for a unit its points digit if any."""
    out = []
    for ch in row:
        if ch.isdigit():
            out[-1] += ch
        else:
            out.append(ch)
    return out


def overlay(picture, base=BASES):
    """The picture with the cubes of base drawn in wherever the picture has '.'."""
    a = [tokens(r.strip()) for r in base.strip().splitlines()]
    b = [tokens(r.strip()) for r in picture.strip().splitlines()]
    out = []
    for ra, rb in zip(a, b):
        out.append("".join(y if y != "." else x for x, y in zip(ra, rb)))
    return "\n".join(out)


def texts(pos):
    return [pos.format_action(a) for a in pos.legal_actions()]


def play(pos, *actions):
    for t in actions:
        pos.push(pos.parse_action(t))
    return pos


LAND_9 = "\n".join(["N" * 9] * 4 + ["S" * 9] * 5)  # 9 x 9: rows 1-5 S's, 6-9 N's
LAND_ROW6_S = "\n".join(["N" * 9] * 3 + ["S" * 9] * 6)  # rows 1-6 S's
BASES_9 = """
.......a.
......aqa
.......a.
.........
.........
.........
.a.......
aqa......
.a.......
"""


def grid9(picture, land=LAND_9, **kw):
    return position(overlay(picture, BASES_9), land, **kw)
