# Cargocube hint: a good action for the player to move, by a one-ply look. Plain rules logic
# over shared_rules.cargocube.rules: the board's `hint` button (firmware/games/cargocube), the
# demo's players and the benchmarks use it. Runs on the board (MicroPython) and the PC; its time
# on the board: bench/cargocube/hint.py.

from shared_rules.cargocube import board as g
from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import orient


def best_action(pos):
    """A good action for the player to move: the best by a one-ply look (score first, then cubes
    brought toward the own terminal, then the activation value). Bounded: no search tree, and
    only actions that touch a terminal (the only ones that can change a score) are played out,
    so it fits the board's time budget (bench/cargocube/hint.py)."""
    actions = pos.legal_actions()
    if not actions:
        return None
    best = None
    best_key = None
    for a, key in _keys(pos, actions):
        if best_key is None or key > best_key:
            best = a
            best_key = key
    return best


def rank(pos, actions):
    """actions (legal in pos) from the one the hint would rather play to the least likely:
    what a player trying to win does first (the board's questions show them in this order)."""
    keyed = _keys(pos, actions)
    order = sorted(range(len(keyed)), key=lambda i: (-keyed[i][1], i))
    return [keyed[i][0] for i in order]


def _keys(pos, actions):
    """[(action, the hint's key)]: score first, then cubes toward the own terminal or the
    centre portal, then the activation value; a step or a card with nothing to show for it
    below ending the turn."""
    me = pos.to_move
    side = me >> 1 if len(pos.seats) == 8 else me  # 8 players: two seats to a side
    kinds = g.CELL_KIND
    base = _margin(pos, me)
    out = []
    for a in actions:
        kind = a[0]
        key = base
        if kind != cc.END and kind != cc.BOOST and (kinds[a[1]] >= g.TERMINAL or
                                                    kinds[a[3]] >= g.TERMINAL):
            pos.push(a)
            key = _margin(pos, me)
            pos.pop()
        key *= 100
        if kind == cc.ACTIVATE:
            key += orient.VALUE[a[4]] * 4
        elif kind == cc.ROLL:
            key += (_closeness(a[3], side) - _closeness(a[1], side)) * 2
        elif kind != cc.END:
            key -= 1  # a step or a card with nothing to show for it: ending is as good
        out.append((a, key))
    return out


def _margin(pos, me):
    """The seat's score minus the best other score."""
    sc = pos._score
    other = 0
    for s in pos.seats:
        if s != me and sc[s] > other:
            other = sc[s]
    return sc[me] - other


def _closeness(c, side):
    """10 minus the distance of cell c from the side's terminal edge (the centre portal counts as
    in the terminal: it sends cubes there)."""
    if c == g.ENTRY_PORTAL:
        return 10
    x = c % 11
    y = c // 11
    d = (y, x, 10 - y, 10 - x)[side]
    return 10 - d
