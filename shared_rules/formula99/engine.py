# «Формула 99» engine: Monte Carlo over the hidden cards (docs/rules/formula99.md §13).
#
# A seat sees its own hand, the cards of its own charges, the discard pile and the public
# position. To choose, it resamples everything else (the other hands, the others' charge cards,
# the deck's order) several times, plays each candidate action in each sample through chance
# and its own further decisions (greedily) until someone else is to act, and scores the
# outcome with evaluate(). Deterministic for a given seed (its own small generator), and in the
# MicroPython subset.

from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as TK
from shared_rules.formula99.const import (O_LOC, O_DECK, O_DECKN, O_SHIP, O_CIV, O_CHG, O_CCARD,
                                          O_NSEATS, O_WINNER, L_HAND, L_CHARGE, L_DECK,
                                          BLOCKADE, UNKNOWN, NONE, K_LAY, K_BLOCK, K_LIFT,
                                          K_END)

WIN = 100000


class Lcg:
    """The rules' generator (§2.4), for sampling."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def harmful(level, card):
    """Does the card's charge hurt (most) ships that cross it?"""
    ev = R.event_of(level, card)
    return ev in (R.EV_BACK5, R.EV_BACK9, R.EV_HOME, R.EV_BLAST, R.EV_BEAM, R.EV_LASER,
                  R.EV_FREEZE)


def ship_value(place, civ):
    if place == TK.START:
        return 0
    if place < 72:
        return TK.progress(place, civ) + 3
    return 45


def evaluate(pos, seat):
    """Score of pos for seat: its race against the best opponent, its charges in the others'
    way, its cards."""
    s = pos.st
    w = s[O_WINNER]
    if w != NONE:
        return WIN if w == seat else -WIN
    n = s[O_NSEATS]
    level = s[R.O_LEVEL]
    mine = 0
    best = 0
    total = 0
    for i in range(n):
        civ = s[O_CIV + i]
        v = ship_value(s[O_SHIP + 2 * i], civ) + ship_value(s[O_SHIP + 2 * i + 1], civ)
        if i == seat:
            mine = v
        else:
            total += v
            if v > best:
                best = v
    score = 4 * mine - 3 * best - total // max(1, n - 1)
    # own charges: cards that hurt, lying just ahead of other ships, are worth having out
    for q in (2 * seat, 2 * seat + 1):
        cell = s[O_CHG + q]
        card = s[O_CCARD + q]
        if cell == R.HOME or card == BLOCKADE or card == UNKNOWN:
            continue
        bad = harmful(level, card)
        for k in range(2 * n):
            p = s[O_SHIP + k]
            if p >= 72 or not TK.lanes_mask(p) & TK.lanes_mask(cell):
                continue
            d = ((cell >> 1) - (p >> 1)) % TK.LAP
            if 1 <= d <= 10:
                gain = 6 if bad else -6
                score += gain if (k >> 1) != seat else -gain
    score += 2 * s[R.O_HANDN + seat]
    return score


def determinize(pos, seat, rng):
    """A full position where every card the seat cannot see is redealt at random among the
    places that hold unseen cards (other hands, the others' charges, the deck)."""
    p = pos.copy()
    s = p.st
    n = s[O_NSEATS]
    if not s[R.O_FULL]:
        _make_full(p, rng)
        return p
    pool = []
    slots = []  # LOC values to refill, deck positions as -1 - index
    for c in range(1, 55):
        loc = s[O_LOC + c - 1]
        if loc == L_HAND + seat or loc == R.L_DISCARD:
            continue
        if L_CHARGE <= loc < L_CHARGE + 18 and (loc - L_CHARGE) >> 1 == seat:
            continue
        pool.append(c)
    for i in range(len(pool) - 1, 0, -1):
        j = rng.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    k = 0
    for i in range(n):
        if i == seat:
            continue
        for c in range(1, 55):
            if s[O_LOC + c - 1] == L_HAND + i:
                slots.append(L_HAND + i)
    for q in range(2 * n):
        if (q >> 1) != seat and s[O_CHG + q] != R.HOME and s[O_CCARD + q] != BLOCKADE:
            slots.append(L_CHARGE + q)
    for loc in slots:
        c = pool[k]
        k += 1
        s[O_LOC + c - 1] = loc
        if loc >= L_CHARGE:
            s[O_CCARD + loc - L_CHARGE] = c
    m = s[O_DECKN]
    for i in range(m):
        c = pool[k]
        k += 1
        s[O_DECK + i] = c
        s[O_LOC + c - 1] = L_DECK
    p._legal = None
    return p


def _make_full(p, rng):
    """Deal a public position's unseen cards at random (for hints from a public view)."""
    s = p.st
    n = s[O_NSEATS]
    pool = [c for c in range(1, 55) if s[O_LOC + c - 1] != R.L_DISCARD]
    for i in range(len(pool) - 1, 0, -1):
        j = rng.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    k = 0
    for i in range(n):
        for _ in range(s[R.O_HANDN + i]):
            s[O_LOC + pool[k] - 1] = L_HAND + i
            k += 1
    for q in range(2 * n):
        if s[O_CHG + q] != R.HOME and s[O_CCARD + q] != BLOCKADE:
            s[O_CCARD + q] = pool[k]
            s[O_LOC + pool[k] - 1] = L_CHARGE + q
            k += 1
    rest = pool[k:]
    for i in range(len(rest)):
        s[O_DECK + i] = rest[i]
        s[O_LOC + rest[i] - 1] = L_DECK
    s[O_DECKN] = len(rest)
    s[R.O_FULL] = 1
    p._legal = None


def _greedy(pos, seat):
    """The action whose immediate result scores best for seat (ties: the first)."""
    best = None
    bv = 0
    for a in pos.legal_actions():
        pos.push(a)
        v = evaluate(pos, seat)
        pos.pop()
        if best is None or v > bv:
            best = a
            bv = v
    return best


def _resolve(pos, seat, turn, budget=24):
    """Play on (chance by the sample, the seat greedily, others greedily for themselves) until
    someone else's own decisions begin or the turn has passed."""
    steps = 0
    st = pos.st
    while steps < budget and not pos.is_over():
        who = pos.to_move
        if pos.turn != turn and who != seat:
            break
        if not st[R.O_SP] and st[R.O_PHASE] == R.PH_CHARGES:
            break  # the quiet part of the turn: judged as it stands
        if who == -1:
            a = pos.legal_actions()[0]
        else:
            a = _greedy(pos, who)
        pos.push(a)
        steps += 1
    return steps


QUIET = (K_LAY, K_BLOCK, K_LIFT, K_END)


def choose(pos, seat=None, samples=4, seed=1):
    """The engine's action for the seat to act (its decision; at a chance node the position's
    card in a full view, else the first). The choice depends only on what the seat can see and
    on seed."""
    acts = pos.legal_actions()
    if not acts:
        return None
    who = pos.to_move if seat is None else seat
    if who < 0 or len(acts) == 1:
        return acts[0]
    quiet = True
    for a in acts:
        if a >> 24 not in QUIET:
            quiet = False
            break
    if quiet:  # laying, lifting, ending: nothing hidden decides their worth
        return _greedy(pos, who)
    rng = Lcg(seed)  # the caller varies it (e.g. with the ply): nothing hidden may seed it
    worlds = [determinize(pos, who, rng) for _ in range(samples)]
    turn = pos.turn
    best = None
    bv = 0
    for a in acts:
        total = 0
        for w in worlds:
            w.push(a)
            n = _resolve(w, who, turn) + 1
            total += evaluate(w, who)
            for _ in range(n):
                w.pop()
        if best is None or total > bv:
            best = a
            bv = total
    return best


def random_action(pos, rng):
    acts = pos.legal_actions()
    return acts[rng.below(len(acts))]
