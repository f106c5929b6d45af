# The waiting tracker's parts a game seldom needs (waiting.py's WaitingTracker calls them
# through waiting._rare, which loads this module for the call and drops it after, as the hint
# engine is: docs/firmware.md "Loading on demand"): the moves missed shown over every reading
# and their ranking, a late question's ranking, a piece read as down put down after all, the
# console's `readings`, and a resume with a doubt open. Each takes the tracker as t. Moved out
# of waiting.py when revision A's default became wait=2 (stop 51): ~4 KB less of the Pico's
# heap kept for good.

from shared_rules.cargocube import rules as cc
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.tracker import explain


def reading_lines(t):
    """The console's `readings`: `reading I POSITION` for each reading (the tentative one
    first), the position its moves from doubt_at lead to, then `ok N at=PLY` (N = 0, no
    at=, when every move is settled). Made one line at a time, as the candidates."""
    pos = t.pos
    n = len(t.readings)
    if n:
        later = [pos.pop() for _ in range(pos.ply() - t.doubt_at)]
        try:
            for i in range(n):
                r = t.readings[i]
                for a in r:
                    pos.push(a)
                try:
                    line = "reading %d %s" % (i, pos.notation())
                finally:
                    for _ in r:
                        pos.pop()
                yield line
        finally:
            for b in reversed(later):
                pos.push(b)
    yield "ok %d" % n + (" at=%d" % t.doubt_at if n else "")


def offer_hidden(t):
    """The player says a move was missed: the missed moves of every reading are shown, the
    tentative one's first (the move made may be legal on another reading only: a cube
    rolled on from the stack the likeliest reading did not put it on). Where they find no
    room (MemoryError: an expansion's position offers hundreds of moves, a list of them for
    each reading), the tentative reading is put back before the error goes on: the press
    takes nothing (`evt error`), and the board shows what it showed."""
    mine = t.mine
    pending = t.pending
    barred = t.barred
    try:
        lists = [t._offers()]
        for r in t.readings:
            if r != mine:
                t._switch(r)
                lists.append(t._offers())
        # Each reading's likeliest first, then each one's second, ... (the move made is mostly
        # the likeliest of its reading, which may not be the tentative one).
        offers = []
        k = 0
        more = True
        while more:
            more = False
            for one in lists:
                if k < len(one):
                    more = True
                    if one[k] not in offers:
                        offers.append(one[k])
            k += 1
    finally:
        if t.mine != mine:
            t._switch(mine)
        t.pending = pending
        t.barred = barred
    if len(offers) > 1 and mine in t.readings:
        try:
            offers = by_readings(t, offers, lists)
        except MemoryError:
            pass  # (shown in the order above)
    lists = None
    if not offers:
        return False
    t._ask([])
    t.candidates = offers
    t.offered = True
    t._on_shown()  # (the tentative reading may have none: the first is another's)
    return True


def by_readings(t, offers, lists):
    """offers (the missed moves of every reading: lists, the tentative one's first, then
    the others in the readings' order), likeliest first: a move weighs each reading that
    offers it by the reading's weight and by what a player trying to win makes of the move
    there (_weights); ties keep the order given."""
    ws = weights(t, 0, True)
    if ws is None:
        return offers
    rs = t.readings
    mine = t.mine
    at = [rs.index(mine)] + [k for k in range(len(rs)) if rs[k] != mine]
    score = {}
    for j in range(len(lists)):
        w, best, q = ws[at[j]]
        for a in lists[j]:
            s = w * (q + (0.8 if best is not None and best[:5] == a[:5] else 0))
            score[a] = score.get(a, 0) + s
    order = sorted(range(len(offers)), key=lambda k: (-score[offers[k]], k))
    return [offers[k] for k in order]


def likeliest(t, cands, i):
    """cands (the moves where the readings first differ, at i), likeliest first by the moves
    after them too: a move weighs the readings that make it (_weights; ties keep the
    readings' order: MicroPython's sort is not stable)."""
    ws = weights(t, i)
    if ws is None:
        return cands
    weight = [0.0] * len(cands)
    for k in range(len(ws)):
        weight[cands.index(t.readings[k][i])] += ws[k][0]
    order = sorted(range(len(cands)), key=lambda k: (-weight[k], k))
    return [cands[k] for k in order]


def weights(t, i, ends=False):
    """For each reading: (its weight, and with ends the hint's choice where it ends and
    0.2 / the legal moves there). A reading weighs what a player trying to win makes of its
    moves from i (the hint's choice 4 times in 5, else any legal move: the ranking the
    questions use, engine.py, carried past the move in doubt; the moves before i are every
    reading's). The hint engine is loaded for this and dropped after (None without room
    for it); its choice is worked out once for each position the readings share."""
    try:
        from shared_rules.cargocube import engine
    except MemoryError:
        return None
    pos = t.pos
    back = t.mine[i:]
    out = []
    seen = {}  # the moves from i to a position -> (the hint's choice there, 0.2 / legal)
    for _ in back:
        pos.pop()
    try:
        for r in t.readings:
            p = 1.0
            n = 0
            look = None
            try:
                for j in range(i, len(r) + 1 if ends else len(r)):
                    key = tuple(r[i:j])
                    look = seen.get(key)
                    if look is None:
                        look = (engine.best_action(pos),
                                0.2 / max(1, len(pos.legal_actions())))
                        seen[key] = look
                    if j == len(r):
                        break
                    a = r[j]
                    best = look[0]
                    p *= look[1] + (0.8 if best is not None and best[:5] == a[:5] else 0)
                    pos.push(a)
                    n += 1
            finally:
                for _ in range(n):
                    pos.pop()
            out.append((p, look[0], look[1]) if ends else (p,))
    finally:
        for a in back:
            pos.push(a)
        engine = None
        T.unload("shared_rules.cargocube.engine")
    return out


def held(t, occ):
    """Whether occ (a change with the moves after a piece read as down shown) is that piece
    put down after all, on an empty cell (a `confirm` pressed with the piece in the hand):
    one of its own moves from before explains it exactly, and nothing explains it after
    any reading's move of the piece and the move shown (a move played on from there would:
    seed 45's h9w onto a stack, h6n, then h7n onto h8, where h9s alone also explains the
    board; random seed 395's i7e, f5w, then g8e, explained after i7e only). The piece's
    readings are then dropped (nothing of them was logged) and the change is read from
    before them."""
    pos = t.pos
    shown = t.candidates[t.index]
    down = pos.pop()
    expected = bytearray(16)
    after = False  # something explains occ after a reading's move and the move shown
    for r in t.readings:
        pos.push(r[0])
        if shown in pos.legal_actions():
            pos.push(shown)
            T.occupancy(pos, expected)
            diff = T.diff_cells(occ, expected)
            if diff:
                match, growing = explain(pos, pos.legal_actions(False), None, diff, ())
                after = bool(match or growing)
            else:
                after = True
            pos.pop()
        pos.pop()
        if after:
            break
    if not after:
        T.occupancy(pos, expected)
        diff = T.diff_cells(occ, expected)
        if diff:
            for a in explain(pos, pos.legal_actions(False), None, diff, t.barred)[0]:
                if a[1] == down[1]:
                    t._no_doubt([])
                    t.put_down = False
                    t.offered = False
                    t.candidates = []
                    t.state = T.IDLE
                    t._refresh()
                    return True
    pos.push(down)
    return False


def press_undo(t):
    if t.asking_at >= 0 and t.state == T.ASKING:
        return False  # the board needs the answer: a move before the last one is in doubt
    if t.offered and t.state == T.ASKING and t.put_down:
        # Out of the moves offered after a piece read as put down (_put_down): no other
        # move was made; the piece's move (its readings) stays, and an `end` that waited on
        # it ends the turn now.
        end = t.put_down == 2
        t.put_down = False
        t.offered = False
        T.Tracker.press_undo(t)
        if end and t.state == T.IDLE and t.pos.actions_left > 0:
            try:
                t._commit(cc.END_ACTION, "end")
                t._read(True)
            except t.AskFirst:
                t.must_ask = True
            t._after_input()
        return True
    if t.offered and t.state == T.ASKING and t.readings:
        # Out of a missed move shown on the tentative reading: the move made may be legal
        # only on another one. Asked about first.
        T.Tracker.press_undo(t)
        t.must_ask = True
        t._after_input()
        return True
    if not t.readings or t.state == T.ASKING:
        try:
            done = T.Tracker.press_undo(t)
        except t.AskFirst:
            done = True
            t.must_ask = True
        t._after_input()
        return done
    try:
        t._settle_now()
    except t.AskFirst:
        t.must_ask = True
        t._after_input()
        return True
    if not t.readings:
        return press_undo(t)  # (settled meanwhile)
    # A move of the readings taken back: each reading loses its last move.
    action = t.pos.pop()
    t.mine.pop()
    t.hows.pop()
    t.undone.append(action)
    t.barred.append(action)
    t.later = max(0, t.later - 1)
    left = []
    for r in t.readings:
        r = r[:-1]
        if r not in left:
            left.append(r)
    t.pending = []
    t.candidates = []
    t._refresh()
    if not t.mine:
        t._no_doubt([])  # the move in doubt itself: nothing of it is left
    elif len(left) == 1:
        t.readings = left
        t._settle(left[0])
    else:
        t.readings = left
    try:
        t._infer()
    except t.AskFirst:
        t.must_ask = True
    t._after_input()
    return True


def ask_doubt(t):
    rs = t.readings
    i = 0
    first = rs[0]
    n = len(first)
    for r in rs:
        n = min(n, len(r))
    while i < n - 1:
        a = first[i]
        same = True
        for r in rs:
            if r[i] != a:
                same = False
                break
        if not same:
            break
        i += 1
    cands = []
    for r in rs:
        if r[i] not in cands:
            cands.append(r[i])
    if len(cands) > 1:
        cands = t._likeliest(cands, i)
    t.state = T.ASKING
    t.candidates = cands
    t.fitting = len(cands)
    t.index = 0
    t.offered = False
    t.end_offer = False
    t.settling = False
    t.moves = []  # (the pending moves stay: read again after the answer)
    t.targets = []
    t.asking_at = t.doubt_at + i


def answer(t, action):
    i = t.asking_at - t.doubt_at
    t.asking_at = -1
    t.readings = [r for r in t.readings if i < len(r) and r[i] == action]
    if i < len(t.mine) and t.mine[i] == action:
        t.hows[i] = "confirm"
    if len(t.readings) == 1:
        t._settle(t.readings[0])
        t.state = T.IDLE
        picked = t.picked
        t.picked = None
        if picked is not None and picked in t.pos.legal_actions():
            T.Tracker._commit(t, picked, "confirm")
        if t.end_requested and t.end_at_rest:
            # `end` was pressed at rest: the turn ends before what the board shows now
            # (the next move may be under way already)
            t.end_requested = False
            if t.pos.actions_left > 0:
                T.Tracker._commit(t, cc.END_ACTION, "end")
        t.end_at_rest = False
        t._infer()
        if t.end_requested and t.state == T.IDLE:
            # (pressed with a move under way: the turn ends after it)
            t.end_requested = False
            if t.pos.actions_left > 0:
                t._commit(cc.END_ACTION, "end")
                t._infer()
    else:
        if t.mine not in t.readings:
            t._switch(t.readings[0])
        t.state = T.IDLE
        t.must_ask = True  # the next move where they differ


def read_otherwise(t, cells):
    """Whether another reading would read what the sensors saw (cells, read here as one
    move) as more than one move: a move that may have ended on a stack and one more, or,
    where no single move explains it, a move with no trace and one more. (This board would
    read it so, or ask, on that reading: taking one move for every reading would drop the
    one where two were made.)"""
    mine = t.mine
    pending = t.pending
    barred = t.barred
    undone = t.undone_by_next
    held = t.held
    found = False
    try:
        for r in t.readings:
            if r == mine:
                continue
            t._switch(r, True)
            if t.undone_by_next:
                found = True  # (a move erased by the next may be this reading's first)
                break
            complete, partial, _ = t._explain_in_two(t.diff, True)
            if complete or partial:
                found = True
                break
            if not explain(t.pos, t.legal(), t._deltas, cells, ())[0]:
                complete, partial, _ = t._explain_in_two(t.diff, False)
                if complete or partial:
                    found = True
                    break
    finally:
        if t.mine != mine:
            t._switch(mine)
        t.pending = pending
        t.barred = barred
        t.undone_by_next = undone
        t.held = held
    return found


def reopen(game, payload, rank=None):
    """A resumed game's tracker with the doubt its log's last doubt record holds (the plug-in's
    resume: game.pos is the position after the log's records). The log may end inside a
    change of the line (a power cut between the doubt record and the moves after it): the
    record's tentative reading is what the board shows, and the log's line is brought to it
    with the next take_log. ValueError for a payload that does not read."""
    pos = game.pos
    d = payload[0] | payload[1] << 8 if len(payload) >= 4 else -1
    if d < 0 or pos.ply() < d:
        raise ValueError("doubt record at ply %d after %d moves" % (d, pos.ply()))
    logged = []
    while pos.ply() > d:
        logged.insert(0, pos.pop())
    readings = []
    i = 4
    try:
        for _ in range(payload[3]):
            r = []
            k = payload[i]
            i += 1
            try:
                for _ in range(k):
                    a, i = cc.decode_action(pos, payload, i)
                    r.append(a)
                    pos.push(a)
            finally:
                for _ in r:
                    pos.pop()
            readings.append(r)
    except (IndexError, cc.RulesError):
        i = -1
    if i != len(payload) or payload[2] >= len(readings):
        for a in logged:
            pos.push(a)
        raise ValueError("doubt record of %d bytes does not read" % len(payload))
    mine = readings[payload[2]]
    for a in mine:
        pos.push(a)
    t = game.new_tracker(pos, rank=rank)
    if not hasattr(t, "readings"):
        raise ValueError("a doubt record in a game without the option wait=K")
    t.doubt_at = d
    t.readings = readings
    t.mine = list(mine)
    t.hows = ["end" if a[0] == cc.END else "auto" for a in mine]
    t.later = max(0, len(mine) - 1)
    t.logged = logged
    t.doubt_rec = [list(r) for r in readings]
    if len(readings) < 2:
        t._no_doubt(t.mine)
    elif t._one_ended():
        t.must_ask = True
    return t
