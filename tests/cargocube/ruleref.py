"""Independent, deliberately simple reference implementation of Cargocube's rules: the base game,
the expansions «Пирамида» and «Бастион», the walking teleport and the 8-player variant.

Source of truth: /work/shared/rules/cargocube-rulings.md (the "rulings page"), with the project's
interpretations where it is silent (docs/rules/cargocube.md marks them; they are repeated below).
Written without looking at shared_rules/; used by tests to cross-check the fast engine. Clarity
over speed: a state is a dict that is never modified, every action builds a new one.

Public API
    parse(text) -> state          fmt(state) -> canonical one-line notation
    legal(state) -> [action str]  play(state, action) -> new state (input is never modified)
    is_over(state)                scores(state) -> {seat: score}
    perft(state, depth)           polygon_start(seats, cards, layout, teleport) -> position text

Action strings
    `e5n`            activation or roll of the top cube on e5 toward n/e/s/w (the phase says which)
    `e5n/d7/e8`      ... with the hop targets chosen at wind roses, in order
    `e5n/d7^d11`     ... thrown by a catapult onto d11 (always last)
    `Kn` `K@d5`      own keeper step; umbrella ride onto the umbrella on d5
    `Tn`             walking-teleport move
    `e5cw` `e5acw`   spiral on e5 turned clockwise / anticlockwise
    `He5@d4`         the biohazard on e5 lifted onto the empty cell d4, or moved onto the cube on d4
    `b1@d5`          the own card on terminal cell b1 used on d5 (a cube for a biohazard, the own
                     keeper's cell for a sacrifice)
    `end`

INTERPRETATIONS OF THE BASE GAME (where the rulings page is silent or could be read two ways)
 1. The climb-limit exemption of a springboard / wind rose lying on a GREY cell applies to every item
    leaving that cell at any level, keepers included (the page says "items"/"a piece").  "Cards do not
    act on keepers" means only: a keeper is never hopped by a wind rose nor slid by an acceleration.
 2. Cards lying in a terminal are completely inert: no hop, no slide, no climb exemption, and a cube
    at level 0 on such a card is judged by the terminal rule (free for the owner, frozen for others),
    never by the "card cell" rule.
 3. Cube status is evaluated in this order: (a) in another seat's terminal -> frozen; (b) directly
    on top of a keeper of a seat other than the mover -> frozen (only with 8 players can another
    seat's keeper stand in the mover's terminal: on the shared exit portal); (c) in the own terminal,
    at level >= 1 or on a (grey) card -> free; (d) level 0 on a grey cell without a card -> resting
    if O is down, else bridge.
 4. Activation candidates: top-of-stack cargo cubes with B up whose status is resting or free (a bridge
    can never have B up).  A B-up cube in the mover's OWN terminal is free and may be activated; its
    destination must still be a grey cell that is no portal.
 5. Rolls as actions: any top-of-stack cargo cube whose status is free, in any orientation (B up too).
    Destination: on the board, not a corner, not a terminal other than the mover's own (this includes
    terminals of seats not in play), climb limit.  The mover's own terminal (exit portal included) and
    portals may be entered; a cube landing on a portal (on top of anything) is teleported.
 6. The entry rules used for an acceleration slide and for wind-rose hop targets are exactly those of
    the roll being resolved: for an action roll as in 5; during an activation additionally no terminal
    at all and no portal.  A hop or slide that is not allowed is simply not available (hop: not
    offered; slide: the cube stays on the acceleration).
 7. Acceleration slide climb limit: the cube's level on the acceleration cell (= number of items under
    it there) is h; the cell ahead must have stack height <= h + 1.  The acceleration gives no climb
    exemption.
 8. Wind-rose hop targets: the 8 neighbours of the wind-rose cell satisfying 6, with ANY stack height
    (climb ignored), including cells holding keepers, cards, the cell the cube came from and other
    wind roses.  A wind rose that already acted in this action does not act again (the cube stays on
    it); an acceleration reached by hop or slide does not act.
 9. Hop notation lists only hop targets (a hop onto f6 is written `/f6`; the teleport that follows is
    implicit).  Slides and teleports are never written.
10. Teleport: the cube goes, same orientation, on top of the stack on the mover's own exit portal,
    whatever its height; nothing further happens there (cards in a terminal are inert).  Keepers never
    teleport; a keeper may step onto and off a portal freely (climb limit applies).
11. Keeper step: only the mover's own keeper, only if it is the top item of its stack; destination on
    board, not a corner, not a terminal other than the mover's own; climb limit (with exemption 1).
12. Booster use: only in the action phase, only if no booster was used this turn; the card must belong
    to the mover, lie on a cell of the mover's own terminal, and have nothing standing on it; the
    target of a plain card is any grey cell other than f6 with no item and no card.  1 action.
13. `end` is legal whenever actions are left.  When actions reach 0 or after `end`, the turn passes at
    once to the next seat in play, phase `a`, booster flag cleared.
14. Game over: any seat in play has score >= the maximum (checked in any phase, immediately after any
    action; then no action at all is legal), or the phase is `a` and the player to move has no legal
    activation.  perft(over, 0) = 1, perft(over, d >= 1) = 0.
15. Scores: for each scoring cell of the seat, the top item if it is a cargo cube contributes the pips
    of its top face (B, O -> 0; a biohazard on it changes nothing).
16. Parsing is strict: ValueError for anything the notation cannot mean or the game cannot reach in
    the ways listed in docs/rules/cargocube.md section 12.  A seat in play WITHOUT a keeper is
    accepted (that seat simply has no keeper steps).
17. Activation value = pips of the activated cube's top face after the whole activation is resolved.

INTERPRETATIONS OF THE EXPANSIONS AND VARIANTS
18. Portals are f6, placed extra portals and the teleport's cell.  A biohazard on the top cube of a
    seat's exit portal closes them all to that seat (for cubes only; keepers and the teleport still
    step onto portal cells).
19. A cell with a biohazard cannot be entered by anything; its cube and the items under it cannot act.
20. Catapult targets: the cells of row 1, column k, row 11, column a in the catapult's column / row that
    are terminal cells of a side with a seat in play, without a biohazard; offered n, e, s, w.  Not
    during an activation.  No target: nothing happens, not spent.
21. Spiral: allowed with >= 1 cargo cube anywhere in the stack and no biohazard, whoever is on top.
22. Biohazard targets (placing and moving): top-of-stack cargo cubes without a biohazard on the
    keeper's cell or its 8 neighbours.  Lift targets: grey, no item, no card, not f6.
23. Control passes for all biohazards of the seat whose keeper is the top item of the cell another
    seat's keeper steps or rides onto.
24. The walking teleport obeys the climb limit with the same exemptions as any piece.
25. 8 players: seats 1..8 clockwise from the south side's east half; a side's exit portal counts as
    own terminal for both its seats (not for scoring, no cards on it); max score 16.
"""

import re

# ----------------------------------------------------------------------------------------------
# Board geometry.  A cell is a pair (x, y): x = 0..10 for columns a..k, y = 0..10 for rows 1..11.

COLS = "abcdefghijk"
SIZE = 11
CORNERS = {(0, 0), (10, 0), (0, 10), (10, 10)}
CENTRE = (5, 5)  # f6
SIDE_EXIT = {"S": (5, 0), "W": (0, 5), "N": (5, 10), "E": (10, 5)}
TURN_ORDER = "SWNE"
EIGHT = "12345678"
ALLOWED_SEATS = ("SN", "SWN", "SWNE", EIGHT)
DIRS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPPOSITE_DIR = {"n": "s", "s": "n", "e": "w", "w": "e"}


def cell_name(c):
    return COLS[c[0]] + str(c[1] + 1)


def parse_cell(s):
    m = re.fullmatch(r"([a-k])(1[01]|[1-9])", s)
    if not m:
        raise ValueError("bad cell name %r" % s)
    return (COLS.index(m.group(1)), int(m.group(2)) - 1)


def on_board(c):
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def is_grey(c):
    return 1 <= c[0] <= 9 and 1 <= c[1] <= 9


def side_of(c):
    """'S' 'W' 'N' 'E' for a terminal cell, None for grey cells, corners and off-board cells."""
    if not on_board(c) or c in CORNERS:
        return None
    x, y = c
    if y == 0:
        return "S"
    if x == 0:
        return "W"
    if y == 10:
        return "N"
    if x == 10:
        return "E"
    return None


def step(c, d):
    dx, dy = DIRS[d]
    return (c[0] + dx, c[1] + dy)


def ring8(c):
    """The 8 surrounding cells, N NE E SE S SW W NW (off-board ones included; callers filter)."""
    x, y = c
    return [(x, y + 1), (x + 1, y + 1), (x + 1, y), (x + 1, y - 1), (x, y - 1), (x - 1, y - 1),
            (x - 1, y), (x - 1, y + 1)]


# 8 players: which half of which side each seat has.  Cells are listed as (x, y).
HALF = {
    "1": [(x, 0) for x in (6, 7, 8, 9)],
    "2": [(x, 0) for x in (1, 2, 3, 4)],
    "3": [(0, y) for y in (1, 2, 3, 4)],
    "4": [(0, y) for y in (6, 7, 8, 9)],
    "5": [(x, 10) for x in (1, 2, 3, 4)],
    "6": [(x, 10) for x in (6, 7, 8, 9)],
    "7": [(10, y) for y in (6, 7, 8, 9)],
    "8": [(10, y) for y in (1, 2, 3, 4)],
}
SIDE_OF_SEAT8 = {"1": "S", "2": "S", "3": "W", "4": "W", "5": "N", "6": "N", "7": "E", "8": "E"}
KEEPER_START8 = {"1": (6, 0), "2": (4, 0), "3": (0, 4), "4": (0, 6), "5": (4, 10),
                 "6": (6, 10), "7": (10, 6), "8": (10, 4)}


def eight(state_or_seats):
    seats = state_or_seats if isinstance(state_or_seats, str) else state_or_seats["seats"]
    return seats == EIGHT


def seat_side(seats, seat):
    return SIDE_OF_SEAT8[seat] if eight(seats) else seat


def exit_portal(seats, seat):
    return SIDE_EXIT[seat_side(seats, seat)]


def score_cells(seats, seat):
    if eight(seats):
        return list(HALF[seat])
    return [c for c in _all_cells() if side_of(c) == seat]


def owns(seats, seat, c):
    """May `seat` treat terminal cell c as its own (move cubes there, step its keeper there)?"""
    if eight(seats):
        return c in HALF[seat] or c == exit_portal(seats, seat)
    return side_of(c) == seat


def card_cell_owner_ok(seats, seat, c):
    """May a card of `seat` lie (unused) on terminal cell c?"""
    if eight(seats):
        return c in HALF[seat]
    return side_of(c) == seat


def side_in_play(seats, side):
    if eight(seats):
        return True
    return side in seats


def _all_cells():
    return [(x, y) for y in range(SIZE) for x in range(SIZE)]


def max_score(seats):
    return 16 if eight(seats) else 36


# ----------------------------------------------------------------------------------------------
# Orientation.  A tuple of the faces (up, down, north, east, south, west).

FACE_SLOTS = ("u", "d", "n", "e", "s", "w")
OPPOSITE_FACE = {"B": "O", "O": "B", "1": "3", "3": "1", "2": "4", "4": "2"}
START = ("B", "O", "3", "4", "1", "2")  # B up, 1 south, 2 west, 3 north, 4 east


def roll_orientation(o, d):
    """Roll toward d: face toward d goes down, up faces d, down faces away from d, away comes up."""
    f = dict(zip(FACE_SLOTS, o))
    away = OPPOSITE_DIR[d]
    new = dict(f)
    new["d"] = f[d]
    new[d] = f["u"]
    new[away] = f["d"]
    new["u"] = f[away]
    return tuple(new[k] for k in FACE_SLOTS)


def turn_orientation(o, clockwise):
    """A quarter turn about the vertical axis seen from above: clockwise the north face goes east."""
    up, down, n, e, s, w = o
    if clockwise:
        return (up, down, w, n, e, s)
    return (up, down, e, s, w, n)


def _all_orientations():
    seen = {START}
    todo = [START]
    while todo:
        o = todo.pop()
        for d in DIRS:
            r = roll_orientation(o, d)
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return seen


ORIENTATIONS = _all_orientations()
ORIENT_NAME = {o: o[0] + o[4] for o in ORIENTATIONS}  # top face + south face
NAME_ORIENT = {v: k for k, v in ORIENT_NAME.items()}
assert len(ORIENTATIONS) == 24 and len(NAME_ORIENT) == 24


def top_face(o):
    return o[0]


def bottom_face(o):
    return o[1]


def pips(face):
    return int(face) if face in "1234" else 0


# ----------------------------------------------------------------------------------------------
# State.  A plain dict, treated as immutable:
#   'stacks':  {cell: tuple of items bottom to top}; item = ('C', orientation) | ('K', seat) |
#              ('X', seat) (dead keeper) | ('T', '') (walking teleport)
#   'cards':   {cell: (kind, owner)}, kind in 's w a u c p x h v ='
#   'hazards': {cell: controlling seat} (a biohazard lying on the top cube of that cell)
#   'seats':   'SN' | 'SWN' | 'SWNE' | '12345678'
#   'to_move': seat letter
#   'actions': None in phase `a`, else the number of actions left (1..4)
#   'booster': True if a booster was used this turn
#   'extra':   True if an extra turn (sacrifice) is owed to the player to move

CARD_KINDS = "swaucpxhv="


def _state(stacks, cards, hazards, seats, to_move, actions, booster, extra):
    return {"stacks": stacks, "cards": cards, "hazards": hazards, "seats": seats,
            "to_move": to_move, "actions": actions, "booster": booster, "extra": extra}


def _with(state, **changes):
    new = dict(state)
    new.update(changes)
    return new


def parse(text):
    parts = text.split()
    if len(parts) != 4:
        raise ValueError("position needs 4 fields: %r" % text)
    cells_txt, seats, to_move, phase = parts
    if seats not in ALLOWED_SEATS:
        raise ValueError("seats must be one of %s" % (ALLOWED_SEATS,))
    if len(to_move) != 1 or to_move not in seats:
        raise ValueError("to-move not in play")
    m = re.fullmatch(r"(a)|([1-4])(b?)(x?)", phase)
    if not m:
        raise ValueError("bad phase %r" % phase)
    if m.group(1):
        actions, booster, extra = None, False, False
    else:
        actions, booster, extra = int(m.group(2)), m.group(3) == "b", m.group(4) == "x"
        if actions == 4 and booster:
            raise ValueError("4b is impossible")
        if extra and not booster:
            raise ValueError("an extra turn comes with the sacrifice, a booster use")

    letters = seats
    stacks, cards, hazards = {}, {}, {}
    keepers_seen = set()
    teleports = 0
    if cells_txt != "-":
        for entry in cells_txt.split(","):
            if "=" not in entry:
                raise ValueError("bad cell entry %r" % entry)
            cname, items_txt = entry.split("=", 1)
            c = parse_cell(cname)
            if c in stacks or c in cards:
                raise ValueError("duplicate cell %s" % cname)
            if c in CORNERS:
                raise ValueError("nothing may be on a corner")
            side = side_of(c)
            if side is not None and not side_in_play(seats, side):
                raise ValueError("terminal of a seat not in play is occupied: %s" % cname)
            if items_txt == "":
                raise ValueError("empty item list at %s" % cname)
            raw = items_txt.split(".")
            items = []
            for k, it in enumerate(raw):
                if it.startswith("*"):
                    if len(it) != 3 or it[1] not in CARD_KINDS or it[2] not in letters:
                        raise ValueError("bad card %r" % it)
                    if k != 0:
                        raise ValueError("card must be written first: %r" % entry)
                    kind, seat = it[1], it[2]
                    if c == CENTRE:
                        raise ValueError("card on f6")
                    if side is not None:
                        if not card_cell_owner_ok(seats, seat, c):
                            raise ValueError("card in a terminal cell it cannot lie on")
                        if kind == "=":
                            raise ValueError("a spent card lies in the grey zone")
                    elif kind in "hv":
                        raise ValueError("a biohazard or sacrifice card is never put on a grey cell")
                    cards[c] = (kind, seat)
                elif it.startswith("!"):
                    if len(it) != 2 or it[1] not in letters:
                        raise ValueError("bad biohazard %r" % it)
                    if k != len(raw) - 1 or not items or items[-1][0] != "C":
                        raise ValueError("a biohazard lies last, on a cargo cube")
                    hazards[c] = it[1]
                elif len(it) == 2 and it[0] in "KX" and it[1] in letters:
                    seat = it[1]
                    if seat in keepers_seen:
                        raise ValueError("two keepers of seat %s" % seat)
                    if side is not None and not owns(seats, seat, c):
                        raise ValueError("keeper in another seat's terminal")
                    if it[0] == "X" and items:
                        raise ValueError("a dead keeper stays at level 0")
                    if items and items[-1][0] == "T" and it[0] == "X":
                        raise ValueError("nothing but keepers on the teleport")
                    keepers_seen.add(seat)
                    items.append((it[0], seat))
                elif it == "T":
                    teleports += 1
                    if teleports > 1 or not is_grey(c):
                        raise ValueError("one walking teleport, in the grey zone")
                    if items and items[-1][0] == "K":
                        raise ValueError("the teleport never stands on a keeper")
                    items.append(("T", ""))
                elif it in NAME_ORIENT:
                    if any(i[0] == "T" for i in items):
                        raise ValueError("a cube on the teleport would have been teleported")
                    items.append(("C", NAME_ORIENT[it]))
                else:
                    raise ValueError("unsupported item %r" % it)
            if items:
                stacks[c] = tuple(items)
    for c, stack in stacks.items():
        if any(i[0] == "C" for i in stack) and (c == CENTRE or cards.get(c, ("",))[0] == "x"):
            raise ValueError("a cube on an entry portal")
    return _state(stacks, cards, hazards, seats, to_move, actions, booster, extra)


def _item_str(item):
    if item[0] == "C":
        return ORIENT_NAME[item[1]]
    if item[0] == "T":
        return "T"
    return item[0] + item[1]


def fmt(state):
    cells = set(state["stacks"]) | set(state["cards"])
    entries = []
    for c in sorted(cells, key=lambda c: (c[1], c[0])):
        parts = []
        if c in state["cards"]:
            kind, owner = state["cards"][c]
            parts.append("*" + kind + owner)
        parts.extend(_item_str(it) for it in state["stacks"].get(c, ()))
        if c in state["hazards"]:
            parts.append("!" + state["hazards"][c])
        entries.append(cell_name(c) + "=" + ".".join(parts))
    cells_txt = ",".join(entries) if entries else "-"
    if state["actions"] is None:
        phase = "a"
    else:
        phase = str(state["actions"]) + ("b" if state["booster"] else "") + (
            "x" if state["extra"] else "")
    return "%s %s %s %s" % (cells_txt, state["seats"], state["to_move"], phase)


# ----------------------------------------------------------------------------------------------
# Small helpers on stacks (a `stacks` dict passed around inside one action is a fresh copy).


def height(stacks, c):
    return len(stacks.get(c, ()))


def _remove_top(stacks, c):
    st = stacks[c]
    if len(st) == 1:
        del stacks[c]
    else:
        stacks[c] = st[:-1]
    return st[-1]


def _put_on_top(stacks, c, item):
    stacks[c] = stacks.get(c, ()) + (item,)


def _move_top(stacks, src, dst):
    _put_on_top(stacks, dst, _remove_top(stacks, src))


def _placed_card(state, c):
    """The card on c if it lies in the grey zone (only those act), else None."""
    if is_grey(c):
        return state["cards"].get(c)
    return None


def is_portal(state, stacks, c):
    if c == CENTRE:
        return True
    card = _placed_card(state, c)
    if card is not None and card[0] == "x":
        return True
    return any(item[0] == "T" for item in stacks.get(c, ()))


def portals_open(state, seat):
    return exit_portal(state["seats"], seat) not in state["hazards"]


def leaves_freely(state, c):
    card = _placed_card(state, c)
    return card is not None and card[0] in "swcx"


def climb_ok(state, stacks, src, level, dst):
    """May an item at `level` on `src` enter `dst`?  (s <= h + 1, unless leaving s w c x.)"""
    if leaves_freely(state, src):
        return True
    return height(stacks, dst) <= level + 1


def cube_may_enter(state, stacks, c, mover, activation):
    """Entry rules for a cargo cube (roll, slide, hop target), not counting the climb limit."""
    if not on_board(c) or c in CORNERS or c in state["hazards"]:
        return False
    if side_of(c) is not None:
        return not activation and owns(state["seats"], mover, c)
    if is_portal(state, stacks, c):
        return not activation and portals_open(state, mover)
    return True


def keeper_may_enter(state, c, mover):
    if not on_board(c) or c in CORNERS or c in state["hazards"]:
        return False
    return side_of(c) is None or owns(state["seats"], mover, c)


def controls(state, seat):
    return [c for c, s in state["hazards"].items() if s == seat]


def keeper_cell(state, seat):
    for c, stack in state["stacks"].items():
        if ("K", seat) in stack:
            return c
    return None


def cube_status(state, c, index, mover):
    """'frozen', 'free', 'resting' or 'bridge' for the cargo cube at stacks[c][index]."""
    stack = state["stacks"][c]
    cube = stack[index]
    if side_of(c) is not None and not owns(state["seats"], mover, c):
        return "frozen"
    if index > 0 and stack[index - 1][0] == "K" and stack[index - 1][1] != mover:
        return "frozen"
    if side_of(c) is not None or index > 0 or c in state["cards"]:
        return "free"
    return "resting" if bottom_face(cube[1]) == "O" else "bridge"


def _hand_over_control(state, hazards, stacks, dst, mover):
    """Keeper of `mover` arrives on dst: if the top item there is a keeper of another seat that
    controls biohazards, all of them pass to mover."""
    st = stacks.get(dst, ())
    if st and st[-1][0] == "K" and st[-1][1] != mover:
        old = st[-1][1]
        for c, s in list(hazards.items()):
            if s == old:
                hazards[c] = mover


# ----------------------------------------------------------------------------------------------
# Resolution of one roll (activation or action).


def _catapult_targets(state, stacks, c):
    x, y = c
    out = []
    for t in ((x, 10), (10, y), (x, 0), (0, y)):  # n, e, s, w
        side = side_of(t)
        if side is not None and side_in_play(state["seats"], side) and t not in state["hazards"]:
            out.append(t)
    return out


def _arrive(state, stacks, cards, c, mover, activation, how, d, used):
    """The cube on top of c has just arrived there (how = 'roll' | 'slide' | 'hop').
    Returns a list of (path_suffix, final_cell, stacks, cards) for every distinct outcome; the path
    suffix is a tuple of ('/', cell) hops and ('^', cell) throws."""
    if is_portal(state, stacks, c):  # callers never bring a cube here when it is not allowed
        dst = exit_portal(state["seats"], mover)
        _move_top(stacks, c, dst)
        return [((), dst, stacks, cards)]
    card = _placed_card(state, c)
    if card is None or c in used:
        return [((), c, stacks, cards)]
    kind = card[0]
    if kind == "a" and how == "roll":
        ahead = step(c, d)
        level = height(stacks, c) - 1
        if cube_may_enter(state, stacks, ahead, mover, activation) and \
                height(stacks, ahead) <= level + 1:
            _move_top(stacks, c, ahead)
            return _arrive(state, stacks, cards, ahead, mover, activation, "slide", d,
                           used | {c})
        return [((), c, stacks, cards)]
    if kind == "w":
        results = []
        for target in ring8(c):
            if not cube_may_enter(state, stacks, target, mover, activation):
                continue
            branch = dict(stacks)
            _move_top(branch, c, target)
            for suffix, final, st, cd in _arrive(state, branch, cards, target, mover, activation,
                                                 "hop", None, used | {c}):
                results.append(((("/", target),) + suffix, final, st, cd))
        if results:
            return results
        return [((), c, stacks, cards)]
    if kind == "c" and not activation:
        results = []
        for target in _catapult_targets(state, stacks, c):
            branch = dict(stacks)
            _move_top(branch, c, target)
            spent = dict(cards)
            spent[c] = ("=", card[1])
            results.append(((("^", target),), target, branch, spent))
        if results:
            return results
    return [((), c, stacks, cards)]


def _roll_outcomes(state, c, d, activation):
    """All outcomes of rolling the top cube of c toward d: list of (action, final_cell, stacks,
    cards).  The caller has checked that the cube may be activated / rolled."""
    mover = state["to_move"]
    stacks = state["stacks"]
    level = height(stacks, c) - 1
    dst = step(c, d)
    if not cube_may_enter(state, stacks, dst, mover, activation):
        return []
    if not climb_ok(state, stacks, c, level, dst):
        return []
    new_stacks = dict(stacks)
    cube = _remove_top(new_stacks, c)
    _put_on_top(new_stacks, dst, ("C", roll_orientation(cube[1], d)))
    out = []
    for suffix, final, st, cd in _arrive(state, new_stacks, state["cards"], dst, mover, activation,
                                         "roll", d, frozenset()):
        action = cell_name(c) + d + "".join(mark + cell_name(t) for mark, t in suffix)
        out.append((action, final, st, cd))
    return out


# ----------------------------------------------------------------------------------------------
# Move generation.


def _movable_top_cubes(state):
    """(cell, level, cube) of every top cube that carries no biohazard."""
    for c, stack in state["stacks"].items():
        if stack[-1][0] == "C" and c not in state["hazards"]:
            yield c, len(stack) - 1, stack[-1]


def _pass_turn(state, **changes):
    new = _with(state, actions=None, booster=False, extra=False, **changes)
    if state["extra"]:
        return new  # the sacrifice's extra turn: the same player again
    seats = new["seats"]
    new["to_move"] = seats[(seats.index(state["to_move"]) + 1) % len(seats)]
    return new


def _after_action(state, booster=None, **changes):
    left = state["actions"] - 1
    if booster is not None:
        changes["booster"] = booster
    if left == 0:
        return _pass_turn(_with(state, **changes))
    return _with(state, actions=left, **changes)


def _activations(state):
    mover = state["to_move"]
    out = []
    for c, index, cube in _movable_top_cubes(state):
        if top_face(cube[1]) != "B":
            continue
        if cube_status(state, c, index, mover) not in ("resting", "free"):
            continue
        for d in "nesw":
            for action, final, st, cd in _roll_outcomes(state, c, d, True):
                value = pips(top_face(st[final][-1][1]))
                assert 1 <= value <= 4
                out.append((action, _with(state, stacks=st, cards=cd, actions=value)))
    return out


def _empty_grey_cells(state):
    return [(x, y) for y in range(1, 10) for x in range(1, 10)
            if (x, y) != CENTRE and (x, y) not in state["stacks"] and (x, y) not in state["cards"]]


def _cubes_near(state, centre, exclude=None):
    """Top-of-stack cargo cubes without a biohazard on centre or its 8 neighbours."""
    out = []
    for c in [centre] + ring8(centre):
        st = state["stacks"].get(c)
        if st and st[-1][0] == "C" and c not in state["hazards"] and c != exclude:
            out.append(c)
    return out


def _actions(state):
    mover = state["to_move"]
    seats = state["seats"]
    stacks = state["stacks"]
    out = []
    # rolls of free cargo cubes
    for c, index, cube in _movable_top_cubes(state):
        if cube_status(state, c, index, mover) != "free":
            continue
        for d in "nesw":
            for action, final, st, cd in _roll_outcomes(state, c, d, False):
                out.append((action, _after_action(state, stacks=st, cards=cd)))
    # own keeper: steps, umbrella rides
    kc = keeper_cell(state, mover)
    keeper_free = kc is not None and stacks[kc][-1] == ("K", mover) and not controls(state, mover)
    if keeper_free:
        for d in "nesw":
            dst = step(kc, d)
            if keeper_may_enter(state, dst, mover) and climb_ok(state, stacks, kc,
                                                                len(stacks[kc]) - 1, dst):
                st = dict(stacks)
                hz = dict(state["hazards"])
                _hand_over_control(state, hz, st, dst, mover)
                _move_top(st, kc, dst)
                out.append(("K" + d, _after_action(state, stacks=st, hazards=hz)))
    if keeper_free and kc == exit_portal(seats, mover):
        for c in sorted(state["cards"], key=lambda c: (c[1], c[0])):
            kind, owner = state["cards"][c]
            if kind == "u" and owner == mover and is_grey(c) and c not in state["hazards"]:
                st = dict(stacks)
                hz = dict(state["hazards"])
                _hand_over_control(state, hz, st, c, mover)
                _move_top(st, kc, c)
                cards = dict(state["cards"])
                cards[c] = ("=", owner)
                out.append(("K@" + cell_name(c), _after_action(state, stacks=st, hazards=hz,
                                                               cards=cards)))
    # the walking teleport
    for tc, stack in stacks.items():
        if stack[-1][0] != "T":
            continue
        for d in "nesw":
            dst = step(tc, d)
            if not is_grey(dst) or dst in state["hazards"]:
                continue
            if stacks.get(dst) and stacks[dst][-1][0] == "K":
                continue
            if not climb_ok(state, stacks, tc, len(stack) - 1, dst):
                continue
            st = dict(stacks)
            _move_top(st, tc, dst)
            out.append(("T" + d, _after_action(state, stacks=st)))
    # spirals
    for c in sorted(state["cards"], key=lambda c: (c[1], c[0])):
        if state["cards"][c][0] != "p" or not is_grey(c) or c in state["hazards"]:
            continue
        stack = stacks.get(c, ())
        if not any(item[0] == "C" for item in stack):
            continue
        for clockwise, name in ((True, "cw"), (False, "acw")):
            turned = tuple(("C", turn_orientation(i[1], clockwise)) if i[0] == "C" else i
                           for i in stack)
            st = dict(stacks)
            st[c] = turned
            out.append((cell_name(c) + name, _after_action(state, stacks=st)))
    # biohazards the mover controls: lift or move
    for hc in sorted(controls(state, mover), key=lambda c: (c[1], c[0])):
        moves = []
        for t in _empty_grey_cells(state):
            hz = dict(state["hazards"])
            del hz[hc]
            cards = dict(state["cards"])
            cards[t] = ("=", mover)
            moves.append((t, _after_action(state, hazards=hz, cards=cards)))
        if kc is not None:
            for t in _cubes_near(state, kc, exclude=hc):
                hz = dict(state["hazards"])
                del hz[hc]
                hz[t] = mover
                moves.append((t, _after_action(state, hazards=hz)))
        for t, new in sorted(moves, key=lambda m: (m[0][1], m[0][0])):
            out.append(("H%s@%s" % (cell_name(hc), cell_name(t)), new))
    # booster use
    if not state["booster"]:
        plain = _empty_grey_cells(state)
        for c in sorted(state["cards"], key=lambda c: (c[1], c[0])):
            kind, owner = state["cards"][c]
            if owner != mover or side_of(c) is None or c in stacks:
                continue
            rest = dict(state["cards"])
            del rest[c]
            if kind == "h":
                if kc is None:
                    continue
                for t in _cubes_near(state, kc):
                    hz = dict(state["hazards"])
                    hz[t] = mover
                    out.append((cell_name(c) + "@" + cell_name(t),
                                _after_action(state, True, cards=rest, hazards=hz)))
            elif kind == "v":
                if kc is None or stacks[kc] != (("K", mover),) or controls(state, mover):
                    continue
                st = dict(stacks)
                st[kc] = (("X", mover),)
                done = _with(state, extra=True)
                out.append((cell_name(c) + "@" + cell_name(kc),
                            _after_action(done, True, cards=rest, stacks=st)))
            else:
                for t in plain:
                    cards = dict(rest)
                    cards[t] = (kind, owner)
                    out.append((cell_name(c) + "@" + cell_name(t),
                                _after_action(state, True, cards=cards)))
    out.append(("end", _pass_turn(state)))
    return out


def scores(state):
    result = {}
    seats = state["seats"]
    for seat in seats:
        total = 0
        for c in score_cells(seats, seat):
            stack = state["stacks"].get(c)
            if stack and stack[-1][0] == "C":
                total += pips(top_face(stack[-1][1]))
        result[seat] = total
    return result


def _successors(state):
    """List of (action, new_state); empty iff the game is over."""
    if any(v >= max_score(state["seats"]) for v in scores(state).values()):
        return []
    if state["actions"] is None:
        return _activations(state)
    return _actions(state)


def is_over(state):
    return not _successors(state)


def legal(state):
    moves = [a for a, _ in _successors(state)]
    assert len(moves) == len(set(moves)), "duplicate action strings"
    return moves


def play(state, action):
    for a, new_state in _successors(state):
        if a == action:
            return new_state
    raise ValueError("illegal action %r in %s" % (action, fmt(state)))


def perft(state, depth):
    if depth == 0:
        return 1
    succ = _successors(state)
    if depth == 1:
        return len(succ)
    return sum(perft(s, depth - 1) for _, s in succ)


# ----------------------------------------------------------------------------------------------
# Convenience: the «Полигон» start and the default card layouts of the rulings page.

# S's terminal from b1 to j1 (f1 left out), per layout; the other sides get it turned with the board.
LAYOUT_CARDS = {
    "base": "s s w s | s a - -",
    "pyramid": "u s w s | s a c p",
    "bastion": "x s w s | s a h v",
    "both": "u c w p | x a h v",
}


def polygon_cells():
    return [(x, y) for y in range(SIZE) for x in range(SIZE)
            if max(abs(x - 5), abs(y - 5)) in (2, 3)]


def _turn(c, quarter_turns):
    """Cell c turned clockwise seen from above (S's edge onto W's) about the centre."""
    x, y = c[0] - 5, c[1] - 5
    for _ in range(quarter_turns):
        x, y = y, -x
    return (x + 5, y + 5)


def _card_entries(seats, layout):
    kinds = LAYOUT_CARDS[layout].replace("|", "").split()
    cells_s = [(x, 0) for x in (1, 2, 3, 4, 6, 7, 8, 9)]
    entries = {}
    for side_index, side in enumerate("SWNE"):
        if not side_in_play(seats, side):
            continue
        for c, kind in zip(cells_s, kinds):
            if kind == "-":
                continue
            t = _turn(c, side_index)
            if eight(seats):
                owner = [s for s in EIGHT if t in HALF[s]][0]
            else:
                owner = side
            entries[t] = "*%s%s" % (kind, owner)
    return entries


def polygon_start(seats="SN", cards="", layout=None, teleport=False):
    """Polygon start position text.  `cards` is extra `cell=*kS` entries joined by commas (for
    hand-made layouts); `layout` one of LAYOUT_CARDS for the default places."""
    stacks = {c: ["B1"] for c in polygon_cells()}
    card_items = _card_entries(seats, layout) if layout else {}
    for seat in seats:
        kc = KEEPER_START8[seat] if eight(seats) else SIDE_EXIT[seat]
        stacks.setdefault(kc, []).append("K" + seat)
    if teleport:
        stacks[CENTRE] = ["T"]
    entries = []
    for c in set(stacks) | set(card_items):
        items = ([card_items[c]] if c in card_items else []) + stacks.get(c, [])
        entries.append(cell_name(c) + "=" + ".".join(items))
    if cards:
        entries.append(cards)
    return fmt(parse(",".join(entries) + " %s %s a" % (seats, seats[0])))
