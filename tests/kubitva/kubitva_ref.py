"""Independent, deliberately slow reference for КУБитва, written from the rulings page
docs/rules/kubitva.md alone (not from shared_rules/kubitva). Clarity over speed; the tests use
it to cross-check the fast core by legal action lists, positions after each action, and perft.

State: a dict
    cols, rows     the grid size
    grid           {(x, y): letter} of the occupied cells (x from 0 = column a, y from 0 = row 1)
    pts            {(x, y): points} of units whose points are not 10
    land           {(x, y): 'S' | 'N'} for every cell
    fresh          set of cells captured during the current turn
    side           'S' | 'N'
    money          {'S': int, 'N': int}
    turn, limit    ints

Actions are their texts (section 10 of the page).

    parse(text) -> state      fmt(state) -> notation
    legal(state) -> [text]    in the page's order
    play(state, text) -> new state (input untouched)
    is_over(state), winners(state) -> 'S' | 'N' | 'SN' | '', scores(state) -> {'S': n, 'N': n}
    perft(state, depth)
"""

import copy

DIRS = [("n", 0, 1), ("e", 1, 0), ("s", 0, -1), ("w", -1, 0)]
WALLS = "ba"
FILLERS = "ipmrq"
UNITS = "WwSs"
FILL_KINDS = "ipmr"
ITEMS = "bawskKx"
COST = {"b": 2, "a": 5, "w": 2, "s": 5, "k": 10, "K": 20, "x": 2}
SOLD_BY = {"b": "p", "a": "p", "w": "i", "s": "m", "k": "m", "K": "m", "x": "r"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def other(side):
    return "N" if side == "S" else "S"


def owner(letter):
    return "S" if letter in "WS" else "N"


# -- notation ----------------------------------------------------------------------------------

def parse(text):
    cells_f, land_f, side, money_f, turn_f = text.split()
    rows_text = cells_f.split("/")
    rows = len(rows_text)
    grid, pts = {}, {}
    cols = None
    for r, line in enumerate(rows_text):
        y = rows - 1 - r
        x = 0
        i = 0
        while i < len(line):
            ch = line[i]
            i += 1
            if ch != ".":
                grid[(x, y)] = ch
                if ch in UNITS and i < len(line) and line[i].isdigit():
                    pts[(x, y)] = int(line[i])
                    i += 1
            x += 1
        assert cols is None or cols == x
        cols = x
    land, fresh = {}, set()
    for r, line in enumerate(land_f.split("/")):
        y = rows - 1 - r
        x = 0
        num = ""
        for ch in line:
            if ch.isdigit():
                num += ch
                continue
            for _ in range(int(num or "1")):
                land[(x, y)] = ch.upper()
                if ch.islower():
                    fresh.add((x, y))
                x += 1
            num = ""
        assert x == cols
    s, n = money_f.split(",")
    turn, limit = turn_f.split("/")
    return {"cols": cols, "rows": rows, "grid": grid, "pts": pts, "land": land, "fresh": fresh,
            "side": side, "money": {"S": int(s), "N": int(n)}, "turn": int(turn),
            "limit": int(limit)}


def fmt(st):
    out = []
    for y in range(st["rows"] - 1, -1, -1):
        line = ""
        for x in range(st["cols"]):
            ch = st["grid"].get((x, y), ".")
            line += ch
            if (x, y) in st["pts"]:
                line += str(st["pts"][(x, y)])
        out.append(line)
    land = []
    for y in range(st["rows"] - 1, -1, -1):
        runs = []
        for x in range(st["cols"]):
            letter = st["land"][(x, y)]
            if (x, y) in st["fresh"]:
                letter = letter.lower()
            if runs and runs[-1][1] == letter:
                runs[-1][0] += 1
            else:
                runs.append([1, letter])
        land.append("".join("%d%s" % (n, l) for n, l in runs))
    return "%s %s %s %d,%d %d/%d" % ("/".join(out), "/".join(land), st["side"], st["money"]["S"],
                                     st["money"]["N"], st["turn"], st["limit"])


def name(cell):
    return LETTERS[cell[0]] + str(cell[1] + 1)


def cell_of(text):
    return (LETTERS.index(text[0]), int(text[1:]) - 1)


def on_grid(st, c):
    return 0 <= c[0] < st["cols"] and 0 <= c[1] < st["rows"]


def add(c, d):
    return (c[0] + d[1], c[1] + d[2])


def around(st, c):
    """[(dir tuple, neighbour)] for the 4 directions, neighbours possibly off the grid."""
    return [(d, add(c, d)) for d in DIRS]


def index(st, c):
    return c[1] * st["cols"] + c[0]


# -- base, buildings --------------------------------------------------------------------------

def keeps_base(st, side):
    g = st["grid"]
    mine = [c for c, v in g.items() if v == "q" and st["land"][c] == side]
    if not mine:
        return False
    for c in mine:
        for _, t in around(st, c):
            if not on_grid(st, t) or g.get(t) not in ("a", "q"):
                return False
    return True


def next_to_base(st, c):
    return any(st["grid"].get(t) == "q" for _, t in around(st, c))


def groups(st):
    """[(kind, set of rooms)] of the fillers i p m r."""
    g = st["grid"]
    seen = set()
    out = []
    for c in sorted(g, key=lambda c: index(st, c)):
        if g[c] in "ipmr" and c not in seen:
            kind = g[c]
            todo = [c]
            rooms = set()
            while todo:
                r = todo.pop()
                if r in rooms:
                    continue
                rooms.add(r)
                for _, t in around(st, r):
                    if g.get(t) == kind and t not in rooms:
                        todo.append(t)
            seen |= rooms
            out.append((kind, rooms))
    return out


def intact(st, rooms):
    """(door room, opening, direction) of an intact building with these rooms, else None."""
    g = st["grid"]
    boundary = set()
    for r in rooms:
        for _, t in around(st, r):
            if t not in rooms:
                boundary.add(t)
    openings = []
    for b in boundary:
        if not on_grid(st, b):
            return None
        v = g.get(b)
        if v in ("b", "a"):
            continue
        if v is None or v in UNITS:
            openings.append(b)
        else:
            return None
    if len(openings) != 1:
        return None
    o = openings[0]
    touching = [(d, r) for d, r in around(st, o) if r in rooms]
    if len(touching) != 1:
        return None
    d, r = touching[0]
    back = [dd for dd in DIRS if add(r, dd) == o][0]
    return r, o, back


def usable(st, rooms, side):
    return all(st["land"][r] == side and r not in st["fresh"] for r in rooms)


def target(st, o, d):
    c = o
    while on_grid(st, c):
        v = st["grid"].get(c)
        if v is not None and v not in FILLERS:
            return c
        c = add(c, d)
    return None


def rooms_from(st, door, o):
    """The cells reached from door through non-wall cells without passing o."""
    g = st["grid"]
    seen = {door}
    todo = [door]
    while todo:
        c = todo.pop()
        for _, t in around(st, c):
            if on_grid(st, t) and t != o and t not in seen and g.get(t) not in ("b", "a"):
                seen.add(t)
                todo.append(t)
    return seen


def on_edge(st, c):
    return c[0] in (0, st["cols"] - 1) or c[1] in (0, st["rows"] - 1)


def fill_ok(st, door, o):
    g = st["grid"]
    if not on_grid(st, o) or not (g.get(o) is None or g.get(o) in UNITS):
        return False

    def fit(c):
        return g.get(c) is None and not on_edge(st, c) and st["land"][c] == st["side"]

    # rooms_from(), stopping at the first cell that cannot be a room
    if not fit(door):
        return False
    rooms = {door}
    todo = [door]
    while todo:
        c = todo.pop()
        for _, t in around(st, c):
            if on_grid(st, t) and t != o and t not in rooms and g.get(t) not in ("b", "a"):
                if not fit(t):
                    return False
                rooms.add(t)
                todo.append(t)
    return sum(1 for _, t in around(st, o) if t in rooms) == 1


# -- legal actions ------------------------------------------------------------------------------

def unit_actions(st, c):
    """[(code, text)] of the unit on c (it may act)."""
    g = st["grid"]
    v = g[c]
    side = st["side"]
    soldier = v in "Ss"
    out = []
    for di, d in enumerate(DIRS):
        t = add(c, d)
        if not on_grid(st, t):
            continue
        if not soldier and st["land"][t] != side:
            continue
        if g.get(t) is None:
            out.append((5 * di, "%s%s" % (name(c), d[0])))
        for ei, e in enumerate(DIRS):
            k = add(c, e)
            if not on_grid(st, k) or g.get(k) not in ("b", "a", "x") or next_to_base(st, k):
                continue
            k2 = add(k, d)
            # both destinations free: empty or the cell the other one leaves
            unit_free = t == k or g.get(t) is None
            cube_free = on_grid(st, k2) and (k2 == c or g.get(k2) is None)
            if unit_free and cube_free:
                out.append((5 * di + 1 + ei, "%s%s+%s" % (name(c), d[0], name(k))))
    if soldier and st["land"][c] == side:
        for di, d in enumerate(DIRS):
            t = add(c, d)
            if on_grid(st, t) and g.get(t, ".") in UNITS and owner(g[t]) != side \
                    and st["land"][t] != side:
                out.append((20 + di, "%sx%s" % (name(c), name(t))))
    return out


def legal(st):
    if is_over(st):
        return []
    g = st["grid"]
    side = st["side"]
    found = []  # (cell index, code, text)
    for c, v in g.items():
        if v in UNITS and owner(v) == side and st["pts"].get(c, 10) > 0:
            for code, text in unit_actions(st, c):
                found.append((index(st, c), code, text))
    money = st["money"][side]
    for kind, rooms in groups(st):
        b = intact(st, rooms)
        if b is None or not usable(st, rooms, side):
            continue
        r, o, d = b
        di = DIRS.index(d)
        f = add(o, d)
        free_front = on_grid(st, f) and f not in g and st["land"][f] == side
        for ti, item in enumerate(ITEMS):
            if SOLD_BY[item] != kind or money < COST[item]:
                continue
            if item in "baws":
                ok = free_front
            elif item == "x":
                ok = on_grid(st, f) and g.get(f) == "x" and st["land"][f] == side
            else:
                t = target(st, o, d)
                ok = t is not None and (g[t] == "b" or g[t] in UNITS or
                                        (item == "K" and g[t] == "a"))
            if ok:
                found.append((index(st, r), 40 + 4 * ti + di,
                              "%s@%s/%s" % (item, name(r), name(o))))
    for y in range(st["rows"]):
        for x in range(st["cols"]):
            o = (x, y)
            for di, d in enumerate(DIRS):
                door = add(o, (None, -d[1], -d[2]))
                if on_grid(st, door) and fill_ok(st, door, o):
                    for ki, kind in enumerate(FILL_KINDS):
                        found.append((index(st, door), 24 + 4 * ki + di,
                                      "%s@%s/%s" % (kind, name(door), name(o))))
    found.sort()
    return [t for _, _, t in found] + ["end"]


# -- playing -------------------------------------------------------------------------------------

def spend_active(st, keep):
    """Any action but the active unit's own takes its remaining points."""
    for c, p in list(st["pts"].items()):
        if 0 < p < 10 and c != keep:
            st["pts"][c] = 0


def capture(st, t):
    side = st["side"]
    enemy = other(side)
    st["land"][t] = side
    st["fresh"].add(t)
    # enemy land connected to an enemy base cube stays; the rest changes hands
    keep = set()
    todo = [c for c, v in st["grid"].items() if v == "q" and st["land"][c] == enemy]
    while todo:
        c = todo.pop()
        if c in keep:
            continue
        keep.add(c)
        for _, u in around(st, c):
            if on_grid(st, u) and st["land"][u] == enemy and u not in keep:
                todo.append(u)
    for c, s in st["land"].items():
        if s == enemy and c not in keep:
            st["land"][c] = side
            st["fresh"].add(c)


def play(st, action):
    assert action in legal(st), (action, fmt(st))
    st = copy.deepcopy(st)
    g = st["grid"]
    side = st["side"]
    if action == "end":
        st["pts"] = {}
        st["fresh"] = set()
        st["turn"] += 1
        st["side"] = other(side)
        income = 0
        for kind, rooms in groups(st):
            if kind == "i" and intact(st, rooms) and usable(st, rooms, st["side"]):
                income += len(rooms)
        st["money"][st["side"]] += income
        return st
    if "@" in action:
        spend_active(st, None)
        letter, rest = action.split("@")
        r, o = (cell_of(t) for t in rest.split("/"))
        d = [dd for dd in DIRS if add(r, dd) == o][0]
        if letter in FILL_KINDS:
            for c in rooms_from(st, r, o):
                g[c] = letter
            return st
        st["money"][side] -= COST[letter]
        f = add(o, d)
        if letter in "ba":
            g[f] = letter
        elif letter in "ws":
            g[f] = (letter.upper() if side == "S" else letter)
            st["pts"][f] = 0
        elif letter == "x":
            g[f] = "b"
        else:
            t = target(st, o, d)
            st["pts"].pop(t, None)
            if g[t] == "a":
                del g[t]
            else:
                g[t] = "x"
        return st
    if "x" in action[1:]:
        a, b = action.split("x")
        c, t = cell_of(a), cell_of(b)
        spend_active(st, c)
        del g[t]
        st["pts"][c] = st["pts"].get(c, 10) - 1
        return st
    head, _, cube = action.partition("+")
    c = cell_of(head[:-1])
    d = [dd for dd in DIRS if dd[0] == head[-1]][0]
    spend_active(st, c)
    t = add(c, d)
    unit = g.pop(c)
    left = st["pts"].pop(c, 10) - 1
    if cube:
        k = cell_of(cube)
        kv = g.pop(k)
        g[add(k, d)] = kv
    g[t] = unit
    st["pts"][t] = left
    if unit in "Ss" and st["land"][c] == side and st["land"][t] != side:
        capture(st, t)
    return st


def is_over(st):
    return st["turn"] > st["limit"] or not keeps_base(st, "S") or not keeps_base(st, "N")


def scores(st):
    return {"S": sum(1 for v in st["land"].values() if v == "S"),
            "N": sum(1 for v in st["land"].values() if v == "N")}


def winners(st):
    if not is_over(st):
        return ""
    ks, kn = keeps_base(st, "S"), keeps_base(st, "N")
    if ks and not kn:
        return "S"
    if kn and not ks:
        return "N"
    if not ks:
        return "SN"
    sc = scores(st)
    if sc["S"] == sc["N"]:
        return "SN"
    return "S" if sc["S"] > sc["N"] else "N"


def perft(st, depth):
    if depth == 0:
        return 1
    acts = legal(st)
    if depth == 1:
        return len(acts)
    return sum(perft(play(st, a), depth - 1) for a in acts)
