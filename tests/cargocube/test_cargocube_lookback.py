"""bench/cargocube/lookback.py: what a revision-A board could save by settling a look-alike move
later, from the moves after it. A reading must be dropped exactly when no later move fits it,
and waiting can only save presses, never add them."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path[:0] = [str(BENCH), str(BENCH / "cargocube")]

import lookback as L  # noqa: E402
from cargoboard.games.cargocube.play import _needs_press  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402


def _after(pos, text):
    p = pos.copy()
    p.push(p.parse_action(text))
    return p


def test_the_next_move_settles_which_activation_it_was():
    # d5n, d5s, d5w all empty d5 (the cube lands on a stack: tests/cargocube/
    # test_cargocube_sim_scenarios.py); only after d5n can the activated cube roll from the d6
    # stack onto the empty e6
    start = cc.start_position(2)
    first = _after(start, "d5n")
    played = [(start, start.parse_action("d5n")), (first, first.parse_action("d6e"))]
    for other in ("d5s", "d5w"):
        assert L.settled_after(played, 0, _after(start, other), 4) == 1
    # the true reading, followed as an alternative, joins the true game at once: nothing left
    # to tell apart
    assert L.settled_after(played, 0, first, 4) == 1


def test_a_reading_that_fits_what_came_after_is_kept():
    # after d5n, an `end` with nothing between fits any reading of the activation
    start = cc.start_position(2)
    first = _after(start, "d5n")
    played = [(start, start.parse_action("d5n")), (first, cc.END_ACTION)]
    assert L.settled_after(played, 0, _after(start, "d5s"), 4) == L.NEVER


def test_waiting_only_saves_and_no_wait_is_the_floor():
    games = 6
    rows, actions = L.presses_by_window("purposeful", games, windows=(0, 2, 8))
    needs = 0
    for seed in range(games):  # the floor as play_game counts it, on the same games
        for pos, action in L.play("purposeful", seed):
            needs += _needs_press(pos, pos.legal_actions(), action)
    floor0, misses0, nexts0 = rows[0]
    # (the bench counts a move like another legal one only if they end apart: a little less)
    assert 0 <= needs / actions - floor0 < 0.02
    assert rows[8][0] <= rows[2][0] < floor0
    assert rows[8][1] <= rows[2][1] <= misses0
    assert rows[8][2] <= rows[2][2] <= nexts0
    for w in (0, 2, 8):
        assert rows[w][2] >= rows[w][1]  # a wrong first guess costs a `next` at least


def test_a_move_with_no_trace_picked_when_declared_gains_nothing_from_waiting(monkeypatch):
    # Left to later moves, a declared move with no trace would still need a question whenever
    # they do not settle it; the bench counts it as picked at the declaration (PICK_DECLARED),
    # as the board does, so waiting saves its second presses only where the other is assumed
    games = 4
    monkeypatch.setattr(L, "PICK_DECLARED", True)
    picked, _ = L.presses_by_window("purposeful", games, windows=(0, 8))
    monkeypatch.setattr(L, "PICK_DECLARED", False)
    free, _ = L.presses_by_window("purposeful", games, windows=(0, 8))
    assert picked[0] == free[0]  # no wait: the same board
    assert picked[8][0] == free[8][0]  # the presses forced are the same either way
    assert picked[8][1] > free[8][1]  # the wrong first guesses of declared moves stay
