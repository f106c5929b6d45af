# The moves the board may have missed, most likely first: what a Cargocube question offers
# after the moves that fit what was seen (tracker.py, Tracker._offers). Loaded for a question
# and dropped after, as the hint engine that ranks them is (docs/firmware.md "Loading on
# demand"): a board that plays keeps neither in its heap.

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
        if dl == tr.diff:
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
        elif k == 0 and a in tr.pending:
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
