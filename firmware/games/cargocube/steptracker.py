# Revision B's reading of the steps (Cargocube): the tracker of tracker.py, which reads
# occupancy, plus the steps a LevelScanner (firmware/drivers/levels.py) reports: each candidate
# predicts its steps from the tracked orientations (steps.py) and must fit what was seen; a
# piece lifted off a stack is a move under way; a landing on a stack must show. The plug-in
# loads this module only on revision B (the heap of revision A never holds it). The inference
# loop (_infer, _explain_in_two) is Tracker's: this class fills in its hooks (_evidence,
# _quiet, _by_evidence, _nudged, _sure, _noise, _under_way, _fits_two).

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from firmware.games.cargocube import steps as ST
from firmware.games.cargocube.tracker import Tracker, ASKING, IDLE, SETTLE_MS, action_delta, \
    passes_portal, packed_delta, _find_all


# A move that fits the steps is taken only if every other with the same occupancy change misses
# them by more than this many times the still tolerance (else the board asks).
DOUBT_SCALE = 3
# ... unless the one that fits beats each of them by this much in steps.score (sixteenths of a
# squared noise unit: two squared units, a miss of 1.4 noise units at one cell; 4 asked more and
# took no fewer wrong moves: none in 800 bench games either way).
SCORE_MARGIN = 2 * 16
# The cells around a move (steps.around, the best one left out) show its lift when they fit it
# better than nothing by this much, its landing when they fit it better than its lift alone
# (the piece in the hand), and rule out a landing its own cell shows when the lift alone fits
# them better by as much: one squared noise unit. (Before the empty cells were read, half a
# unit took a wrong move in 100 bench games, and one and a half read 0.7 % fewer actions with
# no button at 0.5 mm.)
AROUND_MARGIN = 16


def _shows_landing(p, v, t):
    """Whether a step v (beside what the lift changes there) shows a landing predicted to make
    p, t the cell's still tolerance: the landing must make more than twice it, and v be nearer
    to p than to nothing (a piece still in the hand leaves the cell as it was, give or take
    the noise; a cube under the hand may shift, so the step itself may be off by much)."""
    if p > 2 * t:
        return v > 2 * t and 3 * v > p
    if p < -2 * t:
        return v < -2 * t and 3 * v < p
    return False


class StepTracker(Tracker):
    def __init__(self, pos, levels, settle_ms=SETTLE_MS, rank=None):
        self.levels = levels
        self._pcache = {}  # action (or lifted cell) -> its predicted steps, per position
        # (and (action, 0) -> _on_the_way(action))
        self.noise = []  # cells whose steps fit no move and held still (a nudged stack)
        self.noise_levels = []  # their levels then
        self.absorbed = {}  # {cell: step} noise the baseline took over when the board moved on
        self.uncertain = []  # cells whose baseline waits for the board to be idle
        self.loose = []  # explanations that fit only with a stack nudged
        self.unshown = []  # moves that fit the steps but did not show their lift, or show nothing
        # pending moves whose cells stale noise made uncertain: the board can no longer read
        # whether they were put back (see _noise_stale), until the position changes
        self.masked = []
        self._undoing = False  # press_undo is taking an action back (see _refresh)
        # something moved since the last action was taken: a change of occupancy or a field
        # beyond its still tolerance (observe); acked: the action a `confirm` with nothing
        # moved since showed as taken (press_confirm)
        self.stirred = False
        self.acked = None
        # the board's own question, left unanswered: the moves it asked about that fit, each
        # alone (_ask);
        # paired: those of them a read found followed by a legal move that explains the
        # occupancy, paired_fit: those whose pair fits the steps too (_fits_two)
        self.asked = []
        self.paired = []
        self.paired_fit = []
        levels.rebase()  # a game's start: the fields as they are are the baseline
        # what the cells read when the tracker last took a change in (observe) or a question
        # was shown (_ask): steps within their noise of it are no change (_moved)
        self._seen = levels.level[:]
        Tracker.__init__(self, pos, settle_ms, rank)

    def observe(self, occ, now_ms=0):
        """Tracker.observe; the plug-in gives the same occupancy again when only the steps the
        level scanner reports changed. Steps that stay within their noise of what the cells
        read when the tracker last took a change in (_moved) are not a change: a cell next to
        an ADC spike reads a little different every few frames. With a question shown the
        question stays as it is (each such reading took a missed move shown at once, or made
        a question the board asked go and come again, its `next` presses lost); else the steps
        are read again, but the board has been still since that change: a move that waits to
        settle is taken settle_ms after it, not after the last such reading (which came every
        0.1-0.3 s and held moves for over a second, past the player's patience)."""
        # (_moved, 0.35 ms on the Pico for the 121 cells, is looked at where it matters: a
        # question, the wait for stillness, and at rest until something moves after a move
        # was taken (stirred: what a `confirm` then shows); about once every two actions in
        # the bench's games, not every frame)
        if occ == self.occ and (self.state == ASKING or self.settling) and not self._moved():
            if self.state == ASKING:
                return 0
            still_since = self.changed_at
            taken = Tracker.observe(self, occ, now_ms)
            self.changed_at = still_since
            return taken
        if not self.stirred and (occ != self.occ or self._moved()):
            self.stirred = True
            self.acked = None
        self._seen[:] = self.levels.level
        self._noise_stale()
        return Tracker.observe(self, occ, now_ms)

    def _moved(self):
        """Whether a cell reads further from what it read when the tracker last took a change
        in (_seen) than its still tolerance (something moved)."""
        level = self.levels.level
        seen = self._seen
        if level == seen:  # (compared in C: a jittering cell is often back where it was)
            return False
        rough = self.levels.rough
        t = ST.TOL_STILL  # (the least still tolerance: most cells are passed over with it)
        for c in range(g.N_CELLS):
            d = level[c] - seen[c]
            if d < 0:
                d = -d
            if d > t and d > ST.still(c, rough):
                return True
        return False

    def _hold(self, actions):
        """Tracker._hold; a move waiting to settle may be built on by the next before it is
        taken (the next one lifts what it put down): it counts as pending."""
        Tracker._hold(self, actions)
        for a in actions:
            if a not in self.pending:
                self.pending.append(a)

    def _commit(self, action, how):
        if action[0] != cc.END:
            self._explain_levels(action)  # the baseline moves by what it changed
        Tracker._commit(self, action, how)
        self.stirred = False
        self.acked = None
        self.asked = []

    def press_confirm(self):
        """Tracker.press_confirm; but at rest with nothing moved since the board took its last
        action, the first `confirm` shows that action as taken (acked; the plug-in lights it
        green) and offers nothing: revision B takes most moves onto and off stacks itself,
        and a player used to revision A presses `confirm` after them. The press had shown
        another move the board might have missed, and playing on took it: a move nobody made,
        nothing red (the messy-hands audit, stop 38). The sensors cannot tell that press from
        one for a move that changed no field beyond the noise (a third level's steps), so a
        second `confirm` offers the missed moves as ever: one press more for such a move."""
        if self.state == IDLE and not self.stirred and self.acked is None and self.pos.ply() \
                and not self.undone:
            self.acked = self.pos.history()[-1]  # (`end` too: the plug-in shows the turn's)
            return True
        self.acked = None
        return Tracker.press_confirm(self)

    def _ask(self, actions, match=None):
        """Tracker._ask (the moves asked about stay pending: a wind rose hop back onto its own
        cell shows little beside the next move's steps, and random play at 1 mm took
        c10e/e10/f9 without c10e/c10 when they did not); and the moves of the open question
        kept for a question shown again (asked)."""
        again = self.asked
        for a in actions:
            if a not in again:
                again = None  # (a new question)
                break
        Tracker._ask(self, actions)
        # (those that explain the board alone: one followed by a move is a new move played on,
        # not the reading the board asked about, by one move and the next, read again; but a
        # question shown again, its moves all the open question's, keeps them: else the next
        # reading, the hand still putting the new move's piece down or a further move, found
        # no question left open and showed red)
        self.asked = [a for a in self.pending if a in again] if again else \
            [a for a in self.pending if action_delta(self.pos, a) == self.diff]
        self._seen[:] = self.levels.level  # the question stays until something moves (observe)

    def press_undo(self):
        self._settle_now()  # (before _undoing: the move it takes is no take-back)
        self.acked = None
        self.asked = []  # (backed out of the question: none of its moves was made)
        self._undoing = True  # (_refresh, after the pop, moves the baseline back)
        try:
            return Tracker.press_undo(self)
        finally:
            self._undoing = False


    def _noise_settled(self, steps):
        """The board has been still with steps that fit no legal move (a stack nudged): they
        stay unexplained while the player may still say with `confirm` that a move was made.
        (The cells of moves taken late stay uncertain: the unexplained move may be under way
        there too.)"""
        self.noise = list(steps)
        level = self.levels.level
        self.noise_levels = [level[c] for c in self.noise]  # what they read, still

    def _noise_stale(self):
        """Something moves again after the board stood still with noise: the noise is part of
        what those cells read now. Where a pending move may have shown, its steps say nothing of
        the new move (else a nudge before it is read as its evidence) until the board is idle
        and they are rebased; elsewhere what the cells read while still is their baseline now,
        and the new move's steps are read from it (else it goes unseen there). The noise the
        baseline took over is kept in `absorbed`, for a missed move the player confirms."""
        if self.noise:
            near = []  # the cells of the pending moves
            for a in self.pending:
                pred, hand = self._pred(a)
                mine = list(pred) + list(hand)
                near += mine
                if a not in self.masked:
                    for c in self.noise:
                        if c in mine:
                            # its steps are hidden from now on: when the board looks at rest
                            # again it cannot tell the move was put back, so the next move
                            # is not taken alone (else, if it was made, the board loses it)
                            self.masked.append(a)
                            break
            base = self.levels.base
            absorbed = {}
            back = {}
            for i in range(len(self.noise)):
                c = self.noise[i]
                if c in near:
                    if c not in self.uncertain:
                        self.uncertain.append(c)
                else:
                    absorbed[c] = self.noise_levels[i] - base[c]
                    back[c] = -absorbed[c]
            self.levels.shift_base(back)
            self.absorbed = absorbed
            self.noise = []
            self.noise_levels = []

    def _refresh(self):
        if self._undoing:
            # an action was just taken back: the baseline as once the piece is back
            self._undoing = False
            self._unexplain_levels(self.undone[-1])
        Tracker._refresh(self)
        self._pcache = {}
        self.masked = []

    # -- Tracker's hooks: its inference loop (_infer, _explain_in_two) with the steps --------

    def _evidence(self, diff, may_commit):
        """Tracker._evidence: the steps; with no diff and steps too small to be anything a hand
        did (drift, a slight nudge), None (at rest): they, and the cells of moves taken late,
        become the baseline once the board is still."""
        steps = self._steps(diff)
        if diff or steps and ST.significant(steps, self.levels.rough):
            return steps
        if steps or self.uncertain:
            if may_commit:
                self.levels.rebase(list(steps) + self.uncertain)
                self.uncertain = []
            else:
                self.settling = True
        return None

    def _quiet(self, pos, legal, deltas, barred):
        """Tracker._quiet: tracker.explain() with nothing seen but steps (no occupancy changed):
        the actions that change no occupancy (not `end`, not barred), none under way."""
        if deltas is not None:
            look = []
            _find_all(deltas[0], b"\x00", look)
        else:
            look = range(len(legal))
        match = []
        for i in look:
            a = legal[i]
            if a[0] != cc.END and a not in barred and (
                    deltas[1][i] == 0 if deltas is not None else packed_delta(pos, a) == 0):
                match.append(a)
        return match, []

    def _nudged(self, diff, steps, fits, growing, airborne):
        """Tracker._nudged: the explanations that would fit with a stack nudged next to the hand
        (a step that fits no legal move is noise), if they have landed; else they wait."""
        rough = self.levels.rough
        for a, pred in self.loose:
            if self._landed(a, pred, steps, diff, rough):
                fits.append(a)
            elif a not in airborne:
                airborne.append(a)
                growing.append(a)

    def _sure(self, fits, match):
        """Tracker._sure: a reading by two moves, or beside a move that hid its lift, is asked
        for (the steps of two moves leave too much room for the noise), and so is any move
        while a pending one's steps were masked (_noise_stale); those moves are among the
        choices. But a question the board asked and the player left to play on: when the new
        move's trace fits one of its moves alone followed by a legal move (by occupancy, and
        by the steps too) and nothing else, that one is taken, and the new move is read after
        it (the player plays on as after a move taken)."""
        if len(fits) == 1 and not self.unshown and not self.masked and (
                fits[0] in match or fits[0] not in match and self.paired == fits and
                self.paired_fit == fits):
            return True
        fits += [a for a in self.unshown + self.masked if a not in fits]
        return False

    def _noise(self, steps, may_commit):
        """Steps only, and no legal move fits them: noise (a stack nudged, drift). They stay
        unexplained while the board is still (the player may say with `confirm` that a move was
        made); the baseline takes them over when something next moves (_noise_stale)."""
        if may_commit:
            self._noise_settled(steps)  # still for settle_ms: it is what the board reads
        else:
            self.settling = True

    def _pred(self, a):
        """Revision B: (predicted steps, hand cells) of action a in the position, cached."""
        r = self._pcache.get(a)
        if r is None:
            r = (ST.predict(self.pos, a), ST.hand_cells(self.pos, a))
            self._pcache[a] = r
        return r

    def _lift(self, c):
        """Revision B: the predicted steps of lifting the top off cell c, cached."""
        r = self._pcache.get(c)
        if r is None:
            r = ST.predict_lift(self.pos, c)
            self._pcache[c] = r
        return r

    def _steps(self, diff):
        """Revision B: {cell: step} the level scanner reports, but at cells whose occupancy
        differs from the position's (that is occupancy evidence) or that are uncertain. An
        empty cell's sensor sees its neighbours' pieces come and go as well as an occupied
        one's, and no hand shifts anything on it."""
        lv = self.levels
        out = {}
        unsure = self.uncertain
        for c in lv.cells:
            if c not in diff and c not in unsure:
                out[c] = lv.level[c] - lv.base[c]
        return out

    def _by_evidence(self, diff, steps, match, growing):
        """Tracker._by_evidence: (fit, growing, airborne): the one-action explanations (match) whose
        predicted steps fit, allowing a nudged stack next to the hand only when none fits as it
        is; the moves under way (growing) whose start fits, plus the moves off a stack whose top
        was lifted; and the fitting ones whose landing on a stack does not show yet (airborne,
        also under way), with the pending moves back onto their own cell (kept pending only)."""
        if self.paired:  # (a new read: _fits_two fills them again; paired_fit is in paired)
            self.paired = []
            self.paired_fit = []
        pos = self.pos
        rough = self.levels.rough
        ignore = diff + tuple(self.uncertain)  # cells whose steps say nothing now
        fit = []
        self.loose = []
        loose = self.loose
        doubt = []  # fit neither, but only by a margin the noise may make: not ruled out
        unseen = []  # fit, but change no field the sensors can tell from nothing
        for a in match:
            if not diff and not ST.supported(ST.hand_cells(pos, a), steps, rough):
                continue  # (before its prediction: the heap keeps few of them)
            pred, hand = self._pred(a)
            if not diff and not ST.significant(pred, rough):
                # It changes no field beyond what the sensors tell from nothing (a biohazard
                # moved from cube to cube: its card, a cube up, makes 0.10 mT, less than the
                # cube below shifts): seen by its steps alone it would be any step its hand
                # made, so it is never taken so; but if it fits, its hand may have made the
                # steps another move explains: nothing is taken for sure beside it.
                if ST.fits(pred, hand, steps, ignore, 0, rough):
                    unseen.append(a)
                continue
            if ST.fits(pred, hand, steps, ignore, 0, rough):
                fit.append((a, pred))
                continue
            if ST.fits(pred, hand, steps, ignore, 1, rough):
                loose.append((a, pred))
            # (one that fits with a nudged stack is not ruled out beside one that fits as it
            # is either, if the noise may explain it)
            if ST.fits(pred, hand, steps, ignore, 0, rough, DOUBT_SCALE) and (
                    diff or self._lifted(a, pred, steps, diff, rough)):
                doubt.append((a, pred))
        if fit:
            # a move fits as it is (whether or not it shows at both ends yet): the reading
            # that needs a nudged stack is no explanation beside it
            self.loose = []
        elif not diff:
            # seen in the steps alone, a nudged reading must show where it came from too
            self.loose = [x for x in loose if self._lifted(x[0], x[1], steps, diff, rough)]
        if self.loose:
            # a nudge explains one; the noise may explain another
            self.loose += [x for x in doubt if x not in self.loose]
        # A move whose landing on a stack should show and does not: the piece may still be in
        # the hand. It waits (and is pending: the landing may be hidden by a shifted cube).
        done = []
        airborne = []
        hands = []
        self.unshown = unseen
        for a, pred in fit:
            if not diff and not self._lifted(a, pred, steps, diff, rough):
                # seen in the steps alone, it must show at both ends (a stack nudged where a
                # top could land is not a whole move); but as it fits, nothing else is taken
                # for sure beside it (the bottom cube's shift may hide its lift)
                self.unshown.append(a)
                continue
            if not self._landed(a, pred, steps, diff, rough):
                airborne.append(a)
                continue
            done.append(a)
            for c in self._pred(a)[1]:
                if c not in hands:
                    hands.append(c)
        if done and (doubt or len(done) > 1):
            # the steps decide only if every other move is out by more than the noise makes
            # (a bottom cube shifted under the hand moves its neighbours' fields too): one
            # that fits explains every cell better than the rest by a clear margin
            done = self._clear_best(done, doubt, steps, ignore, rough)
        if diff and len(done) == 1 and done[0][1] in self.uncertain:
            # its source's steps say nothing now (a move taken late there): the cells around
            # do not tell it from another move that changes the same occupancy, whose lift
            # may be what that cell hides (random play at 1 mm took a roll for a keeper's step)
            for a in match:
                if a not in done and a[0] != cc.END:
                    done.append(a)
        fit = done
        grow = list(airborne)
        lifted = []
        ok = {}
        for a in growing:
            src = a[1]
            if src in diff and a[0] != cc.BOOST and not passes_portal(pos, a):
                # a piece lifted off its cell (it emptied): nothing else may have stepped
                if src not in ok:
                    ok[src] = ST.fits(self._lift(src), (src,), steps, ignore, 0, rough)
                if not ok[src] and not self._stops_on(a, done + airborne):
                    continue
            elif self._tip_unseen(a, diff, steps):
                continue
            grow.append(a)
        for c in steps:
            t = ST.still(c, rough)
            if c in lifted or (-t <= steps[c] <= t):
                continue
            if c in hands and not self._pending_from(c):
                # (a landing there explains the step; but where the board saw a move from c
                # under way, the same step may be c's top in the hand: the sign of a landing
                # and of a lift depend on the cubes' orientations, and may agree)
                continue
            # a piece lifted off the stack on c: its step, whatever the hand did to the cube
            # below, and nothing else that the lift does not explain
            pred = self._lift(c)
            if c not in pred or not ST.fits(pred, (c,), steps, ignore, 0, rough):
                continue
            lifted.append(c)
            if c in hands:
                for x in self.pending:  # seen under way, its piece maybe still in the hand:
                    if x[1] == c and x not in airborne:  # it waits
                        airborne.append(x)
        if not diff and not lifted and not grow and not fit:
            self._hidden_lift(steps, ignore, rough, lifted)
        if lifted:
            for a in self.legal():
                if a[1] in lifted and a[0] != cc.END and a not in grow:
                    grow.append(a)
        if fit:
            # the moves from the same source that pass where a fitting one lands may be under
            # way, their piece resting there between hops (a wind rose over a stack)
            for a in self.legal():
                if a[0] != cc.END and a not in grow and a not in fit and \
                        self._stops_on(a, fit):
                    grow.append(a)
        for a in self.pending:
            if a in fit or a in airborne:
                continue
            if a[1] == a[3]:
                # A move back onto its own cell (a wind rose hop) changes no occupancy and its
                # step may be tiny (a turned cube, its bottom cube shifted under the hand): seen
                # under way, it stays pending whatever the steps (a small one, the next move's
                # beside it), so the next move is read with it first too (else taken alone).
                airborne.append(a)
            elif a[1] in diff and a[3] not in diff and self._on_the_way(a):
                # It was seen landed on a stack and waited, as a longer move from its source
                # may rest there between hops (a wind rose); its piece has gone on: that may be
                # the rest of the longer move or the next move from where this one ended. It
                # stays pending, so that the longer move, if it fits, is read beside this one
                # and a second move after it (else taken alone: the two may look the same).
                airborne.append(a)
        return fit, grow, airborne

    def _hidden_lift(self, steps, ignore, rough, lifted):
        """Steps alone that nothing else explains: a top lifted off a stack whose own cell
        does not show it (the hand shifted the cube below by as much: its step is within the
        still tolerance) shows at the cells around, which see the top's magnet go
        (field.NEAR), and a shift of the cube below moves them by a few hundredths at most.
        The stacks next to a step beyond the still tolerance whose lift fits the steps and
        explains the cells around better than nothing by SCORE_MARGIN (the cell that gains
        most left out, as for a spiral turn) are added to lifted. Else those steps were
        noise, which the baseline took over once the hand moved on, and the move, landing,
        showed at its far end only (random «Бастион» play, seed 339 at 0.5 mm: f8w's lift
        hidden so, then taken as f9w/e8)."""
        stacks = self.pos.stacks
        cards = self.pos.cards
        seen = []
        for s in steps:
            t = ST.still(s, rough)
            if -t <= steps[s] <= t:
                continue
            for c in g.around(s):
                if c in seen:
                    continue
                seen.append(c)
                n = len(stacks[c])
                if c in ignore or not (n > 1 or n and cards[c]):
                    continue  # (a lone piece lifted empties its cell: occupancy shows it)
                v = steps.get(c, 0)
                t = ST.still(c, rough)
                if v > t or v < -t:
                    continue  # (its own step was read as a lift, or not, above)
                pred = self._lift(c)
                if ST.fits(pred, (c,), steps, ignore, 0, rough) and \
                        ST.around(pred, (c,), steps, ignore, rough) >= SCORE_MARGIN:
                    lifted.append(c)

    def _on_the_way(self, a):
        """Whether a longer move from a's source may rest, between hops, where a lands (cached
        per position, beside the predictions: the moves' paths cost ~1 ms each on the board)."""
        key = (a, 0)
        r = self._pcache.get(key)
        if r is None:
            r = False
            for f in self.legal():
                if f[1] == a[1] and f[3] != a[3] and f[0] != cc.END and \
                        self._stops_on(f, (a,)):
                    r = True
                    break
            self._pcache[key] = r
        return r

    def _pending_from(self, c):
        for x in self.pending:
            if x[1] == c:
                return True
        return False

    def _tip_unseen(self, a, diff, steps):
        """Whether a, under way, would be a cube (or keeper) tipped over its edge onto its new
        cell, its old cell still occupied, and that cell's field has not moved beyond what a
        shifted cube makes: a tipped piece's magnet is far off its own sensor."""
        src = a[1]
        return src not in diff and src not in self.uncertain and \
            -ST.TOL_HAND <= steps.get(src, 0) <= ST.TOL_HAND

    def _shown_again(self, diff):
        """Tracker._shown_again: the moves of the board's question left unanswered whose cells
        still differ, or that a legal move after them explained the occupancy with (paired:
        their piece may have gone on): the question is shown again, not a mistake (at 30 %
        bumps and 1 mm the legal move played after it read as one: the steps ruled the pair
        out)."""
        back = []
        for a in self.asked:
            if a in self.paired:
                back.append(a)  # (its piece may have gone on: the pair explained the cells)
                continue
            for c in action_delta(self.pos, a):
                if c not in diff:
                    break
            else:
                back.append(a)
        return back

    def _under_way(self, moves, diff, steps):
        """Tracker._under_way: the moves under way (a second move's, after a first) but the
        tipped ones that do not show (_tip_unseen)."""
        return [a for a in moves if not self._tip_unseen(a, diff, steps)]

    def _clear_best(self, done, doubt, steps, ignore, rough):
        """done (moves that fit and show at both ends) and doubt ((move, pred) that miss by no
        more than the noise may make): [the one of done whose summed noise score (steps.score)
        beats every other's by SCORE_MARGIN], else all of them (the board asks)."""
        scored = []
        for a in done:
            pred, hand = self._pred(a)
            scored.append((ST.score(pred, hand, steps, ignore, rough), a))
        for a, pred in doubt:
            scored.append((ST.score(pred, self._pred(a)[1], steps, ignore, rough), a))
        best = scored[0]
        for x in scored:
            if x[0] < best[0]:
                best = x
        out = [best[1]]
        clear = best[1] in done
        pred, hand = self._pred(best[1])
        for x in scored:
            if x is not best:
                out.append(x[1])
                if clear:
                    p2, h2 = self._pred(x[1])
                    if ST.lead(pred, hand, p2, h2, steps, ignore, rough) < SCORE_MARGIN:
                        clear = False
        return out[:1] if clear else out

    def _stops_on(self, a, fits):
        """Whether the move under way a may have its piece resting, on its way, where one of
        the fitting moves lands (from the same source): a cube set down on a stack between the
        hops of a wind rose looks like a move that ends there. A spiral turn puts nothing
        down: no move rests where it ends."""
        path = None
        for f in fits:
            if f[1] == a[1] and f != a and f[0] != cc.TURN:
                if path is None:
                    path = cc.action_path(self.pos, a)
                if f[3] in path:
                    return True
        return False

    def _lifted(self, a, pred, steps, diff, rough):
        """Revision B: whether the lift of action a's piece shows where it came from: its cell
        emptied (occupancy), or the field there moved (either way: the hand may have shifted
        the cube below). A stack nudged where a top could land shows at one end only: it must
        not pass for a whole move."""
        src = a[1]
        if a[0] == cc.TURN:
            return self._turn_shows(a, pred, steps, diff, rough)
        if src in diff or src == a[3]:
            return True
        if src in self.uncertain:
            # its steps say nothing now: the lift cannot be seen, and a move seen at its far
            # end alone is not a whole move (that end may show a stack nudged before)
            return False
        p = pred.get(src, 0)
        v = steps.get(src, 0)
        t = ST.still(src, rough)
        if -2 * t <= p <= 2 * t:
            return True  # it shows too little there to ask for
        # the cube below may have shifted under the hand and hidden the lift there: the cells
        # around that only the source changes for show it then (a 2-stack's top leaving), or
        # the cells around both ends together (a roll's ends are neighbours: they share most)
        return v > t or v < -t or \
            self._end_shows(pred, self._pred(a)[1], steps, diff, rough, src, a[3]) or \
            ST.around(pred, self._pred(a)[1], steps, diff + tuple(self.uncertain),
                      rough) >= AROUND_MARGIN

    def _turn_shows(self, a, pred, steps, diff, rough):
        """Revision B: whether a spiral turn shows. It turns the stack's magnets about the
        vertical: its own sensor sees no change but the hand's shift, its neighbours see the
        magnets' horizontal part turn (up to 0.39 mT). It shows only when those cells fit it
        better than nothing by SCORE_MARGIN, the cell that gains most left out (one stack
        nudged beside it must not make a turn), and its own cell's steps are readable. The
        other turn and every other move are told from it by the fit and the score margins."""
        if a[1] in self.uncertain:
            return False  # a move taken late there: the hand may still be at it
        return ST.around(pred, self._pred(a)[1], steps, diff + tuple(self.uncertain),
                         rough) >= SCORE_MARGIN

    def _landed(self, a, pred, steps, diff, rough):
        """Revision B: whether the piece of action a (predicted steps pred) is seen to have
        landed: on an empty cell (occupancy), or on something: the landing, beside what the
        lift alone changes there (a neighbour's top leaving), predicted and seen with its sign.
        Else it may still be in the hand."""
        dst = a[3]
        if dst in diff or a[0] == cc.TURN:
            return True  # (a spiral turn lifts nothing: it has shown once _lifted says so)
        if dst in self.uncertain:
            return False  # its steps say nothing now
        lift = self._lift(a[1]).get(dst, 0)
        p = pred.get(dst, 0) - lift
        v = steps.get(dst, 0) - lift
        if dst == a[1]:
            # Back where it came from (a wind rose hop): what it does there beside the lift is
            # within the hand's noise unless it turned the cube's magnet over (hundreds).
            t = 2 * ST.TOL_HAND
            return (p > t or p < -t) and -ST.TOL_HAND <= v - p <= ST.TOL_HAND
        if _shows_landing(p, v, ST.still(dst, rough)):
            # its own cell shows it, unless the cells around say the piece is still in the
            # hand (a stack nudged where it could land, the piece resting on a wind rose)
            return ST.around(pred, self._pred(a)[1], steps, diff + tuple(self.uncertain),
                             rough, self._lift(a[1]), True) > -AROUND_MARGIN
        if dst != a[1] and self._end_shows(pred, self._pred(a)[1], steps, diff, rough, dst,
                                           a[1]):
            return True
        # the cube below may have shifted under the hand and hidden the landing there: the
        # cells around both ends fit the whole move better than its lift alone (in the hand);
        # but a step there against the landing's sign says the cell saw something else
        t = ST.still(dst, rough)
        if (p > 0 and v < -t) or (p < 0 and v > t):
            return False
        return ST.around(pred, self._pred(a)[1], steps, diff + tuple(self.uncertain), rough,
                         self._lift(a[1])) >= AROUND_MARGIN

    def _end_shows(self, pred, hand, steps, diff, rough, end, other):
        """Revision B: whether an action (predicted steps pred, hand cells hand) shows at its
        end cell `end`: the cells that see `end` but not `other` (the move's far end) are
        explained better by it than by nothing having happened there, by SCORE_MARGIN
        (steps.score's units). A bottom cube shifted under the hand can hide the own cell's
        step; the neighbours see the piece that came or went, not the shift."""
        unsure = self.uncertain
        gain = 0
        for c in pred:
            if c not in diff and c not in unsure and ST.next_to(c, (end,)) and \
                    not ST.next_to(c, (other,)):
                v = steps.get(c, 0)
                gain += ST.miss(c, v, hand, rough) - ST.miss(c, v - pred[c], hand, rough)
        return gain >= SCORE_MARGIN

    def _fits_two(self, a1, seconds, rest, steps, diff):
        """Whether the first move a1 and one of the second moves (legal after it; rest: the
        diff left to them) together fit the steps. A second that lands on something must be
        seen to, as a single move must. The seconds are predicted one at a time, a1 pushed,
        until one fits; those that cannot are passed over unpredicted (a prediction takes
        milliseconds on the board): where a1 alone does not fit the steps, the second must
        change the field (next to its ends) or work with the hand.
        A first move of the board's question left unanswered, a move played since (asked:
        its steps fitted only with a stack nudged next to the hand, or did not decide), is
        noted in paired, and in paired_fit if the pair fits; the pair may have that nudge too
        (at 30 % bumps and 1 mm, the legal move played on after such a question read as a
        mistake)."""
        asked = a1 in self.asked and a1 in self.pending and action_delta(self.pos, a1) != diff
        if asked and a1 not in self.paired:
            self.paired.append(a1)
        pred1, hand1 = self._pred(a1)  # (in the position before a1: pushed below)
        rough = self.levels.rough
        ignore = diff + tuple(self.uncertain)
        # the cells a1 alone does not explain: the second must change their fields or work
        # there with the hand (else, however it is predicted, the two do not fit)
        far = []
        for c in pred1:
            if c not in ignore:
                d = steps.get(c, 0) - pred1[c]
                t = ST.tol(c, hand1, rough)
                if d > t or d < -t:
                    far.append(c)
        for c in steps:
            v = steps[c]
            t = ST.still(c, rough)
            if (v > t or v < -t) and c not in ignore and c not in pred1 and c not in hand1:
                far.append(c)
        left = None  # the steps less a1's, for the seconds' landings (made when needed)
        pos = self.pos
        pos.push(a1)
        try:
            lifts = {}  # source -> its lift's steps (seconds from one source share it)
            for a2 in seconds:
                hand2 = None
                if far and not asked:
                    ends = (a2[1], a2[3])
                    hand2 = ST.hand_cells(pos, a2)
                    missed = False
                    for c in far:
                        if c not in hand2 and not ST.next_to(c, ends):
                            missed = True
                            break
                    if missed:
                        continue
                pred2 = ST.predict(pos, a2)
                if hand2 is None:
                    hand2 = ST.hand_cells(pos, a2)
                d2 = a2[3]
                lift = None  # set when only the cells around may show the landing
                if d2 not in rest:
                    # It lands on something: it must be seen to, as a single move must
                    # (_landed), in the steps a1 leaves: at its own cell, or else (checked
                    # only if the pair fits: it costs milliseconds) in the cells around it.
                    # No veto: a pair that fits is only ever a reason to ask.
                    if d2 in self.uncertain:
                        continue
                    lp = lifts.get(a2[1])
                    if lp is None:
                        lp = lifts[a2[1]] = ST.predict_lift(pos, a2[1])
                    if left is None:
                        left = dict(steps)
                        for c in pred1:
                            left[c] = left.get(c, 0) - pred1[c]
                    lv = lp.get(d2, 0)
                    p = pred2.get(d2, 0) - lv
                    v = left.get(d2, 0) - lv
                    t = ST.still(d2, rough)
                    if not _shows_landing(p, v, t):
                        if d2 == a2[1]:
                            continue
                        lift = lp
                # (the nudge only for another piece's move: a1's piece gone on may be the
                # hand not done, which one move with the nudge explains too, _nudged, and
                # that is read only when nothing fits: the pair must not stand alone)
                if not ST.fits_two(pred1, hand1, pred2, hand2, steps, ignore, rough,
                                   1 if asked and a2[1] != a1[3] else 0):
                    continue
                if lift is None or \
                        self._end_shows(pred2, hand2, left, diff, rough, d2, a2[1]) or \
                        not ((p > 0 and v < -t) or (p < 0 and v > t)) and \
                        ST.around(pred2, hand2, left, ignore, rough, lift) >= AROUND_MARGIN:
                    if asked and a1 not in self.paired_fit:
                        self.paired_fit.append(a1)
                    return True
            return False
        finally:
            pos.pop()

    def _explain_levels(self, action):
        """action is being committed: what it changed is explained, the baseline moves by it.
        Where the hand worked the bottom cube may have shifted: if the action alone explains
        what the board shows, the baseline takes the level over there; else (a move taken late,
        other moves since) those cells wait until the board is idle again."""
        pos = self.pos
        pred, hand = self._pred(action)
        filled = action_delta(pos, action)
        diff = self._diff()
        ignore = diff + tuple(self.uncertain)
        steps = self._steps(diff)
        absorbed = self.absorbed
        self.absorbed = {}
        if ST.fits(pred, hand, steps, ignore, 0, self.levels.rough):
            self.levels.explain(pred, hand, True, filled)
            if self.noise:
                # steps taken for noise that this move explains were its evidence (a move the
                # board could not read, confirmed): else the next move there goes unseen
                self.noise = [c for c in self.noise if c not in pred and c not in hand]
        elif absorbed and not filled and ST.fits(pred, hand, absorbed, ignore, 0,
                                                 self.levels.rough):
            # its steps were the noise the baseline took over when the board moved on (the
            # player confirms a move the board could not read): the baseline is after it
            pass
        else:
            # Taken without its own evidence (late, or other moves since): which part of what
            # the board shows there is this move's is unknown. Its cells say nothing until the
            # board is idle again (then the baseline takes them over); nor do the steps next to
            # its hand that it does not explain (a stack the hand nudged: else the next move
            # may be read into them).
            self.levels.explain({}, (), False, filled)
            near = [c for c in steps if c not in pred and ST.next_to(c, hand)]
            for c in list(pred) + list(hand) + list(filled) + near:
                if c not in self.uncertain:
                    self.uncertain.append(c)

    def _unexplain_levels(self, action):
        """action was taken back: the baseline becomes what the board reads once the piece is
        back."""
        self.levels.shift_base(ST.predict(self.pos, action))
