# «Формула 99»: the legal actions of a position (docs/rules/formula99.md), a mixin of
# rules.Position kept in its own module so that each compiles in the board's small heap.
# Everything here reads the position; rules.py changes it.

from shared_rules.formula99 import track as TK
from shared_rules.formula99 import cards as C
# the constants used here, by name: a star import filled the module's dictionary with all of
# them (~1 KB of the board's heap)
from shared_rules.formula99.const import (
    A_ANSWER, A_BEAM, A_CLEAR, A_DASH, A_FWD, A_JOKER, A_LASER, A_MOVE, A_RAMDRAW, A_SHOW, A_TOW,
    BLOCKADE, DEF, END, FINISHED_BASE, F_DREW, F_LAID, F_LIFTED, F_PLAYED, HOME, K_BEAM, K_BLOCK,
    K_DRAW, K_GO, K_JOKER, K_LASER, K_LAY, K_LIFT, K_MOVE, K_PLAY, K_SHOW, K_TOW, L_DISCARD,
    L_HAND, NODEF, NONE, O_AG, O_CCARD, O_CHG, O_CIV, O_DECK, O_DECKN, O_FLAGS, O_FULL, O_HANDN,
    O_LEVEL, O_LOC, O_NSEATS, O_PHASE, O_RESH, O_SHIP, O_SP, O_TURN, O_WINNER, PASS, PH_CHARGES,
    PH_START, U_BLAST, U_BRAKE, U_CLEAR, U_DASH, U_JUMP3, U_JUMP4, U_KICK, U_MAGNET, U_PULL, U_RAM,
    U_SAC,
)


class Legal:
    """Reading a position: pieces, paths, and the legal actions of whoever acts."""

    def deck_size(self):
        s = self.st
        if s[O_FULL]:
            return s[O_DECKN]
        n = 54
        for i in range(s[O_NSEATS]):
            n -= s[O_HANDN + i]
        for q in range(18):
            if s[O_CHG + q] != HOME and s[O_CCARD + q] != BLOCKADE:
                n -= 1
        for c in range(54):
            if s[O_LOC + c] == L_DISCARD:
                n -= 1
        return n

    def _boards(self):
        """(ships, charges): bytearray(72) of slot + 1 standing on each track cell."""
        s = self.st
        ships = bytearray(72)
        chg = bytearray(72)
        for q in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + q]
            if p < 72:
                ships[p] = q + 1
            c = s[O_CHG + q]
            if c != HOME:
                chg[c] = q + 1
        return ships, chg

    def ship_at(self, cell):
        """Slot of the ship on a track cell, -1 if none."""
        s = self.st
        for q in range(2 * s[O_NSEATS]):
            if s[O_SHIP + q] == cell:
                return q
        return -1

    def charge_at(self, cell):
        s = self.st
        for q in range(2 * s[O_NSEATS]):
            if s[O_CHG + q] == cell:
                return q
        return -1

    def _top(self):
        s = self.st
        sp = s[O_SP]
        return O_AG + 5 * (sp - 1) if sp else -1

    def charge_to_show(self):
        """The cell of the charge whose card is to be shown (or cleared) now, else -1. The
        board sees that charge's token leave its cell before it knows the card."""
        s = self.st
        i = self._top()
        if i >= 0:
            if s[i] == A_SHOW:
                return s[i + 2]
            if s[i] == A_CLEAR:
                return s[i + 1]
        return -1

    def _generate(self):
        s = self.st
        out = []
        if s[O_WINNER] != NONE:
            return out
        i = self._top()
        if i >= 0:
            k = s[i]
            if k == A_MOVE:
                self._gen_moves(s[i + 1], s[i + 3], s[i + 4] - 1, out)
            elif k == A_SHOW:
                q = self.charge_at(s[i + 2])
                self._gen_shown(s[O_CCARD + q] if q >= 0 else 0, out)
            elif k == A_CLEAR:
                q = self.charge_at(s[i + 1])
                self._gen_shown(s[O_CCARD + q] if q >= 0 else 0, out)
            elif k == A_DASH or k == A_RAMDRAW:
                self._gen_drawn(out)
            elif k == A_FWD:
                self._gen_fwd(s[i + 1], s[i + 2], out)
            elif k == A_TOW:
                self._gen_tow(s[i + 1], s[i + 2], out)
            elif k == A_BEAM:
                self._gen_beam(s[i + 2], out)
            elif k == A_LASER:
                self._gen_laser(s[i + 1], s[i + 2], out)
            elif k == A_JOKER:
                for v in range(4, 15):
                    out.append((K_JOKER << 24) | v)
            elif k == A_ANSWER:
                self._gen_answer(s[i + 2] >> 1, s[i + 3], out)
            return out
        seat = s[O_TURN]
        ph = s[O_PHASE]
        fl = s[O_FLAGS]
        if ph == PH_CHARGES:
            self._gen_charges(seat, fl, out)
            out.append(END)
            return out
        if ph == PH_START:
            if not fl:
                hn = s[O_HANDN + seat]
                have = self._drawable()
                for n in (1, 2):
                    if hn + n <= 3 and have >= n:
                        out.append((K_DRAW << 24) | n)
            if s[O_LEVEL] >= 2 and not fl & F_PLAYED:
                self._gen_plays(seat, out)
        n = len(out)
        self._gen_moves(seat, 5, -1, out)
        if ph == PH_START and len(out) == n:
            out.append(PASS)
        return out

    def _drawable(self):
        s = self.st
        n = self.deck_size()
        for c in range(54):
            if s[O_LOC + c] == L_DISCARD:
                n += 1
        return n

    def _pool(self, out, above=0):
        """Public view: the cards not in the discard pile (of value > above)."""
        s = self.st
        for c in range(1, 55):
            if s[O_LOC + c - 1] != L_DISCARD and C.value(c) > above:
                out.append((K_SHOW << 24) | c)

    def _gen_shown(self, card, out):
        if self.st[O_FULL]:
            out.append((K_SHOW << 24) | card)
        else:
            self._pool(out)

    def _gen_drawn(self, out):
        s = self.st
        if not s[O_FULL]:
            if self.deck_size() == 0:  # the discard pile is about to become the deck
                for c in range(1, 55):
                    out.append((K_SHOW << 24) | c)
            else:
                self._pool(out)
            return
        if s[O_DECKN]:
            out.append((K_SHOW << 24) | s[O_DECK + s[O_DECKN] - 1])
        else:
            out.append((K_SHOW << 24) | self._reshuffled()[0])

    def _reshuffled(self):
        """Full view: the discard pile shuffled as the next deck (top first)."""
        return C.shuffle(self.discard(), C.reshuffle_seed(self.seed(), self.st[O_RESH] + 1))

    def _gen_answer(self, seat, v, out):
        s = self.st
        if s[O_FULL]:
            for c in range(1, 55):
                if s[O_LOC + c - 1] == L_HAND + seat and C.value(c) > v:
                    out.append(DEF)
                    return
            out.append(NODEF)
            return
        if s[O_HANDN + seat]:
            for c in range(1, 55):
                if s[O_LOC + c - 1] != L_DISCARD and C.value(c) > v:
                    out.append(DEF)
                    break
        out.append(NODEF)

    def _walk(self, q, limit, visit):
        """Depth-first over the standard-move paths of ship slot q (1..limit steps, not past
        its lap end, never onto a blockade): visit(dest, length, lane_bits, cells) for every
        path, dest FINISH when the path reaches the lap end (dest may hold a ship)."""
        s = self.st
        cell = s[O_SHIP + q]
        civ = s[O_CIV + (q >> 1)]
        room = TK.LAP - TK.progress(cell, civ)
        if limit > room:
            limit = room
        blocked = self._blockades()
        stack = [(cell, 0, 0, 0)]
        cells = []
        while stack:
            c, n, bits, ent = stack.pop()
            if n:
                del cells[n - 1:]
                cells.append(c)
                visit(c, n, bits, cells)
                if c == TK.FINISH or n == limit:
                    continue
            if n + 1 == room:
                stack.append((TK.FINISH, n + 1, bits, ent))
                continue
            if TK.is_red(c):
                for lane in (1, 0):
                    nxt = TK.fwd(c, lane)
                    if not blocked[nxt]:
                        stack.append((nxt, n + 1, bits | (lane << ent), ent + 1))
            else:
                nxt = TK.fwd(c, 0)
                if not blocked[nxt]:
                    stack.append((nxt, n + 1, bits, ent))

    def _blockades(self):
        s = self.st
        b = bytearray(72)
        for q in range(2 * s[O_NSEATS]):
            if s[O_CHG + q] != HOME and s[O_CCARD + q] == BLOCKADE:
                b[s[O_CHG + q]] = 1
        return b

    def _gen_moves(self, seat, limit, only, out):
        """Standard moves of seat's ships (only: one slot, -1 either), up to limit steps."""
        s = self.st
        civ = s[O_CIV + seat]
        ships, _ = self._boards()
        for j in (0, 1):
            q = 2 * seat + j
            if only >= 0 and q != only:
                continue
            p = s[O_SHIP + q]
            if j and only < 0 and p == s[O_SHIP + q - 1]:
                continue  # both in the start zone: one move
            if p == TK.START:
                if not ships[TK.plus_cell(civ)]:
                    out.append((K_MOVE << 24) | (TK.START << 7) | (1 << 3))
            elif p < 72:
                base = (K_MOVE << 24) | (p << 7)
                found = []

                def visit(dest, n, bits, cells):
                    if dest == TK.FINISH or not ships[dest]:
                        found.append(base | (n << 3) | bits)
                self._walk(q, limit, visit)
                found.sort()
                out.extend(found)

    def move_path(self, action):
        """(ship slot, cells stepped onto in order) of a standard move of the player acting;
        the last cell is FINISH for a finish."""
        s = self.st
        src = (action >> 7) & 127
        n = (action >> 3) & 15
        bits = action & 7
        seat = self.to_move
        q = 2 * seat
        if s[O_SHIP + q] != src:
            q += 1
        if src == TK.START:
            return q, [TK.plus_cell(s[O_CIV + seat])]
        cells = []
        self.path(src, TK.LAP - TK.progress(src, s[O_CIV + seat]), bits, n, -1, None, cells)
        return q, cells

    def path(self, c, room, bits, n, stop, blocked, cells):
        """Append to cells the cells of a path of n steps forward from c, leaving red cells
        into the lanes of bits (lowest bit first); the step that reaches the lap end (room
        steps) is FINISH and ends it, so does the cell stop, and it stops before a cell marked
        in blocked (a bytearray, or None). Returns the sector entries made."""
        ent = 0
        for i in range(n):
            if i + 1 == room:
                cells.append(TK.FINISH)
                break
            if TK.is_red(c):
                nxt = TK.fwd(c, bits & 1)
                bits >>= 1
                ent += 1
            else:
                nxt = TK.fwd(c, 0)
            if blocked is not None and blocked[nxt]:
                break
            cells.append(nxt)
            c = nxt
            if c == stop:
                break
        return ent

    def _hand_cards(self, seat):
        s = self.st
        if s[O_FULL]:
            return [c for c in range(1, 55) if s[O_LOC + c - 1] == L_HAND + seat]
        if not s[O_HANDN + seat]:
            return []
        return [c for c in range(1, 55) if s[O_LOC + c - 1] != L_DISCARD]

    def _gen_plays(self, seat, out):
        s = self.st
        cards = self._hand_cards(seat)
        if not cards:
            return
        level = s[O_LEVEL]
        ships, chg = self._boards()
        own = [s[O_SHIP + 2 * seat], s[O_SHIP + 2 * seat + 1]]
        on_track = [p for p in own if p < 72]
        if own[0] == own[1]:
            own = own[:1]
        drawable = self._drawable()
        rams = None
        magnets = None
        pulls = None
        clears = None
        for card in cards:
            base = (K_PLAY << 24) | (card << 18)
            su = C.suit(card)
            r = C.rank(card)
            if su == C.HEARTS:
                out.append(base | (U_BRAKE << 14))
            elif su == C.DIAMONDS:
                if drawable:
                    out.append(base | (U_DASH << 14))
            elif su == C.CLUBS:
                if rams is None:
                    rams = []
                    for x in own:
                        for y in self._ram_targets(seat, x, ships):
                            rams.append((x << 7) | y)
                for xy in rams:
                    if drawable:
                        out.append(base | (U_RAM << 14) | xy)
                    out.append(base | (U_SAC << 14) | xy)
            elif su == C.SPADES:
                if r <= 10:
                    if magnets is None:
                        magnets = self._magnet_options(seat, ships, chg)
                    for bq in magnets:
                        out.append(base | (U_MAGNET << 14) | bq)
                elif r == 11:
                    for x in on_track:
                        out.append(base | (U_JUMP4 << 14) | (x << 7))
                elif r == 12:
                    if on_track:
                        out.append(base | (U_JUMP3 << 14))
                elif r == 13:
                    for q in range(2 * s[O_NSEATS]):
                        p = s[O_SHIP + q]
                        if p < 72:
                            out.append(base | (U_KICK << 14) | p)
                        elif p == TK.FINISH:
                            out.append(base | (U_KICK << 14) | (FINISHED_BASE + s[O_CIV + (q >> 1)]))
                else:
                    for q in range(2 * s[O_NSEATS]):
                        if s[O_SHIP + q] < 72:
                            out.append(base | (U_BLAST << 14))
                            break
            if level == 3 and r == 2:
                if pulls is None:
                    pulls = self._pull_options(seat, on_track, ships, chg)
                for xq in pulls:
                    out.append(base | (U_PULL << 14) | xq)
            elif level == 3 and r == 3:
                if clears is None:
                    clears = []
                    for c in range(72):
                        q = chg[c] - 1
                        if q < 0 or s[O_CCARD + q] == BLOCKADE:
                            continue
                        for x in on_track:
                            if TK.sector(x) == TK.sector(c) and (c >> 1) > (x >> 1):
                                clears.append(c)
                                break
                for c in clears:
                    out.append(base | (U_CLEAR << 14) | c)

    def _reach(self, q):
        """Cells a standard move of slot q of 1..5 steps could end on, ignoring ships, with
        a blockade cell allowed as the last cell (the ram's and the pull's "ahead within 5")."""
        s = self.st
        cell = s[O_SHIP + q]
        room = TK.LAP - TK.progress(cell, s[O_CIV + (q >> 1)])
        limit = 5 if room > 5 else room
        blocked = self._blockades()
        seen = []
        frontier = [cell]
        for n in range(1, limit + 1):
            if n == room:
                break
            nxt = []
            for c in frontier:
                if TK.is_red(c):
                    steps = (TK.fwd(c, 0), TK.fwd(c, 1))
                else:
                    steps = (TK.fwd(c, 0),)
                for d in steps:
                    if d not in seen:
                        seen.append(d)
                    if not blocked[d]:
                        nxt.append(d)
            frontier = nxt
        return seen

    def _ram_targets(self, seat, x, ships):
        s = self.st
        civ = s[O_CIV + seat]
        out = []
        if x == TK.START:
            y = ships[TK.plus_cell(civ)] - 1
            if y >= 0 and (y >> 1) != seat:
                out.append(TK.plus_cell(civ))
            return out
        if x >= 72:
            return out
        q = 2 * seat if s[O_SHIP + 2 * seat] == x else 2 * seat + 1
        for c in self._reach(q):
            y = ships[c] - 1
            if y >= 0 and (y >> 1) != seat:
                out.append(c)
        out.sort()
        return out

    def _magnet_options(self, seat, ships, chg):
        s = self.st
        out = []
        own = (s[O_SHIP + 2 * seat], s[O_SHIP + 2 * seat + 1])
        for qc in range(72):
            k = chg[qc] - 1
            if k < 0 or s[O_CCARD + k] == BLOCKADE:
                continue
            sec = TK.sector(qc)
            for b in range(72):
                if not ships[b] or TK.sector(b) != sec:
                    continue
                for x in own:
                    if x < 72 and x != b and TK.sector(x) == sec:
                        out.append((b << 7) | qc)
                        break
        return out

    def _pull_options(self, seat, on_track, ships, chg):
        s = self.st
        out = []
        for x in on_track:
            dest = TK.back(x, TK.lane_of(x))
            if ships[dest] or chg[dest] or TK.is_plus(dest):
                continue
            q = 2 * seat if s[O_SHIP + 2 * seat] == x else 2 * seat + 1
            for c in self._reach(q):
                k = chg[c] - 1
                if k >= 0 and s[O_CCARD + k] != BLOCKADE and self.spaced(dest, c):
                    out.append((x << 7) | c)
        out.sort()
        return out

    def _gen_charges(self, seat, fl, out):
        s = self.st
        free = -1
        for q in (2 * seat, 2 * seat + 1):
            if s[O_CHG + q] == HOME:
                free = q
        if not fl & (F_DREW | F_LIFTED) and free >= 0:
            if s[O_HANDN + seat]:
                cells = self.lay_cells(seat)
                if s[O_FULL]:
                    cards = self._hand_cards(seat)
                    only = self.lay_card
                    if only:  # never none while the hand has one: the turn ends by itself
                        cards = [only] if only in cards else cards[:1]  # when only `end` is left
                    for c in cells:
                        for card in cards:
                            out.append((K_LAY << 24) | (c << 6) | card)
                else:
                    for c in cells:
                        out.append((K_LAY << 24) | (c << 6))
            _, chg = self._boards()
            for j in (0, 1):
                p = s[O_SHIP + 2 * seat + j]
                if p < 72 and TK.is_red(p) and not chg[p] and self.spaced(p, -1):
                    out.append((K_BLOCK << 24) | p)
        if not fl & F_LAID:
            for q in (2 * seat, 2 * seat + 1):
                c = s[O_CHG + q]
                if c != HOME:
                    out.append((K_LIFT << 24) | c)

    def spaced(self, cell, moving):
        """Is cell at least 3 from every charge on a cell sharing a lane with it (but the
        charge on `moving`, a cell or -1)?"""
        s = self.st
        m = TK.lanes_mask(cell)
        for q in range(2 * s[O_NSEATS]):
            o = s[O_CHG + q]
            if o != HOME and o != moving and TK.lanes_mask(o) & m and TK.dist(o, cell) < 3:
                return False
        return True

    def lay_cells(self, seat):
        """The cells where the seat may lay a charge with a card now (§5.1), ascending.
        One pass over the pieces marks what each forbids (bad[c]: 1 by blue-lane pieces, 2 by
        yellow-lane ones, as lane masks), then one pass over the cells."""
        s = self.st
        banned = 0
        for j in (0, 1):
            p = s[O_SHIP + 2 * seat + j]
            if p < 72:
                sec = p >> 3
                banned |= (1 << sec) | (1 << ((sec + 1) % 9))
        bad = bytearray(TK.LAP)  # by t: lane masks a piece forbids there
        taken = bytearray(72)
        for q in range(2 * s[O_NSEATS]):
            o = s[O_CHG + q]
            if o != HOME:
                taken[o] = 1
                m = TK.lanes_mask(o)
                t = o >> 1
                for d in (-2, -1, 0, 1, 2):  # closer than 3 to a charge
                    bad[(t + d) % TK.LAP] |= m
            o = s[O_SHIP + q]
            if o < 72:
                taken[o] = 1
                m = TK.lanes_mask(o)
                t = o >> 1
                for d in (1, 2, 3, 4):  # 1 to 4 cells ahead of a ship
                    bad[(t + d) % TK.LAP] |= m
        out = []
        for c in range(72):
            t = c >> 1
            if t & 3 == 3:
                if c & 1:
                    continue  # no yellow id on a red cell
                m = 3
            else:
                m = 1 << (c & 1)
            if taken[c] or c & 7 == 0 or banned >> (c >> 3) & 1 or bad[t] & m:
                continue
            out.append(c)
        return out

    def _gen_fwd(self, q, steps, out):
        s = self.st
        x = s[O_SHIP + q]
        civ = s[O_CIV + (q >> 1)]
        room = TK.LAP - TK.progress(x, civ)
        ships, chg = self._boards()
        blocked = self._blockades()
        found = []
        # every lane choice: at most 3 sector entries in 10 steps
        for bits in range(8):
            cells = []
            ent = self.path(x, room, bits, steps, -1, blocked, cells)
            if ent < 3 and bits >> ent:
                continue  # choices beyond the entries made: the same path as bits below
            land = len(cells) - 1
            if land >= 0 and cells[land] != TK.FINISH:
                while land >= 0 and (ships[cells[land]] or chg[cells[land]]):
                    land -= 1
            if land < 0:
                a = (K_GO << 24) | (x << 10) | TK.NOWHERE
                if a not in found:
                    found.append(a)
                continue
            # the lane bits of the entries up to the landing cell
            used = 0
            c = x
            for i in range(land + 1):
                if TK.is_red(c) and cells[i] != TK.FINISH:
                    used += 1
                c = cells[i]
            lb = bits & ((1 << used) - 1)
            dest = cells[land]
            base = (K_GO << 24) | (dest << 10) | (lb << 7)
            any_charge = False
            for i in range(land):
                k = chg[cells[i]] - 1
                if k >= 0 and s[O_CCARD + k] != BLOCKADE:
                    any_charge = True
                    a = base | cells[i]
                    if a not in found:
                        found.append(a)
            if not any_charge:
                a = base | TK.NOWHERE
                if a not in found:
                    found.append(a)
        found.sort()
        out.extend(found)

    def go_path(self, action):
        """(crosser slot, cells up to the landing) of a forward move of an event."""
        s = self.st
        i = self._top()
        q = s[i + 1]
        x = s[O_SHIP + q]
        dest = (action >> 10) & 127
        bits = (action >> 7) & 7
        cells = []
        if dest != x:
            self.path(x, TK.LAP - TK.progress(x, s[O_CIV + (q >> 1)]), bits, 36, dest, None,
                      cells)
        return q, cells

    def _gen_tow(self, q, kind, out):
        s = self.st
        x = s[O_SHIP + q]
        if x >= 72:
            return
        ships, chg = self._boards()
        found = []
        for k in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + k]
            if k == q or p >= 72:
                continue
            if kind == 7:
                if not TK.ahead(x, p, 3):
                    continue
                dest = TK.back(p, TK.lane_of(p))
            else:
                if not TK.behind(x, p, 3):
                    continue
                dest = TK.back(x, TK.lane_of(x))
            if ships[dest] or chg[dest]:
                continue
            found.append((K_TOW << 24) | p)
        found.sort()
        out.extend(found)

    def beam_ship(self, owner, x_slot, cell):
        """The owner's ship that uses a beam or laser charge triggered at cell (§7), or -1."""
        s = self.st
        if (x_slot >> 1) == owner and s[O_SHIP + x_slot] < 72:
            return x_slot
        best = -1
        key = 0
        for q in (2 * owner, 2 * owner + 1):
            p = s[O_SHIP + q]
            if p >= 72:
                continue
            d = ((cell >> 1) - (p >> 1)) % TK.LAP
            k = (min(d, TK.LAP - d) << 3) | ((0 if d <= TK.LAP - d else 1) << 1) | (p & 1)
            if best < 0 or k < key:
                best = q
                key = k
        return best

    def _gen_beam(self, z, out):
        s = self.st
        zc = s[O_SHIP + z]
        if zc >= 72:
            return
        sec = TK.sector(zc)
        ships, chg = self._boards()
        land = []
        prev = (sec + 8) % 9
        for c in range(prev * 8, prev * 8 + 8):
            if TK.is_track(c) and not ships[c] and not chg[c]:
                land.append(c)
        for k in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + k]
            if k == z or p >= 72:
                continue
            d = (TK.sector(p) - sec) % 9
            if d != 1 and d != 2:
                continue
            pt = TK.progress(p, s[O_CIV + (k >> 1)])
            for c in land:
                if pt - ((p >> 1) - (c >> 1)) % TK.LAP >= 0:
                    out.append((K_BEAM << 24) | (p << 7) | c)
        out.sort()

    def _gen_laser(self, owner, z, out):
        s = self.st
        zc = s[O_SHIP + z]
        if zc >= 72:
            return
        front = []
        backs = []
        for k in range(2 * s[O_NSEATS]):
            p = s[O_SHIP + k]
            if (k >> 1) == owner or p >= 72:
                continue
            if TK.ahead(zc, p, 2):
                front.append(k)
            elif TK.behind(zc, p, 2):
                backs.append(k)
        found = []
        for f in front:
            found.append((K_LASER << 24) | (s[O_SHIP + f] << 7) | TK.NOWHERE)
            for b in backs:
                if (b >> 1) != (f >> 1):
                    found.append((K_LASER << 24) | (s[O_SHIP + f] << 7) | s[O_SHIP + b])
        for b in backs:
            found.append((K_LASER << 24) | (TK.NOWHERE << 7) | s[O_SHIP + b])
        found.sort()
        out.extend(found)

