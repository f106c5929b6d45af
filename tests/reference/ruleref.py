"""Independent, deliberately simple reference implementation of Cargocube's BASE game rules.

Source of truth: /work/shared/rules/cargocube-rulings.md (the "rulings page").  Written without
looking at shared_rules/; used by tests to cross-check the fast engine.  Clarity over speed.

Public API
    parse(text) -> state          fmt(state) -> canonical one-line notation
    legal(state) -> [action str]  play(state, action) -> new state (input is never modified)
    is_over(state)                scores(state) -> {seat: score}
    perft(state, depth)

Action strings: `e5n` (activation or roll of the top cube on e5 toward n/e/s/w; which of the two
follows from the phase), `e5n/d7/e8` (the same with the hop targets chosen at wind roses, in order),
`Kn` `Ke` `Ks` `Kw` (own keeper step), `b1@d5` (own card on terminal cell b1 put on grey cell d5), `end`.

INTERPRETATIONS (where the rulings page is silent or could be read two ways)
 1. The climb-limit exemption of a springboard / wind rose lying on a GREY cell applies to every item
    leaving that cell at any level, keepers included (the page says "items"/"a piece").  "Cards do not
    act on keepers" means only: a keeper is never hopped by a wind rose nor slid by an acceleration.
 2. Cards lying in a terminal are completely inert: no hop, no slide, no climb exemption, and a cube
    at level 0 on such a card is judged by the terminal rule (free for the owner, frozen for others),
    never by the "card cell" rule.
 3. Cube status is evaluated in this order: (a) in a terminal -> free for its owner, frozen for anyone
    else; (b) directly on top of a keeper of a seat other than the mover -> frozen; (c) level >= 1 or a
    (grey) card under the stack -> free; (d) level 0 on a grey cell without a card -> resting if O is
    down, else bridge.  f6 is treated as an ordinary grey cell for status (a cube can only be on f6 in
    a hand-made position).
 4. Activation candidates: top-of-stack cargo cubes with B up whose status is resting or free (a bridge
    can never have B up).  A B-up cube in the mover's OWN terminal is free and may be activated; its
    destination must still be a grey cell other than f6.
 5. Rolls as actions: any top-of-stack cargo cube whose status is free, in any orientation (B up too).
    Destination: on the board, not a corner, not a terminal other than the mover's own (this includes
    terminals of seats not in play), climb limit.  The mover's own terminal (exit portal included) and
    f6 may be entered; a cube landing on f6 (on top of anything, e.g. a keeper) is teleported.
 6. The entry rules used for an acceleration slide and for wind-rose hop targets are exactly those of
    the roll being resolved: for an action roll as in 5; during an activation additionally no terminal
    at all and not f6.  A hop or slide that is not allowed is simply not available (hop: not offered;
    slide: the cube stays on the acceleration).
 7. Acceleration slide climb limit: the cube's level on the acceleration cell (= number of items under
    it there) is h; the cell ahead must have stack height <= h + 1.  The acceleration gives no climb
    exemption.
 8. Wind-rose hop targets: the 8 neighbours of the wind-rose cell satisfying 6, with ANY stack height
    (climb ignored), including cells holding keepers, cards, the cell the cube came from and other
    wind roses.  A wind rose that already acted in this action does not act again (the cube stays on
    it); an acceleration reached by hop or slide does not act.  Chains: roll -> [acceleration slide]
    -> [wind-rose hop]* ; a hop or slide onto f6 teleports and ends the chain.
 9. Hop notation lists only hop targets (a hop onto f6 is written `/f6`; the teleport that follows is
    implicit).  Slides and teleports are never written.
10. Teleport: the cube goes, same orientation, on top of the stack on the mover's own exit portal,
    whatever its height; nothing further happens there (cards in a terminal are inert).  Keepers never
    teleport; a keeper may step onto and off f6 freely (climb limit applies).
11. Keeper step: only the mover's own keeper, only if it is the top item of its stack (a keeper under a
    cube or under another keeper is blocked); destination on board, not a corner, not a terminal other
    than the mover's own; climb limit (with exemption 1).  No card effects, no teleport.
12. Booster use (`b1@d5`): only in the action phase, only if no booster was used this turn; the card
    must belong to the mover, lie on a cell of the mover's own terminal, and have nothing standing on it
    (empty stack); the target is any grey cell other than f6 with no item and no card.  It costs 1
    action like any other action (it may be the last one; then the turn passes).
13. `end` is legal whenever actions are left (phase 1..4), regardless of other actions.  When actions
    reach 0 or after `end`, the turn passes at once to the next seat in play (S, W, N, E order), phase
    `a`, booster flag cleared.
14. Game over (is_over): any seat in play has score >= 36 (checked in any phase, immediately after
    any action; then no action at all is legal, not even `end`), or the phase is `a` and the player to
    move has no legal activation.  In the action phase the game is never over for lack of actions
    (`end` always exists).  perft(over, 0) = 1, perft(over, d >= 1) = 0.
15. Scores are computed for the seats in play only: for each of the 9 terminal cells, the top item if
    it is a cargo cube contributes the pips of its top face (B, O -> 0); a keeper on top contributes 0.
16. Parsing is strict about the base game.  ValueError for: expansion items or cards (u c p x h v,
    spent `*=`, `!`, `X`, `T`), the `x` phase flag, `ab`, phase 0 or > 4, seats other than `SN`,
    `SWN`, `SWNE`, to-move not in seats, bad cell names, duplicate cells, empty item lists, unknown or
    impossible orientations (`13`, `BO`, ...), any item or card on a corner, any item or card in the
    terminal of a seat not in play, keepers or cards of seats not in play, two keepers of one seat, a
    keeper in another seat's terminal, more than one card in a cell, a card not written first, a card
    on f6, a card in a terminal other than its owner's.  A seat in play WITHOUT a keeper is accepted
    (that seat simply has no keeper steps).  Cargo cubes are accepted anywhere on in-play cells
    (also on f6 in hand-made positions).
17. Activation value = pips of the activated cube's top face after the whole activation is resolved
    (roll, then any slide / hops, which never change the orientation).
"""

import re

# ----------------------------------------------------------------------------------------------
# Board geometry.  A cell is a pair (x, y): x = 0..10 for columns a..k, y = 0..10 for rows 1..11.

COLS = "abcdefghijk"
SIZE = 11
CORNERS = {(0, 0), (10, 0), (0, 10), (10, 10)}
CENTRE = (5, 5)  # f6, the entry portal
EXIT_PORTAL = {"S": (5, 0), "W": (0, 5), "N": (5, 10), "E": (10, 5)}
TURN_ORDER = "SWNE"
ALLOWED_SEATS = ("SN", "SWN", "SWNE")
DIRS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPPOSITE_DIR = {"n": "s", "s": "n", "e": "w", "w": "e"}
MAX_SCORE = 36


def cell_name(c):
    return COLS[c[0]] + str(c[1] + 1)


def parse_cell(s):
    m = re.fullmatch(r"([a-k])(1[01]|[1-9])", s)
    if not m:
        raise ValueError("bad cell name %r" % s)
    return (COLS.index(m.group(1)), int(m.group(2)) - 1)


def on_board(c):
    return 0 <= c[0] < SIZE and 0 <= c[1] < SIZE


def is_corner(c):
    return c in CORNERS


def is_grey(c):
    return 1 <= c[0] <= 9 and 1 <= c[1] <= 9


def terminal_owner(c):
    """Seat whose terminal holds cell c, or None for grey cells, corners and off-board cells."""
    if not on_board(c) or is_corner(c):
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


def neighbours8(c):
    out = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                out.append((c[0] + dx, c[1] + dy))
    return out


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
# State.  A plain dict, treated as immutable (every change builds a new dict):
#   'stacks':  {cell: tuple of items bottom to top}; item = ('C', orientation) or ('K', seat)
#   'cards':   {cell: (kind, owner)}, kind in 's' 'w' 'a'
#   'seats':   'SN' | 'SWN' | 'SWNE'
#   'to_move': seat letter
#   'actions': None in phase `a`, else the number of actions left (1..4)
#   'booster': True if a booster was used this turn


def _new_state(stacks, cards, seats, to_move, actions, booster):
    return {"stacks": stacks, "cards": cards, "seats": seats, "to_move": to_move,
            "actions": actions, "booster": booster}


def parse(text):
    parts = text.split()
    if len(parts) != 4:
        raise ValueError("position needs 4 fields: %r" % text)
    cells_txt, seats, to_move, phase = parts
    if seats not in ALLOWED_SEATS:
        raise ValueError("seats must be one of %s" % (ALLOWED_SEATS,))
    if to_move not in seats or len(to_move) != 1:
        raise ValueError("to-move not in play")
    m = re.fullmatch(r"(a)|([1-4])(b?)", phase)
    if not m:
        raise ValueError("bad or unsupported phase %r" % phase)
    if m.group(1):
        actions, booster = None, False
    else:
        actions, booster = int(m.group(2)), m.group(3) == "b"

    stacks, cards = {}, {}
    keepers_seen = set()
    if cells_txt != "-":
        for entry in cells_txt.split(","):
            if "=" not in entry:
                raise ValueError("bad cell entry %r" % entry)
            cname, items_txt = entry.split("=", 1)
            c = parse_cell(cname)
            if c in stacks or c in cards:
                raise ValueError("duplicate cell %s" % cname)
            if is_corner(c):
                raise ValueError("nothing may be on a corner")
            owner_of_cell = terminal_owner(c)
            if owner_of_cell is not None and owner_of_cell not in seats:
                raise ValueError("terminal of a seat not in play is occupied: %s" % cname)
            if items_txt == "":
                raise ValueError("empty item list at %s" % cname)
            items = []
            for k, it in enumerate(items_txt.split(".")):
                if len(it) == 3 and it[0] == "*":
                    kind, seat = it[1], it[2]
                    if kind not in "swa" or seat not in TURN_ORDER:
                        raise ValueError("unsupported card %r" % it)
                    if k != 0:
                        raise ValueError("card must be written first: %r" % entry)
                    if seat not in seats:
                        raise ValueError("card of a seat not in play")
                    if c == CENTRE:
                        raise ValueError("card on the entry portal")
                    if owner_of_cell is not None and owner_of_cell != seat:
                        raise ValueError("card in another seat's terminal")
                    cards[c] = (kind, seat)
                elif len(it) == 2 and it[0] == "K" and it[1] in TURN_ORDER:
                    seat = it[1]
                    if seat not in seats:
                        raise ValueError("keeper of a seat not in play")
                    if seat in keepers_seen:
                        raise ValueError("two keepers of seat %s" % seat)
                    if owner_of_cell is not None and owner_of_cell != seat:
                        raise ValueError("keeper in another seat's terminal")
                    keepers_seen.add(seat)
                    items.append(("K", seat))
                elif it in NAME_ORIENT:
                    items.append(("C", NAME_ORIENT[it]))
                else:
                    raise ValueError("unsupported item %r" % it)
            if items:
                stacks[c] = tuple(items)
    return _new_state(stacks, cards, seats, to_move, actions, booster)


def _item_str(item):
    if item[0] == "K":
        return "K" + item[1]
    return ORIENT_NAME[item[1]]


def fmt(state):
    cells = set(state["stacks"]) | set(state["cards"])
    entries = []
    for c in sorted(cells, key=lambda c: (c[1], c[0])):
        parts = []
        if c in state["cards"]:
            kind, owner = state["cards"][c]
            parts.append("*" + kind + owner)
        parts.extend(_item_str(it) for it in state["stacks"].get(c, ()))
        entries.append(cell_name(c) + "=" + ".".join(parts))
    cells_txt = ",".join(entries) if entries else "-"
    if state["actions"] is None:
        phase = "a"
    else:
        phase = str(state["actions"]) + ("b" if state["booster"] else "")
    return "%s %s %s %s" % (cells_txt, state["seats"], state["to_move"], phase)


# ----------------------------------------------------------------------------------------------
# Small helpers on stacks (all return new dicts / tuples; nothing is mutated in place except the
# freshly copied `stacks` dict passed around inside one action's resolution).


def height(stacks, c):
    return len(stacks.get(c, ()))


def _remove_top(stacks, c):
    st = stacks[c]
    item = st[-1]
    if len(st) == 1:
        del stacks[c]
    else:
        stacks[c] = st[:-1]
    return item


def _put_on_top(stacks, c, item):
    stacks[c] = stacks.get(c, ()) + (item,)


def _move_top(stacks, src, dst):
    _put_on_top(stacks, dst, _remove_top(stacks, src))


def _replace_top(stacks, c, item):
    stacks[c] = stacks[c][:-1] + (item,)


def _active_card(state, c):
    """The card on c if it has any effect (only cards on grey cells do), else None."""
    if is_grey(c):
        return state["cards"].get(c)
    return None


def climb_ok(state, stacks, src, level, dst):
    """May an item at `level` on `src` enter `dst`?  (s <= h + 1, unless leaving s/w on grey)."""
    card = _active_card(state, src)
    if card is not None and card[0] in ("s", "w"):
        return True
    return height(stacks, dst) <= level + 1


def cube_may_enter(c, mover, activation):
    """Entry rules for a cargo cube (roll, slide, hop target), not counting the climb limit."""
    if not on_board(c) or is_corner(c):
        return False
    owner = terminal_owner(c)
    if owner is not None:
        if activation:
            return False
        if owner != mover:  # another player's terminal, or a terminal of a seat not in play
            return False
    if c == CENTRE and activation:
        return False
    return True


def keeper_may_enter(c, mover):
    if not on_board(c) or is_corner(c):
        return False
    owner = terminal_owner(c)
    return owner is None or owner == mover


def cube_status(state, c, index, mover):
    """'frozen', 'free', 'resting' or 'bridge' for the cargo cube at stacks[c][index]."""
    stack = state["stacks"][c]
    cube = stack[index]
    owner = terminal_owner(c)
    if owner is not None:
        return "free" if owner == mover else "frozen"
    if index > 0 and stack[index - 1][0] == "K" and stack[index - 1][1] != mover:
        return "frozen"
    if index > 0 or c in state["cards"]:
        return "free"
    return "resting" if bottom_face(cube[1]) == "O" else "bridge"


# ----------------------------------------------------------------------------------------------
# Resolution of one roll (activation or action).


def _arrive(state, stacks, c, mover, activation, how, d, used):
    """The cube on top of c has just arrived there (how = 'roll' | 'slide' | 'hop').
    Returns a list of (hop_cells, final_cell, stacks) for every distinct outcome."""
    if c == CENTRE:  # entry portal: never reached during an activation (excluded by the callers)
        dst = EXIT_PORTAL[mover]
        _move_top(stacks, c, dst)
        return [((), dst, stacks)]
    card = _active_card(state, c)
    if card is not None and card[0] == "a" and how == "roll" and c not in used:
        used = used | {c}
        ahead = step(c, d)
        level = height(stacks, c) - 1
        if cube_may_enter(ahead, mover, activation) and height(stacks, ahead) <= level + 1:
            _move_top(stacks, c, ahead)
            return _arrive(state, stacks, ahead, mover, activation, "slide", d, used)
        return [((), c, stacks)]
    if card is not None and card[0] == "w" and c not in used:
        used = used | {c}
        results = []
        for target in neighbours8(c):
            if not cube_may_enter(target, mover, activation):
                continue
            branch = dict(stacks)
            _move_top(branch, c, target)
            for hops, final, st in _arrive(state, branch, target, mover, activation, "hop", None,
                                           used):
                results.append(((target,) + hops, final, st))
        if results:
            return results
        return [((), c, stacks)]
    return [((), c, stacks)]


def _roll_outcomes(state, c, d, activation):
    """All outcomes of rolling the top cube of c toward d: list of (action_string, final_cell,
    stacks).  The caller has already checked that the cube may be activated / rolled."""
    mover = state["to_move"]
    stacks = state["stacks"]
    level = height(stacks, c) - 1
    dst = step(c, d)
    if not cube_may_enter(dst, mover, activation):
        return []
    if not climb_ok(state, stacks, c, level, dst):
        return []
    new_stacks = dict(stacks)
    cube = _remove_top(new_stacks, c)
    _put_on_top(new_stacks, dst, ("C", roll_orientation(cube[1], d)))
    out = []
    for hops, final, st in _arrive(state, new_stacks, dst, mover, activation, "roll", d,
                                   frozenset()):
        action = cell_name(c) + d + "".join("/" + cell_name(h) for h in hops)
        out.append((action, final, st))
    return out


# ----------------------------------------------------------------------------------------------
# Move generation.


def _top_cubes(state):
    for c, stack in state["stacks"].items():
        if stack[-1][0] == "C":
            yield c, len(stack) - 1, stack[-1]


def _pass_turn(state, stacks, cards):
    seats = state["seats"]
    nxt = seats[(seats.index(state["to_move"]) + 1) % len(seats)]
    return _new_state(stacks, cards, seats, nxt, None, False)


def _after_action(state, stacks, cards, booster):
    left = state["actions"] - 1
    if left == 0:
        return _pass_turn(state, stacks, cards)
    return _new_state(stacks, cards, state["seats"], state["to_move"], left, booster)


def _activations(state):
    mover = state["to_move"]
    out = []
    for c, index, cube in _top_cubes(state):
        if top_face(cube[1]) != "B":
            continue
        if cube_status(state, c, index, mover) not in ("resting", "free"):
            continue
        for d in "nesw":
            for action, final, st in _roll_outcomes(state, c, d, True):
                value = pips(top_face(st[final][-1][1]))
                assert 1 <= value <= 4
                out.append((action, _new_state(st, state["cards"], state["seats"], mover, value,
                                               False)))
    return out


def _actions(state):
    mover = state["to_move"]
    out = []
    # rolls of free cargo cubes
    for c, index, cube in _top_cubes(state):
        if cube_status(state, c, index, mover) != "free":
            continue
        for d in "nesw":
            for action, final, st in _roll_outcomes(state, c, d, False):
                out.append((action, _after_action(state, st, state["cards"], state["booster"])))
    # own keeper step
    for c, stack in state["stacks"].items():
        for index, item in enumerate(stack):
            if item == ("K", mover) and index == len(stack) - 1:
                for d in "nesw":
                    dst = step(c, d)
                    if keeper_may_enter(dst, mover) and climb_ok(state, state["stacks"], c,
                                                                 index, dst):
                        st = dict(state["stacks"])
                        _move_top(st, c, dst)
                        out.append(("K" + d, _after_action(state, st, state["cards"],
                                                           state["booster"])))
    # booster use
    if not state["booster"]:
        targets = [(x, y) for y in range(1, 10) for x in range(1, 10)
                   if (x, y) != CENTRE and (x, y) not in state["stacks"]
                   and (x, y) not in state["cards"]]
        for c, (kind, owner) in state["cards"].items():
            if owner != mover or terminal_owner(c) != mover or c in state["stacks"]:
                continue
            for t in targets:
                cards = dict(state["cards"])
                del cards[c]
                cards[t] = (kind, owner)
                out.append((cell_name(c) + "@" + cell_name(t),
                            _after_action(state, state["stacks"], cards, True)))
    out.append(("end", _pass_turn(state, state["stacks"], state["cards"])))
    return out


def scores(state):
    result = {}
    for seat in state["seats"]:
        total = 0
        for c, stack in state["stacks"].items():
            if terminal_owner(c) == seat and stack[-1][0] == "C":
                total += pips(top_face(stack[-1][1]))
        result[seat] = total
    return result


def _successors(state):
    """List of (action, new_state); empty iff the game is over."""
    if any(v >= MAX_SCORE for v in scores(state).values()):
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
# Convenience: the «Полигон» start.


def polygon_cells():
    out = []
    for y in range(SIZE):
        for x in range(SIZE):
            if max(abs(x - 5), abs(y - 5)) in (2, 3):
                out.append((x, y))
    return out


def polygon_start(seats="SN", cards=""):
    """Polygon start position text; `cards` is extra `cell=*kS` entries joined by commas."""
    entries = ["%s=B1" % cell_name(c) for c in polygon_cells()]
    entries += ["%s=K%s" % (cell_name(EXIT_PORTAL[s]), s) for s in seats]
    if cards:
        entries.append(cards)
    return fmt(parse(",".join(entries) + " %s S a" % seats))
