"""Whole games played by the modelled hand on the firmware's scanner and Cargocube plug-in
(in process; tests/test_cargocube_sim_scenarios.py plays whole games on the virtual board under
MicroPython): the board must never commit an action the hand did not make, and must end on the
true position, whatever the hand's habits (tip, drag, hesitate, hover, bounce)."""

import pytest

from cargoboard.games.cargocube.play import play_game
from shared_rules.cargocube.engine import best_action


def _purposeful(pos, legal, rng):
    return best_action(pos) if rng.random() < 0.8 else legal[rng.randrange(len(legal))]


@pytest.mark.parametrize("seed", range(8))
def test_random_play_is_never_misread(seed):
    st = play_game(seed, players=(2, 3, 4)[seed % 3], cards=seed % 2 == 0)
    assert st.wrong == 0, st.failures
    assert st.actions > 50


@pytest.mark.parametrize("seed", [2, 17, 51, 77])
def test_purposeful_play_is_never_misread(seed):
    # seeds that once found wrong commits (a move ending on a stack looking like another move,
    # a teleported cube rolled on from the exit portal, ...)
    st = play_game(seed, players=(2, 3, 4)[seed % 3], cards=seed % 4 != 0, pick=_purposeful)
    assert st.wrong == 0, st.failures
