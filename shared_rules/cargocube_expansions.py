# Cargocube's expansions «Пирамида» and «Бастион», the walking teleport and the 8-player variant:
# what the rules core (shared_rules/cargocube.py) needs only for positions that hold their items.
# The core imports this module the first time a position does (Position._expand), so a base game
# on the board never loads it. Rules: docs/rules/cargocube.md section 16.
#
# State kept on the position for these games:
# - lids: bytearray(121), 1 + the seat controlling the biohazard on a cell's top cube, else 0;
# - _teleport: the walking teleport's cell (-1 without it);
# - _view: the position's own per-seat views (cargocube.V_*), refreshed where portals appear,
#   move or close and where biohazards lie.

from shared_rules import geometry as g
from shared_rules import orient as o
from shared_rules import cargocube as cc

K = cc.KEEPER
DEAD = cc.DEAD
TELEPORT = cc.TELEPORT
N_CELLS = g.N_CELLS
ONE = [bytes((i,)) for i in range(9)]  # bytearray.find() needs bytes on MicroPython
ONE_SPIRAL = [bytes((1 + cc.SPIRAL * 8 + s,)) for s in range(8)]  # a spiral card by owner

# -- the 8-player variant -----------------------------------------------------------------------
# Seats 1..8 (ints 0..7) clockwise from the south side's east half; each side's exit portal is
# shared by its two seats (docs/rules/cargocube.md 16.10).


def _cells(names):
    return bytes([g.parse_cell(n) for n in names.split()])


HALVES = (
    _cells("g1 h1 i1 j1"), _cells("b1 c1 d1 e1"), _cells("a2 a3 a4 a5"), _cells("a7 a8 a9 a10"),
    _cells("b11 c11 d11 e11"), _cells("g11 h11 i11 j11"), _cells("k7 k8 k9 k10"),
    _cells("k2 k3 k4 k5"),
)
KEEPER_START = _cells("g1 e1 a5 a7 e11 g11 k7 k5")
EXITS8 = tuple([g.EXIT_PORTAL[s >> 1] for s in range(8)])
SEAT_LETTERS8 = "12345678"
MAX_SCORE8 = 16


def _eight_tables():
    owner = bytearray([255] * N_CELLS)
    for s in range(8):
        for c in HALVES[s]:
            owner[c] = s
    views = []
    for s in range(8):
        v = bytearray(cc.VIEWS[0])  # the grey cells and the centre portal are the same for all
        for c in range(N_CELLS):
            if g.CELL_KIND[c] >= g.TERMINAL:
                v[c] = cc.V_OWN if owner[c] == s or c == EXITS8[s] else cc.V_BLOCKED
        views.append(bytes(v))
    return bytes(owner), tuple(views)


OWNER8, VIEWS8 = _eight_tables()


def eight_players(pos):
    pos.SEAT_LETTERS = SEAT_LETTERS8
    pos.max_score = MAX_SCORE8
    pos._keeper = [-1] * 8
    pos._score = [0] * 8
    pos._view = VIEWS8
    pos._cells = HALVES
    pos._owner = OWNER8
    pos._exit = EXITS8


def keeper_start(seat):
    return KEEPER_START[seat]


# -- spiral turns --------------------------------------------------------------------------------


def _turn_table(clockwise):
    out = bytearray(o.COUNT)
    for i in range(o.COUNT):
        up, down, n, e, s, w = o.FACES[i]
        out[i] = o.FACES.index((up, down, w, n, e, s) if clockwise else (up, down, e, s, w, n))
    return bytes(out)


TURNED = (_turn_table(True), _turn_table(False))  # by TURN direction: clockwise, anticlockwise

# -- the position's state ------------------------------------------------------------------------


def attach(pos):
    if pos.lids is None:
        pos.lids = bytearray(N_CELLS)


def copy_into(src, dst):
    dst._expand()
    dst.lids[:] = src.lids
    dst._teleport = src._teleport
    dst._view = [bytearray(v) for v in src._view]


def is_dead(pos, seat):
    for st in pos.stacks:
        if DEAD + seat in st:
            return True
    return False


def parse_item(pos, it, c, name, last):
    """The items only the expansions have: a dead keeper `X`+seat, the walking teleport `T`, a
    biohazard `!`+seat."""
    stack = pos.stacks[c]
    head = it[0]
    seat = pos.SEAT_LETTERS.find(it[1:]) if len(it) == 2 else -1
    if head == "T":
        if it != "T":
            raise cc.RulesError("bad item %r on %s (the walking teleport is T)" % (it, name))
        if pos._teleport >= 0:
            raise cc.RulesError("a second walking teleport on %s" % name)
        if g.CELL_KIND[c] != g.GREY:
            raise cc.RulesError("the walking teleport stays in the grey zone, not on %s" % name)
        if stack and K <= stack[-1] < DEAD:
            raise cc.RulesError("the walking teleport never stands on a keeper (%s)" % name)
        pos._teleport = c
        stack.append(TELEPORT)
    elif seat < 0 or seat not in pos.seats:
        raise cc.RulesError("bad item %r on %s (a seat in play after %s)" % (it, name, head))
    elif head == "X":
        if pos._keeper[seat] >= 0 or is_dead(pos, seat):
            raise cc.RulesError("seat %s has two keepers" % it[1])
        if stack:
            raise cc.RulesError("dead keeper %s on %s: a dead keeper lies at level 0" % (it, name))
        if g.CELL_KIND[c] >= g.TERMINAL and pos._view[seat][c] != cc.V_OWN:
            raise cc.RulesError("keeper %s cannot lie in another seat's terminal (%s)" % (it, name))
        stack.append(DEAD + seat)
    else:  # "!"
        if not last or not stack or stack[-1] >= K:
            raise cc.RulesError("biohazard %r on %s lies on a cargo cube, written last" % (
                it, name))
        pos.lids[c] = seat + 1


def check_card(pos, kind, c, it, name):
    grey = g.CELL_KIND[c] == g.GREY
    if kind == cc.SPENT and not grey:
        raise cc.RulesError("spent card %r on %s: spent cards lie in the grey zone" % (it, name))
    if (kind == cc.HAZARD_CARD or kind == cc.SACRIFICE) and grey:
        raise cc.RulesError("card %r on %s: a used biohazard lies on a cube (!), a used "
                            "sacrifice went with the keeper" % (it, name))


def parsed(pos):
    """After the cells are read (or laid out): check what needs the whole board, make views."""
    cards = pos.cards
    for c in range(N_CELLS):
        cd = cards[c]
        if cd and (cd - 1) >> 3 == cc.PORTAL and g.CELL_KIND[c] == g.GREY:
            for it in pos.stacks[c]:
                if it < K:
                    raise cc.RulesError("a cargo cube cannot stay on an entry portal (%s): it "
                                        "is sent to an exit portal" % g.cell_name(c))
    pos._view = [bytearray(v) for v in (VIEWS8 if len(pos.seats) == 8 else cc.VIEWS)]
    refresh(pos, range(N_CELLS))


def put_teleport(pos, c):
    pos.stacks[c].append(TELEPORT)
    pos._teleport = c


# -- views ----------------------------------------------------------------------------------------


def _is_portal(pos, c):
    if c == g.ENTRY_PORTAL or c == pos._teleport:
        return True
    cd = pos.cards[c]
    return cd != 0 and (cd - 1) >> 3 == cc.PORTAL


def refresh(pos, cells):
    """Recompute the views of cells for every seat (portals appear or move, biohazards come and
    go). A biohazard on or off an exit portal opens or closes every portal: all cells then."""
    static = VIEWS8 if len(pos.seats) == 8 else cc.VIEWS
    lids = pos.lids
    exits = pos._exit
    for c in cells:
        if g.CELL_KIND[c] == g.GREY:
            portal = _is_portal(pos, c)
        for s in range(len(static)):
            if lids[c]:
                v = cc.V_BLOCKED
            elif g.CELL_KIND[c] != g.GREY:
                v = static[s][c]
            elif portal:
                v = cc.V_CLOSED if lids[exits[s]] else cc.V_PORTAL
            else:
                v = cc.V_GREY
            pos._view[s][c] = v


def _refresh_lid(pos, c):
    if c in pos._exit:
        refresh(pos, range(N_CELLS))
    else:
        refresh(pos, (c,))


# -- move generation ------------------------------------------------------------------------------


def controls(pos, seat):
    return pos.lids.find(ONE[seat + 1]) >= 0


def gen_plain(pos, out):
    """The plain actions of the expansions, in the order of docs/rules/cargocube.md section 14:
    umbrella rides, teleport moves, spiral turns, biohazard lifts and moves."""
    m = pos.to_move
    stacks = pos.stacks
    cards = pos.cards
    lids = pos.lids
    kc = pos._keeper[m]
    if kc == pos._exit[m] and stacks[kc][-1] == K + m and not controls(pos, m):
        umbrella = bytes((1 + cc.UMBRELLA * 8 + m,))
        c = cards.find(umbrella)
        while c >= 0:
            if g.CELL_KIND[c] == g.GREY and not lids[c]:
                out.append((cc.RIDE, kc, 0, c, K + m, ()))
            c = cards.find(umbrella, c + 1)
    tc = pos._teleport
    if tc >= 0 and stacks[tc][-1] == TELEPORT:
        h = len(stacks[tc]) - 1
        free_leave = pos._leaves_freely(tc)
        for d in range(4):
            n = g.NEIGHBOUR[tc * 4 + d]
            if n < 0 or g.CELL_KIND[n] != g.GREY or lids[n]:
                continue
            st = stacks[n]
            if st and K <= st[-1] < DEAD:
                continue  # never on a keeper
            if len(st) > h + 1 and not free_leave:
                continue
            out.append((cc.TMOVE, tc, d, n, TELEPORT, ()))
    spirals = []
    for s in pos.seats:
        code = ONE_SPIRAL[s]
        c = cards.find(code)
        while c >= 0:
            if g.CELL_KIND[c] == g.GREY and not lids[c]:
                spirals.append(c)
            c = cards.find(code, c + 1)
    if len(spirals) > 1:
        spirals.sort()
    for c in spirals:
        for it in stacks[c]:
            if it < K:
                out.append((cc.TURN, c, 0, c, 0, ()))
                out.append((cc.TURN, c, 1, c, 0, ()))
                break
    c = lids.find(ONE[m + 1])
    while c >= 0:
        near = _cubes_near(pos, pos._keeper[m], c)
        for t in range(N_CELLS):
            if t in near:
                out.append((cc.HAZARD, c, 0, t, 1, ()))
            elif not stacks[t] and not cards[t] and g.CELL_KIND[t] == g.GREY and \
                    t != g.ENTRY_PORTAL:
                out.append((cc.HAZARD, c, 0, t, 0, ()))
        c = lids.find(ONE[m + 1], c + 1)


def _cubes_near(pos, kc, skip=-1):
    """The cells, by index, of the top cargo cubes without a biohazard on kc or around it."""
    out = []
    if kc < 0:
        return out
    stacks = pos.stacks
    lids = pos.lids
    cells = [kc] + g.around(kc)
    cells.sort()
    for c in cells:
        st = stacks[c]
        if st and st[-1] < K and not lids[c] and c != skip:
            out.append(c)
    return out


def gen_special_boost(pos, out, src, cd):
    """Uses of a biohazard (onto a cube near the own keeper) or a sacrifice (onto the keeper)."""
    for t in special_targets(pos, src, cd):
        out.append((cc.BOOST, src, 0, t, cd, ()))


def special_targets(pos, src, cd):
    m = pos.to_move
    kc = pos._keeper[m]
    if kc < 0:
        return []
    if (cd - 1) >> 3 == cc.HAZARD_CARD:
        return _cubes_near(pos, kc)
    st = pos.stacks[kc]
    if len(st) == 1 and not controls(pos, m):
        return [kc]
    return []


def is_special_target(pos, src, c):
    return c in special_targets(pos, src, pos.cards[src])


def _arrive_catapult(pos, out, kind, src, d, cell, level, item, hops, used, how):
    # Outside an activation: thrown onto a terminal cell in play of its column or row.
    if kind == cc.ACTIVATE:
        return False
    x = cell % 11
    y = cell // 11
    thrown = False
    eight = len(pos.seats) == 8
    for t in (110 + x, y * 11 + 10, x, y * 11):  # n, e, s, w
        k = g.CELL_KIND[t]
        if pos.lids[t] or not (eight or k - g.TERMINAL in pos.seats):
            continue
        thrown = True
        out.append((kind, src, d, t, item, hops + (cc.THROW + t,)))
    return thrown


cc._CARD_ARRIVE[cc.CATAPULT] = _arrive_catapult

# -- make / unmake ----------------------------------------------------------------------------------


def _spent(owner):
    return 1 + cc.SPENT * 8 + owner


def push_boost(pos, action):
    kind, src, d, dst, code, hops = action
    card = (code - 1) >> 3
    m = pos.to_move
    pos.cards[src] = 0
    if card == cc.HAZARD_CARD:
        pos.lids[dst] = m + 1
        _refresh_lid(pos, dst)
    elif card == cc.SACRIFICE:
        pos.stacks[dst][-1] = DEAD + m
        pos._keeper[m] = -1
        pos.extra_turn = True
    else:
        pos.cards[dst] = code
        if card == cc.PORTAL:
            refresh(pos, (dst,))
    return ()


def pop_boost(pos, action, extra):
    kind, src, d, dst, code, hops = action
    card = (code - 1) >> 3
    m = pos.to_move
    pos.cards[src] = code
    if card == cc.HAZARD_CARD:
        pos.lids[dst] = 0
        _refresh_lid(pos, dst)
    elif card == cc.SACRIFICE:
        pos.stacks[dst][-1] = K + m
        pos._keeper[m] = dst
    else:
        pos.cards[dst] = 0
        if card == cc.PORTAL:
            refresh(pos, (dst,))


def push_action(pos, action):
    kind, src, d, dst, code, hops = action
    m = pos.to_move
    stacks = pos.stacks
    extra = ()
    if kind == cc.RIDE:
        extra = take_control(pos, dst, m)
        stacks[dst].append(stacks[src].pop())
        pos._keeper[m] = dst
        pos.cards[dst] = _spent(m)
        pos._rescore(src, dst)
    elif kind == cc.TMOVE:
        stacks[dst].append(stacks[src].pop())
        pos._teleport = dst
        refresh(pos, (src, dst))
    elif kind == cc.TURN:
        _turn(stacks[src], TURNED[d])
    else:  # HAZARD
        lid = pos.lids[src]
        pos.lids[src] = 0
        if code:
            pos.lids[dst] = lid
        else:
            pos.cards[dst] = _spent(lid - 1)
        _refresh_lid(pos, src)
        _refresh_lid(pos, dst)
    return extra


def pop_action(pos, action, extra):
    kind, src, d, dst, code, hops = action
    m = pos.to_move
    stacks = pos.stacks
    if kind == cc.RIDE:
        stacks[src].append(stacks[dst].pop())
        pos._keeper[m] = src
        pos.cards[dst] = 1 + cc.UMBRELLA * 8 + m
        if extra:
            give_back_control(pos, dst, extra)
        pos._rescore(src, dst)
    elif kind == cc.TMOVE:
        stacks[src].append(stacks[dst].pop())
        pos._teleport = src
        refresh(pos, (src, dst))
    elif kind == cc.TURN:
        _turn(stacks[src], TURNED[1 - d])
    else:
        if code:
            pos.lids[src] = pos.lids[dst]
            pos.lids[dst] = 0
        else:
            pos.lids[src] = cc.card_owner(pos.cards[dst]) + 1
            pos.cards[dst] = 0
        _refresh_lid(pos, src)
        _refresh_lid(pos, dst)


def _turn(stack, table):
    for i in range(len(stack)):
        if stack[i] < K:
            stack[i] = table[stack[i]]


def take_control(pos, dst, m):
    """A keeper of seat m arrives on dst: if a keeper of another seat that controls biohazards
    is the top item there, they all pass to m. Returns the cells whose control changed."""
    st = pos.stacks[dst]
    if not st or not K <= st[-1] < DEAD or st[-1] == K + m:
        return ()
    old = ONE[st[-1] - K + 1]
    out = []
    c = pos.lids.find(old)
    while c >= 0:
        pos.lids[c] = m + 1
        out.append(c)
        c = pos.lids.find(old, c + 1)
    return bytes(out)


def give_back_control(pos, dst, cells):
    """Undo take_control: the keeper now on top of dst is the one that controlled them."""
    seat = pos.stacks[dst][-1] - K
    for c in cells:
        pos.lids[c] = seat + 1


def spend_catapult(pos, action):
    """The cube of action is thrown: the catapult it was thrown from is spent. Returns that
    cell (for the undo record)."""
    kind, src, d, dst, code, hops = action
    if len(hops) >= 2:
        cat = hops[-2]  # a wind-rose hop landed on it
    else:
        cat = g.NEIGHBOUR[src * 4 + d]
        if (pos.cards[cat] - 1) >> 3 != cc.CATAPULT:
            cat = g.NEIGHBOUR[cat * 4 + d]  # it slid there from an acceleration
    pos.cards[cat] = _spent(cc.card_owner(pos.cards[cat]))
    return bytes((cat,))


def unspend_catapult(pos, extra):
    cat = extra[0]
    pos.cards[cat] = 1 + cc.CATAPULT * 8 + cc.card_owner(pos.cards[cat])
