# Cephalopod hint / opponent: a small alpha-beta search over shared_rules.cephalopod.rules.
#
# Runs on the board (MicroPython) and the PC: no allocation per node beyond the legal-action
# lists of the rules core; ints only. best_action(pos, depth) picks the action; depth 1 is a
# greedy look at the position after each action, depth 2 also answers every reply (the default).
# Measured strength and speed: bench/cephalopod/cephalopod.py; the choices are written in
# docs/rules/cephalopod.md ("Engine").

from shared_rules.cephalopod import rules as ce

WIN = 100000

# Worth of a die by its pips, in hundredths of a cell. A 6 can never be captured (any pair with
# it sums to 7 or more) and a 5 only with a 1, so they are worth more than a cell that the
# opponent may take away; a 1 next to an empty cell is the easiest prey.
DIE_WORTH = (0, 100, 104, 106, 108, 116, 140)


def evaluate(pos):
    """Score of the position for the side to move, in hundredths of a cell (WIN when won)."""
    me = pos.to_move
    if pos.is_over():
        sc = pos.scores()
        if sc[me] > sc[me ^ 1]:
            return WIN
        if sc[me] < sc[me ^ 1]:
            return -WIN
        return 0
    total = 0
    worth = DIE_WORTH
    for v in pos.cells:
        if v:
            if v >> 3 == me:
                total += worth[v & 7]
            else:
                total -= worth[v & 7]
    return total


def _search(pos, depth, alpha, beta):
    if depth == 0 or pos.is_over():
        return evaluate(pos)
    best = -WIN - 1
    for a in pos.legal_actions():
        pos.push(a)
        v = -_search(pos, depth - 1, -beta, -alpha)
        pos.pop()
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


def _order(pos, actions):
    """Captures first, the biggest first (they change the most cells): better cut-offs."""
    out = []
    for n in (4, 3, 2, 0):
        for a in actions:
            if ce._POP[a & 15] == n:
                out.append(a)
    return out


def best_action(pos, depth=2):
    """The best action for the side to move by a depth-ply alpha-beta search (None if the game
    is over). Deterministic: ties go to the first action in the search order (captures of 4,
    3, then 2 dice, then plain placements, each group in legal order)."""
    actions = pos.legal_actions()
    if not actions:
        return None
    if len(actions) == 1:
        return actions[0]
    best = None
    alpha = -WIN - 1
    for a in _order(pos, actions):
        pos.push(a)
        v = -_search(pos, depth - 1, -WIN - 1, -alpha)
        pos.pop()
        if best is None or v > alpha:
            best = a
            alpha = v
    return best
