"""«Формула 99» rules core against the independent slow reference written from the rulings page
(tests/formula99/formula99_ref.py): perft counts from the starts and from positions met in
games, and whole games compared action by action (legal lists as text, positions after each
action), in both views and at every level."""

import pytest

from shared_rules.formula99 import rules as R
import formula99_games as G
import formula99_ref as ref


def legal_texts(pos):
    return sorted(pos.format_action(a) for a in pos.legal_actions())


@pytest.mark.parametrize("players,level,depth,seed", [
    (2, 1, 3, None), (4, 1, 3, None), (2, 2, 2, None), (3, 3, 2, None), (2, 2, 2, 5),
    (4, 3, 2, 9)])
def test_start_perft_matches_reference(players, level, depth, seed):
    pos = R.start_position(players, level, seed)
    state = ref.start(players, level, seed)
    assert pos.notation() == ref.fmt(state)
    assert R.perft(pos, depth) == ref.perft(state, depth)


POSITIONS = G.sample_positions(12, seed=3)


@pytest.mark.parametrize("text", POSITIONS)
def test_mid_game_perft_matches_reference(text):
    pos = R.Position.parse(text)
    state = ref.parse(text)
    assert pos.notation() == ref.fmt(state) == text
    assert legal_texts(pos) == ref.legal(state)
    assert R.perft(pos, 2) == ref.perft(state, 2)


@pytest.mark.parametrize("seed", range(6))
def test_games_agree_action_by_action(seed):
    players = 2 + (seed * 3) % 8
    for level in (1, 2, 3):
        full = (seed + level) % 2 == 0
        s = seed * 31 + level
        state = ref.start(players, level, s if full else None)
        for pos, a in G.game(s, players, level, full, plies=120):
            assert legal_texts(pos) == ref.legal(state), pos.notation()
            assert pos.notation() == ref.fmt(state)
            if a is None:
                break
            state = ref.play(state, pos.format_action(a))
        assert pos.winners() == ([] if state["winner"] is None
                                 else [state["civs"].index(state["winner"])])
