"""Independent, deliberately simple reference for «Формула 99», written from the rulings page
docs/rules/formula99.md alone (not from shared_rules/formula99/). Clarity over speed.

State: a dict (see `parse`), copied before every change. Cells are (t, lane) tuples: t = 0..35
along the race, lane 'b' or 'y' for lane cells and 'r' for red cells. Ship places: a cell, or
'S' (start zone), 'F' (finish cell), 'C' (control room).

    parse(text) -> state         fmt(state) -> text
    options(state) -> {action text: function(state)}   (the function changes the state)
    legal(state) -> [action text]
    play(state, text) -> new state (the input is untouched)
    perft(state, depth)          start(players, level, seed=None)
"""

import copy

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ALL_CARDS = [r + s for s in SUITS for r in RANKS] + ["Xr", "Xb"]  # in code order


def code(card):
    return ALL_CARDS.index(card) + 1


def red(card):
    return card == "Xr" or (card[0] != "X" and card[1] in "dh")


def value(card):
    return 15 if card[0] == "X" else RANKS.index(card[0]) + 2


def sort_cards(cards):
    return sorted(cards, key=code)


# -- cells -----------------------------------------------------------------------------------------

def cell_name(c):
    t, lane = c
    if lane == "r":
        return "%dr" % (t // 4 + 1)
    return "%d%s%d" % (t // 4 + 1, lane, t % 4 + 1)


def parse_cell(text):
    if len(text) == 2 and text[0] in "123456789" and text[1] == "r":
        return ((int(text[0]) - 1) * 4 + 3, "r")
    if len(text) == 3 and text[0] in "123456789" and text[1] in "by" and text[2] in "123":
        return ((int(text[0]) - 1) * 4 + int(text[2]) - 1, text[1])
    return None


ALL_CELLS = [(t, "r") if t % 4 == 3 else (t, lane) for t in range(36) for lane in "by"
             if not (t % 4 == 3 and lane == "y")]


def lanes(c):
    return {"b", "y"} if c[1] == "r" else {c[1]}


def sector(c):
    return c[0] // 4


def own_lane(c):
    return "b" if c[1] == "r" else c[1]


def step_forward(c, lane):
    t, l = c
    if l == "r":
        return ((t + 1) % 36, lane)
    if t % 4 == 2:
        return (t + 1, "r")
    return (t + 1, l)


def step_back(c, lane):
    t, l = c
    if l == "r":
        return (t - 1, lane)
    if t % 4 == 0:
        return ((t - 1) % 36, "r")
    return (t - 1, l)


def progress(c, civ):
    return (c[0] - 4 * (civ - 1)) % 36


def plus_cell(civ):
    return (4 * (civ - 1), "b")


def is_plus(c):
    return c[1] == "b" and c[0] % 4 == 0


def ahead_within(a, b, m):
    k = (sector(b) - sector(a)) % 9
    return k < m and (k > 0 or b[0] > a[0])


def behind_within(a, b, m):
    k = (sector(a) - sector(b)) % 9
    return k < m and (k > 0 or b[0] < a[0])


# -- state helpers ----------------------------------------------------------------------------------

def ships(state):
    """[(civ, index, place)] of every ship."""
    return [(civ, i, state["ships"][civ][i]) for civ in state["civs"] for i in (0, 1)]


def ship_on(state, c):
    for civ, i, p in ships(state):
        if p == c:
            return (civ, i)
    return None


def charge_on(state, c):
    for ch in state["charges"]:
        if ch["cell"] == c:
            return ch
    return None


def card_charge_on(state, c):
    ch = charge_on(state, c)
    return ch if ch is not None and ch["card"] != "#" else None


def blockade_on(state, c):
    ch = charge_on(state, c)
    return ch is not None and ch["card"] == "#"


def place_text(state, ship):
    civ, i = ship
    p = state["ships"][civ][i]
    if p == "S":
        return "s%d" % civ
    if p == "F":
        return "f%d" % civ
    if p == "C":
        return "c"
    return cell_name(p)


def find_ship(state, text):
    c = parse_cell(text)
    if c is not None:
        return ship_on(state, c)
    kind = {"s": "S", "f": "F"}[text[0]]
    civ = int(text[1])
    for i in (0, 1):
        if state["ships"][civ][i] == kind:
            return (civ, i)
    raise ValueError(text)


def pool(state):
    return [c for c in ALL_CARDS if c not in state["discard"]]


def hand_count(state, civ):
    h = state["hands"][civ]
    return len(h) if state["full"] else h


def deck_count(state):
    if state["full"]:
        return len(state["deck"])
    n = 54 - sum(state["hands"].values()) - len(state["discard"])
    n -= sum(1 for ch in state["charges"] if ch["card"] != "#")
    return n


def lcg_shuffle(cards, seed):
    a = list(cards)
    x = seed
    for i in range(len(a) - 1, 0, -1):
        x = (1103515245 * x + 12345) % (2 ** 31)
        j = (x >> 16) % (i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def reshuffle(state):
    state["resh"] += 1
    if state["full"]:
        state["deck"] = lcg_shuffle(sort_cards(state["discard"]),
                                    (state["seed"] + 7919 * state["resh"]) % (2 ** 31))
    state["discard"] = []


def draw_top(state):
    if not state["deck"]:
        reshuffle(state)
    return state["deck"].pop(0)


def next_top(state):
    if state["deck"]:
        return state["deck"][0]
    return lcg_shuffle(sort_cards(state["discard"]),
                       (state["seed"] + 7919 * (state["resh"] + 1)) % (2 ** 31))[0]


def send_ship(state, ship, place):
    """Move a ship; a blockade left goes home; FINISH picks finish cell or control room."""
    civ, i = ship
    old = state["ships"][civ][i]
    if isinstance(old, tuple):
        ch = charge_on(state, old)
        if ch is not None and ch["card"] == "#":
            state["charges"].remove(ch)
    if place == "F" and state["ships"][civ][1 - i] == "F":
        place = "C"
    state["ships"][civ][i] = place
    if place == "C":
        state["winner"] = civ


def forward_or_finish(state, ship, dest):
    civ, i = ship
    x = state["ships"][civ][i]
    d = (dest[0] - x[0]) % 36
    return "F" if progress(x, civ) + d >= 36 else dest


def finish_name(state, ship):
    civ, i = ship
    return "c" if state["ships"][civ][1 - i] == "F" else "f%d" % civ


# -- paths --------------------------------------------------------------------------------------------

def walk(state, start, steps, ignore_blockade=False):
    """Every path of exactly `steps` forward steps from start: [(cells, lanes chosen)];
    a path stops short before a blockade (unless ignored)."""
    out = []

    def rec(c, cells, chosen):
        if len(cells) == steps:
            out.append((cells, chosen))
            return
        if c[1] == "r":
            nexts = [(step_forward(c, "b"), "b"), (step_forward(c, "y"), "y")]
        else:
            nexts = [(step_forward(c, "b"), None)]
        for n, lane in nexts:
            if not ignore_blockade and blockade_on(state, n):
                out.append((cells, chosen))
                continue
            rec(n, cells + [n], chosen + ([lane] if lane else []))
    rec(start, [], [])
    return out


def lanes_text(chosen, dest_is_lane):
    letters = list(chosen)
    if dest_is_lane and letters:
        letters.pop()
    return "/" + "".join(letters) if letters else ""


def standard_moves(state, civ, limit, only=None):
    """{text: (ship, cells)} of standard moves; cells end with 'F' for a finish."""
    out = {}
    for i in (0, 1):
        if only is not None and i != only:
            continue
        ship = (civ, i)
        p = state["ships"][civ][i]
        if p == "S":
            if ship_on(state, plus_cell(civ)) is None:
                out.setdefault("s%d-%s" % (civ, cell_name(plus_cell(civ))),
                               (ship, [plus_cell(civ)]))
            continue
        if not isinstance(p, tuple):
            continue
        room = 36 - progress(p, civ)
        for n in range(1, min(limit, room) + 1):
            finishing = n == room
            for cells, chosen in walk(state, p, n - 1 if finishing else n):
                if len(cells) != (n - 1 if finishing else n):
                    continue
                if finishing:
                    text = "%s-%s%s" % (cell_name(p), finish_name(state, ship),
                                        lanes_text(chosen, False))
                    out[text] = (ship, cells + ["F"])
                else:
                    dest = cells[-1]
                    if ship_on(state, dest) is not None:
                        continue
                    text = "%s-%s%s" % (cell_name(p), cell_name(dest),
                                        lanes_text(chosen, dest[1] != "r"))
                    out[text] = (ship, cells)
    return out


def do_standard_move(state, ship, cells):
    crossed = [c for c in cells if c != "F" and card_charge_on(state, c) is not None]
    send_ship(state, ship, cells[-1])
    for c in reversed(crossed):
        state["agenda"].append({"k": "T", "x": ship, "cell": c})


def reach5(state, ship):
    """Cells a standard move of 1..5 steps could end on, ignoring ships, a blockade cell
    allowed as the last one."""
    civ, i = ship
    x = state["ships"][civ][i]
    room = 36 - progress(x, civ)
    found = set()
    for n in range(1, min(5, room) + 1):
        if n == room:
            break
        for cells, chosen in walk(state, x, n, ignore_blockade=True):
            if any(blockade_on(state, c) for c in cells[:-1]):
                continue
            found.add(cells[-1])
    return found


# -- relocations --------------------------------------------------------------------------------------

def occupied(state, c):
    return ship_on(state, c) is not None or charge_on(state, c) is not None


def jump(state, ship, n):
    civ, i = ship
    x = state["ships"][civ][i]
    if progress(x, civ) + n >= 36:
        send_ship(state, ship, "F")
        return
    lane = own_lane(x)
    c = x
    for _ in range(n):
        c = step_forward(c, lane)
    while c != x and occupied(state, c):
        c = step_back(c, lane)
    if c != x:
        send_ship(state, ship, c)


def back_move(state, ship, n):
    civ, i = ship
    x = state["ships"][civ][i]
    if not isinstance(x, tuple):
        return
    n = min(n, progress(x, civ))
    lane = own_lane(x)
    c = x
    for _ in range(n):
        nxt = step_back(c, lane)
        if blockade_on(state, nxt):
            break
        c = nxt
    while c != x and occupied(state, c):
        c = step_forward(c, lane)
    if c != x:
        send_ship(state, ship, c)


def forward_options(state, ship, n):
    """{text: function} of an event's forward move of n steps."""
    civ, i = ship
    x = state["ships"][civ][i]
    room = 36 - progress(x, civ)
    out = {}
    for cells, chosen in walk(state, x, min(n, room)):
        if len(cells) == room:
            cells = cells[:-1] + ["F"]
        path = list(cells)
        land = len(path) - 1
        if land >= 0 and path[land] != "F":
            while land >= 0 and occupied(state, path[land]):
                land -= 1
        if land < 0:
            out["go:" + cell_name(x)] = (lambda st, s=ship: None)
            continue
        # lanes chosen up to the landing cell
        used = 0
        prev = x
        for c in path[:land + 1]:
            if prev[1] == "r" and c != "F":
                used += 1
            prev = c
        dest = path[land]
        if dest == "F":
            head = "go:" + finish_name(state, ship) + lanes_text(chosen[:used], False)
        else:
            head = "go:" + cell_name(dest) + lanes_text(chosen[:used], dest[1] != "r")
        charges = [c for c in path[:land] if card_charge_on(state, c) is not None]

        def make(dest, trig):
            def f(st):
                send_ship(st, ship, dest)
                if trig is not None:
                    st["agenda"].append({"k": "T", "x": ship, "cell": trig})
            return f
        if charges:
            for c in charges:
                out[head + "!" + cell_name(c)] = make(dest, c)
        else:
            out[head] = make(dest, None)
    return out


# -- events -------------------------------------------------------------------------------------------

VALUE_EVENT = {4: "fwd10", 5: "jump8", 6: "two", 7: "tow7", 8: "tow8", 9: "beam", 10: "freeze",
               11: "back9", 12: "home", 13: "laser", 14: "blast"}


def event_name(level, card):
    if level == 3:
        if card[0] == "X":
            return "joker"
        v = value(card)
        if v >= 4:
            return VALUE_EVENT[v]
    return "fwd6" if red(card) else "back5"


def on_track(state, ship):
    return isinstance(state["ships"][ship[0]][ship[1]], tuple)


def beam_ship(state, owner, x, cell):
    if x[0] == owner and on_track(state, x):
        return x
    best = None
    for i in (0, 1):
        p = state["ships"][owner][i]
        if not isinstance(p, tuple):
            continue
        d = (cell[0] - p[0]) % 36
        key = (min(d, 36 - d), 0 if d <= 36 - d else 1, 0 if p[1] in "br" else 1)
        if best is None or key < best[0]:
            best = (key, (owner, i))
    return None if best is None else best[1]


def resolve_event(state, ev, x, owner, cell):
    civ = x[0]
    if ev in ("fwd6", "fwd10"):
        if on_track(state, x):
            state["agenda"].append({"k": "F", "x": x, "n": 6 if ev == "fwd6" else 10})
    elif ev == "back5":
        back_move(state, x, 5)
    elif ev == "back9":
        if civ != owner:
            back_move(state, x, 9)
    elif ev == "jump8":
        if on_track(state, x):
            jump(state, x, 8)
    elif ev == "two":
        state["agenda"].append({"k": "M", "civ": civ, "n": 1, "limit": 5, "only": 1 - x[1]})
    elif ev in ("tow7", "tow8"):
        if on_track(state, x):
            state["agenda"].append({"k": "W", "x": x, "n": 7 if ev == "tow7" else 8})
    elif ev in ("beam", "laser"):
        z = beam_ship(state, owner, x, cell)
        if z is not None:
            state["agenda"].append({"k": "B" if ev == "beam" else "K", "civ": owner, "z": z})
    elif ev == "freeze":
        state["agenda"].append({"k": "M", "civ": owner, "n": 2, "limit": 5, "only": None})
    elif ev == "home":
        if civ != owner and on_track(state, x):
            send_ship(state, x, "S")
    elif ev == "blast":
        for c2, i, p in ships(state):
            if isinstance(p, tuple) and sector(p) == sector(cell):
                send_ship(state, (c2, i), "S")
    elif ev == "joker":
        state["agenda"].append({"k": "J", "x": x, "owner": owner, "cell": cell})


def shown_options(state, card_known, then):
    """Chance: {'=card': f} — the known card (full view) or every pool card."""
    cards = [card_known] if state["full"] else pool(state)
    return {"=" + c: (lambda st, c=c: then(st, c)) for c in cards}


def drawn_options(state, then):
    if state["full"]:
        cards = [next_top(state)]
    elif deck_count(state) == 0:
        cards = list(ALL_CARDS)
    else:
        cards = pool(state)

    def take(st, c):
        if st["full"]:
            draw_top(st)
        elif deck_count(st) == 0:
            reshuffle(st)
        st["discard"].append(c)
        then(st, c)
    return {"=" + c: (lambda st, c=c: take(st, c)) for c in cards}


def item_options(state, it):
    k = it["k"]
    if k == "M":
        moves = standard_moves(state, it["civ"], it["limit"], it["only"])
        out = {}
        for text, (ship, cells) in moves.items():
            def f(st, ship=ship, cells=cells):
                top = st["agenda"][-1]
                top["n"] -= 1
                if top["n"] == 0:
                    st["agenda"].pop()
                do_standard_move(st, ship, cells)
            out[text] = f
        return out
    if k == "V":
        ch = charge_on(state, it["cell"])

        def then(st, c):
            st["agenda"].pop()
            chg = charge_on(st, it["cell"])
            st["charges"].remove(chg)
            st["discard"].append(c)
            resolve_event(st, event_name(st["level"], c), it["x"], chg["owner"], it["cell"])
        return shown_options(state, ch["card"], then)
    if k == "C":
        ch = charge_on(state, it["cell"])

        def then(st, c):
            st["agenda"].pop()
            st["charges"].remove(charge_on(st, it["cell"]))
            st["discard"].append(c)
        return shown_options(state, ch["card"], then)
    if k == "D":
        def then(st, c):
            st["agenda"].pop()
            st["agenda"].append({"k": "M", "civ": st["turn"], "n": 1,
                                 "limit": 7 if red(c) else 3, "only": None})
        return drawn_options(state, then)
    if k == "R":
        def then(st, c):
            st["agenda"].pop()
            st["agenda"].append({"k": "A", "v": value(c), "x": it["x"], "y": it["y"]})
        return drawn_options(state, then)
    if k == "A":
        yciv = it["y"][0]
        if state["full"]:
            can = any(value(c) > it["v"] for c in state["hands"][yciv])
            texts = ["def"] if can else ["nodef"]
        else:
            texts = ["nodef"]
            if state["hands"][yciv] and any(value(c) > it["v"] for c in pool(state)):
                texts.append("def")
        out = {}
        for t in texts:
            def f(st, t=t):
                st["agenda"].pop()
                if t == "def":
                    send_ship(st, it["x"], "S")
                else:
                    yc = st["ships"][it["y"][0]][it["y"][1]]
                    send_ship(st, it["y"], "S")
                    send_ship(st, it["x"], yc)
            out[t] = f
        return out
    if k == "F":
        inner = forward_options(state, it["x"], it["n"])
        out = {}
        for t, g in inner.items():
            def f(st, g=g):
                st["agenda"].pop()
                g(st)
            out[t] = f
        return out
    if k == "W":
        x = it["x"]
        xc = state["ships"][x[0]][x[1]]
        out = {}
        if not isinstance(xc, tuple):
            return out
        for civ, i, p in ships(state):
            if (civ, i) == x or not isinstance(p, tuple):
                continue
            if it["n"] == 7:
                if not ahead_within(xc, p, 3):
                    continue
                dest = step_back(p, own_lane(p))
                mover = x
            else:
                if not behind_within(xc, p, 3):
                    continue
                dest = step_back(xc, own_lane(xc))
                mover = (civ, i)
            if occupied(state, dest):
                continue

            def f(st, mover=mover, dest=dest):
                st["agenda"].pop()
                send_ship(st, mover, forward_or_finish(st, mover, dest))
            out["tow:" + cell_name(p)] = f
        return out
    if k == "B":
        z = it["z"]
        zc = state["ships"][z[0]][z[1]]
        out = {}
        if not isinstance(zc, tuple):
            return out
        behind = (sector(zc) - 1) % 9
        cells = [c for c in ALL_CELLS if sector(c) == behind and not occupied(state, c)]
        for civ, i, p in ships(state):
            if (civ, i) == z or not isinstance(p, tuple):
                continue
            if (sector(p) - sector(zc)) % 9 not in (1, 2):
                continue
            for c in cells:
                if progress(p, civ) - (p[0] - c[0]) % 36 < 0:
                    continue

                def f(st, t=(civ, i), c=c):
                    st["agenda"].pop()
                    send_ship(st, t, c)
                out["beam:%s>%s" % (cell_name(p), cell_name(c))] = f
        return out
    if k == "K":
        z = it["z"]
        zc = state["ships"][z[0]][z[1]]
        out = {}
        if not isinstance(zc, tuple):
            return out
        front = [(c, i, p) for c, i, p in ships(state)
                 if c != it["civ"] and isinstance(p, tuple) and ahead_within(zc, p, 2)]
        rear = [(c, i, p) for c, i, p in ships(state)
                if c != it["civ"] and isinstance(p, tuple) and behind_within(zc, p, 2)]
        choices = [(f, None) for f in front] + [(None, b) for b in rear]
        choices += [(f, b) for f in front for b in rear if f[0] != b[0]]
        for fr, bk in choices:
            def g(st, fr=fr, bk=bk):
                st["agenda"].pop()
                for s in (fr, bk):
                    if s is not None:
                        send_ship(st, (s[0], s[1]), "S")
            out["laser:%s,%s" % ("-" if fr is None else cell_name(fr[2]),
                                 "-" if bk is None else cell_name(bk[2]))] = g
        return out
    if k == "J":
        out = {}
        for v in range(4, 15):
            def f(st, v=v):
                st["agenda"].pop()
                resolve_event(st, VALUE_EVENT[v], it["x"], it["owner"], it["cell"])
            out["as" + RANKS[v - 2]] = f
        return out
    raise AssertionError(k)


# -- the turn -----------------------------------------------------------------------------------------

def drawable(state):
    return deck_count(state) + len(state["discard"])


def hand_cards(state, civ):
    if state["full"]:
        return sorted(set(state["hands"][civ]), key=code)
    return pool(state) if state["hands"][civ] else []


def discard_from_hand(state, civ, card):
    if state["full"]:
        state["hands"][civ].remove(card)
    else:
        state["hands"][civ] -= 1
    state["discard"].append(card)


def card_options(state, civ):
    out = {}
    own = [(civ, 0), (civ, 1)]
    own_places = []
    for sh in own:
        p = state["ships"][civ][sh[1]]
        if p not in [q for _, q in own_places]:
            own_places.append((sh, p))
    track_own = [(sh, p) for sh, p in own_places if isinstance(p, tuple)]
    can_draw = drawable(state) >= 1
    for card in hand_cards(state, civ):
        def add(text, effect, move_card, card=card):
            def f(st):
                discard_from_hand(st, civ, card)
                st["flags"].add("p")
                st["phase"] = "c" if move_card else "m"
                effect(st)
            out[card + ":" + text] = f
        if card[0] == "X":
            continue
        suit = card[1]
        v = value(card)
        if suit == "h":
            add("brake", lambda st: None, True)
        elif suit == "d":
            if can_draw:
                add("dash", lambda st: st["agenda"].append({"k": "D"}), True)
        elif suit == "c":
            for sh, p in own_places:
                if p == "S":
                    targets = [plus_cell(civ)]
                elif isinstance(p, tuple):
                    targets = sorted(reach5(state, sh))
                else:
                    continue
                for c in targets:
                    y = ship_on(state, c)
                    if y is None or y[0] == civ:
                        continue
                    xt = place_text(state, sh)

                    def sac(st, sh=sh, y=y):
                        send_ship(st, sh, "S")
                        send_ship(st, y, "S")
                    add("sac:%s>%s" % (xt, cell_name(c)), sac, True)
                    if can_draw:
                        add("ram:%s>%s" % (xt, cell_name(c)),
                            lambda st, sh=sh, y=y: st["agenda"].append(
                                {"k": "R", "x": sh, "y": y}), True)
        elif suit == "s":
            if v <= 10:
                for ch in state["charges"]:
                    if ch["card"] == "#":
                        continue
                    sec = sector(ch["cell"])
                    for c2, i, p in ships(state):
                        if not isinstance(p, tuple) or sector(p) != sec:
                            continue
                        if not any(q != p and sector(q) == sec for _, q in track_own):
                            continue
                        add("magnet:%s@%s" % (cell_name(p), cell_name(ch["cell"])),
                            lambda st, b=(c2, i), cell=ch["cell"]: st["agenda"].append(
                                {"k": "T", "x": b, "cell": cell}), False)
            elif v == 11:
                for sh, p in track_own:
                    add("jump:" + cell_name(p), lambda st, sh=sh: jump(st, sh, 16), True)
            elif v == 12:
                if track_own:
                    def q_jump(st):
                        order = sorted([sh for sh in own if on_track(st, sh)],
                                       key=lambda sh: (-progress(st["ships"][civ][sh[1]], civ),
                                                       st["ships"][civ][sh[1]][1] == "y"))
                        for sh in order:
                            if on_track(st, sh) and st["winner"] is None:
                                jump(st, sh, 12)
                    add("jump", q_jump, True)
            elif v == 13:
                for c2, i, p in ships(state):
                    if isinstance(p, tuple):
                        add("kick:" + cell_name(p),
                            lambda st, s=(c2, i): send_ship(st, s, "S"), False)
                    elif p == "F":
                        add("kick:f%d" % c2, lambda st, s=(c2, i): send_ship(st, s, "S"), False)
            else:
                if any(isinstance(p, tuple) for _, _, p in ships(state)):
                    def blast(st):
                        for c2, i, p in ships(st):
                            if isinstance(p, tuple):
                                send_ship(st, (c2, i), "S")
                    add("blast", blast, False)
        if state["level"] == 3 and v == 2:
            for sh, p in track_own:
                dest = step_back(p, own_lane(p))
                if occupied(state, dest) or is_plus(dest):
                    continue
                for c in reach5(state, sh):
                    ch = card_charge_on(state, c)
                    if ch is None or not far_from_charges(state, dest, ignore=c):
                        continue

                    def pull(st, c=c, dest=dest):
                        charge_on(st, c)["cell"] = dest
                    add("pull:%s@%s" % (cell_name(p), cell_name(c)), pull, False)
        if state["level"] == 3 and v == 3:
            for ch in state["charges"]:
                if ch["card"] == "#":
                    continue
                c = ch["cell"]
                if any(sector(p) == sector(c) and c[0] > p[0] for _, p in track_own):
                    add("clear:" + cell_name(c),
                        lambda st, c=c: st["agenda"].append({"k": "C", "cell": c}), False)
    return out


def far_from_charges(state, c, ignore=None):
    """At least 3 cells from every other charge sharing a lane with c."""
    for ch in state["charges"]:
        o = ch["cell"]
        if o != ignore and lanes(o) & lanes(c) and min((c[0] - o[0]) % 36,
                                                       (o[0] - c[0]) % 36) < 3:
            return False
    return True


def lay_cells(state, civ):
    banned = set()
    for p in state["ships"][civ]:
        if isinstance(p, tuple):
            banned.add(sector(p))
            banned.add((sector(p) + 1) % 9)
    out = []
    for c in ALL_CELLS:
        if is_plus(c) or occupied(state, c) or sector(c) in banned:
            continue
        if not far_from_charges(state, c):
            continue
        if any(isinstance(p, tuple) and lanes(p) & lanes(c) and 1 <= (c[0] - p[0]) % 36 <= 4
               for _, _, p in ships(state)):
            continue
        out.append(c)
    return out


def charge_options(state, civ):
    out = {}
    flags = state["flags"]
    mine = [ch for ch in state["charges"] if ch["owner"] == civ]
    if "d" not in flags and "r" not in flags and len(mine) < 2:
        if hand_count(state, civ):
            for c in lay_cells(state, civ):
                if state["full"]:
                    for card in sorted(set(state["hands"][civ]), key=code):
                        def lay(st, c=c, card=card):
                            st["hands"][civ].remove(card)
                            st["charges"].append({"owner": civ, "cell": c, "card": card})
                            st["flags"].add("l")
                        out["lay:%s=%s" % (cell_name(c), card)] = lay
                else:
                    def lay(st, c=c):
                        st["hands"][civ] -= 1
                        st["charges"].append({"owner": civ, "cell": c, "card": "?"})
                        st["flags"].add("l")
                    out["lay:" + cell_name(c)] = lay
        for p in state["ships"][civ]:
            if (isinstance(p, tuple) and p[1] == "r" and charge_on(state, p) is None
                    and far_from_charges(state, p)):
                def block(st, p=p):
                    st["charges"].append({"owner": civ, "cell": p, "card": "#"})
                    st["flags"].add("l")
                out["block:" + cell_name(p)] = block
    if "l" not in flags:
        for ch in mine:
            def lift(st, c=ch["cell"]):
                chg = charge_on(st, c)
                st["charges"].remove(chg)
                if chg["card"] != "#":
                    if st["full"]:
                        st["hands"][civ].append(chg["card"])
                    else:
                        st["hands"][civ] += 1
                st["flags"].add("r")
            out["lift:" + cell_name(ch["cell"])] = lift

    def end(st):
        next_turn(st)
    out["end"] = end
    return out


def next_turn(state):
    civs = state["civs"]
    state["turn"] = civs[(civs.index(state["turn"]) + 1) % len(civs)]
    state["phase"] = "a"
    state["flags"] = set()


def options(state):
    if state["winner"] is not None:
        return {}
    if state["agenda"]:
        return item_options(state, state["agenda"][-1])
    civ = state["turn"]
    ph = state["phase"]
    if ph == "c":
        return charge_options(state, civ)
    out = {}
    if ph == "a":
        if not state["flags"]:
            n = hand_count(state, civ)
            for k in (1, 2):
                if n + k <= 3 and drawable(state) >= k:
                    def draw(st, k=k):
                        for _ in range(k):
                            if st["full"]:
                                st["hands"][civ].append(draw_top(st))
                            else:
                                if deck_count(st) == 0:
                                    reshuffle(st)
                                st["hands"][civ] += 1
                        st["flags"].add("d")
                    out["draw%d" % k] = draw
        if state["level"] >= 2 and "p" not in state["flags"]:
            out.update(card_options(state, civ))
    moves = standard_moves(state, civ, 5)
    for text, (ship, cells) in moves.items():
        def mv(st, ship=ship, cells=cells):
            st["phase"] = "c"
            do_standard_move(st, ship, cells)
        out[text] = mv
    if ph == "a" and not moves:
        out["pass"] = lambda st: st.update(phase="c")
    return out


def settle(state):
    while True:
        if state["winner"] is not None:
            state["agenda"] = []
            return
        if state["agenda"]:
            top = state["agenda"][-1]
            if top["k"] == "T":
                state["agenda"].pop()
                if card_charge_on(state, top["cell"]) is not None:
                    state["agenda"].append({"k": "V", "x": top["x"], "cell": top["cell"]})
                continue
            if not item_options(state, top):
                state["agenda"].pop()
                continue
            return
        opts = options(state)
        if state["phase"] == "m" and not opts:
            state["phase"] = "c"
            continue
        if state["phase"] == "c" and list(opts) == ["end"]:
            next_turn(state)
            continue
        return


def legal(state):
    return sorted(options(state))


def play(state, text):
    opts = options(state)
    if text not in opts:
        raise ValueError("illegal %r in %s" % (text, fmt(state)))
    new = copy.deepcopy(state)
    options(new)[text](new)
    settle(new)
    return new


def perft(state, depth):
    if depth == 0:
        return 1
    texts = legal(state)
    if depth == 1:
        return len(texts)
    return sum(perft(play(state, t), depth - 1) for t in texts)


# -- notation ------------------------------------------------------------------------------------------

def _place_key(p, civ):
    if p == "S":
        return (0,)
    if isinstance(p, tuple):
        return (1, progress(p, civ), 0 if p[1] in "br" else 1)
    return (2, "FC".index(p))


def _cards(cards):
    return "".join(sort_cards(cards)) or "-"


def _pl(state, ship):
    return place_text(state, ship)


def _item(state, it):
    k = it["k"]
    if k == "M":
        who = "*" if it["only"] is None else "@" + _pl(state, (it["civ"], it["only"]))
        return "M%d%d%d%s" % (it["civ"], it["n"], it["limit"], who)
    if k in "TV":
        return "%s%s@%s" % (k, _pl(state, it["x"]), cell_name(it["cell"]))
    if k == "F":
        return "F%d:%s" % (it["n"], _pl(state, it["x"]))
    if k == "W":
        return "W%d:%s" % (it["n"], _pl(state, it["x"]))
    if k in "BK":
        return "%s%d:%s" % (k, it["civ"], _pl(state, it["z"]))
    if k == "J":
        return "J%s:%d@%s" % (_pl(state, it["x"]), it["owner"], cell_name(it["cell"]))
    if k == "D":
        return "D"
    if k == "R":
        return "R%s>%s" % (_pl(state, it["x"]), _pl(state, it["y"]))
    if k == "A":
        return "A%d:%s>%s" % (it["v"], _pl(state, it["x"]), _pl(state, it["y"]))
    if k == "C":
        return "C" + cell_name(it["cell"])
    raise AssertionError(k)


def fmt(state):
    parts = ["L%d" % state["level"]]
    for civ in state["civs"]:
        places = sorted(state["ships"][civ], key=lambda p: _place_key(p, civ))
        ptext = ",".join(cell_name(p) if isinstance(p, tuple) else p.lower() for p in places)
        chs = sorted([ch for ch in state["charges"] if ch["owner"] == civ],
                     key=lambda ch: (ch["cell"][0], ch["cell"][1] == "y"))
        ctext = ",".join("%s=%s" % (cell_name(ch["cell"]), ch["card"]) for ch in chs) or "-"
        hand = _cards(state["hands"][civ]) if state["full"] else str(state["hands"][civ])
        parts.append("%d:%s:%s:%s" % (civ, ptext, ctext, hand))
    parts.append("%d%s%s" % (state["turn"], state["phase"],
                             "".join(f for f in "dplr" if f in state["flags"])))
    parts.append(";".join(_item(state, it) for it in state["agenda"]) or "-")
    parts.append("d:" + _cards(state["discard"]))
    if state["full"]:
        parts.append("k:%s/%d/%d" % ("".join(state["deck"]) or "-", state["seed"],
                                     state["resh"]))
    else:
        parts.append("k:?")
    return " ".join(parts)


def _split_cards(text):
    return [] if text == "-" else [text[i:i + 2] for i in range(0, len(text), 2)]


def parse(text):
    f = text.split()
    level = int(f[0][1])
    deck_f = f[-1]
    full = deck_f != "k:?"
    state = {"level": level, "civs": [], "ships": {}, "charges": [], "hands": {}, "full": full,
             "discard": [], "deck": None, "seed": 0, "resh": 0, "turn": None, "phase": "a",
             "flags": set(), "agenda": [], "winner": None}
    for fld in f[1:-4]:
        civ_t, ships_t, ch_t, hand_t = fld.split(":")
        civ = int(civ_t)
        state["civs"].append(civ)
        places = []
        for p in ships_t.split(","):
            places.append({"s": "S", "f": "F", "c": "C"}.get(p) or parse_cell(p))
        state["ships"][civ] = places
        if "C" in places:
            state["winner"] = civ
        if ch_t != "-":
            for it in ch_t.split(","):
                cell, card = it.split("=")
                state["charges"].append({"owner": civ, "cell": parse_cell(cell), "card": card})
        state["hands"][civ] = _split_cards(hand_t) if full else int(hand_t)
    turn = f[-4]
    state["turn"] = int(turn[0])
    state["phase"] = turn[1]
    state["flags"] = set(turn[2:])
    state["discard"] = _split_cards(f[-2][2:])
    if full:
        cards, seed, resh = deck_f[2:].split("/")
        state["deck"] = _split_cards(cards)
        state["seed"] = int(seed)
        state["resh"] = int(resh)
    agenda = f[-3]
    if agenda != "-":
        for it in agenda.split(";"):
            state["agenda"].append(_parse_item(state, it))
    settle(state)
    return state


def _parse_item(state, it):
    k = it[0]
    b = it[1:]
    if k == "M":
        only = None if b[3] == "*" else find_ship(state, b[4:])[1]
        return {"k": "M", "civ": int(b[0]), "n": int(b[1]), "limit": int(b[2]), "only": only}
    if k in "TV":
        x, c = b.split("@")
        return {"k": k, "x": find_ship(state, x), "cell": parse_cell(c)}
    if k in "FW":
        n, x = b.split(":")
        return {"k": k, "n": int(n), "x": find_ship(state, x)}
    if k in "BK":
        civ, z = b.split(":")
        return {"k": k, "civ": int(civ), "z": find_ship(state, z)}
    if k == "J":
        x, rest = b.split(":")
        owner, c = rest.split("@")
        return {"k": "J", "x": find_ship(state, x), "owner": int(owner), "cell": parse_cell(c)}
    if k == "D":
        return {"k": "D"}
    if k == "R":
        x, y = b.split(">")
        return {"k": "R", "x": find_ship(state, x), "y": find_ship(state, y)}
    if k == "A":
        v, xy = b.split(":")
        x, y = xy.split(">")
        return {"k": "A", "v": int(v), "x": find_ship(state, x), "y": find_ship(state, y)}
    if k == "C":
        return {"k": "C", "cell": parse_cell(b)}
    raise ValueError(it)


def start(players, level, seed=None):
    civs = [1 + 9 * i // players for i in range(players)]
    full = seed is not None
    state = {"level": level, "civs": civs, "ships": {c: ["S", "S"] for c in civs},
             "charges": [], "hands": {}, "full": full, "discard": [], "deck": None,
             "seed": seed or 0, "resh": 0, "turn": civs[0], "phase": "a", "flags": set(),
             "agenda": [], "winner": None}
    if full:
        deck = lcg_shuffle(ALL_CARDS, seed)
        for c in civs:
            state["hands"][c] = []
        for j in range(3 * players):
            state["hands"][civs[j % players]].append(deck[j])
        state["deck"] = deck[3 * players:]
    else:
        for c in civs:
            state["hands"][c] = 3
    settle(state)
    return state
