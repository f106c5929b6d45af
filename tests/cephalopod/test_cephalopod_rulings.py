"""Cephalopod rules core, worked out by hand: capture shapes (2, 3, 4 neighbours, sums exactly 6
and above 6, mixed colours, own dice, corner and edge cells), forced captures, the end of the
game, the notations and their errors, the binary encoding.

Boards are written in the position notation (rows from the top); cells are named with the column
letter and the row counted from the bottom (a1 is the bottom-left cell).
"""

import pytest

from shared_rules.cephalopod import rules as ce


def acts(text):
    pos = ce.Position.parse(text)
    return [pos.format_action(a) for a in pos.legal_actions()]


def on(text, cell):
    """The actions on one cell."""
    return [a for a in acts(text) if a.split(":")[0] == cell]


def play(text, *actions):
    pos = ce.Position.parse(text)
    for a in actions:
        pos.push(pos.parse_action(a))
    return pos


# -- start and plain placements ------------------------------------------------------------------


@pytest.mark.parametrize("size,rows,cols", [("5x5", 5, 5), ("3x5", 3, 5), ("5x3", 5, 3),
                                            ("3x3", 3, 3)])
def test_start_positions(size, rows, cols):
    pos = ce.named_position(size)
    assert (pos.rows, pos.cols) == (rows, cols)
    assert pos.notation() == "/".join(["." * cols] * rows) + " w"
    assert pos.to_move == ce.WHITE and pos.seats == (0, 1)
    assert len(pos.legal_actions()) == rows * cols
    assert pos.scores() == [0, 0] and pos.winners() == [] and not pos.is_over()


def test_first_moves_show_one_and_alternate_colours():
    pos = play("...../...../...../...../..... w", "c3", "d3")
    assert pos.notation() == "...../...../..w1b1./...../..... w"
    assert pos.scores() == [1, 1]
    assert pos.ply() == 2


def test_single_neighbour_never_captures():
    assert on(".../w1../... b", "b2") == ["b2"]
    assert on(".../.b1./... w", "b3") == ["b3"]


def test_cell_order_of_legal_actions():
    # a1, b1, c1, then row 2, then row 3 (the top row is written first in the notation).
    assert acts(".../.w1./... b") == ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"]


# -- two neighbours ------------------------------------------------------------------------------


def test_two_neighbours_must_capture():
    # b2 between w1 (north, b3) and b1 (south, b1): the plain placement is not offered.
    assert on(".w1./.../.b1. w", "b2") == ["b2:b3,b1"]
    pos = play(".w1./.../.b1. w", "b2:b3,b1")
    assert pos.notation() == ".../.w2./... b"
    assert pos.scores() == [1, 0]


def test_two_neighbours_sum_exactly_six():
    assert on("w3../.../b3.. b", "a2") == ["a2:a3,a1"]
    pos = play("w3../.../b3.. b", "a2:a3,a1")
    assert pos.notation() == ".../b6../... w"


def test_two_neighbours_sum_seven_no_capture():
    assert on("w3../.../w4.. b", "a2") == ["a2"]
    pos = play("w3../.../w4.. b", "a2")
    assert pos.notation() == "w3../b1../w4.. w"


def test_corner_cell_two_neighbours():
    # a1 (bottom-left corner) has neighbours a2 (north) and b1 (east).
    assert on(".../b2../.w4. w", "a1") == ["a1:a2,b1"]
    assert on(".../b2../.w5. w", "a1") == ["a1"]


def test_own_dice_may_be_captured():
    # Black captures one white and one black die.
    pos = play("...../...../.w1.b1./...../..... b", "c3:d3,b3")
    assert pos.notation() == "...../...../..b2../...../..... w"
    assert pos.scores() == [0, 1]
    # And only own dice.
    pos = play(".b2./.../.b4. b", "b2:b3,b1")
    assert pos.notation() == ".../.b6./... w"


# -- three and four neighbours -------------------------------------------------------------------


def test_edge_cell_three_neighbours_one_two_three():
    # b1 (bottom edge): north b2 = 1, east c1 = 2, west a1 = 3: every pair and the triple sum <= 6.
    assert on(".../.w1./b3.w2 w", "b1") == ["b1:b2,c1", "b1:b2,a1", "b1:c1,a1", "b1:b2,c1,a1"]
    pos = play(".../.w1./b3.w2 w", "b1:b2,c1,a1")
    assert pos.notation() == ".../.../.w6. b"


def test_three_neighbours_two_three_four():
    # Pairs 2+3=5 and 2+4=6 capture, 3+4=7 does not, the triple (9) does not.
    # Listed by mask: north+east (b3, c2) before north+west (b3, a2).
    assert on(".w2./w3.w4/... b", "b2") == ["b2:b3,c2", "b2:b3,a2"]


def test_four_ones_give_eleven_choices():
    text = ".w1./b1.b1/.w1. w"
    choices = on(text, "b2")
    assert len(choices) == 11
    assert choices == ["b2:b3,c2", "b2:b3,b1", "b2:c2,b1", "b2:b3,c2,b1", "b2:b3,a2",
                       "b2:c2,a2", "b2:b3,c2,a2", "b2:b1,a2", "b2:b3,b1,a2", "b2:c2,b1,a2",
                       "b2:b3,c2,b1,a2"]
    pos = play(text, "b2:b3,c2,b1,a2")
    assert pos.notation() == ".../.w4./... b"
    assert pos.scores() == [1, 0]


def test_four_sixes_no_capture():
    assert on(".w6./b6.b6/.w6. w", "b2") == ["b2"]


def test_four_neighbours_mixed_sums():
    # North 5, east 1, south 1, west 6: 5+1, 5+1, 1+1 capture; 5+1+1 = 7 and anything with
    # the 6 but 6+... (>= 7) do not.
    assert on(".b5./w6.b1/.w1. w", "b2") == ["b2:b3,c2", "b2:b3,b1", "b2:c2,b1"]


def test_forced_capture_hides_the_plain_placement():
    # 1 and 6 (sum 7) cannot go together, but the two 1s can: the only action is that capture.
    assert on(".w1./w6.b1/... b", "b2") == ["b2:b3,c2"]


def test_capture_empties_cells_for_later_moves():
    pos = play(".w1./.../.b1. w", "b2:b3,b1")
    assert pos.legal_actions() and pos.cells[ce.parse_cell("b3", 3, 3)] == 0
    assert sorted(pos.format_action(a) for a in pos.legal_actions()) == [
        "a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]


# -- end of the game -----------------------------------------------------------------------------


def test_full_board_is_over_and_scored():
    pos = ce.Position.parse("w1w1b1/b1w2b6/w1b1w1 b")
    assert pos.is_over() and pos.legal_actions() == []
    assert pos.scores() == [5, 4] and pos.winners() == [ce.WHITE]
    assert ce.perft(pos, 0) == 1 and ce.perft(pos, 3) == 0


def test_last_move_fills_the_board():
    # b2's neighbours are all 6s: a plain placement, and the board is full.
    pos = play("w1w6b1/b6.b6/w1b6w1 w", "b2")
    assert pos.is_over()
    assert pos.scores() == [5, 4] and pos.winners() == [ce.WHITE]
    pos = play("w1w6b1/b6.b6/w1b6w1 b", "b2")
    assert pos.scores() == [4, 5] and pos.winners() == [ce.BLACK]


def test_last_empty_cell_capture_keeps_game_going():
    pos = play("w1w1b1/b1.b6/w1b6w1 w", "b2:b3,a2")
    assert not pos.is_over()
    assert pos.notation() == "w1.b1/.w2b6/w1b6w1 b"


# -- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "...../...../...../...../..... w",
    "w1b2w3b4w5/b6..../...../...../....w6 b",
    ".../.../... b",
    "...../w1..../b6..../...../..... w",
    ".../.../.../.../w6.. b",
    "b6.w1/.../... w",
])
def test_notation_round_trip(text):
    assert ce.Position.parse(text).notation() == text


@pytest.mark.parametrize("text,needle", [
    ("", "2 fields"),
    ("... w", "1x3"),
    ("..../..../..../.... w", "4x4"),
    (".../..../... w", "row 2"),
    (".../.x./... w", "'x'"),
    (".../.w7./... w", "pips 1-6"),
    (".../.w./... w", "pips 1-6"),
    (".../.../... x", "w or b"),
    (".../.../.../.../.../... w", "6x3"),
    ("..//... w", "row 2 is empty"),
])
def test_bad_positions(text, needle):
    with pytest.raises(ce.RulesError) as e:
        ce.Position.parse(text)
    assert needle in str(e.value)


# -- action notation ---------------------------------------------------------------------------


def test_captured_cells_in_any_order_parse_to_one_action():
    pos = ce.Position.parse(".w1./b1.b1/.w1. w")
    a = pos.parse_action("b2:a2,b1,b3")
    assert a == pos.parse_action("b2:b3,b1,a2")
    assert pos.format_action(a) == "b2:b3,b1,a2"


@pytest.mark.parametrize("text,action,needle", [
    (".w1./.../.b1. w", "b2", "must capture"),
    (".w1./.../.b1. w", "b3", "occupied"),
    (".w1./.../.b1. w", "b2:b3", "at least two"),
    (".w1./.../.b1. w", "b2:b3,b3", "twice"),
    (".w1./.../.b1. w", "b2:b3,c3", "not next to"),
    (".w1./.../.b1. w", "b2:b3,a2", "a2 is empty"),
    (".w3./.../.b4. w", "b2:b3,b1", "sum to 7"),
    (".w1./.../.b1. w", "d2", "no cell"),
    (".w1./.../.b1. w", "", "empty"),
    (".w1./.../.b1. w", "b2:x9,b1", "no cell"),
    ("w1w1b1/b1w2b6/w1b1w1 b", "a1", "over"),
])
def test_bad_actions(text, action, needle):
    pos = ce.Position.parse(text)
    with pytest.raises(ce.RulesError) as e:
        pos.parse_action(action)
    assert needle in str(e.value)


def test_push_checked_rejects_illegal():
    pos = ce.Position.parse(".w1./.../.b1. w")
    with pytest.raises(ce.RulesError):
        pos.push_checked(ce.parse_cell("b2", 3, 3) * 16)
    pos.push_checked(pos.parse_action("b2:b3,b1"))
    assert pos.ply() == 1


# -- push / pop, history, encoding -------------------------------------------------------------


def test_pop_restores_captures_and_history():
    text = ".w1./b1.b1/.w1. w"
    pos = ce.Position.parse(text)
    a = pos.parse_action("b2:b3,c2,b1,a2")
    pos.push(a)
    b = pos.parse_action("a1")
    pos.push(b)
    assert pos.history() == [a, b]
    assert pos.pop() == b and pos.pop() == a
    assert pos.notation() == text and pos.scores() == [2, 2] and pos.history() == []
    with pytest.raises(ce.RulesError):
        pos.pop()


def test_encoding_two_bytes_and_decode_with_offset():
    pos = ce.Position.parse(".w1./b1.b1/.w1. w")
    for a in pos.legal_actions():
        buf = ce.encode_action(a)
        assert len(buf) == 2
        assert ce.decode_action(pos, b"\x07" + buf + b"\x00", 1) == (a, 3)
    with pytest.raises(ce.RulesError):
        ce.decode_action(pos, b"\x00", 0)
    with pytest.raises(ce.RulesError):
        ce.decode_action(pos, ce.encode_action(ce.parse_cell("b2", 3, 3) * 16), 0)  # not legal


def test_copy_is_independent():
    pos = ce.Position.parse(".w1./.../.b1. w")
    pos.push(pos.parse_action("b2:b3,b1"))
    cp = pos.copy()
    assert cp.notation() == pos.notation() and cp.ply() == 0
    cp.push(cp.legal_actions()[0])
    assert cp.notation() != pos.notation()


# -- perft of the start positions (cross-checked with the reference in
#    test_cephalopod_vs_reference.py) --------------------------------------------------------------

START_PERFT = {
    "3x3": [1, 9, 72, 504, 3256],
    "3x5": [1, 15, 210, 2730, 33304],
    "5x3": [1, 15, 210, 2730, 33304],
    "5x5": [1, 25, 600, 13800, 304840],
}


@pytest.mark.parametrize("size", list(START_PERFT))
def test_start_perft(size):
    pos = ce.named_position(size)
    assert [ce.perft(pos, d) for d in range(len(START_PERFT[size]))] == START_PERFT[size]


def test_perft_hand_count_with_captures():
    # 3x3 with white w1 on b3 and black b1 on b1, white to move: 7 empty cells; b2 has one
    # action (the forced capture), the 6 others one each: 7. After b2:b3,b1 the board has one
    # die and 8 empty cells: 8 replies.
    pos = ce.Position.parse(".w1./.../.b1. w")
    assert ce.perft(pos, 1) == 7
    pos.push(pos.parse_action("b2:b3,b1"))
    assert ce.perft(pos, 1) == 8
