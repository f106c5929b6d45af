# The moves the board may have missed, most likely first: what a Cargocube question offers
# after the moves that fit what was seen (tracker.py, Tracker._offers). Loaded for a question
# and dropped after, as the hint engine that ranks them is (docs/firmware.md "Loading on
# demand"): a board that plays keeps neither in its heap. A question offers each position once
# (distinct()): moves that end alike count as one, the first in the board's order.

from shared_rules.cargocube import rules as cc


def offers(tr, cells, is_subset):
    """For the tracker tr: those that explain the whole difference, those pending, those within
    the cells touched lately (a move whose trace a later move undid), those that leave no trace
    at all (onto and off stacks); spiral turns and biohazard moves (never seen) first in each
    group, then in the first group the moves pending (seen begun), each part ranked by
    tr._order. cells(deltas, i) and is_subset(small, big) are the
    tracker's helpers."""
    legal = tr.legal()
    deltas = tr._deltas
    groups = ([], [], [], [])
    first = [0, 0, 0, 0]  # spiral turns and biohazard moves lead each group
    begun = 0  # then, in the first group, the moves pending (the board saw them begin)
    for i in range(len(legal)):
        a = legal[i]
        if a[0] == cc.END:
            continue
        dl = cells(deltas, i)
        # a move seen begun whose trace the next move undid, the board as expected again: it
        # may have ended on a stack and a piece come back (d6s onto d5, then d5n)
        undone = not tr.diff and a in tr.undone_by_next
        if dl == tr.diff or undone:
            k = 0
        elif a in tr.pending:
            k = 1
        elif dl and is_subset(dl, tr.touched):
            k = 2
        elif not dl:
            k = 3
        else:
            continue
        if a[0] == cc.TURN or a[0] == cc.HAZARD and not dl:
            # A spiral turn or a biohazard moved is never seen: before the moves that left
            # no trace only by chance (a roll onto a stack).
            groups[k].insert(first[k], a)
            first[k] += 1
        elif k == 0 and (undone or a in tr.pending):
            # A move whose start the board saw (revision B: a piece lifted off a stack) and
            # that fits the whole difference: before the others that fit it only as well (with
            # no difference, every move onto and off stacks does; the one begun came last)
            groups[0].insert(first[0] + begun, a)
            begun += 1
        else:
            groups[k].append(a)
    pos = tr.pos
    for src in pos.boost_sources():
        if src not in tr.diff and src not in tr.touched:
            continue
        special = pos.card_targets(src)
        if special is not None:
            for t in special:
                a = (cc.BOOST, src, 0, t, pos.cards[src], ())
                if (src,) == tr.diff:
                    groups[0].append(a)
                elif a not in groups[2]:
                    groups[2].append(a)
            continue
        for t in tr.diff + tuple(tr.touched):
            if t != src and pos.is_boost_target(t, src):
                a = (cc.BOOST, src, 0, t, pos.cards[src], ())
                dl = (src, t) if src < t else (t, src)
                if dl == tr.diff:
                    groups[0].append(a)
                elif is_subset(dl, tr.touched) and a not in groups[2]:
                    groups[2].append(a)
    out = tr._order(groups[0][:first[0]]) + tr._order(groups[0][first[0]:first[0] + begun]) + \
        tr._order(groups[0][first[0] + begun:])
    for k in range(1, 4):
        # the moves never seen lead their group whatever the ranking says
        out += tr._order(groups[k][:first[k]]) + tr._order(groups[k][first[k]:])
    return out


def distinct(pos, actions):
    """actions (a question's, in the tracker's order) with those that end in the same
    position as one before them left out: the sensors cannot tell them apart, nor can a
    player on the LEDs (a hop through a wind rose or straight on, onto or past the entry
    portal), and what follows depends only on the position. The first of each is kept: the
    most likely (docs/board-cargocube.md, "Moves that end in the same position"). Two
    actions can end in the same position only if they are of one kind and put the same
    piece (code) from the same cell onto the same cell; the expansions' actions are told
    apart by their direction too (a spiral turn clockwise or back, never alike: else
    compared in every question with a spiral card on the board): each action's key is
    looked for among the ones before it by list.index (in C), and only such pairs are
    compared. A roll, an activation or a keeper's step ends alike whatever its hops, unless
    a catapult threw the cube: Position.push moves the piece and scores from kind, src, dst
    and code alone, and the hops only say which catapult a throw spends
    (tests/cargocube/test_cargocube_tracker_cards.py checks this against the positions).
    The others (a throw, the expansions' actions) are pushed and their positions compared
    as Position.__eq__ does, by the rules' notation (~1.5 KB of heap for a moment with 8
    players; rare: a catapult reached by two hops). Runs when a question is formed, never
    per frame, and allocates the list of keys (and, if some are left out, the list of the
    others) alone. (Here, not in the tracker: loaded only for a question, its code
    is no resident heap.)"""
    n = len(actions)
    if n < 2:
        return actions
    keys = [a[0] | a[4] << 4 | a[1] << 12 | a[3] << 19 |
            (a[2] << 26 if a[0] > cc.STEP else 0) for a in actions]
    out = None  # the ones kept, made at the first left out
    for i in range(1, n):
        k = keys[i]
        j = keys.index(k)
        b = actions[i]
        alike = False
        while j < i and not alike:
            a = actions[j]
            if out is None or a in out:
                alike = a[0] <= cc.STEP and not (a[5] and a[5][-1] >= cc.THROW) and \
                    not (b[5] and b[5][-1] >= cc.THROW)
                if not alike:
                    pos.push(a)
                    try:  # (taken back whatever happens)
                        end = pos.notation()
                    finally:
                        pos.pop()
                    pos.push(b)
                    try:
                        alike = pos.notation() == end
                    finally:
                        pos.pop()
            j = keys.index(k, j + 1)
        if alike:
            if out is None:
                out = actions[:i]
        elif out is not None:
            out.append(b)
    return actions if out is None else out
