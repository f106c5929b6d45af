"""bench/cargocube/inference.py's least_presses: the fewest presses per action a board that settles
each move before the next can need with occupancy sensors and a given player (issue 12's
revision-A goal is measured against it; bench/cargocube/lookback.py for a board that waits).
Its chances must be the choosers' own, its floor the one the played games count, and the board,
which settles each move so, may not do better than it."""

import random
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path[:0] = [str(BENCH), str(BENCH / "cargocube")]

import inference as I  # noqa: E402
from cargoboard.games.cargocube.play import play_game  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402


def _positions():
    """A few positions of a purposeful game (activations, rolls, steps, a booster)."""
    rng = random.Random(5)
    pos = cc.start_position(3, cards=True)
    out = []
    for k in range(40):
        legal = pos.legal_actions()
        if not legal:
            break
        if k % 8 == 3:
            out.append(pos.copy())
        pos.push(I.pick_purposeful(pos, legal, rng))
    return out


@pytest.mark.parametrize("chooser", sorted(I.PICKS))
def test_chances_are_how_often_the_chooser_picks(chooser):
    for pos in _positions()[:3]:
        legal = pos.legal_actions()
        p = I.chances(chooser, pos, legal)
        assert abs(sum(p) - 1) < 1e-9
        rng = random.Random(1)
        n = 6000
        seen = [0] * len(legal)
        for _ in range(n):
            seen[legal.index(I.PICKS[chooser](pos, legal, rng))] += 1
        for i in range(len(legal)):
            assert abs(seen[i] / n - p[i]) < 0.025, (chooser, cc.format_action(legal[i]))


def test_the_floor_is_what_the_played_games_count_and_the_board_does_no_better():
    games = 24
    floor, misses, nexts = I.least_presses("random", games)
    assert 0 < misses < nexts
    forced = actions = presses = 0
    for seed in range(games):  # the bench's games: the same seeds, players and cards
        st = play_game(seed, players=(2, 3, 4)[seed % 3], cards=seed % 4 != 0)
        assert st.wrong == 0
        forced += st.forced
        actions += st.actions
        presses += sum(v[2] for k, v in st.by_kind.items() if k != "end")
    assert abs(forced / actions - floor) < 0.03
    assert presses / actions >= floor + misses
