# «Формула 99»: the position and action notations written (docs/rules/formula99.md §9, §10);
# reading them is reader.py's. Loaded only when text is needed (the board plays from the sensors
# and logs binary actions), and apart from the reader because the board writes text (`pos`, the
# log's header) far more often than it reads it: its plug-in loads only this half for that.

from shared_rules.formula99 import track as TK
from shared_rules.formula99 import cards as C
from shared_rules.formula99 import const  # the constants (no import of rules.py: a circle)

RANK_CHARS = C.RANKS


# -- places of ships -----------------------------------------------------------------------------

def slot_place(pos, q):
    """Name of ship slot q's place: a track cell, s<civ>, f<civ>, c."""
    s = pos.st
    return TK.place_name(s[const.O_SHIP + q], s[const.O_CIV + (q >> 1)])


def _seat_place(place):
    """A ship's place inside its seat field: s, f, c or the track cell."""
    if place < 72:
        return TK.name(place)
    return "sfc"[place - TK.START]


def _ship_key(place, civ):
    if place == TK.START:
        return 0
    if place < 72:
        return 100 + TK.progress(place, civ) * 2 + (place & 1)
    return 200 + place


# -- position ------------------------------------------------------------------------------------

def _cards_text(codes):
    return "".join([C.name(c) for c in codes]) or "-"


def _item_text(pos, i):
    s = pos.st
    k, a, b, c, d = s[i], s[i + 1], s[i + 2], s[i + 3], s[i + 4]
    if k == const.A_MOVE:
        return "M%d%d%d%s" % (s[const.O_CIV + a], b, c,
                               "*" if not d else "@" + slot_place(pos, d - 1))
    if k == const.A_TRIG:
        return "T%s@%s" % (slot_place(pos, a), TK.name(b))
    if k == const.A_SHOW:
        return "V%s@%s" % (slot_place(pos, a), TK.name(b))
    if k == const.A_FWD:
        return "F%d:%s" % (b, slot_place(pos, a))
    if k == const.A_TOW:
        return "W%d:%s" % (b, slot_place(pos, a))
    if k == const.A_BEAM or k == const.A_LASER:
        return "%s%d:%s" % ("B" if k == const.A_BEAM else "K", s[const.O_CIV + a],
                            slot_place(pos, b))
    if k == const.A_JOKER:
        return "J%s:%d@%s" % (slot_place(pos, a), s[const.O_CIV + b], TK.name(c))
    if k == const.A_DASH:
        return "D"
    if k == const.A_RAMDRAW:
        return "R%s>%s" % (slot_place(pos, a), slot_place(pos, b))
    if k == const.A_ANSWER:
        return "A%d:%s>%s" % (c, slot_place(pos, a), slot_place(pos, b))
    if k == const.A_CLEAR:
        return "C%s" % TK.name(a)
    return "?%d" % k


def format_position(pos):
    s = pos.st
    full = s[const.O_FULL]
    parts = ["L%d" % s[const.O_LEVEL]]
    for seat in range(s[const.O_NSEATS]):
        civ = s[const.O_CIV + seat]
        places = [s[const.O_SHIP + 2 * seat], s[const.O_SHIP + 2 * seat + 1]]
        if _ship_key(places[1], civ) < _ship_key(places[0], civ):
            places.reverse()
        ships = ",".join([_seat_place(p) for p in places])
        chg = pos.charges(seat)
        chg.sort()
        ctext = []
        for cell, card in chg:
            if card == const.BLOCKADE:
                ctext.append(TK.name(cell) + "=#")
            elif card == const.UNKNOWN:
                ctext.append(TK.name(cell) + "=?")
            else:
                ctext.append(TK.name(cell) + "=" + C.name(card))
        hand = _cards_text(pos.hand(seat)) if full else str(s[const.O_HANDN + seat])
        parts.append("%d:%s:%s:%s" % (civ, ships, ",".join(ctext) or "-", hand))
    flags = ""
    for j in range(4):
        if s[const.O_FLAGS] >> j & 1:
            flags += const.FLAG_LETTERS[j]
    parts.append("%d%s%s" % (s[const.O_CIV + s[const.O_TURN]],
                             const.PHASE_LETTERS[s[const.O_PHASE]], flags))
    items = [_item_text(pos, const.O_AG + 5 * i) for i in range(s[const.O_SP])]
    parts.append(";".join(items) or "-")
    parts.append("d:" + _cards_text(pos.discard()))
    if full:
        parts.append("k:%s/%d/%d" % (_cards_text(pos.deck()), pos.seed(), s[const.O_RESH]))
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
        if TK.is_red(c) and d != TK.FINISH:
            letters.append(TK.LANE_LETTERS[bits & 1])
            bits >>= 1
        c = d
    if dest_is_lane and letters:
        letters.pop()
    return "".join(letters)


def _dest_name(pos, q, dest):
    s = pos.st
    civ = s[const.O_CIV + (q >> 1)]
    if dest == TK.FINISH:
        return "c" if s[const.O_SHIP + (q ^ 1)] == TK.FINISH else "f%d" % civ
    return TK.name(dest)


def format_action(pos, a):
    s = pos.st
    k = a >> 24
    if k == const.K_MOVE:
        q, cells = pos.move_path(a)
        src = (a >> 7) & 127
        dest = cells[-1]
        lanes = _lanes_text(src, cells, a & 7, dest != TK.FINISH and not TK.is_red(dest))
        text = "%s-%s" % (slot_place(pos, q), _dest_name(pos, q, dest))
        return text + ("/" + lanes if lanes else "")
    if k == const.K_PASS:
        return "pass"
    if k == const.K_END:
        return "end"
    if k == const.K_DRAW:
        return "draw%d" % (a & 3)
    if k == const.K_PLAY:
        card = (a >> 18) & 63
        use = (a >> 14) & 15
        p1 = (a >> 7) & 127
        p2 = a & 127
        text = C.name(card) + ":" + const.USE_NAMES[use]
        civ = s[const.O_CIV + s[const.O_TURN]]
        if use == const.U_RAM or use == const.U_SAC:
            return text + ":%s>%s" % (TK.place_name(p1, civ), TK.name(p2))
        if use == const.U_MAGNET or use == const.U_PULL:
            return text + ":%s@%s" % (TK.name(p1), TK.name(p2))
        if use == const.U_JUMP4:
            return text + ":" + TK.name(p1)
        if use == const.U_KICK:
            if p2 >= const.FINISHED_BASE:
                return text + ":f%d" % (p2 - const.FINISHED_BASE)
            return text + ":" + TK.name(p2)
        if use == const.U_CLEAR:
            return text + ":" + TK.name(p2)
        return text
    if k == const.K_LAY:
        card = a & 63
        return "lay:" + TK.name((a >> 6) & 127) + ("=" + C.name(card) if card else "")
    if k == const.K_BLOCK:
        return "block:" + TK.name(a & 127)
    if k == const.K_LIFT:
        return "lift:" + TK.name(a & 127)
    if k == const.K_SHOW:
        return "=" + C.name(a & 255)
    if k == const.K_GO:
        q, cells = pos.go_path(a)
        dest = (a >> 10) & 127
        x = s[const.O_SHIP + q]
        if not cells:
            text = "go:" + TK.name(x)
        else:
            lanes = _lanes_text(x, cells, (a >> 7) & 7, dest != TK.FINISH and not TK.is_red(dest))
            text = "go:" + _dest_name(pos, q, cells[-1]) + ("/" + lanes if lanes else "")
        if a & 127 != TK.NOWHERE:
            text += "!" + TK.name(a & 127)
        return text
    if k == const.K_JOKER:
        return "as" + RANK_CHARS[(a & 255) - 2]
    if k == const.K_TOW:
        return "tow:" + TK.name(a & 127)
    if k == const.K_BEAM:
        return "beam:%s>%s" % (TK.name((a >> 7) & 127), TK.name(a & 127))
    if k == const.K_LASER:
        f = (a >> 7) & 127
        b = a & 127
        return "laser:%s,%s" % ("-" if f == TK.NOWHERE else TK.name(f),
                                "-" if b == TK.NOWHERE else TK.name(b))
    if k == const.K_DEF:
        return "def"
    if k == const.K_NODEF:
        return "nodef"
    raise const.RulesError("no «Формула 99» action: %r" % (a,))
