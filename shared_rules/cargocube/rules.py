# Cargocube rules core: position, legal actions, push/pop, notation, scoring, perft.
#
# Runs unchanged on the board (MicroPython) and on the PC (CPython): plain classes, tuples, lists
# and bytearrays, no CPython-only modules. The rules implemented here are written out in
# docs/rules/cargocube.md; the API in docs/rules/api.md.
#
# Representation
# - stacks[c]: list of items bottom to top; an item is a small int: 0..23 a cargo cube's
#   orientation (shared_rules.cargocube.orient), KEEPER + seat a keeper.
# - cards[c]: 0 or a card code 1 + kind * 4 + owner. A card in its owner's terminal is unused and
#   has no effect; a card on a grey cell has been used (placed) and acts.
# - to_move, actions_left (0: activation due), booster_used; seats in turn order.
# An action is a tuple (kind, src, dir, dst, code, hops): see docs/rules/api.md.

from shared_rules import geometry as g
from shared_rules.cargocube import orient as o
from shared_rules.cargocube import layouts
from shared_rules import versions as _versions

KEEPER = 24  # item code of seat s's keeper is KEEPER + s

# Action kinds.
ACTIVATE = 0
ROLL = 1
STEP = 2
BOOST = 3
END = 4

END_ACTION = (END, 0, 0, 0, 0, ())

MAX_SCORE = 36

# The rules' version, written into every game log; bumped in shared_rules/versions.py.
RULES_VERSION = _versions.version("cargocube")

# How a cube arrived on a cell (cards react differently).
_ROLLED = 0
_SLID = 1
_HOPPED = 2


class RulesError(Exception):
    """Bad input to the rules: a malformed or impossible position, a malformed or illegal action."""


# ---------------------------------------------------------------------------------------------
# Cards. A card kind is a row in these tables; the core calls the kind's arrival hook when a cargo
# cube arrives on a placed card, so a new kind is added here without touching the move generator.

CARD_LETTERS = "swa"  # springboard, wind rose, acceleration
# Items leaving a placed card of this kind ignore the climb limit.
CARD_SPRINGBOARD = (True, True, False)


def card_code(kind_letter, owner):
    return 1 + CARD_LETTERS.index(kind_letter) * 4 + owner


def card_kind(code):
    return CARD_LETTERS[(code - 1) >> 2]


def card_owner(code):
    return (code - 1) & 3


def _arrive_wind_rose(pos, out, kind, src, d, cell, level, item, hops, used, how):
    # Hop at once to one of the 8 neighbours chosen by the mover, ignoring the climb limit.
    m = pos.to_move
    kinds = g.CELL_KIND
    own = g.TERMINAL + m
    used = used + (cell,)
    hopped = False
    ring = g.AROUND
    base = cell * 8
    for k in range(8):
        t = ring[base + k]
        if t == 255:
            break
        tk = kinds[t]
        if kind == ACTIVATE:
            # An activation must end on a grey cell that is no entry portal.
            if tk != g.GREY or t == g.ENTRY_PORTAL:
                continue
        elif tk != g.GREY and tk != own:
            continue
        hopped = True
        pos._arrive(out, kind, src, d, t, -1, item, hops + (t,), used, _HOPPED)
    return hopped


def _arrive_acceleration(pos, out, kind, src, d, cell, level, item, hops, used, how):
    # Only a roll onto the card triggers it: slide one cell further in the roll's direction.
    if how != _ROLLED:
        return False
    n = g.NEIGHBOUR[cell * 4 + d]
    if n < 0 or not pos._may_enter(n, kind):
        return False
    s = len(pos.stacks[n])
    if s > level + 1:
        return False
    pos._arrive(out, kind, src, d, n, s, item, hops, used + (cell,), _SLID)
    return True


_CARD_ARRIVE = (None, _arrive_wind_rose, _arrive_acceleration)


# ---------------------------------------------------------------------------------------------


def _seat_tuple(text):
    seats = []
    for ch in text:
        s = g.SEAT_LETTERS.find(ch)
        if s < 0:
            raise RulesError("unknown seat %r in seats %r" % (ch, text))
        if seats and s <= seats[-1]:
            raise RulesError("seats %r must be distinct and in turn order S, W, N, E" % text)
        seats.append(s)
    seats = tuple(seats)
    if seats not in ((g.S, g.N), (g.S, g.W, g.N), (g.S, g.W, g.N, g.E)):
        raise RulesError("seats %r: 2 players sit SN, 3 players SWN, 4 players SWNE" % text)
    return seats


class Position:
    """A Cargocube position: the board, whose turn it is and the phase of the turn."""

    SEAT_LETTERS = g.SEAT_LETTERS  # seat int -> letter, as every rules module's Position has

    def __init__(self, seats=(g.S, g.N)):
        self.stacks = [[] for _ in range(g.N_CELLS)]
        self.cards = bytearray(g.N_CELLS)
        self.seats = tuple(seats)
        self.to_move = self.seats[0]
        self.actions_left = 0
        self.booster_used = False
        self._keeper = [-1, -1, -1, -1]
        self._score = [0, 0, 0, 0]
        self._undo = bytearray(64)  # undo records, see push(); used up to _ulen
        self._ulen = 0
        self._count = 0

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text):
        """Parse the one-line position notation; raise RulesError naming what is wrong."""
        if not isinstance(text, str):
            raise RulesError("position must be text")
        fields = text.split()
        if len(fields) != 4:
            raise RulesError(
                "position needs 4 fields '<cells> <seats> <to-move> <phase>', got %d" % len(fields))
        cells_text, seats_text, move_text, phase_text = fields
        pos = cls(_seat_tuple(seats_text))
        if len(move_text) != 1 or g.SEAT_LETTERS.find(move_text) not in pos.seats:
            raise RulesError("seat to move %r is not one of the seats %r" % (move_text, seats_text))
        pos.to_move = g.SEAT_LETTERS.find(move_text)
        pos._parse_phase(phase_text)
        if cells_text != "-":
            seen = bytearray(g.N_CELLS)
            for entry in cells_text.split(","):
                pos._parse_cell_entry(entry, seen)
        for s in range(4):
            pos._score[s] = pos._terminal_score(s)
        return pos

    def _parse_phase(self, text):
        if text == "a":
            self.actions_left = 0
            return
        if "x" in text:
            raise RulesError("phase %r: the extra turn 'x' belongs to the «Бастион» expansion, "
                             "not implemented" % text)
        digits = text[:-1] if text.endswith("b") else text
        if len(digits) != 1 or digits not in "1234":
            raise RulesError("phase %r must be 'a' or actions left 1-4 with an optional 'b'" % text)
        self.actions_left = int(digits)
        self.booster_used = text.endswith("b")
        if self.actions_left == 4 and self.booster_used:
            raise RulesError("phase %r is impossible: a booster use leaves at most 3 actions" % text)

    def _parse_cell_entry(self, entry, seen):
        eq = entry.find("=")
        if eq < 0:
            raise RulesError("cell entry %r must be 'cell=item.item...'" % entry)
        name = entry[:eq]
        c = g.parse_cell(name)
        if c < 0:
            raise RulesError("%r is not a cell (columns a-k, rows 1-11)" % name)
        if seen[c]:
            raise RulesError("cell %s is listed twice" % name)
        seen[c] = 1
        kind = g.CELL_KIND[c]
        if kind == g.CORNER:
            raise RulesError("corner %s is out of play and must stay empty" % name)
        if kind >= g.TERMINAL and (kind - g.TERMINAL) not in self.seats:
            raise RulesError("%s is in the terminal of seat %s, which is not in play" % (
                name, g.SEAT_LETTERS[kind - g.TERMINAL]))
        items = entry[eq + 1:].split(".")
        stack = self.stacks[c]
        for i in range(len(items)):
            it = items[i]
            if not it:
                raise RulesError("cell %s has an empty item" % name)
            head = it[0]
            if head == "*":
                if i != 0:
                    raise RulesError("card %r on %s must be written first in its cell" % (it, name))
                self._parse_card(it, c, name)
            elif head == "K":
                seat = g.SEAT_LETTERS.find(it[1:]) if len(it) == 2 else -1
                if seat < 0:
                    raise RulesError("bad keeper %r on %s" % (it, name))
                if seat not in self.seats:
                    raise RulesError("keeper %s on %s: seat %s is not in play" % (it, name, it[1]))
                if self._keeper[seat] >= 0:
                    raise RulesError("seat %s has two keepers" % it[1])
                if kind >= g.TERMINAL and kind != g.TERMINAL + seat:
                    raise RulesError("keeper %s cannot stand in another seat's terminal (%s)" % (
                        it, name))
                self._keeper[seat] = c
                stack.append(KEEPER + seat)
            elif head in "X!T" or (head == "*" and len(it) > 1 and it[1] == "="):
                raise RulesError("item %r on %s belongs to an expansion or variant, "
                                 "not implemented" % (it, name))
            else:
                ori = o.parse(it)
                if ori < 0:
                    raise RulesError("%r on %s is no item (a cube is two faces such as B1; "
                                     "a keeper K+seat; a card *+kind+seat)" % (it, name))
                if c == g.ENTRY_PORTAL:
                    raise RulesError("a cargo cube cannot stay on the entry portal f6 "
                                     "(it is sent to an exit portal)")
                stack.append(ori)
        if not stack and not self.cards[c]:
            raise RulesError("cell %s has no items" % name)

    def _parse_card(self, it, c, name):
        if len(it) != 3:
            raise RulesError("bad card %r on %s (a card is * + kind + owner seat, e.g. *sS)" % (
                it, name))
        kind_letter = it[1]
        owner = g.SEAT_LETTERS.find(it[2])
        if kind_letter in "ucpxhv=":
            raise RulesError("card %r on %s belongs to an expansion, not implemented" % (it, name))
        if kind_letter not in CARD_LETTERS or owner < 0:
            raise RulesError("bad card %r on %s (kinds s w a, owner S W N E)" % (it, name))
        if owner not in self.seats:
            raise RulesError("card %r on %s: seat %s is not in play" % (it, name, it[2]))
        kind = g.CELL_KIND[c]
        if kind >= g.TERMINAL and kind != g.TERMINAL + owner:
            raise RulesError("card %r lies in another seat's terminal (%s)" % (it, name))
        if c == g.ENTRY_PORTAL:
            raise RulesError("no card may lie on the entry portal f6")
        self.cards[c] = card_code(kind_letter, owner)

    def copy(self):
        p = Position(self.seats)
        p.stacks = [list(s) for s in self.stacks]
        p.cards = bytearray(self.cards)
        p.to_move = self.to_move
        p.actions_left = self.actions_left
        p.booster_used = self.booster_used
        p._keeper = list(self._keeper)
        p._score = list(self._score)
        return p

    # -- notation -------------------------------------------------------------------------------

    def notation(self):
        """The canonical one-line notation: cells by row (row 1 first), then by column."""
        parts = []
        for c in range(g.N_CELLS):
            st = self.stacks[c]
            cd = self.cards[c]
            if not st and not cd:
                continue
            items = []
            if cd:
                items.append("*" + card_kind(cd) + g.SEAT_LETTERS[card_owner(cd)])
            for it in st:
                if it >= KEEPER:
                    items.append("K" + g.SEAT_LETTERS[it - KEEPER])
                else:
                    items.append(o.NAMES[it])
            parts.append(g.cell_name(c) + "=" + ".".join(items))
        seats = "".join(g.SEAT_LETTERS[s] for s in self.seats)
        if self.actions_left == 0:
            phase = "a"
        else:
            phase = str(self.actions_left) + ("b" if self.booster_used else "")
        return "%s %s %s %s" % (",".join(parts) or "-", seats, g.SEAT_LETTERS[self.to_move], phase)

    def __str__(self):
        return self.notation()

    def __eq__(self, other):
        return isinstance(other, Position) and self.notation() == other.notation()

    # -- queries ----------------------------------------------------------------------------------

    def keeper_cell(self, seat):
        return self._keeper[seat]

    def height(self, c):
        return len(self.stacks[c])

    def _terminal_score(self, seat):
        total = 0
        value = o.VALUE
        for c in g.TERMINAL_CELLS[seat]:
            st = self.stacks[c]
            if st and st[-1] < KEEPER:
                total += value[st[-1]]
        return total

    def scores(self):
        """Scores indexed by seat (S, W, N, E); 0 for seats not in play."""
        return list(self._score)

    def _max_reached(self):
        sc = self._score
        return sc[0] >= MAX_SCORE or sc[1] >= MAX_SCORE or sc[2] >= MAX_SCORE or sc[3] >= MAX_SCORE

    def is_over(self):
        if self._max_reached():
            return True
        if self.actions_left == 0:
            out = []
            self._gen_cube_moves(out, ACTIVATE)
            return not out
        return False

    def winners(self):
        """The seats with the highest score once the game is over; [] while it goes on."""
        if not self.is_over():
            return []
        best = max(self._score[s] for s in self.seats)
        return [s for s in self.seats if self._score[s] == best]

    def cube_status(self, c, seat):
        """'resting', 'bridge', 'free' or 'frozen' for the cargo cube on top of cell c as seen by
        seat; None if the top item is no cargo cube."""
        st = self.stacks[c]
        if not st or st[-1] >= KEEPER:
            return None
        h = len(st) - 1
        kind = g.CELL_KIND[c]
        if kind >= g.TERMINAL:
            if kind != g.TERMINAL + seat:
                return "frozen"
        elif h == 0 and not self.cards[c]:
            return "resting" if o.DOWN[st[0]] == o.FACE_O else "bridge"
        if h > 0 and st[h - 1] >= KEEPER and st[h - 1] != KEEPER + seat:
            return "frozen"
        return "free"

    # -- move generation ------------------------------------------------------------------------

    def legal_actions(self, boosts=True):
        """All legal actions of the player to move, in a fixed order; [] once the game is over.
        boosts=False leaves out the booster uses (up to 6 cards x every empty grey cell): the
        board's tracker handles them apart, from boost_sources(), to save memory."""
        out = []
        if self._max_reached():
            return out
        if self.actions_left == 0:
            self._gen_cube_moves(out, ACTIVATE)
            return out
        self._gen_cube_moves(out, ROLL)
        self._gen_steps(out)
        if boosts and not self.booster_used:
            self._gen_boosts(out)
        out.append(END_ACTION)
        return out

    def boost_sources(self):
        """The cells of the cards the player to move may use now (booster use allowed, own card
        in the own terminal, nothing on it); [] otherwise."""
        if self.actions_left == 0 or self.booster_used or self._max_reached():
            return []
        out = []
        for src in g.TERMINAL_CELLS[self.to_move]:
            if self.cards[src] and not self.stacks[src]:
                out.append(src)
        return out

    def is_boost_target(self, c):
        """Whether a card may be put on cell c (an empty grey cell, no card, not the portal)."""
        return (g.CELL_KIND[c] == g.GREY and not self.stacks[c] and not self.cards[c]
                and c != g.ENTRY_PORTAL)

    def _may_enter(self, n, kind):
        """Entry rule for a cargo cube moving onto cell n (not the climb limit)."""
        nk = g.CELL_KIND[n]
        if kind == ACTIVATE:
            return nk == g.GREY and n != g.ENTRY_PORTAL
        return nk == g.GREY or nk == g.TERMINAL + self.to_move

    def _leaves_freely(self, c):
        """True if items leaving c ignore the climb limit (a placed springboard-like card)."""
        cd = self.cards[c]
        return cd != 0 and g.CELL_KIND[c] == g.GREY and CARD_SPRINGBOARD[(cd - 1) >> 2]

    def _gen_cube_moves(self, out, kind):
        m = self.to_move
        own_terminal = g.TERMINAL + m
        own_keeper = KEEPER + m
        stacks = self.stacks
        cards = self.cards
        kinds = g.CELL_KIND
        neighbour = g.NEIGHBOUR
        roll = o.ROLL
        top_face = o.TOP
        activating = kind == ACTIVATE
        for c in range(g.N_CELLS):
            st = stacks[c]
            if not st:
                continue
            item = st[-1]
            if item >= KEEPER:
                continue
            h = len(st) - 1
            ck = kinds[c]
            if ck != g.GREY and ck != own_terminal:
                continue  # frozen in another terminal
            if h > 0:
                below = st[h - 1]
                if below >= KEEPER and below != own_keeper:
                    continue  # frozen on another seat's keeper
            if activating:
                if top_face[item] != o.FACE_B:
                    continue
            elif ck == g.GREY and h == 0 and not cards[c]:
                continue  # resting or bridge
            free_leave = self._leaves_freely(c) if cards[c] else False
            base = c * 4
            for d in range(4):
                n = neighbour[base + d]
                if n < 0:
                    continue
                nk = kinds[n]
                if activating:
                    if nk != g.GREY or n == g.ENTRY_PORTAL:
                        continue
                elif nk != g.GREY and nk != own_terminal:
                    continue
                s = len(stacks[n])
                if s > h + 1 and not free_leave:
                    continue
                new_item = roll[item * 4 + d]
                if n == g.ENTRY_PORTAL or cards[n]:
                    self._arrive(out, kind, c, d, n, s, new_item, (), (), _ROLLED)
                else:
                    out.append((kind, c, d, n, new_item, ()))

    def _arrive(self, out, kind, src, d, cell, level, item, hops, used, how):
        """A cargo cube arrives on cell at level: portals and cards act; actions go to out."""
        if cell == g.ENTRY_PORTAL:
            # Activations never get here (such moves are not offered).
            out.append((kind, src, d, g.EXIT_PORTAL[self.to_move], item, hops))
            return
        cd = self.cards[cell]
        if cd and g.CELL_KIND[cell] == g.GREY and cell not in used:
            hook = _CARD_ARRIVE[(cd - 1) >> 2]
            if hook is not None and hook(self, out, kind, src, d, cell, level, item, hops, used, how):
                return
        out.append((kind, src, d, cell, item, hops))

    def _gen_steps(self, out):
        m = self.to_move
        kc = self._keeper[m]
        if kc < 0:
            return
        st = self.stacks[kc]
        if st[-1] != KEEPER + m:
            return  # something stands on the keeper
        h = len(st) - 1
        free_leave = self._leaves_freely(kc)
        own_terminal = g.TERMINAL + m
        for d in range(4):
            n = g.NEIGHBOUR[kc * 4 + d]
            if n < 0:
                continue
            nk = g.CELL_KIND[n]
            if nk != g.GREY and nk != own_terminal:
                continue
            if len(self.stacks[n]) > h + 1 and not free_leave:
                continue
            out.append((STEP, kc, d, n, KEEPER + m, ()))

    def _gen_boosts(self, out):
        stacks = self.stacks
        cards = self.cards
        for src in g.TERMINAL_CELLS[self.to_move]:
            cd = cards[src]
            if not cd or stacks[src]:
                continue
            for dst in _GREY_CELLS:
                if not stacks[dst] and not cards[dst] and dst != g.ENTRY_PORTAL:
                    out.append((BOOST, src, 0, dst, cd, ()))

    # -- make / unmake --------------------------------------------------------------------------

    def push(self, action):
        """Apply an action (assumed legal; see push_checked)."""
        kind, src, d, dst, code, hops = action
        m = self.to_move
        old_item = -1
        if kind == BOOST:
            self.cards[dst] = self.cards[src]
            self.cards[src] = 0
        elif kind != END:
            old_item = self.stacks[src].pop()
            self.stacks[dst].append(code)
            if kind == STEP:
                self._keeper[m] = dst
            self._rescore(src, dst)
        # Undo record, 10 bytes after the hop cells (a game of hundreds of actions must fit the
        # board's heap): kind, src, dir, dst, code, old item, actions left, booster, mover, hops.
        log = self._undo
        i = self._ulen
        n = len(hops)
        if len(log) < i + n + 10:
            log.extend(bytearray(n + 10 + 64))
        for h in hops:
            log[i] = h
            i += 1
        log[i] = kind
        log[i + 1] = src
        log[i + 2] = d
        log[i + 3] = dst
        log[i + 4] = code
        log[i + 5] = old_item & 0xFF
        log[i + 6] = self.actions_left
        log[i + 7] = 1 if self.booster_used else 0
        log[i + 8] = m
        log[i + 9] = n
        self._ulen = i + 10
        self._count += 1
        if kind == ACTIVATE:
            self.actions_left = o.VALUE[code]
            return
        if kind == BOOST:
            self.booster_used = True
        if kind == END:
            self.actions_left = 0
        else:
            self.actions_left -= 1
        if self.actions_left == 0:
            self._pass_turn()

    def _pass_turn(self):
        seats = self.seats
        i = 0
        while seats[i] != self.to_move:
            i += 1
        self.to_move = seats[(i + 1) % len(seats)]
        self.actions_left = 0
        self.booster_used = False

    def _rescore(self, src, dst):
        kinds = g.CELL_KIND
        k = kinds[src]
        if k >= g.TERMINAL:
            self._score[k - g.TERMINAL] = self._terminal_score(k - g.TERMINAL)
        k2 = kinds[dst]
        if k2 >= g.TERMINAL and k2 != k:
            self._score[k2 - g.TERMINAL] = self._terminal_score(k2 - g.TERMINAL)

    def _record(self, end):
        """(action, old item, actions left, booster used, mover, start) of the undo record
        that ends at byte end of the undo log."""
        log = self._undo
        r = end - 10
        n = log[r + 9]
        start = r - n
        action = (log[r], log[r + 1], log[r + 2], log[r + 3], log[r + 4],
                  tuple(log[start:r]) if n else ())
        old_item = log[r + 5]
        if old_item == 0xFF:
            old_item = -1
        return action, old_item, log[r + 6], log[r + 7] == 1, log[r + 8], start

    def pop(self):
        """Undo the last pushed action and return it."""
        if not self._count:
            raise RulesError("no action to take back")
        action, old_item, actions_left, booster_used, to_move, start = self._record(self._ulen)
        self._ulen = start
        self._count -= 1
        kind, src, d, dst, code, hops = action
        if kind == BOOST:
            self.cards[src] = self.cards[dst]
            self.cards[dst] = 0
        elif kind != END:
            self.stacks[dst].pop()
            self.stacks[src].append(old_item)
            if kind == STEP:
                self._keeper[to_move] = src
            self._rescore(src, dst)
        self.actions_left = actions_left
        self.booster_used = booster_used
        self.to_move = to_move
        return action

    def reserve(self, n):
        """Make room for n more actions in the undo record in one allocation (before replaying
        a long game: growing it action by action among the replay's other allocations
        fragments a small heap until a large enough block cannot be found)."""
        need = self._ulen + 12 * n + 64  # 10 bytes an action, hops and slack
        if len(self._undo) < need:
            self._undo.extend(bytearray(need - len(self._undo)))

    def push_checked(self, action):
        if action not in self.legal_actions():
            raise RulesError("illegal action %s in %s" % (self._describe(action), self.notation()))
        self.push(action)

    def history(self):
        """The actions pushed so far, oldest first."""
        out = []
        end = self._ulen
        while end:
            rec = self._record(end)
            out.append(rec[0])
            end = rec[5]
        out.reverse()
        return out

    def ply(self):
        """How many actions have been pushed."""
        return self._count

    def _describe(self, action):
        try:
            return format_action(action)
        except Exception:
            return repr(action)

    # -- action notation ------------------------------------------------------------------------

    def format_action(self, action):
        return format_action(action)

    def parse_action(self, text):
        """The legal action written as text; RulesError if malformed or not legal here."""
        _check_action_syntax(text)
        for a in self.legal_actions():
            if format_action(a) == text:
                return a
        if self.is_over():
            raise RulesError("action %r: the game is over" % text)
        raise RulesError("action %r is not legal in %s" % (text, self.notation()))


def action_path(pos, action):
    """The cells the moving piece stands on in turn during action in pos (before it is
    pushed), its source excluded: for a cube the cell it rolls onto, then the cell an
    acceleration slides it to, the wind-rose hop targets, and the exit portal after the entry
    portal; for a keeper step or a card its destination; () for `end`. A hand moving real
    pieces follows this path; the board's tracker reads a cube waiting on the portal by it."""
    kind, src, d, dst, code, hops = action
    if kind == END:
        return ()
    if kind == STEP or kind == BOOST:
        return (dst,)
    first = g.NEIGHBOUR[src * 4 + d]
    path = [first]
    cd = pos.cards[first]
    if cd and g.CELL_KIND[first] == g.GREY and card_kind(cd) == "a" and (hops or dst != first):
        # Rolled onto an acceleration and went on: it slid one cell further (onto the wind
        # rose the hops start from, onto the portal, or simply to the next cell).
        path.append(g.NEIGHBOUR[first * 4 + d])
    for h in hops:
        path.append(h)
    if path[-1] == g.ENTRY_PORTAL:
        path.append(dst)
    return tuple(path)


_GREY_CELLS = bytes([c for c in range(g.N_CELLS) if g.CELL_KIND[c] == g.GREY])


def format_action(action):
    kind, src, d, dst, code, hops = action
    if kind == END:
        return "end"
    if kind == STEP:
        return "K" + g.DIR_LETTERS[d]
    if kind == BOOST:
        return g.cell_name(src) + "@" + g.cell_name(dst)
    text = g.cell_name(src) + g.DIR_LETTERS[d]
    for h in hops:
        text += "/" + g.cell_name(h)
    return text


def _check_action_syntax(text):
    if not isinstance(text, str) or not text:
        raise RulesError("empty action")
    if text == "end":
        return
    if text[0] == "K":
        if len(text) == 2 and text[1] in g.DIR_LETTERS:
            return
        raise RulesError("keeper step %r must be K + direction n, e, s or w" % text)
    at = text.find("@")
    if at >= 0:
        if g.parse_cell(text[:at]) < 0 or g.parse_cell(text[at + 1:]) < 0:
            raise RulesError("booster use %r must be card-cell@target-cell, e.g. b1@d5" % text)
        return
    parts = text.split("/")
    head = parts[0]
    if len(head) < 3 or head[-1] not in g.DIR_LETTERS or g.parse_cell(head[:-1]) < 0:
        raise RulesError("action %r: expected a roll such as e5n, a keeper step such as Kn, "
                         "a booster use such as b1@d5, or end" % text)
    for h in parts[1:]:
        if g.parse_cell(h) < 0:
            raise RulesError("action %r: hop target %r is no cell" % (text, h))


# ---------------------------------------------------------------------------------------------
# Binary action encoding for the board's log. A 16-bit big-endian word, then one byte per hop:
#   bits 15-14 = 0: cube move (activation or roll, as the phase says):
#                   bits 13-7 source cell, bits 6-5 direction, bits 4-2 number of hops.
#   bits 15-14 = 1: bit 13 set: end; else bits 1-0 the keeper's step direction.
#   bits 15-14 = 2: booster use: bits 13-7 card cell, bits 6-0 target cell.
# Hop bytes: the target cells in order. Decoding needs the position (it picks the legal action).


def encode_action(action):
    kind, src, d, dst, code, hops = action
    if kind == ACTIVATE or kind == ROLL:
        if len(hops) > 7:
            raise RulesError("too many hops to encode")
        w = (src << 7) | (d << 5) | (len(hops) << 2)
        return bytes((w >> 8, w & 0xFF)) + bytes(hops)
    if kind == STEP:
        return bytes((0x40, d))
    if kind == END:
        return bytes((0x60, 0))
    if kind == BOOST:
        w = 0x8000 | (src << 7) | dst
        return bytes((w >> 8, w & 0xFF))
    raise RulesError("unknown action kind %r" % kind)


def decode_action(pos, buf, offset=0):
    """(action, next offset) of the encoded action at buf[offset:], legal in pos."""
    if offset + 2 > len(buf):
        raise RulesError("truncated action at byte %d" % offset)
    w = (buf[offset] << 8) | buf[offset + 1]
    top = w >> 14
    nxt = offset + 2
    if top == 2:
        # A booster use is checked as legal_actions() would list it, without listing them all
        # (up to 6 cards x every empty grey cell: a large list on the board's heap).
        src = (w >> 7) & 0x7F
        dst = w & 0x7F
        if src in pos.boost_sources() and dst < g.N_CELLS and pos.is_boost_target(dst):
            return (BOOST, src, 0, dst, pos.cards[src], ()), nxt
        raise RulesError("encoded action %04x at byte %d is not legal in %s" % (
            w, offset, pos.notation()))
    legal = pos.legal_actions(False)
    if top == 0:
        src = (w >> 7) & 0x7F
        d = (w >> 5) & 3
        n = (w >> 2) & 7
        if nxt + n > len(buf):
            raise RulesError("truncated hops at byte %d" % nxt)
        hops = tuple(buf[nxt:nxt + n])
        nxt += n
        for a in legal:
            if a[0] <= ROLL and a[1] == src and a[2] == d and a[5] == hops:
                return a, nxt
    elif top == 1:
        if w & 0x2000:
            if w == 0x6000 and END_ACTION in legal:
                return END_ACTION, nxt
        else:
            for a in legal:
                if a[0] == STEP and a[2] == (w & 3):
                    return a, nxt
    raise RulesError("encoded action %04x at byte %d is not legal in %s" % (w, offset,
                                                                             pos.notation()))


# ---------------------------------------------------------------------------------------------


def perft(pos, depth):
    """Number of distinct sequences of depth legal actions from pos (see the rulings)."""
    if depth <= 0:
        return 1
    actions = pos.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        pos.push(a)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def start_position(players=2, layout="polygon", cards=False):
    """The start of a game: layout (a name in layouts.LAYOUTS or a <cells> text of cargo cubes),
    each keeper on its exit portal, optionally the base cards in their default places."""
    seats = layouts.SEATS_BY_PLAYERS.get(players)
    if seats is None:
        raise RulesError("players must be 2, 3 or 4, not %r" % (players,))
    cells = layouts.LAYOUTS.get(layout, layout)
    pos = Position.parse("%s %s S a" % (cells, seats))
    for s in pos.seats:
        if pos._keeper[s] < 0:
            portal = g.EXIT_PORTAL[s]
            pos.stacks[portal].append(KEEPER + s)
            pos._keeper[s] = portal
    if cards:
        for s in pos.seats:
            for name, letter in layouts.DEFAULT_BASE_CARDS:
                c = g.rotate(g.parse_cell(name), s)
                if pos.cards[c]:
                    raise RulesError("layout already has a card on %s" % g.cell_name(c))
                pos.cards[c] = card_code(letter, s)
    for s in range(4):
        pos._score[s] = pos._terminal_score(s)
    return pos

