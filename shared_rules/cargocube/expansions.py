# Cargocube's expansions «Пирамида» and «Бастион» and the walking teleport: what the rules core
# (shared_rules/cargocube/rules.py) needs only for positions that hold their items. The core imports
# this module the first time a position does (Position._expand), so a base game on the board
# never loads it; it is kept small for the board's heap (few functions, each doing one group of
# jobs); reading their items from text is the reader's (shared_rules/cargocube/reader.py).
# Rules: docs/rules/cargocube.md section 16.
#
# State kept on the position for these games:
# - lids: bytearray(121), 1 + the seat controlling the biohazard on a cell's top cube, else 0;
# - _teleport: the walking teleport's cell (-1 without it);
# - _view: with extra portals, biohazards or the teleport the position's own per-seat views
#   (cargocube.V_*), refreshed where portals appear, move or close and where biohazards lie;
#   otherwise the core's shared ones.

from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient as o

cc = None  # the rules core: it loads this module and hands itself over (bind)

# Card kinds (cc.CARD_LETTERS) that only the expansions have.
UMBRELLA = 3
CATAPULT = 4
SPIRAL = 5
PORTAL = 6
HAZARD_CARD = 7
SACRIFICE = 8
SPENT = 9

K = 24  # cc.KEEPER, DEAD, TELEPORT, checked by bind()
DEAD = 32
TELEPORT = 40


def bind(core):
    """Called by the rules core that loads this module: its names. (The core's table of card
    hooks reaches the catapult's arrival through a position's module, arrive_catapult: the
    core holds nothing of this module, which goes with the last position that uses it.)"""
    global cc
    if (core.KEEPER, core.DEAD, core.TELEPORT) != (K, DEAD, TELEPORT):
        raise ImportError("the rules core and its expansions disagree on item codes")
    cc = core


def _turn_table(clockwise):
    f = o.FACES  # 6 face ids per orientation
    rows = [f[i * 6:i * 6 + 6] for i in range(o.COUNT)]
    out = bytearray(o.COUNT)
    for i in range(o.COUNT):
        up, down, n, e, s, w = rows[i]
        out[i] = rows.index(bytes((up, down, w, n, e, s) if clockwise else (up, down, e, s, w, n)))
    return bytes(out)


TURNED = (_turn_table(True), _turn_table(False))  # by TURN direction: clockwise, anticlockwise
del _turn_table
ALL = range(g.N_CELLS)

# Reading their items and actions from text: shared_rules/cargocube/reader.py.


def copy_into(src, dst):
    dst._expand()
    dst.lids[:] = src.lids
    dst._teleport = src._teleport
    if isinstance(src._view, list):
        dst._view = [bytearray(v) for v in src._view]


def refresh(pos, cells):
    """Recompute the views of cells for every seat (portals appear or move, biohazards come and
    go); first make the position's own views. A biohazard on or off an exit portal opens or
    closes every portal: then all cells."""
    exits = pos._exit
    if not isinstance(pos._view, list):
        pos._view = [bytearray(v) for v in pos._view]
        cells = ALL
    else:
        for c in cells:
            if c in exits:
                cells = ALL
                break
    lids = pos.lids
    owner = pos._owner
    cards = pos.cards
    for c in cells:
        grey = g.CELL_KIND[c] == g.GREY
        portal = grey and (c == g.ENTRY_PORTAL or c == pos._teleport or
                           cards[c] and (cards[c] - 1) >> 3 == PORTAL)
        for s in range(len(pos._view)):
            if lids[c]:
                v = cc.V_BLOCKED
            elif not grey:
                # A terminal cell is the seat's own (with 8 players also the shared exit portal).
                v = cc.V_OWN if owner[c] == s or c == exits[s] else cc.V_BLOCKED
            elif portal:
                v = cc.V_CLOSED if lids[exits[s]] else cc.V_PORTAL
            else:
                v = cc.V_GREY
            pos._view[s][c] = v


# -- move generation --------------------------------------------------------------------------------


def gen_plain(pos, out, only=-1):
    """The plain actions of the expansions, in the order of docs/rules/cargocube.md section 14:
    umbrella rides, teleport moves, spiral turns, biohazard lifts and moves; with only >= 0
    those of the piece on that cell alone (the board's tracker tries positions out for one
    piece: all of them cost a lift's frame ~1 ms on the Pico for each position tried)."""
    m = pos.to_move
    stacks = pos.stacks
    cards = pos.cards
    lids = pos.lids
    kc = pos._keeper[m]
    cd = cards[only] - 1 if only >= 0 else -1
    mine = bytes((m + 1,))  # bytearray.find() takes bytes on MicroPython
    if (only < 0 or only == kc) and kc == pos._exit[m] and stacks[kc][-1] == K + m and \
            lids.find(mine) < 0:
        umbrella = bytes((1 + UMBRELLA * 8 + m,))
        c = cards.find(umbrella)
        while c >= 0:
            if g.CELL_KIND[c] == g.GREY and not lids[c]:
                out.append((cc.RIDE, kc, 0, c, K + m, ()))
            c = cards.find(umbrella, c + 1)
    tc = pos._teleport
    if tc >= 0 and (only < 0 or only == tc) and stacks[tc][-1] == TELEPORT:
        h = len(stacks[tc]) - 1
        free_leave = pos._leaves_freely(tc)
        for d in range(4):
            n = g.NEIGHBOUR[tc * 4 + d]
            if n < 0 or g.CELL_KIND[n] != g.GREY or lids[n]:
                continue
            st = stacks[n]
            if st and K <= st[-1] < DEAD or len(st) > h + 1 and not free_leave:
                continue  # never on a keeper; the climb limit
            out.append((cc.TMOVE, tc, d, n, TELEPORT, ()))
    spirals = []
    for s in pos.seats if only < 0 else ((cd & 7,) if cd >> 3 == SPIRAL else ()):
        code = bytes((1 + SPIRAL * 8 + s,))
        c = cards.find(code) if only < 0 else only
        while c >= 0:
            if g.CELL_KIND[c] == g.GREY and not lids[c]:
                spirals.append(c)
            c = cards.find(code, c + 1) if only < 0 else -1
    spirals.sort()
    for c in spirals:
        for it in stacks[c]:
            if it < K:
                out.append((cc.TURN, c, 0, c, 0, ()))
                out.append((cc.TURN, c, 1, c, 0, ()))
                break
    c = lids.find(mine) if only < 0 else (only if lids[only] == m + 1 else -1)
    while c >= 0:
        near = _cubes_near(pos, kc, c)
        for t in range(g.N_CELLS):
            if t in near:
                out.append((cc.HAZARD, c, 0, t, 1, ()))
            elif not stacks[t] and not cards[t] and g.CELL_KIND[t] == g.GREY and \
                    t != g.ENTRY_PORTAL:
                out.append((cc.HAZARD, c, 0, t, 0, ()))
        c = lids.find(mine, c + 1) if only < 0 else -1


def _cubes_near(pos, kc, skip=-1):
    """The cells, by index, of the top cargo cubes without a biohazard on kc or around it."""
    out = []
    if kc < 0:
        return out
    cells = [kc] + g.around(kc)
    cells.sort()
    for c in cells:
        st = pos.stacks[c]
        if st and st[-1] < K and not pos.lids[c] and c != skip:
            out.append(c)
    return out


def card_targets(pos, src, cd):
    """Where the card cd on src goes when used: a biohazard onto a top cube on or around the
    own keeper's cell, a sacrifice onto the keeper (alone at level 0, controlling no biohazard);
    None for the other cards (an empty grey cell, as the base cards)."""
    kind = (cd - 1) >> 3
    if kind != HAZARD_CARD and kind != SACRIFICE:
        return None
    m = pos.to_move
    kc = pos._keeper[m]
    if kind == HAZARD_CARD:
        return _cubes_near(pos, kc)
    if kc >= 0 and len(pos.stacks[kc]) == 1 and pos.lids.find(bytes((m + 1,))) < 0:
        return [kc]
    return []


def arrive_catapult(pos, out, kind, src, d, cell, level, item, hops, used, how):
    """The core's arrival hook of a catapult card (rules._CARD_ARRIVE)."""
    # Outside an activation: thrown onto a terminal cell in play of its column or row.
    if kind == cc.ACTIVATE:
        return False
    x = cell % 11
    y = cell // 11
    thrown = False
    for t in (110 + x, y * 11 + 10, x, y * 11):  # n, e, s, w
        if pos.lids[t] or not (len(pos.seats) == 8 or g.CELL_KIND[t] - g.TERMINAL in pos.seats):
            continue
        thrown = True
        out.append((kind, src, d, t, item, hops + (cc.THROW + t,)))
    return thrown


# -- make / unmake ------------------------------------------------------------------------------------


def do(pos, action, extra, undo):
    """Push (undo False) or pop (undo True) what the core leaves to the expansions: their
    actions and card uses, a keeper arriving on a keeper that controls biohazards (they pass to
    the arriving seat) and a catapult's throw (it is spent). On push, returns the cells the undo
    record keeps (whose control passed; the catapult); on pop, extra are those cells. The core
    moves the piece of a keeper step or a cube move itself, after a push and before a pop."""
    kind, src, d, dst, code, hops = action
    m = pos.to_move
    stacks = pos.stacks
    cards = pos.cards
    lids = pos.lids
    if kind == cc.BOOST:
        card = (code - 1) >> 3
        cards[src] = code if undo else 0
        if card == HAZARD_CARD:
            lids[dst] = 0 if undo else m + 1
            refresh(pos, (dst,))
        elif card == SACRIFICE:
            stacks[dst][-1] = (K if undo else DEAD) + m
            pos._keeper[m] = dst if undo else -2
            if not undo:
                pos.extra_turn = True  # (a pop restores the flag from the undo record)
        else:
            cards[dst] = 0 if undo else code
            if card == PORTAL:
                refresh(pos, (dst,))
        return ()
    if kind == cc.STEP or kind == cc.RIDE:
        # Control passes when a keeper arrives right on a controlling keeper of another seat.
        if undo:
            if kind == cc.RIDE:
                stacks[src].append(stacks[dst].pop())
                pos._keeper[m] = src
                cards[dst] = 1 + UMBRELLA * 8 + m
                pos._rescore(src, dst)
            for c in extra:
                lids[c] = stacks[dst][-1] - K + 1  # the keeper that had control, on top again
            return ()
        st = stacks[dst]
        out = []
        if st and K <= st[-1] < DEAD and st[-1] != K + m:
            old = bytes((st[-1] - K + 1,))
            c = lids.find(old)
            while c >= 0:
                lids[c] = m + 1
                out.append(c)
                c = lids.find(old, c + 1)
        if kind == cc.RIDE:
            stacks[dst].append(stacks[src].pop())
            pos._keeper[m] = dst
            cards[dst] = 1 + SPENT * 8 + m
            pos._rescore(src, dst)
        return bytes(out)
    if kind == cc.TMOVE:
        a, b = (dst, src) if undo else (src, dst)
        stacks[b].append(stacks[a].pop())
        pos._teleport = b
        refresh(pos, (a, b))
    elif kind == cc.TURN:
        table = TURNED[1 - d if undo else d]
        st = stacks[src]
        for i in range(len(st)):
            if st[i] < K:
                st[i] = table[st[i]]
    elif kind == cc.HAZARD:
        if undo:
            if code:
                lids[src] = lids[dst]
                lids[dst] = 0
            else:
                lids[src] = cc.card_owner(cards[dst]) + 1
                cards[dst] = 0
        else:
            lid = lids[src]
            lids[src] = 0
            if code:
                lids[dst] = lid
            else:
                cards[dst] = 1 + SPENT * 8 + lid - 1  # a spent card of the lifting seat
        refresh(pos, (src, dst))
    else:  # a cube thrown by a catapult, which is spent
        if undo:
            cat = extra[0]
            cards[cat] = 1 + CATAPULT * 8 + cc.card_owner(cards[cat])
            return ()
        if len(hops) >= 2:
            cat = hops[-2]  # a wind-rose hop landed on it
        else:
            cat = g.NEIGHBOUR[src * 4 + d]
            if (cards[cat] - 1) >> 3 != CATAPULT:
                cat = g.NEIGHBOUR[cat * 4 + d]  # it slid there from an acceleration
        cards[cat] = 1 + SPENT * 8 + cc.card_owner(cards[cat])
        return bytes((cat,))
    return ()


# -- notation and encoding of the expansions' actions (docs/rules/cargocube.md section 13) -------

TURN_NAMES = ("cw", "acw")


def format_action(action):
    kind, src, d, dst, code, hops = action
    if kind == cc.RIDE:
        return "K@" + g.cell_name(dst)
    if kind == cc.TMOVE:
        return "T" + g.DIR_LETTERS[d]
    if kind == cc.TURN:
        return g.cell_name(src) + TURN_NAMES[d]
    if kind == cc.HAZARD:
        return "H" + g.cell_name(src) + "@" + g.cell_name(dst)
    text = g.cell_name(src) + g.DIR_LETTERS[d]
    for h in hops:
        text += ("^" + g.cell_name(h - cc.THROW)) if h >= cc.THROW else "/" + g.cell_name(h)
    return text


def encode_action(action):
    """The word of a ride (0x7000 + cell), a teleport move (0x5000 + dir), a spiral turn or a
    biohazard lift or move (0xC000 + cell << 7 + 127 - dir or the target cell)."""
    kind, src, d, dst, code, hops = action
    if kind == cc.TMOVE:
        return bytes((0x50, d))
    if kind == cc.RIDE:
        return bytes((0x70, dst))
    w = 0xC000 | (src << 7) | (127 - d if kind == cc.TURN else dst)
    return bytes((w >> 8, w & 0xFF))


def decode_action(legal, w):
    """The legal action a word of encode_action() names, or None."""
    top = w & 0xF000
    src = (w >> 7) & 0x7F
    low = w & 0x7F
    for a in legal:
        kind = a[0]
        if top == 0x5000 and kind == cc.TMOVE and a[2] == (w & 3) or \
                top == 0x7000 and kind == cc.RIDE and a[3] == low or \
                w >= 0xC000 and a[1] == src and (kind == cc.TURN and low == 127 - a[2] or
                                                kind == cc.HAZARD and a[3] == low):
            return a
    return None
