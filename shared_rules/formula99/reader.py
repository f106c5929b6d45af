# «Формула 99»: the position and action notations read (docs/rules/formula99.md §9, §10); writing
# them is notation.py's. Loaded only when text is read: a position given to the board or the host,
# an action typed (the board drops it again after, docs/board-formula99.md).

from shared_rules.formula99 import track as TK
from shared_rules.formula99 import cards as C
from shared_rules.formula99 import const  # the constants (no import of rules.py: a circle)
from shared_rules.formula99 import notation as N  # an action is read by writing the legal ones


def _err(msg):
    return const.RulesError(msg)


# -- places of ships -----------------------------------------------------------------------------

def _slot_of_place(pos, text, what):
    s = pos.st
    place, civ = TK.parse_place(text)
    if place < 0:
        raise _err("%s %r is no ship's place (a track cell such as 3y2 or 4r, s<civ>, f<civ>)"
                   % (what, text))
    if place < 72:
        q = pos.ship_at(place)
        if q < 0:
            raise _err("%s: no ship on %s" % (what, text))
        return q
    seat = pos.seat_of_civ(civ) if civ else -1
    if seat < 0:
        raise _err("%s %r: civilisation %s is not in play" % (what, text, civ or "?"))
    for q in (2 * seat, 2 * seat + 1):
        if s[const.O_SHIP + q] == place:
            return q
    raise _err("%s: no ship of civilisation %d on %s" % (what, civ, text))


# -- position ------------------------------------------------------------------------------------

def parse_position(text, position_class):
    """The position written as text (an instance of position_class, rules.Position)."""
    if not isinstance(text, str):
        raise _err("position must be text")
    f = text.split()
    if len(f) < 6:
        raise _err("position needs 'L<level> <seat>... <turn> <agenda> d:<discard> k:<deck>' "
                   "(at least two seats), got %d fields" % len(f))
    if len(f[0]) != 2 or f[0][0] != "L" or f[0][1] not in "123":
        raise _err("level %r must be L1, L2 or L3" % f[0])
    level = int(f[0][1])
    seat_fields = f[1:-4]
    turn_f, agenda_f, disc_f, deck_f = f[-4:]
    if not deck_f.startswith("k:"):
        raise _err("the last field %r must be the deck: k:? or k:<cards>/<seed>/<reshuffles>"
                   % deck_f)
    full = deck_f != "k:?"
    civs = []
    parsed = []
    for fld in seat_fields:
        p = fld.split(":")
        if len(p) != 4 or len(p[0]) != 1 or not ("1" <= p[0] <= "9"):
            raise _err("seat %r must be <civ>:<ships>:<charges>:<hand>, e.g. 1:s,1b2:-:3" % fld)
        civs.append(int(p[0]))
        parsed.append(p)
    try:
        pos = position_class(civs, level, full)
    except const.RulesError as e:
        raise _err(str(e))
    s = pos.st
    used = bytearray(55)  # full view: how often each card appears

    def take(card, where):
        if used[card]:
            raise _err("card %s appears twice (%s)" % (C.name(card), where))
        used[card] = 1

    def cards_of(txt, where):
        if txt == "-":
            return []
        try:
            return C.parse_list(txt)
        except ValueError as e:
            raise _err("%s: %s" % (where, e))

    occupied = bytearray(72)
    charged = bytearray(72)
    for seat in range(len(civs)):
        civtext, ships, chg, hand = parsed[seat]
        civ = civs[seat]
        sp = ships.split(",")
        if len(sp) != 2:
            raise _err("civilisation %d: two ships, e.g. s,1b2 (got %r)" % (civ, ships))
        for j in (0, 1):
            k = "sfc".find(sp[j]) if len(sp[j]) == 1 else -1
            place = TK.START + k if k >= 0 else TK.parse(sp[j])
            if place < 0:
                raise _err("civilisation %d: ship place %r must be s, f, c or a track cell"
                           % (civ, sp[j]))
            if place < 72:
                if occupied[place]:
                    raise _err("two ships on %s" % sp[j])
                occupied[place] = 1
            s[const.O_SHIP + 2 * seat + j] = place
        if s[const.O_SHIP + 2 * seat] == s[const.O_SHIP + 2 * seat + 1] and s[const.O_SHIP + 2 * seat] != TK.START:
            raise _err("civilisation %d: both ships on %s" % (civ, sp[0]))
        if TK.CONTROL in (s[const.O_SHIP + 2 * seat], s[const.O_SHIP + 2 * seat + 1]):
            if s[const.O_WINNER] != const.NONE:
                raise _err("two ships in the control room")
            other = s[const.O_SHIP + 2 * seat] + s[const.O_SHIP + 2 * seat + 1] - TK.CONTROL
            if other != TK.FINISH:
                raise _err("civilisation %d: a ship in the control room needs the other on "
                           "its finish cell" % civ)
            s[const.O_WINNER] = seat
        if chg != "-":
            items = chg.split(",")
            if len(items) > 2:
                raise _err("civilisation %d: at most 2 charges" % civ)
            for j in range(len(items)):
                it = items[j]
                eq = it.find("=")
                cell = TK.parse(it[:eq]) if eq > 0 else -1
                if cell < 0:
                    raise _err("civilisation %d: charge %r must be <cell>=<card|?|#>" % (civ, it))
                if charged[cell]:
                    raise _err("two charges on %s" % it[:eq])
                charged[cell] = 1
                ct = it[eq + 1:]
                q = 2 * seat + j
                s[const.O_CHG + q] = cell
                if ct == "#":
                    s[const.O_CCARD + q] = const.BLOCKADE
                    if not TK.is_red(cell) or cell not in (s[const.O_SHIP + 2 * seat],
                                                          s[const.O_SHIP + 2 * seat + 1]):
                        raise _err("blockade %s: a blockade lies on a red cell under one of its "
                                   "owner's ships" % it)
                elif ct == "?":
                    if full:
                        raise _err("charge %s: a full position (k:<cards>/...) names every "
                                   "card" % it)
                    s[const.O_CCARD + q] = const.UNKNOWN
                else:
                    card = C.parse(ct)
                    if not card:
                        raise _err("charge %r: %r is no card" % (it, ct))
                    if not full:
                        raise _err("charge %s: a public position (k:?) shows no charge's card, "
                                   "write %s=?" % (it, it[:eq]))
                    take(card, "charge " + it)
                    s[const.O_CCARD + q] = card
                    s[const.O_LOC + card - 1] = const.L_CHARGE + q
        if full:
            hc = cards_of(hand, "civilisation %d's hand" % civ)
            for card in hc:
                take(card, "hand of %d" % civ)
                s[const.O_LOC + card - 1] = const.L_HAND + seat
            n = len(hc)
        else:
            if len(hand) != 1 or not ("0" <= hand[0] <= "5"):
                raise _err("civilisation %d: a public hand is its number of cards, 0 to 5 "
                           "(got %r)" % (civ, hand))
            n = int(hand)
        if n > 5:
            raise _err("civilisation %d holds %d cards, at most 5" % (civ, n))
        s[const.O_HANDN + seat] = n
    # turn
    if len(turn_f) < 2 or turn_f[0] not in "123456789" or turn_f[1] not in const.PHASE_LETTERS:
        raise _err("turn %r must be <civ><phase a|m|c><flags d p l r>, e.g. 1a" % turn_f)
    tseat = pos.seat_of_civ(int(turn_f[0]))
    if tseat < 0:
        raise _err("turn %r: civilisation %s is not in play" % (turn_f, turn_f[0]))
    s[const.O_TURN] = tseat
    s[const.O_PHASE] = const.PHASE_LETTERS.index(turn_f[1])
    fl = 0
    for ch in turn_f[2:]:
        j = const.FLAG_LETTERS.find(ch)
        if j < 0 or fl >> j & 1:
            raise _err("turn %r: flags are d p l r, each at most once" % turn_f)
        fl |= 1 << j
    s[const.O_FLAGS] = fl
    # discard
    if not disc_f.startswith("d:"):
        raise _err("field %r must be the discard pile: d:<cards> or d:-" % disc_f)
    for card in cards_of(disc_f[2:], "discard pile"):
        take(card, "discard pile")
        s[const.O_LOC + card - 1] = const.L_DISCARD
    # deck
    if full:
        dp = deck_f[2:].split("/")
        if len(dp) != 3 or not dp[1].isdigit() or not dp[2].isdigit():
            raise _err("deck %r must be k:<cards top first, or ->/<seed>/<reshuffles>" % deck_f)
        deck = cards_of(dp[0], "deck")
        for card in deck:
            take(card, "deck")
        for c in range(1, 55):
            if not used[c]:
                raise _err("card %s is nowhere (a full position places all 54)" % C.name(c))
        m = len(deck)
        for i in range(m):
            s[const.O_DECK + m - 1 - i] = deck[i]
            s[const.O_LOC + deck[i] - 1] = const.L_DECK
        s[const.O_DECKN] = m
        seed = int(dp[1])
        if seed >= 1 << 31:
            raise _err("seed %d: below 2^31" % seed)
        for i in range(4):
            s[const.O_SEED + i] = (seed >> (24 - 8 * i)) & 255
        s[const.O_RESH] = min(int(dp[2]), 255)
    elif pos.deck_size() < 0:
        raise _err("more than 54 cards in hands, charges and the discard pile")
    # agenda
    if agenda_f != "-":
        for it in agenda_f.split(";"):
            _parse_item(pos, it)
    if s[const.O_WINNER] != const.NONE and s[const.O_SP]:
        raise _err("the game is over: nothing can be left to resolve")
    pos._settle()
    return pos


def _parse_item(pos, it):
    s = pos.st
    bad = _err("agenda item %r is not well formed (docs/rules/formula99.md §9)" % it)
    if not it:
        raise bad
    k = it[0]
    body = it[1:]
    try:
        if k == "M":
            seat = pos.seat_of_civ(int(body[0]))
            n = int(body[1])
            lim = int(body[2])
            if seat < 0 or n not in (1, 2) or lim not in (3, 5, 7):
                raise bad
            if body[3:] == "*":
                d = 0
            elif body[3] == "@":
                d = _slot_of_place(pos, body[4:], "agenda item " + it) + 1
                if (d - 1) >> 1 != seat:
                    raise bad
            else:
                raise bad
            pos._push_item(const.A_MOVE, seat, n, lim, d)
        elif k in "TV":
            x, cell = body.split("@")
            q = _slot_of_place(pos, x, "agenda item " + it)
            c = TK.parse(cell)
            if c < 0:
                raise bad
            if k == "V" and pos.charge_at(c) < 0:
                raise _err("agenda item %r: no charge on %s" % (it, cell))
            pos._push_item(const.A_TRIG if k == "T" else const.A_SHOW, q, c)
        elif k == "F":
            n, x = body.split(":")
            if n not in ("6", "10"):
                raise bad
            pos._push_item(const.A_FWD, _slot_of_place(pos, x, "agenda item " + it), int(n))
        elif k == "W":
            n, x = body.split(":")
            if n not in ("7", "8"):
                raise bad
            pos._push_item(const.A_TOW, _slot_of_place(pos, x, "agenda item " + it), int(n))
        elif k in "BK":
            civ, z = body.split(":")
            seat = pos.seat_of_civ(int(civ))
            q = _slot_of_place(pos, z, "agenda item " + it)
            if seat < 0 or q >> 1 != seat:
                raise bad
            pos._push_item(const.A_BEAM if k == "B" else const.A_LASER, seat, q)
        elif k == "J":
            x, rest = body.split(":")
            civ, cell = rest.split("@")
            seat = pos.seat_of_civ(int(civ))
            c = TK.parse(cell)
            if seat < 0 or c < 0:
                raise bad
            pos._push_item(const.A_JOKER, _slot_of_place(pos, x, "agenda item " + it), seat, c)
        elif k == "D" and not body:
            pos._push_item(const.A_DASH)
        elif k == "R":
            x, y = body.split(">")
            pos._push_item(const.A_RAMDRAW, _slot_of_place(pos, x, "agenda item " + it),
                           _slot_of_place(pos, y, "agenda item " + it))
        elif k == "A":
            v, xy = body.split(":")
            x, y = xy.split(">")
            v = int(v)
            if not 2 <= v <= 15:
                raise bad
            pos._push_item(const.A_ANSWER, _slot_of_place(pos, x, "agenda item " + it),
                           _slot_of_place(pos, y, "agenda item " + it), v)
        elif k == "C":
            c = TK.parse(body)
            if c < 0 or pos.charge_at(c) < 0:
                raise bad
            pos._push_item(const.A_CLEAR, c)
        else:
            raise bad
    except (ValueError, IndexError):
        raise bad


# -- actions -------------------------------------------------------------------------------------

_FORMS = ("moves `1b2-1r`, `1r-3b1/y`, `s1-1b1`; `pass`, `end`, `draw1`, `draw2`; cards "
          "`7h:brake`, `5c:ram:1b2>2y1`; `lay:3y2[=Qh]`, `block:4r`, `lift:3y2`; `=Qh`; "
          "`go:3b2/y!2r`, `as7`, `tow:2b1`, `beam:3b1>1y2`, `laser:3b1,-`, `def`, `nodef`")


def parse_action(pos, text):
    """The legal action written as text; RulesError naming the problem otherwise."""
    if not isinstance(text, str) or not text:
        raise const.RulesError("empty action")
    if pos.is_over():
        raise const.RulesError("action %r: the game is over" % text)
    legal = pos.legal_actions()
    a = _find(pos, legal, text)  # one text at a time: no table of hundreds in the board's heap
    if a is not None:
        return a
    # a move or forward move may also name the lane of the destination's sector
    if "/" in text:
        head, _, tail = text.partition("/")
        bang = tail.find("!")
        lanes = tail if bang < 0 else tail[:bang]
        rest = "" if bang < 0 else tail[bang:]
        if lanes:
            alt = head + ("/" + lanes[:-1] if lanes[:-1] else "") + rest
            dest = alt.split("-")[-1].split(":")[-1].split("/")[0].split("!")[0]
            c = TK.parse(dest)
            if c >= 0 and not TK.is_red(c) and TK.LANE_LETTERS[c & 1] == lanes[-1]:
                a = _find(pos, legal, alt)
                if a is not None:
                    return a
    raise const.RulesError(_why(pos, text, legal))


def _find(pos, legal, text):
    for a in legal:
        if N.format_action(pos, a) == text:
            return a
    return None


def _why(pos, text, legal):
    kinds = {}
    for a in legal:
        kinds[a >> 24] = 1
    who = pos.to_move
    if who < 0:
        return ("action %r: a card is to be shown now (=<card>, e.g. %s)"
                % (text, N.format_action(pos, legal[0])))
    civ = pos.civ(who)
    known = text in ("pass", "end", "draw1", "draw2", "def", "nodef") or text[:1] == "=" \
        or text.split(":")[0] in ("lay", "block", "lift", "go", "tow", "beam", "laser") \
        or text[:2] == "as" or "-" in text or (len(text) > 3 and text[2] == ":")
    if not known:
        return "action %r is not in the action notation (%s)" % (text, _FORMS)
    if text.startswith("lay:") and "=" not in text and pos.full:
        return ("action %r: a full position names the card laid, e.g. lay:%s=<card of the "
                "hand>" % (text, text[4:]))
    sample = ", ".join([N.format_action(pos, a) for a in legal[:6]])
    more = " ..." if len(legal) > 6 else ""
    return ("action %r is not legal now (civilisation %d to act; legal: %s%s)"
            % (text, civ, sample, more))
