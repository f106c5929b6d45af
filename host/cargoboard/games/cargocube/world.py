"""Cargocube's pieces in the virtual board's world (cargoboard.sim.world): the start laid out,
how a cube lands where a hand puts it, and the pieces' names.

Items are the rules core's small ints: 0..23 a cargo cube's orientation, KEEPER + seat a keeper,
DEAD + seat a dead keeper, TELEPORT the walking teleport; a card is CARD_BASE + its code and lies
flat at the bottom of its cell (a biohazard or a sacrifice card lies on the piece it was put on).

Cargo cubes move as a hand moves them (docs/rules/cargocube.md): a cube put down on an
orthogonal neighbour of the cell it was lifted from was tipped over that edge, so it rolls
(its orientation changes as the rules' roll table says). Moving on from where it has just
landed it does not roll again: from a wind rose it hops, from a catapult it is thrown, from an
acceleration it slides on in the same direction, from the entry portal (a portal card, the
walking teleport) it is carried to the exit portal; every other carry (not to a neighbour)
keeps the faces as they are. A spiral turn (the script's `turn CELL cw|acw`) turns the cubes
of the stack about the vertical as the rules do. (A sacrifice's death, the one change made in
place that no hand makes, is not modelled.) So the world's faces are the true ones the firmware
tracks without seeing them. (The one case a hand cannot tell apart: a cube that stays on a wind
rose because it can hop nowhere, then is rolled off it orthogonally at once; the session ends
the motion when the board commits a move, which covers it as soon as the board has taken the
move in.)
"""

from shared_rules.cargocube import board as g
from shared_rules.cargocube import expansions as EXP, orient, rules as cc
from cargoboard.games.cargocube.draw import piece_name
from cargoboard.sim.world import CARD_BASE, WorldError

ROLLED, SLID, HOPPED = 1, 2, 3  # how a moving cube reached the cell it stands on
CARD_WORDS = ("cards", "pyramid", "bastion", "both")  # new-game's card words
NEW_GAME_WORDS = "[cards|pyramid|bastion|both] [teleport]"  # for the script's usage line


# The virtual board's scripts ask a game set up with this part whether its board may hold moves
# in doubt (console `readings`: revision A's option wait=K, its default; cargoboard.sim.script,
# resolve and expect).
MAY_HOLD_DOUBTS = True


def new_game_words(words):
    """A script's `new-game cargocube LAYOUT SEATS [cards|pyramid|bastion|both] [teleport]`
    (cargoboard.sim.script; words: GAME, LAYOUT and the words after them but KEY=VALUE): takes
    the card and teleport words off the end of words and returns (the firmware's `new`
    options, setup()'s keywords), or None when SEATS is missing (Cargocube has no fixed
    seats). `new-game cargocube position=NOTATION` (no SEATS: the position has them) starts
    from a position, its spaces written `_`."""
    if len(words) > 1 and words[1].startswith("position="):
        return ([], {"position": words[1][len("position="):]}) if len(words) == 2 else None
    teleport = len(words) > 2 and words[-1] == "teleport"
    if teleport:
        words.pop()
    cards = len(words) > 2 and words[-1] in CARD_WORDS and words.pop()
    if len(words) == 2:
        return None
    cards = "base" if cards == "cards" else cards
    options = ([f"cards={cards}"] if cards else []) + (["teleport=1"] if teleport else [])
    return options, {"cards": cards, "teleport": teleport}


def setup(world, layout, seats, cards=False, teleport=False, position=None):
    """Lay out the stacks of shared_rules.cargocube.rules.start_position (cubes, keepers, the
    walking teleport if asked; cards: False, or a card layout: True or "base", "pyramid",
    "bastion", "both"), or of position (a notation, its spaces written `_`), and give the
    world Cargocube's physics. Returns the position laid out."""
    seats = (seats or "").upper()
    try:
        if position is not None:
            pos = cc.Position.parse(position.replace("_", " "))
        else:
            pos = cc.start_position(players=len(seats), layout=layout, cards=cards,
                                    teleport=teleport)
    except (cc.RulesError, ValueError) as e:
        raise WorldError(f"cannot set up cargocube {layout} {seats}: {e}") from None
    got = "".join(pos.SEAT_LETTERS[s] for s in pos.seats)
    if position is None and got != seats:
        raise WorldError(f"seats '{seats}' not supported for {len(seats)} players (use '{got}')")
    world.clear()
    world.physics = Physics()
    world.letters = pos.SEAT_LETTERS
    world.corners_open = False
    for c in range(g.N_CELLS):
        world.stacks[c].extend(physical_stack(pos, c))
    return pos


class Physics:
    """How Cargocube's pieces land and what they are called (the world asks)."""

    def __init__(self):
        # the cube moving now: (the cell it landed on, direction, ROLLED|SLID|HOPPED, the card
        # cells it has used in this move), or None when no cube is on its way
        self._motion = None

    def rest(self):
        """The move is over (the board committed it): the next lift starts a new one."""
        self._motion = None

    def land(self, world, item, a, b):
        """The item lifted from a as it lands on b (see the module doc)."""
        if item >= cc.KEEPER:  # keepers, the teleport, cards: put down as they are
            self._motion = None
            return item
        m = self._motion if self._motion and self._motion[0] == a else None
        self._motion = None
        if m is not None:
            _, d, how, used = m
            card = next((i - CARD_BASE for i in world.stacks[a] if i >= CARD_BASE), 0)
            kind = cc.card_kind(card) if card and g.CELL_KIND[a] == g.GREY and a not in used \
                else ""
            if a == g.ENTRY_PORTAL or kind == "x" or cc.TELEPORT in world.stacks[a]:
                return item  # carried on to the exit portal (a portal card, the teleport)
            if kind in ("w", "c"):  # a wind rose's hop, a catapult's throw
                self._motion = (b, -1, HOPPED, used + (a,))
                return item
            if kind == "a" and how == ROLLED and b == g.NEIGHBOUR[a * 4 + d]:
                self._motion = (b, d, SLID, used + (a,))
                return item
        for d in range(4):
            if g.NEIGHBOUR[a * 4 + d] == b:
                self._motion = (b, d, ROLLED, ())
                return orient.ROLL[item * 4 + d]
        return item  # carried elsewhere: the faces stay

    def turn(self, world, cell, d):
        """A spiral turn: the hand turns the stack on cell where it stands (d 0 clockwise, 1
        anticlockwise); its cubes turn about the vertical (keepers and cards stay)."""
        self._motion = None
        turn_stack(world.stacks[cell], d)

    def name(self, item, letters):
        """A piece's name: a cube by its top and south faces (`B1`), a keeper `KS`, a dead
        keeper `XS`, the teleport `T`, a card `card:aS`."""
        if item >= CARD_BASE:
            code = item - CARD_BASE
            return "card:%s%s" % (cc.card_kind(code), letters[cc.card_owner(code)])
        return piece_name(item, letters)


def turn_stack(items, d):
    """Turn the cargo cubes of a stack (bottom to top, items as above) a quarter turn about the
    vertical, in place: d 0 clockwise, 1 anticlockwise (the rules' TURN)."""
    table = EXP.TURNED[d]
    for k, it in enumerate(items):
        if it < cc.KEEPER:
            items[k] = table[it]


def physical_stack(pos, c):
    """What lies on cell c of a Cargocube position, bottom first, as the world holds it: a card
    on the cell (CARD_BASE + its code), the pieces, the sacrifice card on a dead keeper, a
    biohazard on the top cube (the rules keep those two as a dead keeper's item and in
    pos.lids; a card that lies on pieces carries a card code the world keeps: 0 here)."""
    out = [CARD_BASE + pos.cards[c]] if pos.cards[c] else []
    for it in pos.stacks[c]:
        out.append(it)
        if cc.DEAD <= it < cc.TELEPORT:
            out.append(CARD_BASE)
    if pos.lids is not None and pos.lids[c]:
        out.append(CARD_BASE)
    return out
