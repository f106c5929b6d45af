# «Формула 99»: the position and action notations written (docs/rules/formula99.md §9, §10);
# reading them is reader.py's. Loaded only when text is needed (the board plays from the sensors
# and logs binary actions), and apart from the reader because the board writes text (`pos`, the
# log's header) far more often than it reads it: its plug-in loads only this half for that.

from shared_rules.formula99 import track as T
from shared_rules.formula99 import cards as C
from shared_rules.formula99 import const as R  # the constants (no import of rules.py: a circle)

RANK_CHARS = C.RANKS


# -- places of ships -----------------------------------------------------------------------------

def slot_place(pos, q):
    """Name of ship slot q's place: a track cell, s<civ>, f<civ>, c."""
    s = pos.st
    return T.place_name(s[R.O_SHIP + q], s[R.O_CIV + (q >> 1)])


def _seat_place(place):
    """A ship's place inside its seat field: s, f, c or the track cell."""
    if place < 72:
        return T.name(place)
    return "sfc"[place - T.START]


def _ship_key(place, civ):
    if place == T.START:
        return 0
    if place < 72:
        return 100 + T.progress(place, civ) * 2 + (place & 1)
    return 200 + place


# -- position ------------------------------------------------------------------------------------

def _cards_text(codes):
    return "".join([C.name(c) for c in codes]) or "-"


def _item_text(pos, i):
    s = pos.st
    k, a, b, c, d = s[i], s[i + 1], s[i + 2], s[i + 3], s[i + 4]
    if k == R.A_MOVE:
        return "M%d%d%d%s" % (s[R.O_CIV + a], b, c, "*" if not d else "@" + slot_place(pos, d - 1))
    if k == R.A_TRIG:
        return "T%s@%s" % (slot_place(pos, a), T.name(b))
    if k == R.A_SHOW:
        return "V%s@%s" % (slot_place(pos, a), T.name(b))
    if k == R.A_FWD:
        return "F%d:%s" % (b, slot_place(pos, a))
    if k == R.A_TOW:
        return "W%d:%s" % (b, slot_place(pos, a))
    if k == R.A_BEAM or k == R.A_LASER:
        return "%s%d:%s" % ("B" if k == R.A_BEAM else "K", s[R.O_CIV + a], slot_place(pos, b))
    if k == R.A_JOKER:
        return "J%s:%d@%s" % (slot_place(pos, a), s[R.O_CIV + b], T.name(c))
    if k == R.A_DASH:
        return "D"
    if k == R.A_RAMDRAW:
        return "R%s>%s" % (slot_place(pos, a), slot_place(pos, b))
    if k == R.A_ANSWER:
        return "A%d:%s>%s" % (c, slot_place(pos, a), slot_place(pos, b))
    if k == R.A_CLEAR:
        return "C%s" % T.name(a)
    return "?%d" % k


def format_position(pos):
    s = pos.st
    full = s[R.O_FULL]
    parts = ["L%d" % s[R.O_LEVEL]]
    for seat in range(s[R.O_NSEATS]):
        civ = s[R.O_CIV + seat]
        places = [s[R.O_SHIP + 2 * seat], s[R.O_SHIP + 2 * seat + 1]]
        if _ship_key(places[1], civ) < _ship_key(places[0], civ):
            places.reverse()
        ships = ",".join([_seat_place(p) for p in places])
        chg = pos.charges(seat)
        chg.sort()
        ctext = []
        for cell, card in chg:
            if card == R.BLOCKADE:
                ctext.append(T.name(cell) + "=#")
            elif card == R.UNKNOWN:
                ctext.append(T.name(cell) + "=?")
            else:
                ctext.append(T.name(cell) + "=" + C.name(card))
        hand = _cards_text(pos.hand(seat)) if full else str(s[R.O_HANDN + seat])
        parts.append("%d:%s:%s:%s" % (civ, ships, ",".join(ctext) or "-", hand))
    flags = ""
    for j in range(4):
        if s[R.O_FLAGS] >> j & 1:
            flags += R.FLAG_LETTERS[j]
    parts.append("%d%s%s" % (s[R.O_CIV + s[R.O_TURN]], R.PHASE_LETTERS[s[R.O_PHASE]], flags))
    items = [_item_text(pos, R.O_AG + 5 * i) for i in range(s[R.O_SP])]
    parts.append(";".join(items) or "-")
    parts.append("d:" + _cards_text(pos.discard()))
    if full:
        parts.append("k:%s/%d/%d" % (_cards_text(pos.deck()), pos.seed(), s[R.O_RESH]))
    else:
        parts.append("k:?")
    return " ".join(parts)


# -- actions -------------------------------------------------------------------------------------

def _lanes_text(start, cells, bits, dest_is_lane):
    """Lane letters of the sectors entered along cells (from start), the destination's own
    sector left out when the destination is a lane cell."""
    letters = []
    c = start
    for d in cells:
        if T.is_red(c) and d != T.FINISH:
            letters.append(T.LANE_LETTERS[bits & 1])
            bits >>= 1
        c = d
    if dest_is_lane and letters:
        letters.pop()
    return "".join(letters)


def _dest_name(pos, q, dest):
    s = pos.st
    civ = s[R.O_CIV + (q >> 1)]
    if dest == T.FINISH:
        return "c" if s[R.O_SHIP + (q ^ 1)] == T.FINISH else "f%d" % civ
    return T.name(dest)


def format_action(pos, a):
    s = pos.st
    k = a >> 24
    if k == R.K_MOVE:
        q, cells = pos.move_path(a)
        src = (a >> 7) & 127
        dest = cells[-1]
        lanes = _lanes_text(src, cells, a & 7, dest != T.FINISH and not T.is_red(dest))
        text = "%s-%s" % (slot_place(pos, q), _dest_name(pos, q, dest))
        return text + ("/" + lanes if lanes else "")
    if k == R.K_PASS:
        return "pass"
    if k == R.K_END:
        return "end"
    if k == R.K_DRAW:
        return "draw%d" % (a & 3)
    if k == R.K_PLAY:
        card = (a >> 18) & 63
        use = (a >> 14) & 15
        p1 = (a >> 7) & 127
        p2 = a & 127
        text = C.name(card) + ":" + R.USE_NAMES[use]
        civ = s[R.O_CIV + s[R.O_TURN]]
        if use == R.U_RAM or use == R.U_SAC:
            return text + ":%s>%s" % (T.place_name(p1, civ), T.name(p2))
        if use == R.U_MAGNET or use == R.U_PULL:
            return text + ":%s@%s" % (T.name(p1), T.name(p2))
        if use == R.U_JUMP4:
            return text + ":" + T.name(p1)
        if use == R.U_KICK:
            if p2 >= R.FINISHED_BASE:
                return text + ":f%d" % (p2 - R.FINISHED_BASE)
            return text + ":" + T.name(p2)
        if use == R.U_CLEAR:
            return text + ":" + T.name(p2)
        return text
    if k == R.K_LAY:
        card = a & 63
        return "lay:" + T.name((a >> 6) & 127) + ("=" + C.name(card) if card else "")
    if k == R.K_BLOCK:
        return "block:" + T.name(a & 127)
    if k == R.K_LIFT:
        return "lift:" + T.name(a & 127)
    if k == R.K_SHOW:
        return "=" + C.name(a & 255)
    if k == R.K_GO:
        q, cells = pos.go_path(a)
        dest = (a >> 10) & 127
        x = s[R.O_SHIP + q]
        if not cells:
            text = "go:" + T.name(x)
        else:
            lanes = _lanes_text(x, cells, (a >> 7) & 7, dest != T.FINISH and not T.is_red(dest))
            text = "go:" + _dest_name(pos, q, cells[-1]) + ("/" + lanes if lanes else "")
        if a & 127 != T.NOWHERE:
            text += "!" + T.name(a & 127)
        return text
    if k == R.K_JOKER:
        return "as" + RANK_CHARS[(a & 255) - 2]
    if k == R.K_TOW:
        return "tow:" + T.name(a & 127)
    if k == R.K_BEAM:
        return "beam:%s>%s" % (T.name((a >> 7) & 127), T.name(a & 127))
    if k == R.K_LASER:
        f = (a >> 7) & 127
        b = a & 127
        return "laser:%s,%s" % ("-" if f == T.NOWHERE else T.name(f),
                                "-" if b == T.NOWHERE else T.name(b))
    if k == R.K_DEF:
        return "def"
    if k == R.K_NODEF:
        return "nodef"
    raise R.RulesError("no «Формула 99» action: %r" % (a,))
