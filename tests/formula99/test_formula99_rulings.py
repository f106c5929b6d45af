"""«Формула 99» rulings on hand-built positions: every card at each level and the rules of a turn,
each expectation worked out by hand from docs/rules/formula99.md (cell coordinates: sector k's
cells kb1..kb3 / ky1..ky3 have t = 4(k-1) + 0..2, its red cell kr t = 4(k-1) + 3; a ship of
civilisation k has progress t - 4(k-1) mod 36)."""

import pytest

from shared_rules.formula99 import cards as C
from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as T


def play(text, *actions):
    pos = R.Position.parse(text)
    for a in actions:
        pos.push(pos.parse_action(a))
    return pos


def legal(pos):
    return sorted(pos.format_action(a) for a in pos.legal_actions())


def seat(pos, civ):
    """The seat field of civ in pos's notation."""
    for f in pos.notation().split():
        if f.startswith("%d:" % civ):
            return f
    raise AssertionError(civ)


def full(level, seats, turn, discard=(), agenda="-", seed=1):
    """A full-view notation: seats = [(civ, ships, charges, hand)], charges with their cards;
    the deck holds every other card in ascending code."""
    used = set(discard)
    for _, _, charges, hand in seats:
        used |= set(C.parse_list(hand) if hand != "-" else [])
        if charges != "-":
            for it in charges.split(","):
                card = it.split("=")[1]
                if card != "#":
                    used.add(C.parse(card))
    deck = [c for c in range(1, 55) if c not in used and C.name(c) not in discard]
    dtext = "".join(sorted(discard, key=C.parse)) or "-"
    fields = ["L%d" % level] + ["%d:%s:%s:%s" % s for s in seats]
    fields += [turn, agenda, "d:" + dtext, "k:%s/%d/0" % ("".join(C.name(c) for c in deck), seed)]
    return " ".join(fields)


# -- the track and a turn ---------------------------------------------------------------------------

def test_start_position_and_first_moves():
    pos = R.start_position(2, 1)
    assert pos.notation() == "L1 1:s,s:-:3 5:s,s:-:3 1a - d:- k:?"
    assert legal(pos) == ["s1-1b1"]
    pos.push(pos.parse_action("s1-1b1"))
    assert pos.notation() == "L1 1:s,1b1:-:3 5:s,s:-:3 1c - d:- k:?"
    assert R.start_position(4, 2).SEAT_LETTERS == "1357"
    assert R.start_position(3, 1).SEAT_LETTERS == "147"
    assert R.start_position(9, 3).SEAT_LETTERS == "123456789"


def test_standard_moves_choose_the_lane_before_each_sector():
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?")
    assert legal(pos) == ["1b2-1b3", "1b2-1r", "1b2-2b1", "1b2-2b2", "1b2-2b3", "1b2-2y1",
                          "1b2-2y2", "1b2-2y3", "s1-1b1"]
    # from a red cell, five steps enter two sectors: the first one's lane is written out
    pos = R.Position.parse("L1 1:s,1r:-:3 5:s,s:-:3 1a - d:- k:?")
    moves = legal(pos)
    assert "1r-3b1/y" in moves and "1r-3y1/b" in moves and "1r-2r/y" in moves
    assert len(moves) == 2 + 2 + 2 + 2 + 4 + 1  # 2y1..2y3 / 2b1..2b3, 2r by b or y, 3?1 x4, s1
    assert pos.parse_action("1r-2y2/y") == pos.parse_action("1r-2y2")  # the implied lane


def test_ships_jump_over_ships_but_not_onto_them_and_start_needs_a_free_plus_cell():
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:1b1,1r:-:3 1a - d:- k:?")
    moves = legal(pos)
    assert "1b2-1r" not in moves and "1b2-2b1" in moves  # over 1r
    assert not any(m.startswith("s1-") for m in moves)  # civ 5 on civ 1's plus cell
    pos = R.Position.parse("L1 1:s,s:-:3 5:s,1b1:-:3 1a - d:- k:?")
    assert legal(pos) == ["pass"]
    pos.push(pos.parse_action("pass"))
    assert pos.notation() == "L1 1:s,s:-:3 5:s,1b1:-:3 1c - d:- k:?"  # may still lay charges


def test_lap_end_finish_cell_then_control_room_wins():
    pos = R.Position.parse("L1 1:9b3,9r:-:3 5:s,s:-:3 1a - d:- k:?")
    # 9r has progress 35: one step to the finish; a standard move cannot go past it
    assert "9r-f1" in legal(pos) and "9b3-f1" in legal(pos)
    assert not any(m.startswith("9r-1") for m in legal(pos))
    pos.push(pos.parse_action("9r-f1"))
    assert seat(pos, 1) == "1:9b3,f:-:3"
    pos = R.Position.parse("L1 1:9b3,f:-:3 5:s,s:-:3 1a - d:- k:?")
    pos.push(pos.parse_action("9b3-c"))
    assert pos.is_over() and pos.winners() == [0] and pos.legal_actions() == []
    assert pos.scores() == [72, 0]


def test_draws_refill_to_three_and_forbid_laying():
    pos = R.Position.parse("L1 1:s,1b2:-:1 5:s,s:-:3 1a - d:- k:?")
    assert "draw1" in legal(pos) and "draw2" in legal(pos)
    pos = R.Position.parse("L1 1:s,1b2:-:2 5:s,s:-:3 1a - d:- k:?")
    assert "draw1" in legal(pos) and "draw2" not in legal(pos)
    pos.push(pos.parse_action("draw1"))
    assert "draw1" not in legal(pos) and pos.notation().split()[3] == "1ad"
    pos.push(pos.parse_action("1b2-1b3"))
    # drew this turn, no charge on the track to lift: the turn ends by itself
    assert pos.notation() == "L1 1:s,1b3:-:3 5:s,s:-:3 5a - d:- k:?"


def test_full_view_draws_take_the_top_of_the_deck():
    text = full(1, [(1, "s,1b2", "-", "2c"), (5, "s,s", "-", "3c4c5c")], "1a")
    pos = R.Position.parse(text)
    top = pos.deck()[:2]
    pos.push(pos.parse_action("draw2"))
    assert pos.hand(0) == sorted([C.parse("2c")] + top)


def test_laying_charges_keeps_the_intervals():
    # civ 1 on 1b1 (sector 1): sectors 1 and 2 are its own; ships ban 1..4 cells ahead in lane
    pos = R.Position.parse("L1 1:s,1b1:-:3 5:s,4y2:-:3 1c - d:- k:?")
    cells = [a for a in legal(pos) if a.startswith("lay:")]
    assert not any(c[4] in "12" for c in cells)  # own sector and the next
    assert "lay:5b1" not in cells  # a plus cell
    assert "lay:4y3" not in cells and "lay:4r" not in cells  # 1 and 2 ahead of 4y2
    assert "lay:4b3" in cells  # the blue lane, beside 4y2
    assert "lay:5y2" not in cells and "lay:5y3" in cells  # 4 and 5 ahead of 4y2 (t 13 -> 17, 18)
    pos.push(pos.parse_action("lay:3r"))
    cells = [a for a in legal(pos) if a.startswith("lay:")]
    assert "lay:3b2" not in cells and "lay:3y2" not in cells  # 1 from 3r (which is in both lanes)
    assert "lay:4b2" not in cells and "lay:4b3" in cells  # 2 and 3 from 3r
    assert "lift:3r" not in legal(pos)  # laid this turn: no lifting
    pos.push(pos.parse_action("lay:6y3"))
    assert pos.notation() == "L1 1:s,1b1:3r=?,6y3=?:1 5:s,4y2:-:3 5a - d:- k:?"


def test_blockade_blocks_the_way_and_ends_when_its_ship_leaves():
    pos = R.Position.parse("L1 1:s,s:-:3 5:s,1r:-:3 5c - d:- k:?")
    assert "block:1r" in legal(pos)
    pos.push(pos.parse_action("block:1r"))
    assert seat(pos, 5) == "5:s,1r:1r=#:3"
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:s,1r:1r=#:3 1a - d:- k:?")
    assert legal(pos) == ["1b2-1b3", "s1-1b1"]  # nothing passes 1r
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:s,1r:1r=#:3 5a - d:- k:?")
    pos.push(pos.parse_action("1r-2b1"))
    assert seat(pos, 5) == "5:s,2b1:-:3"  # the token went home with the ship
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:s,1r:1r=#,3b2=?:2 5c - d:- k:?")
    pos.push(pos.parse_action("lift:3b2"))
    assert seat(pos, 5) == "5:s,1r:1r=#:3"  # a lifted card goes back to the hand


# -- level 1: colours ----------------------------------------------------------------------------------

CROSS = "L1 1:s,1b2:-:3 5:s,s:2b1=?:3 1a - d:- k:?"


def test_crossing_a_charge_shows_its_card_chance_over_the_pool():
    assert R.Position.parse(CROSS).charge_to_show() == -1
    pos = play(CROSS, "1b2-2b1")
    assert pos.charge_to_show() == T.parse("2b1")  # the board sees its token leave
    assert pos.to_move == -1 and pos.is_chance()
    assert len(pos.legal_actions()) == 54
    assert pos.notation() == "L1 1:s,2b1:2b1=?:3 5:s,s:-:3 1c V2b1@2b1 d:- k:?".replace(
        "2b1:2b1=?:3 5:s,s:-:3", "2b1:-:3 5:s,s:2b1=?:3")


def test_red_moves_forward_six_black_back_five():
    pos = play(CROSS, "1b2-2b1", "=Qh")
    assert pos.to_move == 0 and legal(pos) == ["go:3b3", "go:3y3"]
    pos.push(pos.parse_action("go:3y3"))
    assert pos.notation() == "L1 1:s,3y3:-:3 5:s,s:-:3 1c - d:Qh k:?"
    pos = play(CROSS, "1b2-2b1", "=Qs")  # back 5 from progress 4: stops on the plus cell
    assert pos.notation() == "L1 1:s,1b1:-:3 5:s,s:-:3 1c - d:Qs k:?"
    pos = play("L1 1:s,1b2:-:3 5:s,1b1:2b1=?:3 1a - d:- k:?", "1b2-2b1", "=Xb")
    assert seat(pos, 1) == "1:s,1b2:-:3"  # 1b1 taken: the nearest free cell after it
    pos = play("L1 1:s,2b2:-:3 5:s,1r:1r=#,2b3=?:3 1a - d:- k:?", "2b2-2b3", "=2c")
    assert seat(pos, 1) == "1:s,2b1:-:3"  # stops in front of the blockade
    pos = play(CROSS, "1b2-2b1", "=Xr")  # the red joker is red
    assert legal(pos) == ["go:3b3", "go:3y3"]


def test_forward_move_lands_short_and_triggers_one_charge_of_choice():
    pos = play("L1 1:s,1b2:-:3 5:3b3,3y3:2b1=?,2r=?:3 1a - d:- k:?", "1b2-2b1", "=Ah")
    # 6 steps end on 3b3 / 3y3, both taken: land on 3?2; the charge on 2r is passed
    assert legal(pos) == ["go:3b2!2r", "go:3y2!2r"]
    pos.push(pos.parse_action("go:3b2!2r"))
    assert pos.is_chance()
    pos.push(pos.parse_action("=Kd"))  # red again: forward 6 from 3b2 (t 9 -> 15)
    assert legal(pos) == ["go:4r/b", "go:4r/y"]


def test_two_charges_crossed_trigger_in_path_order():
    pos = play("L1 1:s,1b1:-:3 5:s,s:1b3=?,2y2=?:3 1a - d:- k:?", "1b1-2y2")
    agenda = pos.notation().split()[4]
    assert agenda == "T2y2@2y2;V2y2@1b3"
    pos.push(pos.parse_action("=2s"))  # back 5 along the yellow lane, to progress 0 (1y1)
    assert seat(pos, 1) == "1:s,1y1:-:3"
    # the second charge crossed still triggers, though the ship went back
    assert pos.is_chance() and pos.notation().split()[4] == "V1y1@2y2"


# -- level 2: suits --------------------------------------------------------------------------------------

def test_level_2_plays_from_the_hand():
    pos = R.Position.parse("L2 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?")
    acts = legal(pos)
    assert sum(a.endswith(":brake") for a in acts) == 13
    assert sum(a.endswith(":dash") for a in acts) == 13
    assert "Js:jump:1b2" in acts and "Qs:jump" in acts and "Ks:kick:1b2" in acts
    assert "As:blast" in acts and not any(":magnet" in a or ":ram" in a for a in acts)
    assert not any(a.startswith("X") for a in acts)  # jokers have no suit
    assert len(acts) == 13 + 13 + 4 + 9
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?")
    assert not any(":" in a for a in legal(pos))  # level 1: no plays


def test_brake_is_the_move():
    pos = play("L2 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?", "7h:brake")
    assert pos.notation() == "L2 1:s,1b2:-:2 5:s,s:-:3 1cp - d:7h k:?"


def test_dash_draws_red_seven_black_three():
    pos = play("L2 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?", "7d:dash")
    assert pos.is_chance() and len(pos.legal_actions()) == 53
    red = play("L2 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?", "7d:dash", "=Kh")
    assert red.notation().split()[4] == "M117*"
    assert "1b2-3y1/b" in legal(red) and "1b2-3b2" not in legal(red)
    black = play("L2 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?", "7d:dash", "=Ks")
    assert "1b2-2b1" in legal(black) and "1b2-2b2" not in legal(black)
    black.push(black.parse_action("1b2-2y1"))
    assert black.notation() == "L2 1:s,2y1:-:2 5:s,s:-:3 1cp - d:7dKs k:?"


RAM = "L2 1:s,1b2:-:3 5:s,2y1:-:3 1a - d:- k:?"


def test_ram_sacrifice_and_save():
    pos = R.Position.parse(RAM)
    assert "5c:ram:1b2>2y1" in legal(pos) and "5c:sac:1b2>2y1" in legal(pos)
    sac = play(RAM, "5c:sac:1b2>2y1")
    assert sac.notation() == "L2 1:s,s:-:2 5:s,s:-:3 1cp - d:5c k:?"
    pos = play(RAM, "5c:ram:1b2>2y1", "=9d")
    assert pos.to_move == 1 and legal(pos) == ["def", "nodef"]
    won = play(RAM, "5c:ram:1b2>2y1", "=9d", "nodef")
    assert won.notation() == "L2 1:s,2y1:-:2 5:s,s:-:3 1cp - d:5c9d k:?"
    lost = play(RAM, "5c:ram:1b2>2y1", "=9d", "def")
    assert lost.notation() == "L2 1:s,s:-:2 5:s,2y1:-:3 1cp - d:5c9d k:?"
    joker = play(RAM, "5c:ram:1b2>2y1", "=Xr")
    assert legal(joker) == ["nodef"]  # nothing beats a joker


def test_ram_answer_in_the_full_view_is_the_true_one():
    base = [(1, "s,1b2", "-", "5c7h"), (5, "s,2y1", "-", "2dTh")]
    pos = R.Position.parse(full(2, base, "1a"))
    pos.push(pos.parse_action("5c:ram:1b2>2y1"))
    top = pos.deck()[0]
    assert legal(pos) == ["=" + C.name(top)]
    pos.push(pos.parse_action("=" + C.name(top)))
    expect = "def" if C.value(top) < 10 else "nodef"
    assert legal(pos) == [expect]


def test_ram_from_the_start_zone_onto_the_plus_cell():
    pos = R.Position.parse("L2 1:s,s:-:3 5:s,1b1:-:3 1a - d:- k:?")
    assert "Kc:sac:s1>1b1" in legal(pos)
    pos.push(pos.parse_action("Kc:ram:s1>1b1"))
    pos.push(pos.parse_action("=2h"))
    pos.push(pos.parse_action("nodef"))
    assert pos.notation() == "L2 1:s,1b1:-:2 5:s,s:-:3 1cp - d:Kc2h k:?"


MAGNET = "L2 1:s,3b1:-:3 5:s,3b2:3y3=?:3 1a - d:- k:?"


def test_magnet_pulls_a_charge_onto_another_ship_of_the_sector():
    pos = R.Position.parse(MAGNET)
    mags = [a for a in legal(pos) if ":magnet:" in a]
    assert mags == sorted("%ss:magnet:3b2@3y3" % r for r in "23456789T")
    pos = play(MAGNET, "4s:magnet:3b2@3y3")
    assert pos.is_chance()
    pos.push(pos.parse_action("=Qs"))  # black: civ 5's ship (progress 29) back 5 to 2b1
    assert pos.notation() == "L2 1:s,3b1:-:2 5:s,2b1:-:3 1mp - d:4sQs k:?"
    pos = play(MAGNET, "4s:magnet:3b2@3y3", "=Qh")
    assert pos.to_move == 1  # the pilot of the pulled ship decides its forward move


def test_spade_jumps_kick_and_blast():
    pos = play("L2 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?", "Js:jump:1b2")
    assert seat(pos, 1) == "1:s,5b2:-:2"  # 16 along the blue lane
    pos = play("L2 1:s,1b2:-:3 5:s,5b2:-:3 1a - d:- k:?", "Js:jump:1b2")
    assert seat(pos, 1) == "1:s,5b1:-:2"  # lands short of the ship
    pos = play("L2 1:s,8b2:-:3 5:s,s:-:3 1a - d:- k:?", "Js:jump:8b2")
    assert seat(pos, 1) == "1:s,f:-:2"  # past the lap end: finished
    pos = play("L2 1:1b2,1b3:-:3 5:s,s:-:3 1a - d:- k:?", "Qs:jump")
    assert seat(pos, 1) == "1:4b2,4b3:-:2"
    pos = R.Position.parse("L2 1:s,1b2:-:3 5:f,2b1:-:3 1a - d:- k:?")
    assert {"Ks:kick:1b2", "Ks:kick:2b1", "Ks:kick:f5"} <= set(legal(pos))
    kicked = play("L2 1:s,1b2:-:3 5:f,2b1:-:3 1a - d:- k:?", "Ks:kick:f5")
    assert seat(kicked, 5) == "5:s,2b1:-:3" and kicked.notation().split()[3] == "1mp"
    blast = play("L2 1:s,1b2:-:3 5:f,2b1:-:3 1a - d:- k:?", "As:blast")
    assert seat(blast, 1) == "1:s,s:-:2" and seat(blast, 5) == "5:s,f:-:3"
    assert legal(blast) == ["s1-1b1"]


# -- level 3: values ---------------------------------------------------------------------------------------

def test_two_pulls_a_charge_behind_and_three_clears_one():
    pos = R.Position.parse("L3 1:s,1b3:-:3 5:s,s:2y1=?:3 1a - d:- k:?")
    assert [a for a in legal(pos) if ":pull:" in a] == ["2c:pull:1b3@2y1", "2d:pull:1b3@2y1",
                                                       "2h:pull:1b3@2y1", "2s:pull:1b3@2y1"]
    pos = play("L3 1:s,1b3:-:3 5:s,s:2y1=?:3 1a - d:- k:?", "2h:pull:1b3@2y1")
    assert seat(pos, 5) == "5:s,s:1b2=?:3" and pos.notation().split()[3] == "1mp"
    # behind 1b2 is the plus cell 1b1: no pull from there
    assert not any(":pull:" in a for a in legal(R.Position.parse(
        "L3 1:s,1b2:-:3 5:s,s:2y1=?:3 1a - d:- k:?")))
    pos = R.Position.parse("L3 1:s,2b1:-:3 5:s,s:2y3=?:3 1a - d:- k:?")
    assert "3c:clear:2y3" in legal(pos)
    pos = play("L3 1:s,2b1:-:3 5:s,s:2y3=?:3 1a - d:- k:?", "3c:clear:2y3")
    assert pos.charge_to_show() == T.parse("2y3")  # the card cleared is shown
    pos.push(pos.parse_action("=5h"))
    assert pos.notation() == "L3 1:s,2b1:-:2 5:s,s:-:3 1mp - d:3c5h k:?"
    pos = R.Position.parse("L3 1:s,2b2:-:3 5:s,s:2y1=?:3 1a - d:- k:?")
    assert not any(":clear:" in a for a in legal(pos))  # behind the ship


L3X = "L3 1:s,1b2:-:3 5:s,s:2b1=?,3r=?:3 1a - d:- k:?"


def test_four_forward_ten_one_charge_of_choice_then_two_is_read_by_colour():
    pos = play(L3X, "1b2-2b1", "=4h")
    assert legal(pos) == ["go:4b3/b!3r", "go:4b3/y!3r", "go:4y3/b!3r", "go:4y3/y!3r"]
    pos.push(pos.parse_action("go:4y3/b!3r"))
    pos.push(pos.parse_action("=2c"))  # a black 2 at level 3: back 5 along the yellow lane
    assert seat(pos, 1) == "1:s,3y2:-:3"


def test_five_jumps_eight_and_six_moves_the_other_piece():
    pos = play(L3X, "1b2-2b1", "=5c")
    assert seat(pos, 1) == "1:s,4b1:-:3"
    pos = play(L3X, "1b2-2b1", "=6d")
    assert pos.notation().split()[4] == "M115@s1" and legal(pos) == ["s1-1b1"]
    pos.push(pos.parse_action("s1-1b1"))
    assert seat(pos, 1) == "1:1b1,2b1:-:3"


def test_seven_and_eight_tow():
    pos = play("L3 1:s,1b2:-:3 5:s,4y2:2b1=?:3 1a - d:- k:?", "1b2-2b1", "=7h")
    assert legal(pos) == ["tow:4y2"]
    pos.push(pos.parse_action("tow:4y2"))
    assert seat(pos, 1) == "1:s,4y1:-:3"
    pos = play("L3 1:s,1b2:-:3 5:s,9y2:2b1=?:3 1a - d:- k:?", "1b2-2b1", "=8h")
    assert legal(pos) == ["tow:9y2"]
    pos.push(pos.parse_action("tow:9y2"))
    assert seat(pos, 5) == "5:s,1r:-:3"
    # a ship right ahead in the same lane: the cell behind it is the towing ship's own
    pos = play("L3 1:s,1b2:-:3 5:s,2b2:2b1=?:3 1a - d:- k:?", "1b2-2b1", "=7h")
    assert pos.notation().split()[3:5] == ["1c", "-"]


def test_nine_tractor_beam_is_the_owners():
    pos = play("L3 1:3b2,5y2:-:3 5:s,3b1:3b3=?:3 1a - d:- k:?", "3b2-3b3", "=9h")
    assert pos.to_move == 1 and pos.notation().split()[4] == "B5:3b1"
    assert legal(pos) == sorted("beam:5y2>" + c for c in
                                ("2b1", "2y1", "2b2", "2y2", "2b3", "2y3", "2r"))
    pos.push(pos.parse_action("beam:5y2>2y2"))
    assert seat(pos, 1) == "1:2y2,3b3:-:3"
    # nothing to throw without going behind the target's plus cell: skipped
    pos = play("L3 1:s,1b2:-:3 5:s,1r:2b1=?:3 1a - d:- k:?", "1b2-2b1", "=9h")
    assert pos.notation().split()[3:5] == ["1c", "-"]


def test_ten_freeze_the_owner_moves_twice():
    pos = play("L3 1:s,1b2:-:3 5:s,5b1:2b1=?:3 1a - d:- k:?", "1b2-2b1", "=Tc")
    assert pos.to_move == 1 and pos.notation().split()[4] == "M525*"
    assert "s5-5b1" not in legal(pos)
    pos.push(pos.parse_action("5b1-5b3"))
    assert pos.notation().split()[4] == "M515*" and "s5-5b1" in legal(pos)
    pos.push(pos.parse_action("s5-5b1"))
    assert pos.to_move == 0 and seat(pos, 5) == "5:5b1,5b3:-:3"


def test_jack_queen_hurt_only_other_civilisations():
    pos = play(L3X, "1b2-2b1", "=Jd")  # back 9 from progress 4: the plus cell
    assert seat(pos, 1) == "1:s,1b1:-:3"
    pos = play(L3X, "1b2-2b1", "=Qd")
    assert seat(pos, 1) == "1:s,s:-:3"
    own = "L3 1:s,s:-:3 5:s,1b3:2b1=?:3 5a - d:- k:?"
    for card in ("Jd", "Qd"):
        pos = play(own, "1b3-2b1", "=" + card)
        assert seat(pos, 5) == "5:s,2b1:-:3"


LASER = "L3 1:s,3b2:-:3 3:2y3,4y1:-:3 5:s,3b1:3b3=?:3 1a - d:- k:?"


def test_king_laser_front_and_back_of_different_civilisations():
    pos = play(LASER, "3b2-3b3", "=Kd")
    assert pos.to_move == 2
    assert legal(pos) == ["laser:-,2y3", "laser:3b3,-", "laser:3b3,2y3", "laser:4y1,-"]
    pos.push(pos.parse_action("laser:3b3,2y3"))
    assert seat(pos, 1) == "1:s,s:-:3" and seat(pos, 3) == "3:s,4y1:-:3"


def test_ace_blasts_the_charges_sector():
    pos = play("L3 1:s,3b2:-:3 5:3y1,6b1:3b3=?:3 1a - d:- k:?", "3b2-3b3", "=Ac")
    assert seat(pos, 1) == "1:s,s:-:3" and seat(pos, 5) == "5:s,6b1:-:3"


def test_joker_at_level_3_takes_the_pilots_value():
    pos = play(L3X, "1b2-2b1", "=Xb")
    assert legal(pos) == ["as4", "as5", "as6", "as7", "as8", "as9", "asA", "asJ", "asK",
                          "asQ", "asT"]
    assert pos.notation().split()[4] == "J2b1:5@2b1"
    pos.push(pos.parse_action("asQ"))
    assert seat(pos, 1) == "1:s,s:-:3"


def test_level_3_also_plays_by_suit():
    pos = R.Position.parse("L3 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?")
    assert "7h:brake" in legal(pos) and "3h:brake" in legal(pos)


# -- notation --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,words", [
    ("L4 1:s,s:-:3 5:s,s:-:3 1a - d:- k:?", "level"),
    ("L1 1:s,s:-:3 1a - d:- k:?", "2 to 9"),
    ("L1 1:s,s:-:3 1a d:- k:?", "needs"),
    ("L1 5:s,s:-:3 1:s,s:-:3 1a - d:- k:?", "ascending"),
    ("L1 1:s,1b2:-:3 5:s,1b2:-:3 1a - d:- k:?", "two ships on 1b2"),
    ("L1 1:s,1b2:-:3 5:s,s:2b1=Qh:3 1a - d:- k:?", "public"),
    ("L1 1:s,1b2:-:3 5:s,s:2r=#:3 1a - d:- k:?", "blockade"),
    ("L1 1:s,1b2:-:6 5:s,s:-:3 1a - d:- k:?", "0 to 5"),
    ("L1 1:s,1b2:-:3 5:s,s:-:3 2a - d:- k:?", "not in play"),
    ("L1 1:s,1b2:-:3 5:s,s:-:3 1a - d:QhQh k:?", "twice"),
    ("L1 1:s,1b2:-:3 5:s,s:-:3 1a Zz d:- k:?", "agenda"),
    ("L1 1:s,c:-:3 5:s,s:-:3 1a - d:- k:?", "finish cell"),
    ("L1 1:s,s:-:- 5:s,s:-:- 1a - d:- k:Qh/1/0", "nowhere"),
])
def test_bad_positions_are_named(text, words):
    with pytest.raises(R.RulesError) as e:
        R.Position.parse(text)
    assert words in str(e.value)


def test_bad_actions_are_named():
    pos = R.Position.parse("L1 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?")
    with pytest.raises(R.RulesError, match="not legal now"):
        pos.parse_action("1b2-3b1")
    with pytest.raises(R.RulesError, match="notation"):
        pos.parse_action("fly")
    pos = R.Position.parse(full(1, [(1, "s,1b1", "-", "2c3c4c"), (5, "s,s", "-", "5c6c7c")],
                                "1c"))
    with pytest.raises(R.RulesError, match="names the card"):
        pos.parse_action("lay:4b3")
    assert pos.parse_action("lay:4b3=3c") in pos.legal_actions()
