# КУБитва engine: the board's hint and an opponent on the PC (docs/rules/kubitva.md, "Engine").
#
# A planner, not a search: a turn of КУБитва is a long chain of atomic actions (a worker's ten
# steps, a purchase, a fill) whose worth shows only turns later, so the engine follows a plan
# derived afresh from the position at every call (deterministic, so that consecutive calls agree):
#
# 1. a super rocket that breaches the enemy base (it wins);
# 2. a kill;
# 3. a fill, of the kind the side needs next (a house, a barracks, a second house, then a siege
#    barracks: one whose opening faces a wall of the enemy base with nothing but fillers between);
# 4. a soldier from a barracks while the side has fewer than 4 (a worker from a house while it
#    has fewer than two); then the money is saved for the super rocket of step 1;
# 5. the active unit's next step, then the soldiers: a step that captures most land, else a step
#    toward the nearest enemy cell;
# 6. a worker building the next building: the cheapest site (a room or two that need the fewest
#    cubes moved), the nearest free cube carried to a missing wall along the shortest way;
# 7. `end`.
#
# Runs on the board (MicroPython) and the PC: byte tables, breadth-first searches over at most
# one entry per cell (four for a carried cube), no recursion.

from shared_rules.kubitva import rules as kb

NONE = kb.NONE
MAX_SOLDIERS = 4
MAX_HOUSES = 2
SIEGE = 99  # the kind of building wanted: a barracks whose rockets fly onto the enemy base


def best_action(pos):
    """The engine's action for the side to move (None if the game is over)."""
    acts = pos.legal_actions()
    if not acts:
        return None
    if len(acts) == 1:
        return acts[0]
    return _Plan(pos, acts).choose()


class _Plan:
    def __init__(self, pos, acts):
        self.pos = pos
        self.acts = acts
        self.side = pos.to_move
        self.nb = pos.nb
        self.n = pos.n

    # -- helpers -------------------------------------------------------------------------------

    def _own(self, c):
        return self.pos.terr[c] & 1 == self.side

    def _buildings(self):
        """Counts of own houses, barracks able to produce (front on own land) and siege
        barracks."""
        houses = 0
        barracks = 0
        siege = 0
        for kind, door, o, d, f, owner in self.pos.buildings():
            if owner != self.side:
                continue
            if kind == kb.INCOME:
                houses += 1
            elif kind == kb.MILITARY:
                if f != NONE and self._own(f):
                    barracks += 1
                if self._aims(o, d):
                    siege += 1
        return houses, barracks, siege

    def _next_kind(self):
        houses, barracks, siege = self._buildings()
        if not houses:
            return kb.INCOME
        if not barracks:
            return kb.MILITARY
        if houses < MAX_HOUSES:
            return kb.INCOME
        if not siege:
            return SIEGE
        return -1

    def _aims(self, o, d):
        """True if a rocket from the opening o toward d would hit a wall of the enemy base."""
        return self._enemy_base_wall(self.pos.line_target(o, d))

    def _clear(self, c):
        """Empty, or held by an own unit (which can step aside)."""
        v = self.pos.cells[c]
        return v == kb.EMPTY or (v >= kb.WORKER and v & 1 == self.side)

    def _units(self, soldier):
        cells = self.pos.cells
        want = kb.SOLDIER + self.side if soldier else kb.WORKER + self.side
        return [c for c in range(self.n) if cells[c] == want]

    # -- the decision --------------------------------------------------------------------------

    def choose(self):
        pos = self.pos
        acts = self.acts
        for a in acts:
            if kb.item_letter(a) == "K" and self._breaches(a):
                return a
        for a in acts:
            code = a & 255
            if a != kb.END and kb.KILL <= code < kb.FILL:
                return a
        a = self._fill()
        if a is not None:
            return a
        a = self._purchase()
        if a is not None:
            return a
        if pos.active >= 0:
            a = self._unit_move(pos.active)
            if a is not None:
                return a
        for c in self._units(True):
            if pos.points[c]:
                a = self._soldier(c)
                if a is not None:
                    return a
        a = self._build()
        if a is not None:
            return a
        return kb.END

    def _breaches(self, a):
        """True if the rocket action a destroys a wall of the enemy's base."""
        return self._enemy_base_wall(self.pos.rocket_target(a))

    def _enemy_base_wall(self, t):
        pos = self.pos
        if t < 0 or t == NONE or pos.cells[t] != kb.ARMOUR:
            return False
        for d in range(4):
            q = self.nb[t * 4 + d]
            if q != NONE and pos.cells[q] == kb.BASE and pos.terr[q] & 1 != self.side:
                return True
        return False

    def _fill(self):
        want = self._next_kind()
        kind = want
        if want < 0:
            kind = kb.INCOME
        elif want == SIEGE:
            kind = kb.MILITARY
        best = None
        best_rooms = 0
        for a in self.acts:
            code = a & 255
            if a == kb.END or not kb.FILL <= code < kb.BUY:
                continue
            if kb.FILL_KINDS[(code - kb.FILL) >> 2] != kind:
                continue
            r = a >> 8
            d = code & 3
            o = self.nb[r * 4 + d]
            f = self.nb[o * 4 + d]
            if want == kb.MILITARY and (f == NONE or not self._own(f)):
                continue
            if want == SIEGE and not self._aims(o, d):
                continue
            rooms = len(self.pos.rooms_of(r, o))
            if rooms > best_rooms:
                best = a
                best_rooms = rooms
        return best

    def _purchase(self):
        if self.pos.active >= 0:
            return None
        soldiers = len(self._units(True))
        workers = len(self._units(False))
        for a in self.acts:
            t = kb.item_letter(a)
            if t == "s" and soldiers < MAX_SOLDIERS and (a & 255) >= kb.BUY:
                return a
            if t == "w" and workers < 2 and (a & 255) >= kb.BUY:
                return a
        return None

    def _unit_move(self, c):
        v = self.pos.cells[c]
        if v & 2:
            return self._soldier(c)
        return self._build(c)

    # -- soldiers ------------------------------------------------------------------------------

    def _soldier(self, c):
        """The soldier's step that captures most, else its first step toward the nearest enemy
        cell, else None."""
        pos = self.pos
        side = self.side
        before = pos.scores()[side]
        best = None
        gain = 0
        for d in range(4):
            a = (c << 8) + 5 * d
            if a not in self.acts:
                continue
            pos.push(a)
            g = pos.scores()[side] - before
            pos.pop()
            if g > gain:
                best = a
                gain = g
        if best is not None:
            return best
        d = self._first_step(c, True, self._enemy_cell)
        if d < 0:
            return None
        a = (c << 8) + 5 * d
        return a if a in self.acts else None

    def _enemy_cell(self, c):
        return self.pos.terr[c] & 1 != self.side

    def _first_step(self, start, soldier, goal):
        """Direction of the first step of a shortest walk from start to a cell where goal(cell)
        holds, through empty cells (a worker's only on own land), or -1."""
        pos = self.pos
        nb = self.nb
        cells = pos.cells
        first = bytearray(self.n)  # 1 + direction of the first step that reached the cell
        first[start] = 5
        todo = [start]
        i = 0
        while i < len(todo):
            c = todo[i]
            i += 1
            if c != start and goal(c):
                return first[c] - 1
            for d in range(4):
                u = nb[c * 4 + d]
                if u == NONE or first[u] or cells[u] != kb.EMPTY:
                    continue
                if not soldier and not self._own(u):
                    continue
                first[u] = first[c] if c != start else d + 1
                todo.append(u)
        return -1

    # -- building ------------------------------------------------------------------------------

    def _build(self, only=-1):
        """The next action of the worker that builds the next building (only: that worker, the
        active one), or None."""
        kind = self._next_kind()
        if kind < 0:
            return None
        site = self._site(kind)
        if site is None:
            return None
        rooms, bnd, o, missing = site
        pos = self.pos
        cells = pos.cells
        if not missing:
            # walls complete: a worker standing in a room must leave it before the fill
            for r in rooms:
                if cells[r] == kb.WORKER + self.side and (only < 0 or r == only) \
                        and pos.points[r]:
                    d = self._first_step(r, False, lambda c: c not in rooms)
                    if d >= 0 and (r << 8) + 5 * d in self.acts:
                        return (r << 8) + 5 * d
            return None
        workers = [only] if only >= 0 else [c for c in self._units(False) if pos.points[c]]
        walks = [self._walk_from(u) for u in workers]
        best = None
        found = 0
        for k in self._ranked_cubes(bnd, missing):
            # the nearest cubes first; two that can be brought are enough to compare
            here = None
            for i in range(len(workers)):
                plan = self._carry_plan(workers[i], walks[i], k, missing)
                if plan is not None and (here is None or plan[0] < here[0]):
                    here = plan
            if here is None:
                continue
            if best is None or here[0] < best[0]:
                best = here
            found += 1
            if found == 2:
                break
        if best is None:
            return None
        a = best[1]
        return a if a in self.acts else None

    def _site(self, kind):
        """(rooms, boundary, opening, missing walls) of the cheapest place for the next building:
        one room (two for a house) on own land, off the edge, whose boundary holds only walls and
        empty cells (or own units); the opening touches one room and faces an own empty cell (a
        siege barracks: faces a wall of the enemy base); cost = cubes to bring (x10) minus rooms
        (x3). None if there is none."""
        pos = self.pos
        nb = self.nb
        cells = pos.cells
        best = None
        best_cost = 0
        shapes = (0, 1) if kind == kb.INCOME else (-1,)
        siege = kind == SIEGE
        for r in range(self.n):
            if not self._room_ok(r):
                continue
            for e in shapes:
                if e < 0:
                    rooms = (r,)
                else:
                    r2 = nb[r * 4 + e]
                    if r2 == NONE or not self._room_ok(r2):
                        continue
                    rooms = (r, r2)
                bnd = []
                ok = True
                for x in rooms:
                    for d in range(4):
                        t = nb[x * 4 + d]
                        if t in rooms or t in bnd:
                            continue
                        if not self._clear(t) and not kb.is_wall(cells[t]):
                            ok = False
                        bnd.append(t)
                if not ok:
                    continue
                for o in bnd:
                    if not self._clear(o):
                        continue
                    touching = 0
                    d = 0
                    for k in range(4):
                        if nb[o * 4 + k] in rooms:
                            touching += 1
                            d = (k + 2) & 3
                    if touching != 1:
                        continue
                    f = nb[o * 4 + d]
                    if siege:
                        if not self._aims(o, d):
                            continue
                    elif f == NONE or not self._own(f) or not self._clear(f):
                        continue
                    missing = [t for t in bnd if t != o and not kb.is_wall(cells[t])]
                    cost = 10 * len(missing) - 3 * len(rooms)
                    if best is None or cost < best_cost:
                        best = (rooms, bnd, o, missing)
                        best_cost = cost
        return best

    def _room_ok(self, r):
        pos = self.pos
        if not self._clear(r) or not self._own(r) or pos.terr[r] & kb.FRESH:
            return False
        nb = self.nb
        for d in range(4):
            t = nb[r * 4 + d]
            if t == NONE:
                return False
            v = pos.cells[t]
            if kb.INCOME <= v <= kb.BASE:
                return False
        return True

    def _free_cube(self, k, bnd):
        """A cube the builders may take: a building or armour cube that no base holds, not a wall
        of an intact building nor of the site."""
        pos = self.pos
        v = pos.cells[k]
        if not kb.is_wall(v) or pos.near_base[k] or k in bnd:
            return False
        nb = self.nb
        for d in range(4):
            t = nb[k * 4 + d]
            if t != NONE and kb.INCOME <= pos.cells[t] <= kb.RECYCLING:
                return False
        return True

    def _ranked_cubes(self, bnd, missing):
        """The free cubes, nearest to a missing wall first (in steps as the crow flies)."""
        cols = self.pos.cols
        ranked = []
        for k in range(self.n):
            if not self._free_cube(k, bnd):
                continue
            near = 999
            for w in missing:
                dx = k % cols - w % cols
                dy = k // cols - w // cols
                dist = (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)
                if dist < near:
                    near = dist
            ranked.append(near * 256 + k)
        ranked.sort()
        return [r & 255 for r in ranked]

    def _carry_plan(self, u, walk, k, missing):
        """(cost, first action) of the cheapest way for the worker on u (walk: its walking
        distances, _walk_from) to bring the cube on k onto one of the missing walls: walk next
        to the cube, then carry it (the worker keeps its side of the cube all the way)."""
        nb = self.nb
        best = None
        for e in range(4):
            c0 = nb[k * 4 + e]
            if c0 == NONE or (c0 != u and walk[c0] == 0):
                continue
            steps = self._carry(k, e, u, missing)
            if steps is None:
                continue
            dist = 0 if c0 == u else walk[c0] - 1
            cost = dist + steps[0]
            if best is not None and cost >= best[0]:
                continue
            if c0 == u:
                a = (u << 8) + 5 * steps[1] + 1 + ((e + 2) & 3)
            else:
                a = (u << 8) + 5 * self._first_step(u, False, lambda c, t=c0: c == t)
            best = (cost, a)
        return best

    def _walk_from(self, u):
        """bytearray: 1 + the worker's walking distance to each cell (0: unreachable), through
        empty cells of its own land."""
        return self.pos.walk(u)[1]

    def _carry(self, k, e, u, missing):
        """(steps, first direction) to carry the cube on k, with the worker on its neighbour
        toward e, onto one of the missing cells; None if impossible. Breadth first over the
        cube's cell (the worker keeps its side); the cells of the cube and of the worker count
        as free."""
        pos = self.pos
        nb = self.nb
        cells = pos.cells
        near = pos.near_base
        back = bytearray(self.n)  # 1 + direction of the first move
        dist = bytearray(self.n)
        back[k] = 5
        todo = [k]
        i = 0
        while i < len(todo):
            x = todo[i]
            i += 1
            if x in missing:
                return dist[x], back[x] - 1
            y = nb[x * 4 + e]
            for d in range(4):
                x2 = nb[x * 4 + d]
                y2 = nb[y * 4 + d]
                if x2 == NONE or y2 == NONE or back[x2] or near[x2]:
                    continue
                if x2 != y and x2 != k and x2 != u and cells[x2] != kb.EMPTY:
                    continue
                if y2 != x and y2 != k and y2 != u and cells[y2] != kb.EMPTY:
                    continue
                if not self._own(y2):
                    continue
                back[x2] = back[x] if x != k else d + 1
                dist[x2] = dist[x] + 1
                todo.append(x2)
        return None
