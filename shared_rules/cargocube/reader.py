# Cargocube's notation read, and the start positions laid out: what the rules core
# (shared_rules/cargocube/rules.py) needs only when a game begins, is resumed or is loaded, never
# while it is played. The core loads this module the first time it reads text (Position.parse,
# start_position, Position.parse_action) and hands itself over (bind); the board's plug-in
# drops it again once its position is made (docs/firmware.md "Loading on demand"), so a game in
# play does not keep ~6 KB of reading code in the heap. Notation: docs/rules/cargocube.md
# section 13; the expansions' items (section 16) are read here too.

from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient as o
from shared_rules.cargocube import layouts

cc = None  # the rules core: it loads this module and hands itself over (bind)


def bind(core):
    global cc
    cc = core


def seat_tuple(text):
    if text == "12345678":
        return tuple(range(8))
    seats = []
    for ch in text:
        s = g.SEAT_LETTERS.find(ch)
        if s < 0:
            raise cc.RulesError("unknown seat %r in seats %r" % (ch, text))
        if seats and s <= seats[-1]:
            raise cc.RulesError("seats %r must be distinct and in turn order S, W, N, E" % text)
        seats.append(s)
    seats = tuple(seats)
    if seats not in ((g.S, g.N), (g.S, g.W, g.N), (g.S, g.W, g.N, g.E)):
        raise cc.RulesError("seats %r: 2 players sit SN, 3 players SWN, 4 players SWNE, "
                            "8 players 12345678" % text)
    return seats


# -- positions ----------------------------------------------------------------------------------


def parse(cls, text):
    """The position (a cls, the core's Position) the one-line notation writes; RulesError
    naming what is wrong."""
    if not isinstance(text, str):
        raise cc.RulesError("position must be text")
    fields = text.split()
    if len(fields) != 4:
        raise cc.RulesError(
            "position needs 4 fields '<cells> <seats> <to-move> <phase>', got %d" % len(fields))
    cells_text, seats_text, move_text, phase_text = fields
    pos = cls(seat_tuple(seats_text))
    if len(move_text) != 1 or pos.SEAT_LETTERS.find(move_text) not in pos.seats:
        raise cc.RulesError("seat to move %r is not one of the seats %r" % (move_text, seats_text))
    pos.to_move = pos.SEAT_LETTERS.find(move_text)
    _parse_phase(pos, phase_text)
    if cells_text != "-":
        # Entry by entry, by index: splitting into lists of small strings would cost the
        # board ~40 KB of heap for a moment (a 4-player start with cards).
        seen = bytearray(g.N_CELLS)
        i = 0
        n = len(cells_text)
        while i <= n:
            j = cells_text.find(",", i)
            if j < 0:
                j = n
            _parse_cell_entry(pos, cells_text, i, j, seen)
            i = j + 1
    _finish(pos)
    return pos


def _finish(pos):
    """After the cells are read or laid out: the expansions' checks and views, the scores."""
    if pos._x is not None:
        _parsed(pos)
    for s in pos.seats:
        pos._score[s] = pos._terminal_score(s)


def _parse_phase(pos, text):
    if text == "a":
        pos.actions_left = 0
        return
    typed = text  # the errors quote the phase as written
    if text.endswith("x"):
        text = text[:-1]
        if not text.endswith("b") or text == "4b":
            raise cc.RulesError("phase %r: an extra turn is owed only after a sacrifice, this "
                                "turn's booster use (e.g. 2bx)" % typed)
        pos.extra_turn = True
    digits = text[:-1] if text.endswith("b") else text
    if len(digits) != 1 or digits not in "1234":
        raise cc.RulesError("phase %r must be 'a' or actions left 1-4 with an optional 'b' and "
                            "'x'" % typed)
    pos.actions_left = int(digits)
    pos.booster_used = text.endswith("b")
    if pos.actions_left == 4 and pos.booster_used:
        raise cc.RulesError("phase %r is impossible: a booster use leaves at most 3 actions" % typed)


def _parse_cell_entry(pos, text, start, end, seen):
    """The entry text[start:end], `cell=item.item...`."""
    eq = text.find("=", start, end)
    if eq < 0:
        raise cc.RulesError("cell entry %r must be 'cell=item.item...'" % text[start:end])
    name = text[start:eq]
    c = g.parse_cell(name)
    if c < 0:
        raise cc.RulesError("%r is not a cell (columns a-k, rows 1-11)" % name)
    if seen[c]:
        raise cc.RulesError("cell %s is listed twice" % name)
    seen[c] = 1
    kind = g.CELL_KIND[c]
    if kind == g.CORNER:
        raise cc.RulesError("corner %s is out of play and must stay empty" % name)
    if kind >= g.TERMINAL and len(pos.seats) < 8 and (kind - g.TERMINAL) not in pos.seats:
        raise cc.RulesError("%s is in the terminal of seat %s, which is not in play" % (
            name, g.SEAT_LETTERS[kind - g.TERMINAL]))
    stack = pos.stacks[c]
    letters = pos.SEAT_LETTERS
    k = eq + 1
    while k <= end:
        e = text.find(".", k, end)
        if e < 0:
            e = end
        first = k == eq + 1
        it = text[k:e]
        k = e + 1
        if not it:
            raise cc.RulesError("cell %s has an empty item" % name)
        head = it[0]
        if head == "*":
            if not first:
                raise cc.RulesError("card %r on %s must be written first in its cell" % (it, name))
            _parse_card(pos, it, c, name)
        elif head == "K":
            seat = letters.find(it[1:]) if len(it) == 2 else -1
            if seat < 0:
                raise cc.RulesError("bad keeper %r on %s" % (it, name))
            if seat not in pos.seats:
                raise cc.RulesError("keeper %s on %s: seat %s is not in play" % (it, name, it[1]))
            if pos._keeper[seat] != -1:  # -2: a dead keeper
                raise cc.RulesError("seat %s has two keepers" % it[1])
            if kind >= g.TERMINAL and pos._view[seat][c] != cc.V_OWN:
                raise cc.RulesError("keeper %s cannot stand in another seat's terminal (%s)" % (
                    it, name))
            pos._keeper[seat] = c
            stack.append(cc.KEEPER + seat)
        elif head in "X!T":
            _parse_item(pos, it, c, name, k > end)
        else:
            ori = o.parse(it)
            if ori < 0:
                raise cc.RulesError("%r on %s is no item (a cube is two faces such as B1; "
                                    "a keeper K+seat; a card *+kind+seat)" % (it, name))
            if c == g.ENTRY_PORTAL or cc.TELEPORT in stack:
                raise cc.RulesError("a cargo cube cannot stay on an entry portal (%s): it is "
                                    "sent to an exit portal" % name)
            stack.append(ori)
    if not stack and not pos.cards[c]:
        raise cc.RulesError("cell %s has no items" % name)


def _parse_card(pos, it, c, name):
    if len(it) != 3:
        raise cc.RulesError("bad card %r on %s (a card is * + kind + owner seat, e.g. *sS)" % (
            it, name))
    kind = cc.CARD_LETTERS.find(it[1])
    owner = pos.SEAT_LETTERS.find(it[2])
    if kind < 0 or owner < 0:
        raise cc.RulesError("bad card %r on %s (kinds %s, owner %s)" % (
            it, name, " ".join(cc.CARD_LETTERS), " ".join(pos.SEAT_LETTERS)))
    if owner not in pos.seats:
        raise cc.RulesError("card %r on %s: seat %s is not in play" % (it, name, it[2]))
    if g.CELL_KIND[c] >= g.TERMINAL and pos._owner[c] != owner:
        raise cc.RulesError("card %r lies in a terminal cell of another seat (%s)" % (it, name))
    if c == g.ENTRY_PORTAL:
        raise cc.RulesError("no card may lie on the entry portal f6")
    if kind >= cc.BASE_CARDS:
        _parse_item(pos, it, c, name, False)
    pos.cards[c] = 1 + kind * 8 + owner


def _parse_item(pos, it, c, name, last):
    """Check an item only the expansions have (a card of theirs, a dead keeper `X`+seat, the
    walking teleport `T`, a biohazard `!`+seat) and put it on cell c (cards are put by
    _parse_card); the position loads the expansions."""
    x = pos._expand()
    stack = pos.stacks[c]
    head = it[0]
    grey = g.CELL_KIND[c] == g.GREY
    if head == "*":
        kind = cc.CARD_LETTERS.find(it[1])
        if kind == x.SPENT and not grey or (kind == x.HAZARD_CARD or kind == x.SACRIFICE) and grey:
            raise cc.RulesError("card %r cannot lie on %s: a spent card lies in the grey zone; a "
                                "used biohazard is written ! on its cube, a used sacrifice went "
                                "with its keeper" % (it, name))
        return
    if head == "T":
        if it != "T" or pos._teleport >= 0 or not grey or \
                stack and cc.KEEPER <= stack[-1] < cc.DEAD:
            raise cc.RulesError("%r on %s: one walking teleport T, in the grey zone, never on a "
                                "keeper" % (it, name))
        pos._teleport = c
        stack.append(cc.TELEPORT)
        return
    seat = pos.SEAT_LETTERS.find(it[1:]) if len(it) == 2 else -1
    if seat < 0 or seat not in pos.seats:
        raise cc.RulesError("bad item %r on %s (%s + a seat in play)" % (it, name, head))
    if head == "X":
        if pos._keeper[seat] != -1 or stack or not grey and pos._view[seat][c] != cc.V_OWN:
            raise cc.RulesError("dead keeper %s on %s: one keeper a seat, a dead one at level 0, "
                                "not in another seat's terminal" % (it, name))
        pos._keeper[seat] = -2  # dead: the seat has no keeper, and may not get another
        stack.append(cc.DEAD + seat)
    elif not last or not stack or stack[-1] >= cc.KEEPER:
        raise cc.RulesError("biohazard %r on %s lies on a cargo cube, written last" % (it, name))
    else:
        pos.lids[c] = seat + 1


def _parsed(pos):
    """A position with the expansions' items read or laid out: no cube on an extra portal; the
    position's own views if it has a teleport, an extra portal or a biohazard in play."""
    x = pos._x
    dynamic = pos._teleport >= 0 or max(pos.lids) > 0
    for c in cc._GREY_CELLS:
        if (pos.cards[c] - 1) >> 3 == x.PORTAL:
            dynamic = True
            for it in pos.stacks[c]:
                if it < cc.KEEPER:
                    raise cc.RulesError("a cargo cube cannot stay on an entry portal (%s): it "
                                        "is sent to an exit portal" % g.cell_name(c))
    if dynamic:
        x.refresh(pos, x.ALL)


def start_position(players, layout, cards, teleport):
    """The start of a game (rules.start_position)."""
    seats = layouts.SEATS_BY_PLAYERS.get(players)
    if seats is None:
        raise cc.RulesError("players must be 2, 3, 4 or 8, not %r" % (players,))
    if cards is True:
        cards = "base"
    card_layout = layouts.DEFAULT_CARDS.get(cards) if cards else ""
    if card_layout is None:
        raise cc.RulesError("no card layout %r (have %s)" % (cards, ", ".join(
            sorted(layouts.DEFAULT_CARDS))))
    cells = layouts.LAYOUTS.get(layout)
    if cells is None:
        if "=" not in layout:
            raise cc.RulesError("unknown layout '%s' (layouts: %s)"
                                % (layout, ", ".join(sorted(layouts.LAYOUTS))))
        cells = layout
    pos = parse(cc.Position, "%s %s %s a" % (cells, seats, seats[0]))
    for s in pos.seats:
        if pos._keeper[s] < 0:
            if players < 8:
                kc = g.EXIT_PORTAL[s]
            else:
                from shared_rules.cargocube import eight
                kc = eight.KEEPER_START[s]
            pos.stacks[kc].append(cc.KEEPER + s)
            pos._keeper[s] = kc
    for i in range(len(card_layout)):
        letter = card_layout[i]
        if letter == "-":
            continue
        for side in range(4):
            c = g.rotate(g.parse_cell(layouts.CARD_CELLS[i]), side)
            owner = pos._owner[c]
            if owner == 255 or owner not in pos.seats:
                continue
            if pos.cards[c]:
                raise cc.RulesError("layout already has a card on %s" % g.cell_name(c))
            kind = cc.CARD_LETTERS.index(letter)
            if kind >= cc.BASE_CARDS:
                pos._expand()
            pos.cards[c] = 1 + kind * 8 + owner
    if teleport:
        pos._expand()
        pos.stacks[g.ENTRY_PORTAL].append(cc.TELEPORT)
        pos._teleport = g.ENTRY_PORTAL
    _finish(pos)
    return pos


# -- actions ------------------------------------------------------------------------------------


def parse_action(pos, text):
    """The legal action written as text in pos; RulesError if malformed or not legal there."""
    check_action_syntax(text)
    for a in pos.legal_actions():
        if cc.format_action(a) == text:
            return a
    if pos.is_over():
        raise cc.RulesError("action %r: the game is over" % text)
    raise cc.RulesError("action %r is not legal in %s" % (text, pos.notation()))


def check_action_syntax(text):
    """Return if text has the form of an action, else raise RulesError naming what is wrong."""
    if not isinstance(text, str) or not text:
        raise cc.RulesError("empty action")
    if text == "end":
        return
    dirs = g.DIR_LETTERS
    cell = g.parse_cell
    head = text[0]
    at = text.find("@")
    if head == "K" and len(text) == 2 and text[1] in dirs:
        return
    if at >= 0 and head != "K" and head != "H":
        if cell(text[:at]) < 0 or cell(text[at + 1:]) < 0:
            raise cc.RulesError("booster use %r must be card-cell@target-cell, e.g. b1@d5" % text)
        return
    parts = text.split("/")
    first = parts[0]
    if len(first) >= 3 and first[-1] in dirs and cell(first[:-1]) >= 0:
        for h in parts[1:]:
            if cell(h) < 0:
                break
        else:
            return
    # The expansions' actions (a ride, a teleport move, a biohazard, a spiral turn, a throw).
    if head == "K" or head == "T":
        if len(text) == 2 and text[1] in dirs or head == "K" and at == 1 and \
                cell(text[2:]) >= 0:
            return
        raise cc.RulesError("%r: a keeper step Kn, an umbrella ride K@d5 or a teleport move Tn"
                            % text)
    if head == "H":
        if at > 0 and cell(text[1:at]) >= 0 and cell(text[at + 1:]) >= 0:
            return
        raise cc.RulesError("biohazard lift or move %r must be H + cell @ cell, e.g. He5@d4" %
                            text)
    for turn in cc._expansions().TURN_NAMES:
        if text.endswith(turn) and cell(text[:-len(turn)]) >= 0:
            return
    throw = text.find("^")
    parts = (text[:throw] if throw >= 0 else text).split("/")
    if throw >= 0:
        parts.append(text[throw + 1:])
    first = parts[0]
    if len(first) < 3 or first[-1] not in dirs or cell(first[:-1]) < 0:
        raise cc.RulesError("action %r: expected a roll such as e5n, a keeper step such as Kn, "
                            "a booster use such as b1@d5, or end (docs/rules/cargocube.md "
                            "section 13)" % text)
    for h in parts[1:]:
        if cell(h) < 0:
            raise cc.RulesError("action %r: %r is no cell" % (text, h))
