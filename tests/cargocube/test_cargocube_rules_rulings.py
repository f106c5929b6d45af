"""One or more tests per ruling of the Cargocube rulings page (base game only).

Source of truth: /work/shared/rules/cargocube-rulings.md, plus the lead's interpretations where the
page is silent:
- the «Полигон» start has no cards unless cards=True (default places for S: b1 s, c1 s, d1 w,
  e1 s, g1 s, h1 a, turned with the board for the other seats);
- a wind-rose hop may land back on the cell the cube left;
- a hop onto a wind rose that already acted in this action leaves the cube there;
- the game ends as soon as any score reaches 36, even mid-turn;
- seats must be written in S W N E order;
- a seat may lack a keeper (it just cannot step).

Every expected action set and resulting position below was worked out by hand from the rulings,
never by printing what the code does. Most positions have no keepers and no cards in the terminals,
so that the legal lists stay short and complete.

Orientations used (faces: up, down, north, east, south, west), worked out from the roll rule:
    B1 = B O 3 4 1 2 (start)          roll n -> 1O, e -> 21, s -> 3B, w -> 41
    1O = 1 3 B 4 O 2                  roll n -> O3, e -> 2O, s -> B1, w -> 4O
    21 = 2 4 3 B 1 O                  roll n -> 14
    B2 = B O 4 1 2 3                  roll s -> 4B
"""

import pytest

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient as o

S, W, N, E = 0, 1, 2, 3

# Grey zone per the rulings page: columns b..j, rows 2..10 (independent of shared_rules).
GREY = [col + str(row) for row in range(2, 11) for col in "bcdefghij"]


def P(text):
    return cc.Position.parse(text)


def canon(text):
    """A hand-written position put into the canonical order of the rulings page
    (cells sorted by row, row 1 first, then by column)."""
    cells, rest = text.split(" ", 1)
    if cells == "-":
        return text
    entries = cells.split(",")
    entries.sort(key=lambda e: (int(e.split("=")[0][1:]), e[0]))
    return ",".join(entries) + " " + rest


def legal(pos):
    if isinstance(pos, str):
        pos = P(pos)
    texts = [pos.format_action(a) for a in pos.legal_actions()]
    assert len(texts) == len(set(texts)), "duplicate legal actions: %r" % texts
    return set(texts)


def play(text, *moves):
    pos = P(text)
    for m in moves:
        pos.push_checked(pos.parse_action(m))
    return pos


def boosts(card_cell, occupied=()):
    """Booster uses of the card on card_cell: every empty grey cell but the entry portal."""
    return {card_cell + "@" + c for c in GREY if c not in occupied and c != "f6"}


def cell(name):
    return g.parse_cell(name)


# ---------------------------------------------------------------------------------------------
# Board


def _expected_kind(col, row):
    x = "abcdefghijk".index(col)
    y = row - 1
    if (x in (0, 10)) and (y in (0, 10)):
        return "corner"
    if y == 0:
        return "T" + "S"
    if x == 0:
        return "TW"
    if y == 10:
        return "TN"
    if x == 10:
        return "TE"
    return "grey"


def test_board_cells_kinds_and_portals():
    names = {g.GREY: "grey", g.CORNER: "corner", g.TERMINAL + S: "TS", g.TERMINAL + W: "TW",
             g.TERMINAL + N: "TN", g.TERMINAL + E: "TE"}
    count = {}
    for col in "abcdefghijk":
        for row in range(1, 12):
            c = cell(col + str(row))
            assert c == (row - 1) * 11 + "abcdefghijk".index(col)
            assert g.cell_name(c) == col + str(row)
            kind = names[g.CELL_KIND[c]]
            assert kind == _expected_kind(col, row), col + str(row)
            count[kind] = count.get(kind, 0) + 1
    assert count == {"corner": 4, "grey": 81, "TS": 9, "TW": 9, "TN": 9, "TE": 9}
    assert g.ENTRY_PORTAL == cell("f6")
    assert tuple(g.EXIT_PORTAL) == (cell("f1"), cell("a6"), cell("f11"), cell("k6"))
    assert [g.cell_name(c) for c in g.TERMINAL_CELLS[S]] == ["b1", "c1", "d1", "e1", "f1", "g1",
                                                             "h1", "i1", "j1"]
    assert sorted(g.cell_name(c) for c in g.TERMINAL_CELLS[W]) == sorted(
        "a%d" % r for r in range(2, 11))


def test_cell_names_outside_the_board_are_not_cells():
    for bad in ("l1", "a0", "a12", "e", "", "5e", "e05"):
        assert g.parse_cell(bad) == -1


def test_cube_next_to_corner_never_enters_it():
    # b1 is S's own terminal: the cube there is free for S; a1 is a corner, below is off board.
    assert legal("b1=1O SN S 1") == {"b1n", "b1e", "end"}


def test_keeper_next_to_corner_never_enters_it():
    assert legal("b1=KS SN S 1") == {"Kn", "Ke", "end"}
    assert legal("b1=KS SWNE S 1") == {"Kn", "Ke", "end"}


# ---------------------------------------------------------------------------------------------
# Seats and turn order


@pytest.mark.parametrize("players,seats", [(2, "SN"), (3, "SWN"), (4, "SWNE")])
def test_start_seats_and_first_mover(players, seats):
    pos = cc.start_position(players=players)
    assert pos.seats == tuple("SWNE".index(ch) for ch in seats)
    assert pos.to_move == S
    assert pos.actions_left == 0 and not pos.booster_used
    assert pos.notation().endswith(" %s S a" % seats)


@pytest.mark.parametrize("seats,mover,nxt", [
    ("SN", "S", "N"), ("SN", "N", "S"),
    ("SWN", "S", "W"), ("SWN", "W", "N"), ("SWN", "N", "S"),
    ("SWNE", "S", "W"), ("SWNE", "W", "N"), ("SWNE", "N", "E"), ("SWNE", "E", "S"),
])
def test_turn_passes_clockwise_over_seats_in_play(seats, mover, nxt):
    pos = P("- %s %s 2b" % (seats, mover))
    assert legal(pos) == {"end"}
    pos.push(pos.parse_action("end"))
    assert pos.notation() == "- %s %s a" % (seats, nxt)
    assert pos.to_move == "SWNE".index(nxt)
    assert pos.actions_left == 0 and not pos.booster_used


def test_seats_must_be_in_turn_order_and_as_the_rulings_seat_players():
    for seats in ("NS", "SWEN", "NSWE", "SE", "WE", "SW", "WNE", "SWE", "SNE"):
        with pytest.raises(cc.RulesError):
            P("- %s S a" % seats)


def test_terminal_of_seat_not_in_play_cannot_be_entered_by_rolls():
    # 3 players: E is not in play, W is. For W, a5 is its own terminal; k5 is out of play.
    assert legal("b5=21.1O,j5=21.1O SWN W 1") == {"b5n", "b5e", "b5s", "b5w",
                                                  "j5n", "j5s", "j5w", "end"}
    # For S, a5 is another player's terminal.
    assert legal("b5=21.1O,j5=21.1O SWN S 1") == {"b5n", "b5e", "b5s", "j5n", "j5s", "j5w", "end"}
    # 2 players: both side terminals are out of play.
    assert legal("b5=21.1O,j5=21.1O SN N 1") == {"b5n", "b5e", "b5s", "j5n", "j5s", "j5w", "end"}


def test_terminal_of_seat_not_in_play_cannot_be_entered_by_keepers():
    assert legal("j5=KS SN S 1") == {"Kn", "Ks", "Kw", "end"}
    assert legal("b5=KN SN N 1") == {"Kn", "Ke", "Ks", "end"}


def test_nothing_may_lie_in_terminal_of_seat_not_in_play():
    for text in ("a5=B1 SN S a", "k5=41 SWN S a", "a4=*sS SN S a"):
        with pytest.raises(cc.RulesError):
            P(text)


def test_seat_without_keeper_cannot_step():
    pos = P("e5=21.1O SN S 1")
    assert pos.keeper_cell(S) == -1
    assert legal(pos) == {"e5n", "e5e", "e5s", "e5w", "end"}


# ---------------------------------------------------------------------------------------------
# Cubes and orientation


def test_orientation_names_are_top_then_south_24_in_all():
    faces = "B1234O"
    opposite = {"B": "O", "O": "B", "1": "3", "3": "1", "2": "4", "4": "2"}
    expected = {t + s for t in faces for s in faces if s != t and s != opposite[t]}
    assert len(expected) == 24
    assert set(o.name(x) for x in range(o.COUNT)) == expected
    assert o.COUNT == 24
    assert o.parse("13") == -1 and o.parse("BO") == -1 and o.parse("11") == -1
    assert o.name(o.START) == "B1"


@pytest.mark.parametrize("name,faces", [
    # (up, down, north, east, south, west)
    ("B1", "BO3412"), ("B2", "BO4123"), ("B3", "BO1234"), ("B4", "BO2341"),
    ("1O", "13B4O2"), ("21", "243B1O"), ("O3", "OB1432"),
])
def test_orientation_faces(name, faces):
    # B up: the pips run 1, 2, 3, 4 clockwise seen from above (S -> W -> N -> E).
    assert o.faces(o.parse(name)) == faces


@pytest.mark.parametrize("start,d,after", [
    ("B1", "n", "1O"), ("B1", "e", "21"), ("B1", "s", "3B"), ("B1", "w", "41"),
    ("1O", "n", "O3"), ("1O", "e", "2O"), ("1O", "s", "B1"), ("1O", "w", "4O"),
    ("21", "n", "14"), ("B2", "s", "4B"), ("O3", "n", "3B"), ("3B", "n", "B1"),
])
def test_roll_table(start, d, after):
    assert o.name(o.ROLL[o.parse(start) * 4 + "nesw".index(d)]) == after


def test_four_rolls_north_restore_in_a_position():
    # A free cube at level 1 rolls north over a row of bridges, four times.
    pos = P("d2=21.B1,d3=21,d4=21,d5=21,d6=21 SN S 4")
    steps = [("d2n", "d2=21,d3=21.1O,d4=21,d5=21,d6=21 SN S 3"),
             ("d3n", "d2=21,d3=21,d4=21.O3,d5=21,d6=21 SN S 2"),
             ("d4n", "d2=21,d3=21,d4=21,d5=21.3B,d6=21 SN S 1"),
             ("d5n", "d2=21,d3=21,d4=21,d5=21,d6=21.B1 SN N a")]
    for move, result in steps:
        pos.push_checked(pos.parse_action(move))
        assert pos.notation() == result


# ---------------------------------------------------------------------------------------------
# Activation value (incl. the page's example)


@pytest.mark.parametrize("move,result", [
    ("e5n", "e6=1O SN S 1"),
    ("e5e", "f5=21 SN S 2"),
    ("e5s", "e4=3B SN S 3"),
    ("e5w", "d5=41 SN S 4"),  # the page: toward face 2 -> 2 down, 4 up: 4 actions
])
def test_activation_value_is_top_pips_after_roll(move, result):
    assert legal("e5=B1 SN S a") == {"e5n", "e5e", "e5s", "e5w"}
    pos = play("e5=B1 SN S a", move)
    assert pos.notation() == result
    assert pos.actions_left == int(result[-1])


def test_page_example_activation_toward_face_2():
    pos = P("e5=B1 SN S a")
    a = pos.parse_action("e5w")
    assert a[0] == cc.ACTIVATE
    assert o.faces(a[4]) == "423O1B"  # 4 up, 2 down (up, down, north, east, south, west)
    pos.push(a)
    assert pos.actions_left == 4


# ---------------------------------------------------------------------------------------------
# Stacks and the climb limit


def test_activation_from_level_1_climb_limit():
    text = "d4=21,d5=21.B1,d6=21.21,e5=21.21.21 SN S a"
    # d6 has height 2 <= 1 + 1; e5 has height 3 > 2; c5 empty; d4 height 1.
    assert legal(text) == {"d5n", "d5s", "d5w"}
    pos = play(text, "d5n")  # lands at level 2
    assert pos.notation() == canon("d4=21,d5=21,d6=21.21.1O,e5=21.21.21 SN S 1")


def test_climb_limit_any_number_down_one_up():
    # B1 at level 2: e6 height 3 (= 2 + 1) allowed, d5 height 4 not; down to the floor allowed.
    text = "e5=21.21.B1,e6=21.21.21,d5=21.21.21.21 SN S a"
    assert legal(text) == {"e5n", "e5e", "e5s"}
    assert play(text, "e5n").notation() == canon("e5=21.21,e6=21.21.21.1O,d5=21.21.21.21 SN S 1")
    assert play(text, "e5e").notation() == canon("e5=21.21,f5=21,e6=21.21.21,d5=21.21.21.21 SN S 2")


def test_only_top_item_may_act():
    # The B-up cube on e5 is covered: S has no activation, the game is over.
    pos = P("e5=B1.21 SN S a")
    assert pos.legal_actions() == []
    assert pos.is_over()


def test_cards_add_no_height():
    # A cube at level 0 on a placed card climbs one level onto a height-1 stack, not 2.
    assert legal("e5=*aN.21,e6=21,f5=21.KN SN S 1") == {"e5n", "e5s", "e5w", "end"}


# ---------------------------------------------------------------------------------------------
# Status of a cargo cube


def test_resting_and_bridge_never_move_free_cube_may_stand_on_them():
    text = "c3=B1,d3=21.B1,e3=21 SN S 2"
    # c3 resting, e3 bridge: no actions; d3 (level 1) is free and may roll onto both.
    assert legal(text) == {"d3n", "d3e", "d3s", "d3w", "end"}
    assert play(text, "d3e").notation() == canon("c3=B1,d3=21,e3=21.21 SN S 1")
    assert play(text, "d3w").notation() == canon("c3=B1.41,d3=21,e3=21 SN S 1")


def test_cube_on_card_at_level_0_is_free():
    assert legal("e5=*sN.21 SN S 1") == {"e5n", "e5e", "e5s", "e5w", "end"}


def test_cube_landing_on_card_stays_free():
    pos = play("d5=21.1O,e5=*sN SN S 2", "d5e")
    assert pos.notation() == "d5=21,e5=*sN.2O SN S 1"
    # d5 is now a bridge; the cube on the card is free (d5 height 1 <= 0 + 1).
    assert legal(pos) == {"e5n", "e5e", "e5s", "e5w", "end"}


def test_landing_at_level_0_makes_bridge_unless_o_down():
    pos = play("d5=21.1O SN S 2", "d5e")
    assert pos.notation() == "d5=21,e5=2O SN S 1"  # 4 down: a bridge
    assert legal(pos) == {"end"}
    pos = play("d5=21.1O SN S 2", "d5s")
    assert pos.notation() == "d4=B1,d5=21 SN S 1"  # O down: resting
    assert legal(pos) == {"end"}
    pos.push(pos.parse_action("end"))
    # The resting cube can be activated by the next player.
    assert legal(pos) == {"d4n", "d4e", "d4s", "d4w"}


def test_cube_in_terminal_free_for_owner_frozen_for_others():
    text = "c1=1O,c11=1O SN %s 1"
    assert legal(text % "S") == {"c1n", "c1e", "c1w", "end"}
    assert legal(text % "N") == {"c11s", "c11e", "c11w", "end"}


def test_cube_on_other_seats_keeper_frozen_on_own_keeper_free():
    text = "d5=KN.21,h5=KS.21 SN %s 1"
    # Keepers under cubes cannot step.
    assert legal(text % "S") == {"h5n", "h5e", "h5s", "h5w", "end"}
    assert legal(text % "N") == {"d5n", "d5e", "d5s", "d5w", "end"}


def test_status_queries_if_provided():
    pos = P("c3=B1,e3=21,d3=21.B1,e5=*sN.21,c1=1O,d5=KN.21,h5=KS.21 SN S 1")
    expect = {"c3": "resting", "e3": "bridge", "d3": "free", "e5": "free", "c1": "free",
              "d5": "frozen", "h5": "free"}
    for name, status in expect.items():
        assert pos.cube_status(cell(name), S) == status, name
    assert pos.cube_status(cell("c1"), N) == "frozen"
    assert pos.cube_status(cell("d5"), N) == "free"
    assert pos.cube_status(cell("h5"), N) == "frozen"


# ---------------------------------------------------------------------------------------------
# Activation restrictions


def test_activation_restrictions():
    text = "b1=B1,b2=B1,e6=B1,h4=B1,h5=KN,j4=B1,j5=21.21 SN S a"
    assert legal(text) == {
        "b1n",                       # own terminal: only inward (c1 terminal, a1 corner)
        "b2n", "b2e",                # not into b1 (terminal) nor a2 (terminal)
        "e6n", "e6s", "e6w",         # not onto the entry portal f6
        "h4n", "h4e", "h4s", "h4w",  # onto a keeper is allowed
        "j4s", "j4w",                # j5 too high, k4 a terminal
    }
    pos = play(text, "h4n")
    assert pos.notation() == canon("b1=B1,b2=B1,e6=B1,h5=KN.1O,j4=B1,j5=21.21 SN S 1")


def test_activation_not_in_other_terminal_not_frozen():
    text = "c11=B1,d5=KN.B1,i8=KS.B1 SN %s a"
    assert legal(text % "S") == {"i8n", "i8e", "i8s", "i8w"}
    assert legal(text % "N") == {"c11s", "d5n", "d5e", "d5s", "d5w"}


def test_activation_needs_b_up():
    assert legal("e5=21.41,f7=21.3B,c4=*sS.1O,g3=B1 SN S a") == {"g3n", "g3e", "g3s", "g3w"}


def test_no_end_during_activation():
    pos = P("e5=B1 SN S a")
    assert "end" not in legal(pos)
    with pytest.raises(cc.RulesError):
        pos.parse_action("end")


# ---------------------------------------------------------------------------------------------
# Rolls (actions)


def test_rolls_not_into_other_terminal_into_own_ok():
    text = "b5=21.1O,c2=21.B2,c10=21.1O SN S 2"
    assert legal(text) == {"b5n", "b5e", "b5s", "c2n", "c2e", "c2s", "c2w", "c10e", "c10s",
                           "c10w", "end"}
    pos = play(text, "c2s")
    assert pos.notation() == canon("c1=4B,c2=21,b5=21.1O,c10=21.1O SN S 1")
    assert pos.scores() == [4, 0, 0, 0]


def test_free_cube_with_b_up_rolls_during_actions():
    # A free B-up cube is rolled (1 action), not activated.
    pos = P("e5=21.B1 SN S 2")
    a = pos.parse_action("e5n")
    assert a[0] == cc.ROLL
    pos.push(a)
    assert pos.notation() == "e5=21,e6=1O SN S 1"


# ---------------------------------------------------------------------------------------------
# Keeper steps


def test_keeper_steps_climb_limit_and_stands_on_anything():
    text = "e3=B1,e4=KS,e5=KN.21,f4=21 SN S 1"
    # e5 height 2 too high; f4 a bridge, e3 a resting cube, d4 empty: all fine.
    assert legal(text) == {"Ke", "Ks", "Kw", "end"}
    assert play(text, "Ke").notation() == canon("e3=B1,f4=21.KS,e5=KN.21 SN N a")
    assert play(text, "Ks").notation() == canon("e3=B1.KS,f4=21,e5=KN.21 SN N a")


def test_keeper_at_level_1_may_climb_to_height_2():
    text = "d4=21.KW.KE,e4=21.KS,e5=21.KN,f4=21 SWNE S 1"
    # d4 height 3 > 2; e5 height 2 (onto another keeper) ok; f4, e3 ok.
    assert legal(text) == {"Kn", "Ke", "Ks", "end"}
    assert play(text, "Kn").notation() == canon("d4=21.KW.KE,e4=21,f4=21,e5=21.KN.KS SWNE W a")


def test_keeper_not_into_other_terminal():
    assert legal("c2=KS SN S 1") == {"Kn", "Ke", "Ks", "Kw", "end"}  # c1 own terminal
    assert legal("b10=KS SN S 1") == {"Ks", "Ke", "end"}
    assert legal("b10=KS SWNE S 1") == {"Ks", "Ke", "end"}
    assert legal("c10=KN SN N 1") == {"Kn", "Ke", "Ks", "Kw", "end"}
    assert play("c10=KN SN N 1", "Kn").notation() == "c11=KN SN S a"


def test_keeper_under_item_is_blocked():
    assert legal("e5=KS.21 SN S 1") == {"e5n", "e5e", "e5s", "e5w", "end"}
    assert legal("e5=KS.KN SN S 1") == {"end"}
    assert legal("e5=KS.KN SN N 1") == {"Kn", "Ke", "Ks", "Kw", "end"}


def test_keeper_never_teleports():
    text = "f5=KS SN S 1"
    assert legal(text) == {"Kn", "Ke", "Ks", "Kw", "end"}
    pos = play(text, "Kn")
    assert pos.notation() == "f6=KS SN N a"
    assert pos.keeper_cell(S) == cell("f6")


def test_keeper_leaving_springboard_ignores_climb_limit():
    assert legal("e5=*sN.KS,e6=21.KN.21 SN S 1") == {"Kn", "Ke", "Ks", "Kw", "end"}
    assert legal("e5=KS,e6=21.KN.21 SN S 1") == {"Ke", "Ks", "Kw", "end"}
    assert play("e5=*sN.KS,e6=21.KN.21 SN S 1", "Kn").notation() == \
        "e5=*sN,e6=21.KN.21.KS SN N a"


# ---------------------------------------------------------------------------------------------
# `end` and passing the turn


def test_end_only_while_actions_left_and_turn_passes():
    pos = play("e5=B1 SN S a", "e5n")
    assert pos.notation() == "e6=1O SN S 1"
    assert legal(pos) == {"end"}
    pos.push(pos.parse_action("end"))
    assert pos.notation() == "e6=1O SN N a"
    # N cannot activate: the game is over; a tie 0-0.
    assert pos.is_over() and pos.legal_actions() == []
    assert pos.winners() == [S, N]


def test_turn_passes_after_last_action_and_clears_booster_flag():
    pos = play("d5=21.1O SN S 1b", "d5n")
    assert pos.notation() == "d5=21,d6=O3 SN N a"
    assert not pos.booster_used and pos.actions_left == 0


def test_actions_count_down():
    pos = play("d5=21.21.1O SN S 3", "d5n")
    assert pos.notation() == "d5=21.21,d6=O3 SN S 2"


# ---------------------------------------------------------------------------------------------
# Portals


def test_roll_onto_entry_portal_teleports_to_own_exit_portal():
    text = "e6=21.1O,f1=KS SN S 2"
    assert legal(text) == {"e6n", "e6e", "e6s", "e6w", "Kn", "Ke", "Kw", "end"}
    pos = P(text)
    a = pos.parse_action("e6e")
    assert a[3] == cell("f1")
    pos.push(a)
    assert pos.notation() == "f1=KS.2O,e6=21 SN S 1"
    assert pos.scores() == [2, 0, 0, 0]


def test_teleport_goes_to_the_movers_exit_portal():
    pos = play("e6=21.1O SN N 2", "e6e")
    assert pos.notation() == "e6=21,f11=2O SN N 1"
    assert pos.scores() == [0, 0, 2, 0]
    pos = play("e6=21.1O SWNE W 2", "e6e")
    assert pos.notation() == "a6=2O,e6=21 SWNE W 1"
    pos = play("e6=21.1O SWNE E 2", "e6e")
    assert pos.notation() == "e6=21,k6=2O SWNE E 1"


def test_teleport_at_any_level_and_on_top_of_the_exit_stack():
    assert play("e6=21.21.1O SN S 1", "e6e").notation() == "f1=2O,e6=21.21 SN N a"
    # A keeper standing on the portal: the cube lands on it at level 1 and still teleports.
    assert play("e6=21.1O,f6=KN,f1=41.41 SN S 2", "e6e").notation() == \
        "f1=41.41.2O,e6=21,f6=KN SN S 1"


def test_slide_onto_entry_portal_teleports():
    text = "f4=21.1O,f5=*aS SN S 2"
    assert legal(text) == {"f4n", "f4e", "f4s", "f4w", "end"}
    pos = P(text)
    a = pos.parse_action("f4n")
    assert a[3] == cell("f1") and a[5] == ()
    pos.push(a)
    assert pos.notation() == "f1=O3,f4=21,f5=*aS SN S 1"


def test_hop_onto_entry_portal_teleports():
    pos = P("d5=21.1O,e5=*wS SN S 2")
    a = pos.parse_action("d5e/f6")
    assert a[3] == cell("f1") and a[5] == (cell("f6"),)
    pos.push(a)
    assert pos.notation() == "f1=2O,d5=21,e5=*wS SN S 1"


# ---------------------------------------------------------------------------------------------
# Scoring


def test_scoring_only_uncovered_cubes_b_and_o_zero():
    pos = P("b1=41,c1=1O.21,d1=32.KS,e1=B1,g1=O3,b11=41,c11=4O SN S a")
    # S: b1 4, c1 top 2 (1O covered), d1 covered by the keeper, B and O score 0.
    assert pos.scores() == [6, 0, 8, 0]
    assert not pos.is_over() and pos.winners() == []


def test_scores_follow_moves_out_of_the_terminal():
    pos = P("c1=21.41 SN S 1")
    assert pos.scores() == [4, 0, 0, 0]
    pos.push(pos.parse_action("c1n"))
    assert pos.notation() == "c1=21,c2=12 SN N a"
    assert pos.scores() == [2, 0, 0, 0]  # the 21 under it is uncovered now
    pos.pop()
    assert pos.scores() == [4, 0, 0, 0]


# ---------------------------------------------------------------------------------------------
# Game end and winners


def test_game_ends_when_mover_cannot_activate():
    pos = P("e5=21,b11=41 SN S a")
    assert pos.is_over()
    assert pos.legal_actions() == []
    assert pos.scores() == [0, 0, 4, 0]
    assert pos.winners() == [N]
    with pytest.raises(cc.RulesError):
        pos.parse_action("e5n")


def test_equal_highest_scores_share_the_win():
    assert P("e5=21,b1=41,b11=41 SN S a").winners() == [S, N]
    assert P("e5=21,a5=41,b11=41,c1=21 SWN S a").winners() == [W, N]
    assert P("- SWNE E a").winners() == [S, W, N, E]


def test_game_ends_as_soon_as_a_score_reaches_36_even_mid_turn():
    text = "b1=41,c1=41,d1=41,e1=41,g1=41,h1=41,i1=41,j1=41,f2=21.B2,e5=B1 SN S 2"
    pos = P(text)
    assert pos.scores()[S] == 32
    # The cubes in S's own terminal are free for S too (a1 corner, k1 corner).
    assert legal(pos) == {"b1n", "b1e", "c1n", "c1e", "c1w", "d1n", "d1e", "d1w",
                          "e1n", "e1e", "e1w", "g1n", "g1e", "g1w", "h1n", "h1e", "h1w",
                          "i1n", "i1e", "i1w", "j1n", "j1w", "f2n", "f2e", "f2s", "f2w", "end"}
    pos.push(pos.parse_action("f2s"))  # B2 rolled south: 4 up on f1
    assert pos.scores() == [36, 0, 0, 0]
    assert pos.is_over()
    assert pos.legal_actions() == []
    assert pos.winners() == [S]


def test_position_with_max_score_is_over():
    pos = P("b1=41,c1=41,d1=41,e1=41,f1=41,g1=41,h1=41,i1=41,j1=41,e5=B1 SN N a")
    assert pos.is_over() and pos.legal_actions() == [] and pos.winners() == [S]


# ---------------------------------------------------------------------------------------------
# Booster cards: use


def test_booster_use_targets_and_which_cards():
    text = "b1=*sS,c1=*wS.KS,b11=*sN,e5=*aS,g7=21 SN S 2"
    # b1: own, unused, nothing on it. c1 has the keeper on it; b11 is N's; e5 is placed already.
    assert legal(text) == {"Kn", "Ke", "Kw", "end"} | boosts("b1", {"e5", "g7"})
    pos = play(text, "b1@d5")
    assert pos.notation() == canon("c1=*wS.KS,d5=*sS,e5=*aS,g7=21,b11=*sN SN S 1b")
    assert pos.booster_used
    assert legal(pos) == {"Kn", "Ke", "Kw", "end"}


def test_booster_once_per_turn():
    assert legal("b1=*sS,c1=*sS SN S 2b") == {"end"}
    assert legal("b1=*sS,c1=*sS SN S 2") == {"end"} | boosts("b1") | boosts("c1")
    pos = play("b1=*sS,c1=*sS SN S 3", "b1@e5")
    assert pos.notation() == "c1=*sS,e5=*sS SN S 2b"
    assert legal(pos) == {"end"}
    pos.push(pos.parse_action("end"))
    assert pos.notation() == "c1=*sS,e5=*sS SN N a"


def test_booster_only_after_activation():
    assert legal("b1=*sS,e5=B1 SN S a") == {"e5n", "e5e", "e5s", "e5w"}
    pos = play("b1=*sS,e5=B1 SN S a", "e5n")
    assert legal(pos) == {"end"} | boosts("b1", {"e6"})


def test_card_in_terminal_has_no_effect_wind_rose():
    text = "c1=*wS,c2=21.1O SN S 2"
    assert legal(text) == {"c2n", "c2e", "c2s", "c2w", "end"} | boosts("c1", {"c2"})
    pos = play(text, "c2s")
    assert pos.notation() == "c1=*wS.B1,c2=21 SN S 1"
    assert legal(pos) == {"c1n", "c1e", "c1w", "end"}  # the covered card cannot be taken


def test_card_in_terminal_has_no_effect_springboard():
    assert legal("c1=*sS.21,c2=KN.21 SN S 1") == {"c1e", "c1w", "end"}


def test_card_in_terminal_has_no_effect_acceleration():
    text = "c1=1O,d1=*aS SN S 2"
    assert legal(text) == {"c1n", "c1e", "c1w", "end"} | boosts("d1")
    pos = play(text, "c1e")
    assert pos.notation() == "d1=*aS.2O SN S 1"


# ---------------------------------------------------------------------------------------------
# Springboard


def test_springboard_lets_cubes_ignore_the_climb_limit():
    text = "e5=*sN.21,e6=21.KN.21 SN S 1"
    assert legal(text) == {"e5n", "e5e", "e5s", "e5w", "end"}
    assert play(text, "e5n").notation() == "e5=*sN,e6=21.KN.21.14 SN N a"
    # Without the card the cube (at level 1) may not climb onto height 3.
    assert legal("e5=21.21,e6=21.KN.21 SN S 1") == {"e5e", "e5s", "e5w", "end"}


def test_springboard_is_permanent():
    pos = play("e5=*sS.21.21,e6=21.KN.21 SN S 2", "e5n")
    assert pos.notation() == "e5=*sS.21,e6=21.KN.21.14 SN S 1"
    # e5 (level 1 on the springboard) climbs onto height 4; the cube on e6 (on a cube) is free.
    assert legal(pos) == {"e5n", "e5e", "e5s", "e5w", "e6n", "e6e", "e6s", "e6w", "end"}
    assert play(pos.notation(), "e5n").notation() == "e5=*sS,e6=21.KN.21.14.14 SN N a"


# ---------------------------------------------------------------------------------------------
# Wind rose


def test_wind_rose_eight_targets_incl_portal_and_back_to_source():
    text = "d5=21.1O,e5=*wS,e6=21.KN.21 SN S 2"
    hops = {"d6", "e6", "f6", "f5", "f4", "e4", "d4", "d5"}
    assert legal(text) == {"d5n", "d5s", "d5w", "end"} | {"d5e/" + t for t in hops}
    assert play(text, "d5e/d5").notation() == "d5=21.2O,e5=*wS,e6=21.KN.21 SN S 1"
    # Hops ignore the climb limit: onto height 3.
    assert play(text, "d5e/e6").notation() == "d5=21,e5=*wS,e6=21.KN.21.2O SN S 1"
    pos = play(text, "d5e/f5")
    assert pos.notation() == "d5=21,e5=*wS,f5=2O,e6=21.KN.21 SN S 1"
    assert legal(pos) == {"end"}  # f5 is a bridge now
    a = P(text).parse_action("d5e/f4")
    assert a == (cc.ROLL, cell("d5"), g.DIR_E, cell("f4"), o.parse("2O"), (cell("f4"),))


def test_wind_rose_no_corner_no_other_terminal_own_terminal_ok():
    text = "b2=*wS,c2=21.1O SWNE %s 2"
    assert legal(text % "S") == {"c2n", "c2e", "c2s", "end", "c2w/b3", "c2w/c3", "c2w/c2",
                                 "c2w/c1", "c2w/b1"}
    assert legal(text % "W") == {"c2n", "c2e", "end", "c2w/b3", "c2w/c3", "c2w/c2",
                                 "c2w/a2", "c2w/a3"}
    pos = play(text % "S", "c2w/b1")
    assert pos.notation() == "b1=4O,b2=*wS,c2=21 SWNE S 1"
    assert pos.scores() == [4, 0, 0, 0]


def test_wind_rose_not_into_terminal_of_seat_not_in_play():
    text = "b5=*wS,c5=21.1O SN S 2"
    assert legal(text) == {"c5n", "c5e", "c5s", "end", "c5w/b6", "c5w/c6", "c5w/c5", "c5w/c4",
                           "c5w/b4"}


def test_wind_rose_during_activation_no_terminal_no_portal():
    text = "b2=*wS,c2=B1 SWNE S a"
    assert legal(text) == {"c2n", "c2e", "c2w/b3", "c2w/c3", "c2w/c2"}
    pos = play(text, "c2w/c3")
    assert pos.notation() == "b2=*wS,c3=41 SWNE S 4"
    text = "d5=B1,e5=*wS SN S a"
    assert legal(text) == {"d5n", "d5s", "d5w"} | {"d5e/" + t for t in
                                                  ("d6", "e6", "f5", "f4", "e4", "d4", "d5")}


def test_wind_rose_chain_and_same_rose_never_twice():
    text = "d4=21.1O,e4=*wS,f4=*wN SN S 2"
    first = {"d5", "e5", "f5", "f3", "e3", "d3", "d4"}
    second = {"e5", "f5", "g5", "g4", "g3", "f3", "e3", "e4"}
    assert legal(text) == ({"d4n", "d4s", "d4w", "end"} | {"d4e/" + t for t in first}
                           | {"d4e/f4/" + t for t in second})
    pos = P(text)
    a = pos.parse_action("d4e/f4/e4")  # back onto the first rose: it acted already, stays
    assert a[3] == cell("e4") and a[5] == (cell("f4"), cell("e4"))
    pos.push(a)
    assert pos.notation() == "d4=21,e4=*wS.2O,f4=*wN SN S 1"
    # A new action: both roses act again. Rolling east onto f4 hops; hopping back onto e4
    # (which has not acted in this action) hops again; from there back onto f4 it stays.
    assert legal(pos) == ({"e4n", "e4s", "e4w", "end"}
                          | {"e4e/" + t for t in ("e5", "f5", "g5", "g4", "g3", "f3", "e3")}
                          | {"e4e/e4/" + t for t in ("d5", "e5", "f5", "f4", "f3", "e3", "d3",
                                                     "d4")})


def test_wind_rose_is_permanent_and_acts_for_everyone():
    pos = play("d4=21.1O,e4=*wN,d6=21.B1 SN S 2", "d4e/e3")
    assert pos.notation() == "e3=2O,d4=21,e4=*wN,d6=21.B1 SN S 1"
    assert legal(pos) == {"d6n", "d6e", "d6s", "d6w", "end"}
    pos = play("e4=*wN,d6=21.21.1O,d5=21.21 SN S 2", "d6s")  # onto d5 (level 2), no rose
    assert pos.notation() == "e4=*wN,d5=21.21.B1,d6=21.21 SN S 1"
    text = "e3=21.O3,e4=*wN SN S 1"
    hops = {"d5", "e5", "f5", "f4", "f3", "e3", "d3", "d4"}
    assert legal(text) == {"e3e", "e3s", "e3w", "end"} | {"e3n/" + t for t in hops}


def test_leaving_a_wind_rose_ignores_the_climb_limit():
    # Stacks section: pieces leaving a springboard or wind-rose cell may enter any height.
    assert legal("e4=*wN.21,e5=21.KN.21 SN S 1") == {"e4n", "e4e", "e4s", "e4w", "end"}
    assert play("e4=*wN.21,e5=21.KN.21 SN S 1", "e4n").notation() == \
        "e4=*wN,e5=21.KN.21.14 SN N a"
    assert legal("e4=*wN.KS,e5=21.KN.21 SN S 1") == {"Kn", "Ke", "Ks", "Kw", "end"}
    # An acceleration gives no such exemption.
    assert legal("e4=*aN.KS,e5=21.KN.21 SN S 1") == {"Ke", "Ks", "Kw", "end"}


def test_cards_do_not_act_on_keepers():
    text = "e5=KS,e6=*wN,f5=*aN SN S 1"
    assert legal(text) == {"Kn", "Ke", "Ks", "Kw", "end"}
    assert play(text, "Kn").notation() == "f5=*aN,e6=*wN.KS SN N a"
    assert play(text, "Ke").notation() == "f5=*aN.KS,e6=*wN SN N a"


# ---------------------------------------------------------------------------------------------
# Acceleration


def test_acceleration_slides_one_cell_after_a_roll():
    text = "d4=21.1O,e4=*aS SN S 2"
    assert legal(text) == {"d4n", "d4e", "d4s", "d4w", "end"}
    pos = P(text)
    a = pos.parse_action("d4e")
    assert a[3] == cell("f4") and a[5] == ()
    pos.push(a)
    assert pos.notation() == "d4=21,e4=*aS,f4=2O SN S 1"


def test_acceleration_slide_climb_limit_from_level_on_card():
    # Level 0 on the card: f4 of height 2 is too high: the cube stays on the card.
    text = "d4=21.1O,e4=*aS,f4=21.21 SN S 2"
    assert legal(text) == {"d4n", "d4e", "d4s", "d4w", "f4n", "f4e", "f4s", "f4w", "end"}
    assert play(text, "d4e").notation() == "d4=21,e4=*aS.2O,f4=21.21 SN S 1"
    # f4 of height 1: the slide climbs one level.
    assert play("d4=21.1O,e4=*aS,f4=21 SN S 2", "d4e").notation() == \
        "d4=21,e4=*aS,f4=21.2O SN S 1"
    # Arriving at level 1 on the card: f4 of height 2 is fine now.
    text = "d4=21.21.1O,e4=*aS.21,f4=21.21 SN S 2"
    assert legal(text) == {"d4n", "d4e", "d4s", "d4w", "e4n", "e4s", "f4n", "f4e", "f4s", "f4w",
                           "end"}
    assert play(text, "d4e").notation() == "d4=21.21,e4=*aS.21,f4=21.21.2O SN S 1"
    # Rolling west onto the card from f4: the slide to d4 (height 3) is too high: stays.
    assert play(text, "f4w").notation() == "d4=21.21.1O,e4=*aS.21.B1,f4=21 SN S 1"


def test_acceleration_slide_obeys_entry_rules():
    text = "c3=21.1O,c2=*aS SN %s 2"
    assert legal(text % "S") == {"c3n", "c3e", "c3s", "c3w", "end"}
    assert legal(text % "N") == {"c3n", "c3e", "c3s", "c3w", "end"}
    # S: into its own terminal; N: c1 is another player's terminal: stays on the card.
    assert play(text % "S", "c3s").notation() == "c1=B1,c2=*aS,c3=21 SN S 1"
    assert play(text % "N", "c3s").notation() == "c2=*aS.B1,c3=21 SN N 1"
    # W's terminal is out of play.
    assert play("c2=21.1O,b2=*aS SN S 2", "c2w").notation() == "b2=*aS.4O,c2=21 SN S 1"


def test_acceleration_during_activation_not_into_terminal_or_portal():
    text = "c3=B1,c2=*aS SN S a"
    assert legal(text) == {"c3n", "c3e", "c3s", "c3w"}
    assert play(text, "c3s").notation() == "c2=*aS.3B SN S 3"
    text = "d6=B1,e6=*aS SN S a"
    assert legal(text) == {"d6n", "d6e", "d6s", "d6w"}
    assert play(text, "d6e").notation() == "e6=*aS.21 SN S 2"
    # During activation a slide onto an ordinary grey cell does happen.
    assert play("d4=B1,e4=*aS SN S a", "d4e").notation() == "e4=*aS,f4=21 SN S 2"


def test_acceleration_not_triggered_by_hop_arrival():
    text = "d4=21.1O,e4=*wS,e5=*aS SN S 2"
    hops = {"d5", "e5", "f5", "f4", "f3", "e3", "d3", "d4"}
    assert legal(text) == {"d4n", "d4s", "d4w", "end"} | {"d4e/" + t for t in hops}
    pos = P(text)
    a = pos.parse_action("d4e/e5")
    assert a[3] == cell("e5")
    pos.push(a)
    assert pos.notation() == "d4=21,e4=*wS,e5=*aS.2O SN S 1"


def test_acceleration_not_triggered_by_slide_arrival():
    pos = play("d4=21.1O,e4=*aS,f4=*aN SN S 2", "d4e")
    assert pos.notation() == "d4=21,e4=*aS,f4=*aN.2O SN S 1"


def test_slide_onto_wind_rose_hops():
    text = "d4=21.1O,e4=*aS,f4=*wS SN S 2"
    hops = {"e5", "f5", "g5", "g4", "g3", "f3", "e3", "e4"}
    assert legal(text) == {"d4n", "d4s", "d4w", "end"} | {"d4e/" + t for t in hops}
    # The hop back onto the acceleration does not slide (arrival by hop; it also acted already).
    assert play(text, "d4e/e4").notation() == "d4=21,e4=*aS.2O,f4=*wS SN S 1"


# ---------------------------------------------------------------------------------------------
# The «Полигон» start and perft counts worked out by hand


POLYGON_CELLS = ["c3", "d3", "e3", "f3", "g3", "h3", "i3", "c4", "d4", "e4", "f4", "g4", "h4",
                 "i4", "c5", "d5", "h5", "i5", "c6", "d6", "h6", "i6", "c7", "d7", "h7", "i7",
                 "c8", "d8", "e8", "f8", "g8", "h8", "i8", "c9", "d9", "e9", "f9", "g9", "h9",
                 "i9"]


def test_polygon_cells_are_chebyshev_2_or_3():
    assert len(POLYGON_CELLS) == 40
    for name in POLYGON_CELLS:
        x = "abcdefghijk".index(name[0])
        y = int(name[1:]) - 1
        assert max(abs(x - 5), abs(y - 5)) in (2, 3)


def test_polygon_start_without_cards():
    pos = cc.start_position(players=2)
    entries = set(pos.notation().split()[0].split(","))
    assert entries == {c + "=B1" for c in POLYGON_CELLS} | {"f1=KS", "f11=KN"}
    assert pos.notation() == canon(",".join(sorted(entries)) + " SN S a")


def test_polygon_start_with_cards_four_players():
    pos = cc.start_position(players=4, cards=True)
    fields = pos.notation().split()
    assert fields[1:] == ["SWNE", "S", "a"]
    expected = {c + "=B1" for c in POLYGON_CELLS} | {
        "b1=*sS", "c1=*sS", "d1=*wS", "e1=*sS", "f1=KS", "g1=*sS", "h1=*aS",
        "a10=*sW", "a9=*sW", "a8=*wW", "a7=*sW", "a6=KW", "a5=*sW", "a4=*aW",
        "j11=*sN", "i11=*sN", "h11=*wN", "g11=*sN", "f11=KN", "e11=*sN", "d11=*aN",
        "k2=*sE", "k3=*sE", "k4=*wE", "k5=*sE", "k6=KE", "k7=*sE", "k8=*aE",
    }
    assert set(fields[0].split(",")) == expected
    assert pos.notation() == canon(",".join(sorted(expected)) + " SWNE S a")


def test_canonical_notation_sorted_by_row_then_column():
    assert P("e5=B1,b1=41,d5=21,c1=1O SN S a").notation() == "b1=41,c1=1O,d5=21,e5=B1 SN S a"
    assert P("b10=21,k2=41,a3=1O SWNE E 3b").notation() == "k2=41,a3=1O,b10=21 SWNE E 3b"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_polygon_perft_1_and_2_by_hand(players):
    # Every one of the 40 cubes may roll in all 4 directions (neighbours grey, height <= 1, f6
    # not adjacent): 160 activations. After one, S has its 3 keeper steps (f2, e1, g1) and end,
    # plus 4 rolls if the cube landed on a neighbour (level 1): the ring has 60 adjacent pairs,
    # so 120 of the 160 activations stack. 160*4 + 120*4 = 1120.
    pos = cc.start_position(players=players)
    assert cc.perft(pos, 1) == 160
    assert cc.perft(pos, 2) == 1120


def test_polygon_perft_2_with_cards_by_hand():
    # As above, plus 6 cards x empty grey non-portal cells: 40 (after a plain move) or 41 (after
    # a move onto a stack). 1120 + 40*6*40 + 120*6*41 = 40240.
    pos = cc.start_position(players=2, cards=True)
    assert cc.perft(pos, 1) == 160
    assert cc.perft(pos, 2) == 40240


def test_small_perft_by_hand():
    # e5=B1: 4 activations, each leaves a bridge and only `end`; then N cannot activate.
    pos = P("e5=B1 SN S a")
    assert [cc.perft(pos, d) for d in range(4)] == [1, 4, 4, 0]


# ---------------------------------------------------------------------------------------------
# Bad input


BAD_POSITIONS = [
    ("", "4 fields"),
    ("e5=B1 SN S", "4 fields"),
    ("e5=B1 SN S a extra", "4 fields"),
    ("e5=B1 SX S a", "X"),
    ("e5=B1 NS S a", "order"),
    ("e5=B1 SS S a", "distinct"),
    ("e5=B1 S S a", "players"),
    ("e5=B1 SE S a", "players"),   # 2 players sit S and N
    ("e5=B1 SWE S a", "players"),  # 3 players sit S, W, N
    ("e5=B1 SN S 4b", "4b"),       # a booster use costs an action: at most 3 left
    ("e5=B1 SN W a", "W"),
    ("e5=B1 SN S 5", "phase"),
    ("e5=B1 SN S 0", "phase"),
    ("e5=B1 SN S 2c", "phase"),
    ("z5=B1 SN S a", "z5"),
    ("e12=B1 SN S a", "e12"),
    ("e5B1 SN S a", "e5B1"),
    ("a1=B1 SN S a", "corner"),
    ("k11=KN SN S a", "corner"),
    ("a5=B1 SN S a", "a5"),
    ("e5=13 SN S a", "13"),
    ("e5=BO SN S a", "BO"),
    ("e5=Q1 SN S a", "Q1"),
    ("e5=B1,e5=21 SN S a", "twice"),
    ("e5=KS,e6=KS SN S a", "two keepers"),
    ("e5=KW SN S a", "KW"),
    ("b11=KS SN S a", "terminal"),
    ("e5=B1.*sS SN S a", "first"),
    ("f6=B1 SN S a", "f6"),
    ("f6=KS.B1 SN S a", "f6"),
    ("f6=*sS SN S a", "f6"),
    ("e5=*qS SN S a", "qS"),
    ("e5=*sW SN S a", "sW"),
    ("b11=*sS SN S a", "terminal"),
    ("e5= SN S a", "e5"),
    ("e5=B1..21 SN S a", "empty"),
]


@pytest.mark.parametrize("text,word", BAD_POSITIONS, ids=[t or "<empty>" for t, _ in BAD_POSITIONS])
def test_bad_positions_raise_rules_error_naming_the_problem(text, word):
    with pytest.raises(cc.RulesError) as exc:
        P(text)
    assert word.lower() in str(exc.value).lower()


def test_non_text_position_raises():
    with pytest.raises(cc.RulesError):
        P(None)


BAD_ACTIONS = [
    ("e5=B1 SN S a", "e5x", "e5x"),
    ("e5=B1 SN S a", "Kq", "Kq"),
    ("e5=B1 SN S a", "K", "K"),
    ("e5=B1 SN S a", "", "empty"),
    ("e5=B1 SN S a", "z1@e5", "z1@e5"),
    ("e5=B1 SN S a", "e5n/z9", "z9"),
    ("e5=B1 SN S a", "e6n", "e6n"),        # no cube there
    ("e5=B1 SN S a", "end", "end"),        # no end during activation
    ("e5=B1 SN S a", "Kn", "Kn"),          # S has no keeper
    ("e5=21 SN S 1", "e5n", "e5n"),        # a bridge never moves
    ("e5=21.1O SN S 1", "e5n/e6", "e5n/e6"),  # no wind rose
    ("b1=*sS SN S 1b", "b1@e5", "b1@e5"),  # booster used already
    ("b1=*sS SN S 1", "b1@f6", "b1@f6"),   # not onto the entry portal
    ("e5=21,b11=41 SN S a", "e5n", "over"),
]


@pytest.mark.parametrize("text,action,word", BAD_ACTIONS,
                         ids=["%s|%s" % (t, a) for t, a, _ in BAD_ACTIONS])
def test_bad_actions_raise_rules_error_naming_the_problem(text, action, word):
    pos = P(text)
    before = pos.notation()
    with pytest.raises(cc.RulesError) as exc:
        pos.parse_action(action)
    assert word.lower() in str(exc.value).lower()
    assert pos.notation() == before


def test_push_checked_rejects_illegal_action_tuple():
    pos = P("e5=B1 SN S a")
    bogus = (cc.ACTIVATE, cell("e5"), g.DIR_N, cell("e7"), o.parse("1O"), ())
    with pytest.raises(cc.RulesError) as exc:
        pos.push_checked(bogus)
    assert "illegal" in str(exc.value)
    assert pos.notation() == "e5=B1 SN S a"


def test_decode_rejects_truncated_and_illegal_bytes():
    pos = P("e5=B1 SN S a")
    with pytest.raises(cc.RulesError):
        cc.decode_action(pos, b"\x00")
    with pytest.raises(cc.RulesError):
        cc.decode_action(pos, bytes((0x60, 0)))  # `end` during activation
    with pytest.raises(cc.RulesError):
        cc.decode_action(pos, bytes((0xC0, 0)))  # unknown kind


def test_start_position_rejects_bad_player_count():
    for players in (1, 5, 6, 7, 9):
        with pytest.raises(cc.RulesError) as exc:
            cc.start_position(players=players)
        assert "players" in str(exc.value)


def test_the_rules_pages_position_examples_print_back_unchanged():
    """docs/rules/cargocube.md's examples are in the canonical form every program prints (a new
    user's round trip of the first failed: it had the rulings' order, which parsing accepts)."""
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules" /
            "cargocube.md").read_text(encoding="utf-8")
    bullet = text.split("\n- Examples: ", 1)[1].split("\n- ", 1)[0]
    bullet = re.sub(r"\(.*?\)", "", bullet, flags=re.S)  # an aside: the rulings' order
    examples = [" ".join(e.split()) for e in re.findall(r"`([^`]+)`", bullet)]
    assert len(examples) == 2
    for e in examples:
        assert cc.Position.parse(e).notation() == e
