# The moves the board may have missed, most likely first: what a Cargocube question offers
# after the moves that fit what was seen (tracker.py, Tracker._offers). Loaded for a question
# and dropped after, as the hint engine that ranks them is (docs/firmware.md "Loading on
# demand"): a board that plays keeps neither in its heap.

from shared_rules.cargocube import rules as cc


def offers(tr, cells, is_subset):
    """For the tracker tr: those that explain the whole difference, those pending, those within
    the cells touched lately (a move whose trace a later move undid), those that leave no trace
    at all (onto and off stacks); spiral turns and biohazard moves (never seen) first in each
    group, each part ranked by tr._order. cells(deltas, i) and is_subset(small, big) are the
    tracker's helpers."""
    legal = tr.legal()
    deltas = tr._deltas
    groups = ([], [], [], [])
    first = [0, 0, 0, 0]  # spiral turns and biohazard moves lead each group
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
    out = []
    for k in range(4):
        # the moves never seen lead their group whatever the ranking says
        out += tr._order(groups[k][:first[k]]) + tr._order(groups[k][first[k]:])
    return out
