"""КУБитва rules core, worked out by hand on small positions: every ruling of
docs/rules/kubitva.md (steps and the border, carrying, move points and the active unit, capture
and enclosure, kills, fills, intact and broken buildings, every purchase, rockets, income, the
end of the game), the notations and their errors, the binary encoding, the start maps.

Grids are drawn top row first (the notation's order); cells are named with the column letter and
the row counted from the bottom (a1 is the bottom-left cell). kubitva_positions explains the
pictures.
"""

import pytest

from kubitva_positions import (ARENA, BASES, LAND_9, LAND_ROW6_S, grid9, notation, overlay,
                               play, position, texts)
from shared_rules.kubitva import rules as kb


def purchases(pos):
    return [t for t in texts(pos) if "@" in t and t[0] in kb.ITEM_LETTERS]


# -- start maps, notation ----------------------------------------------------------------------


def test_board_start():
    pos = kb.start_position("board")
    assert (pos.rows, pos.cols) == (11, 11)
    assert pos.notation() == kb.BOARD
    assert pos.seats == (0, 1) and pos.SEAT_LETTERS == "SN" and pos.to_move == kb.S
    assert pos.scores() == [60, 61] and pos.treasury == [0, 0]
    assert (pos.turn, pos.limit) == (1, 60)
    assert not pos.is_over() and pos.winners() == []
    # c4 pulls or carries the store cube c3; f4 cannot move the base wall f3 (next to f2).
    assert texts(pos) == ["c4n", "c4n+c3", "c4e", "c4e+c3", "c4w", "f4n", "f4e", "f4w",
                          "i4n", "i4e", "i4s", "i4w", "end"]


def test_full_start():
    pos = kb.start_position("full")
    assert (pos.rows, pos.cols) == (16, 15)
    assert pos.notation() == kb.FULL
    text = pos.notation().split()[0]
    assert text.count("W") == text.count("w") == 10
    assert text.count("b") == 30 and text.count("q") == 18 and text.count("a") == 32
    assert pos.scores() == [120, 120] and pos.limit == 200
    assert kb.named_position("full").notation() == kb.FULL
    assert kb.named_position("5x5") is None


def test_start_maps_are_symmetric_under_a_half_turn():
    for word in ("board", "full"):
        pos = kb.start_position(word)
        n = pos.n
        for c in range(n):
            v = pos.cells[c]
            w = pos.cells[n - 1 - c]
            if v >= kb.WORKER:
                assert w == v ^ 1
            else:
                assert w == v
            if c != n - 1 - c:
                assert pos.terr[c] != pos.terr[n - 1 - c]


def test_notation_round_trips_with_points_and_fresh_cells():
    text = notation(overlay("""
.......
.......
...S9...
...W0...
...W...
.......
......."""), """
NNNNNNN
NNNNNNN
NNNsNNN
SSSSSSS
SSSSSSS
SSSSSSS
SSSSSSS""", money="12,7", turn="9/60")
    pos = kb.Position.parse(text)
    assert pos.notation() == text
    assert pos.active == pos.parse_cell("d5") and pos.points[pos.active] == 9
    assert pos.treasury == [12, 7] and pos.turn == 9
    assert pos.terr[pos.parse_cell("d5")] == kb.S | kb.FRESH
    # counts may be left out for single cells
    short = text.replace("3N1s3N", "NNNsNNN")
    assert kb.Position.parse(short).notation() == text


@pytest.mark.parametrize("text,message", [
    ("....... 7S S 0,0", "5 fields"),
    (notation(BASES).replace("/.a.....", "/.a....", 1), "row 5 has 6 cells"),
    (notation(BASES).replace("aqa....", "aqa..z.", 1), "no cube"),
    (notation(BASES).replace("aqa....", "aqa.b5.", 1), "only units"),
    (notation(overlay("""
.......
.......
.......
.......
....w3..
.......
.......""")), "only the side to move"),
    (notation(overlay("""
.......
.......
.......
.......
..W3W4...
.......
.......""")), "both have 1-9 move points"),
    (notation(BASES).replace("7N/7N/7N/7N", "7N/7N/7N"), "territory has 6 rows"),
    (notation(BASES).replace("7N/7N/7N/7N", "7N/7N/7N/6N"), "gives 6 cells"),
    (notation(BASES).replace("7N/7N/7N/7N", "7N/7N/7N/7X"), "not S, N, s or n"),
    (notation(BASES).replace("7N/7N/7N/7N", "7N/7N/7N/7n"), "side to move's"),
    (notation(BASES).replace(" S 0,0", " X 0,0"), "side to move"),
    (notation(BASES).replace(" 0,0 ", " 0,-1 "), "treasuries"),
    (notation(BASES).replace(" 0,0 ", " 5 "), "treasuries"),
    (notation(BASES).replace("1/60", "62/60"), "turn"),
    (notation(BASES).replace("1/60", "1-60"), "turn"),
    ("../.. 2S/2S S 0,0 1/60", "grid 2x2"),
    ("/".join(["." * 16] * 16) + " " + "/".join(["16S"] * 16) + " S 0,0 1/60", "grid 16x16"),
])
def test_parse_errors(text, message):
    with pytest.raises(kb.RulesError) as e:
        kb.Position.parse(text)
    assert message in str(e.value)


# -- steps and the border ------------------------------------------------------------------------

def test_worker_does_not_cross_the_border():
    pos = position(overlay("""
.......
.......
.......
.......
...W...
.......
......."""))
    assert texts(pos) == ["d3e", "d3s", "d3w", "end"]
    with pytest.raises(kb.RulesError, match="workers cannot cross the border"):
        pos.parse_action("d3n")


def test_soldier_crossing_captures_the_cell():
    pos = position(overlay("""
.......
.......
.......
.......
...S...
.......
......."""))
    assert texts(pos) == ["d3n", "d3e", "d3s", "d3w", "end"]
    play(pos, "d3n")
    assert pos.notation() == notation(overlay("""
.......
.......
.......
...S9...
.......
.......
......."""), """
NNNNNNN
NNNNNNN
NNNNNNN
NNNsNNN
SSSSSSS
SSSSSSS
SSSSSSS""")
    assert pos.scores() == [22, 27]
    pos.pop()
    assert pos.scores() == [21, 28]


def test_soldier_on_enemy_land_steps_without_capturing():
    pos = position(overlay("""
.......
.......
.......
...S...
.......
.......
......."""))
    play(pos, "d4n")
    assert pos.scores() == [21, 28]
    assert pos.terr[pos.parse_cell("d5")] == kb.N


def test_steps_stay_on_the_grid_and_off_other_cubes():
    pos = position(overlay("""
.......
.......
.......
.......
.......
.......
W......"""))
    # a1: north is a2 (armour of the base, next to the base cube: not movable), east b1 (armour)
    assert texts(pos) == ["end"]


# -- carrying ----------------------------------------------------------------------------------

def test_push_pull_and_carry():
    pos = position(overlay("""
.......
.......
.......
.......
....b..
....Wx.
....i.."""))
    assert texts(pos) == ["e2n+e3", "e2e+f2", "e2w", "e2w+e3", "e2w+f2", "end"]
    play(pos, "e2n+e3")   # push: the building cube goes to e4, across the border
    assert pos.cells[pos.parse_cell("e4")] == kb.BRICK
    assert pos.cells[pos.parse_cell("e3")] == kb.WORKER
    pos.pop()
    play(pos, "e2w+e3")   # carry beside: both move west
    assert pos.cells[pos.parse_cell("d3")] == kb.BRICK
    assert pos.cells[pos.parse_cell("d2")] == kb.WORKER
    pos.pop()
    play(pos, "e2w+f2")   # pull: the waste takes the worker's cell
    assert pos.cells[pos.parse_cell("e2")] == kb.WASTE
    assert pos.cells[pos.parse_cell("f2")] == kb.EMPTY
    assert pos.moved_cube(pos.history()[-1]) == (pos.parse_cell("f2"), pos.parse_cell("e2"))


def test_cubes_next_to_a_base_cube_cannot_be_moved_but_corners_can():
    pos = position(overlay("""
.......
.......
.......
.......
..W....
.......
......."""))
    # c3 touches b3 and c2, walls of the base cube b2
    assert texts(pos) == ["c3e", "end"]
    with pytest.raises(kb.RulesError, match="next to a base cube"):
        pos.parse_action("c3e+b3")
    pos = position(overlay("""
.......
.......
.......
.......
..aW...
.......
......."""))
    # the armour on c3 only touches b2 diagonally: an ordinary cube
    assert texts(pos) == ["d3e", "d3e+c3", "d3s", "end"]
    pos = kb.start_position("board")
    pos = kb.Position.parse(pos.notation().replace("..W..W..W../bbb.aaa", ".....W..W../bbbWaaa"))
    assert "d3n+e3" in texts(pos)  # the corner e3 of the 3x3 base


def test_fillers_and_units_are_never_carried():
    pos = position(overlay("""
.......
.......
.......
.......
....w..
...iS..
......."""), """
NNNNNNN
NNNNNNN
NNNNNNN
NNNNNNN
NNNNNNN
SSSSSSS
SSSSSSS""")
    assert not any("+" in t for t in texts(pos))
    assert "e2xe3" in texts(pos)


# -- move points and the active unit -------------------------------------------------------------

def test_ten_points_then_nothing():
    pos = position(overlay("""
.......
.......
.......
.......
...W...
.......
......."""))
    for i in range(10):
        play(pos, "d3e" if i % 2 == 0 else "e3w")
        assert ("W%d" % (9 - i)) in pos.notation()
    assert pos.active == -1 and texts(pos) == ["end"]
    play(pos, "end", "end")
    assert "W0" not in pos.notation() and len(texts(pos)) == 4


def test_another_unit_ends_the_active_units_move():
    pos = position(overlay("""
.......
.......
.......
.......
.......
.......
...W.W."""))
    play(pos, "d1n")
    assert pos.active == pos.parse_cell("d2")
    play(pos, "f1n")
    rows = pos.notation().split()[0].split("/")
    assert rows[5] == "aqaW0.W9."
    assert all(t.startswith("f2") or t == "end" for t in texts(pos))
    with pytest.raises(kb.RulesError, match="no move points left"):
        pos.parse_action("d2n")
    pos.pop()
    assert pos.active == pos.parse_cell("d2") and pos.points[pos.active] == 9


def test_a_purchase_ends_the_active_units_move():
    pos = grid9("""
.........
.........
.........
.........
.........
...bmb..W
....b....
.........
.........""", LAND_ROW6_S, money="5,0")
    play(pos, "i4w")
    assert "s@e4/e5" in texts(pos)
    play(pos, "s@e4/e5")
    assert pos.points[pos.parse_cell("h4")] == 0 and pos.active == -1
    assert pos.cells[pos.parse_cell("e6")] == kb.SOLDIER + kb.S


# -- capture and enclosure ----------------------------------------------------------------------

LAND_97 = """
NNNNNNNNN
NNNSNNNNN
NNNSNNNNN
NNNSNNNNN
SSSSSSSSS
SSSSSSSSS
SSSSSSSSS
"""
CUT = """
.......a.
wb.S..aqa
bib....a.
.........
.......a.
......aqa
.......a.
"""


def test_enclosure_passes_land_cut_off_from_the_base():
    pos = position(CUT, LAND_97, money="10,0")
    assert pos.scores() == [30, 33]
    play(pos, "d6n")
    assert pos.notation().split()[1] == "4s5N/3s1S5N/3s1S5N/3s1S5N/9S/9S/9S"
    assert pos.scores() == [43, 20]
    # the house on b5 is S's now, but not before S's next turn
    assert not any(t.startswith("w@") for t in texts(pos))
    play(pos, "end")
    assert pos.treasury == [10, 0]  # N earns nothing from it
    # N's worker on a6 stays, on S's land now, and cannot step anywhere
    assert texts(pos) == ["end"]
    play(pos, "end")
    assert pos.treasury == [11, 0]  # S earns its one filler
    assert "w@b5/b4" in texts(pos)
    play(pos, "w@b5/b4")
    assert pos.cells[pos.parse_cell("b3")] == kb.WORKER + kb.S
    for _ in range(4):
        pos.pop()
    assert pos.notation() == notation(CUT, LAND_97, money="10,0")


def test_land_still_joined_to_the_base_stays():
    pos = position(CUT, LAND_97)
    play(pos, "d6w")
    assert pos.notation().split()[1] == "9N/2N1s1S5N/3N1S5N/3N1S5N/9S/9S/9S"


def test_enclosure_also_flips_a_pocket_beside_the_border():
    pos = position(overlay("""
.......
.......
.......
.S.....
.......
.......
......."""), """
NNNNNNN
NNNNNNN
NNNNNNN
NSSSSSS
NSSSSSS
SSSSSSS
SSSSSSS""")
    play(pos, "b4w")
    assert pos.notation().split()[1] == "7N/7N/7N/1s6S/1s6S/7S/7S"


# -- kills -----------------------------------------------------------------------------------------

def test_kill_across_the_border_costs_one_point():
    pos = position(overlay("""
.......
.......
.......
...w...
...S...
.......
......."""))
    assert "d3xd4" in texts(pos)
    play(pos, "d3xd4")
    assert pos.cells[pos.parse_cell("d4")] == kb.EMPTY
    assert pos.active == pos.parse_cell("d3") and pos.points[pos.active] == 9
    assert "d3n" in texts(pos)  # the soldier goes on
    play(pos, "d3n")
    assert pos.points[pos.active] == 8
    pos.pop()
    pos.pop()
    assert pos.cells[pos.parse_cell("d4")] == kb.WORKER + kb.N and pos.active == -1


def test_no_kill_without_the_border_between():
    # the N worker stands on S's land: no border between them
    pos = position(overlay("""
.......
.......
.......
.......
...w...
...S...
......."""))
    assert not any("x" in t[1:] for t in texts(pos))
    # an S soldier on N's land cannot kill either
    pos = position(overlay("""
.......
.......
...w...
...S...
.......
.......
......."""))
    assert not any("x" in t[1:] for t in texts(pos))
    with pytest.raises(kb.RulesError, match="border"):
        pos.parse_action("d4xd5")
    # and workers never kill
    pos = position(overlay("""
.......
.......
.......
...w...
...W...
.......
......."""))
    with pytest.raises(kb.RulesError, match="only soldiers"):
        pos.parse_action("d3xd4")


# -- fills and buildings --------------------------------------------------------------------------

ONE_ROOM = """
.........
.........
.........
.........
....b....
...b.b...
.........
.........
.........
"""


def test_fill_one_room():
    pos = grid9(ONE_ROOM)
    assert texts(pos) == ["i@e4/e3", "p@e4/e3", "m@e4/e3", "r@e4/e3", "end"]
    play(pos, "m@e4/e3")
    assert pos.cells[pos.parse_cell("e4")] == kb.MILITARY
    c = pos.parse_cell
    assert pos.buildings() == [(kb.MILITARY, c("e4"), c("e3"), 2, c("e2"), kb.S)]
    pos.pop()
    assert pos.buildings() == [] and pos.notation() == grid9(ONE_ROOM).notation()


def test_fill_two_rooms_and_parse_any_room():
    pos = grid9("""
.........
.........
.........
....b....
...b.b...
...b.b...
.........
.........
.........""")
    # e4-e5 with the opening e3, or e5 alone with the opening e4
    assert texts(pos) == ["i@e4/e3", "p@e4/e3", "m@e4/e3", "r@e4/e3",
                          "i@e5/e4", "p@e5/e4", "m@e5/e4", "r@e5/e4", "end"]
    a = pos.parse_action("i@e5/e3")
    assert pos.format_action(a) == "i@e4/e3"
    play(pos, "i@e5/e3")
    assert pos.cells[pos.parse_cell("e5")] == kb.INCOME
    play(pos, "end", "end")
    assert pos.treasury == [2, 0]


def test_a_purchase_parses_any_room_of_the_building():
    # 7.4 names a purchase's building "as above" (7.3): any room in place of the door room;
    # the parser refused it for purchases (an independent audit's finding)
    pos = kb.Position.parse(".....aaa/.bbb.aqa/.biibaaa/.bb.b.../......../......../.....aaa/"
                            ".....aqa/.....aaa 8N/8N/8N/8N/8N/8S/8S/8S/8S N 10,10 2/9")
    a = pos.parse_action("w@c7/d6")
    assert a == pos.parse_action("w@d7/d6") and pos.format_action(a) == "w@d7/d6"
    assert a in pos.legal_actions()


def test_unit_in_the_opening_does_not_stop_a_fill():
    pos = grid9("""
.........
.........
.........
.........
....b....
...b.b...
....W....
.........
.........""")
    assert "i@e4/e3" in texts(pos)


@pytest.mark.parametrize("picture,land", [
    # two gaps (e5 and e3 are both open)
    (""".........
.........
.........
.........
.........
...b.b...
.........
.........
.........""", LAND_9),
    # the opening f4 touches two rooms (e4 and f5)
    (""".........
.........
.........
....bb...
...b..b..
...b.....
....b....
.........
.........""", LAND_9),
    # a room on the edge (a5: walls a6, a4, opening b5)
    (""".........
.........
.........
b........
.........
b........
.........
.........
.........""", LAND_9),
    # the room is not S's land
    (ONE_ROOM, LAND_9.replace("SSSSSSSSS\nSSSSSSSSS\nSSSSSSSSS\nSSSSSSSSS\nSSSSSSSSS",
                              "SSSSSSSSS\nSSSSNSSSS\nSSSSSSSSS\nSSSSSSSSS\nSSSSSSSSS")),
    # the room holds waste
    (ONE_ROOM.replace("...b.b...", "...bxb..."), LAND_9),
])
def test_no_fill(picture, land):
    pos = grid9(picture, land)
    assert not any(t[1] == "@" for t in texts(pos)), texts(pos)


BARRACKS_N = """
.........
.........
.........
....w....
.........
...bmb...
....b....
.........
.........
"""


def test_broken_buildings_sell_nothing():
    def sells(picture, money="30,0"):
        return [t for t in texts(grid9(picture, money=money)) if "@" in t]
    assert sells(BARRACKS_N) == ["k@e4/e5", "K@e4/e5"]   # the front e6 is taken
    assert sells(BARRACKS_N, "4,0") == []
    assert sells(BARRACKS_N.replace("...bmb...", "...xmb...")) == []     # waste in the wall
    assert sells(BARRACKS_N.replace("...bmb...", "....mb...")) == []     # two openings
    assert sells(BARRACKS_N.replace("....b....\n.........\n", "....x....\n.........\n",
                                    1)) == []                             # waste in the wall
    # a worker in the doorway: the building stands; the rocket would hit that worker
    assert sells(BARRACKS_N.replace(".........\n...bmb", "....W....\n...bmb")) == \
        ["k@e4/e5", "K@e4/e5"]


def test_mended_building_works_again():
    pos = grid9("""
.........
.........
.........
....w....
.........
..Wxmb...
...bb....
...W.....
.........""", money="30,0")
    assert purchases(pos) == []
    play(pos, "c4w+d4")   # the waste is pulled out of the wall: a hole, still broken
    assert pos.cells[pos.parse_cell("c4")] == kb.WASTE
    assert purchases(pos) == []
    play(pos, "d2n+d3")   # a building cube pushed into the hole mends it
    assert purchases(pos) == ["k@e4/e5", "K@e4/e5"]


# -- purchases -------------------------------------------------------------------------------------

def test_factory_sells_building_and_armour_cubes():
    pic = BARRACKS_N.replace("bmb", "bpb").replace("....w....", ".........")
    pos = grid9(pic, LAND_ROW6_S, money="5,0")
    assert [t for t in texts(pos) if "@" in t] == ["b@e4/e5", "a@e4/e5"]
    play(pos, "a@e4/e5")
    assert pos.cells[pos.parse_cell("e6")] == kb.ARMOUR and pos.treasury == [0, 0]
    pos.pop()
    play(pos, "b@e4/e5")
    assert pos.cells[pos.parse_cell("e6")] == kb.BRICK and pos.treasury == [3, 0]
    # the front cell is taken now
    assert [t for t in texts(pos) if "@" in t] == []


def test_house_hires_workers_who_wait_for_the_next_turn():
    pos = grid9(BARRACKS_N.replace("bmb", "bib").replace("....w....", "........."),
                LAND_ROW6_S, money="2,0")
    play(pos, "w@e4/e5")
    assert "W0" in pos.notation() and texts(pos) == ["end"]
    play(pos, "end", "end")
    assert any(t.startswith("e6") for t in texts(pos))


def test_barracks_hires_soldiers():
    pos = grid9(BARRACKS_N.replace("....w....", "........."), LAND_ROW6_S, money="5,0")
    assert texts(pos)[0] == "s@e4/e5"
    play(pos, "s@e4/e5")
    assert pos.cells[pos.parse_cell("e6")] == kb.SOLDIER + kb.S and pos.treasury == [0, 0]


def test_recycler_turns_waste_into_a_building_cube():
    land = LAND_ROW6_S
    pic = BARRACKS_N.replace("bmb", "brb").replace("....w....", "....x....")
    pos = grid9(pic, land, money="2,0")
    assert [t for t in texts(pos) if "@" in t] == ["x@e4/e5"]
    play(pos, "x@e4/e5")
    assert pos.cells[pos.parse_cell("e6")] == kb.BRICK and pos.treasury == [0, 0]
    assert [t for t in texts(grid9(pic, land, money="1,0")) if "@" in t] == []
    assert [t for t in texts(grid9(pic.replace("....x....", "........."), land, money="9,0"))
            if "@" in t] == []


# -- rockets -------------------------------------------------------------------------------------

ROCKET = """
.........
.........
....T....
....i....
.........
...bmb...
....b....
.........
.........
"""


@pytest.mark.parametrize("target,money,legal,after", [
    ("w", "30,0", ["k", "K"], "x"),
    ("b", "30,0", ["k", "K"], "x"),
    ("a", "30,0", ["K"], "."),
    ("x", "30,0", [], None),
    (".", "30,0", [], None),
    ("w", "19,0", ["k"], "x"),
    ("w", "9,0", [], None),
])
def test_rocket_targets(target, money, legal, after):
    pos = grid9(ROCKET.replace("T", target), money=money)
    got = [t[0] for t in texts(pos) if t[1:] == "@e4/e5"]
    assert got == legal
    if legal:
        a = pos.parse_action(legal[-1] + "@e4/e5")
        assert pos.rocket_target(a) == pos.parse_cell("e7")  # over the filler on e6
        play(pos, legal[-1] + "@e4/e5")
        assert kb.cube_text(pos.cells[pos.parse_cell("e7")]) == after
        assert pos.treasury[0] == int(money.split(",")[0]) - (20 if legal[-1] == "K" else 10)


def test_rocket_hits_the_first_cube_even_an_own_one():
    pos = grid9(ROCKET.replace("T", "w").replace("....i....", "....W...."), money="10,0")
    a = pos.parse_action("k@e4/e5")
    assert pos.rocket_target(a) == pos.parse_cell("e6")
    play(pos, "k@e4/e5")
    assert pos.cells[pos.parse_cell("e6")] == kb.WASTE
    assert pos.cells[pos.parse_cell("e7")] == kb.WORKER + kb.N


def test_super_rocket_breaching_the_base_wins():
    pos = grid9("""
.........
.........
.........
.........
.........
......bmb
.......b.
.........
.........""", money="20,0")
    assert [t for t in texts(pos) if "@" in t] == ["K@h4/h5"]
    play(pos, "K@h4/h5")
    assert pos.cells[pos.parse_cell("h7")] == kb.EMPTY
    assert pos.is_over() and pos.winners() == [kb.S] and pos.legal_actions() == []
    assert not pos.base_kept(kb.N) and pos.base_kept(kb.S)
    pos.pop()
    assert not pos.is_over()


# -- income, turns, the end ---------------------------------------------------------------------

def test_income_is_paid_when_the_turn_begins():
    pos = grid9("""
.........
.........
.........
.........
...bb....
..biib...
....b....
.........
.........""")
    assert pos.income(kb.S) == 2 and pos.income(kb.N) == 0
    play(pos, "end")
    assert pos.treasury == [0, 0] and pos.to_move == kb.N and pos.turn == 2
    play(pos, "end")
    assert pos.treasury == [2, 0] and pos.turn == 3
    pos.pop()
    assert pos.treasury == [0, 0] and pos.turn == 2 and pos.to_move == kb.N


def test_turn_limit_ends_the_game_by_territory():
    pos = position(BASES, turn="60/60")
    play(pos, "end")
    assert pos.is_over() and pos.turn == 61 and pos.legal_actions() == []
    assert pos.scores() == [21, 28] and pos.winners() == [kb.N]
    land = "\n".join(["N" * 7] * 3 + ["NNNSSSS"] + ["S" * 7] * 3)
    pos = position(BASES, land, turn="60/60")
    play(pos, "end")
    assert pos.scores() == [25, 24] and pos.winners() == [kb.S]


def test_lost_bases():
    no_n = BASES.replace("....aqa", "....aaa")
    pos = position(no_n)
    assert pos.is_over() and pos.winners() == [kb.S] and pos.legal_actions() == []
    pos = position(no_n.replace("aqa....", "aaa...."))
    assert pos.winners() == [kb.S, kb.N]
    # a base on the edge is open to the edge: lost
    pos = position(BASES.replace(".a.....\naqa....\n.a.....", ".......\nqa.....\na......"))
    assert pos.winners() == [kb.N]


# -- action notation, encoding, order ----------------------------------------------------------

def test_action_texts_round_trip_and_encode_in_two_bytes():
    pos = kb.Position.parse(ARENA)
    acts = pos.legal_actions()
    assert acts == sorted(acts) and acts[-1] == kb.END
    kinds = set()
    for a in acts:
        t = pos.format_action(a)
        assert pos.parse_action(t) == a
        buf = kb.encode_action(a)
        assert len(buf) == 2 and kb.decode_action(pos, buf, 0) == (a, 2)
        kinds.add(t[0] + "@" if "@" in t else ("kill" if "x" in t[1:] else t[:1]))
    assert {"s@", "k@", "K@", "x@", "b@", "a@", "kill", "i@"} <= kinds


def test_encoding_examples():
    pos = kb.start_position("board")
    assert kb.encode_action(pos.parse_action("c4n")) == b"\x23\x00"   # c4 is cell 35
    assert kb.encode_action(pos.parse_action("c4n+c3")) == b"\x23\x03"
    assert kb.encode_action(kb.END) == b"\xff\xff"
    assert kb.decode_action(pos, b"\x00\x23\x00", 1) == (pos.parse_action("c4n"), 3)
    with pytest.raises(kb.RulesError, match="truncated"):
        kb.decode_action(pos, b"\x24", 0)
    with pytest.raises(kb.RulesError, match="not legal"):
        kb.decode_action(pos, b"\x25\x00", 0)


@pytest.mark.parametrize("text,message", [
    ("", "empty"),
    ("z9n", "no cell"),
    ("e4", "not an action"),
    ("e4q", "not an action"),
    ("c4n+e9", "not next to the unit"),
    ("c4xc6", "not next to"),
    ("q@c3/c4", "LETTER@ROOM/OPENING"),
    ("i@c3", "LETTER@ROOM/OPENING"),
    ("s@c3/e9", "not next to the room"),
    ("a4n", "holds no unit"),
    ("c4s", "not free"),
    ("f4s+f3", "next to a base cube"),
    ("i@c5/c6", "no room"),
    ("w@c5/c6", "no intact building"),
])
def test_action_errors(text, message):
    pos = kb.start_position("board")
    with pytest.raises(kb.RulesError) as e:
        pos.parse_action(text)
    assert message in str(e.value)


def test_game_over_actions_are_refused():
    pos = position(BASES, turn="61/60")
    with pytest.raises(kb.RulesError, match="over"):
        pos.parse_action("end")
