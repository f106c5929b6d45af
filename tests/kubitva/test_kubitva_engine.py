"""The КУБитва engine (shared_rules/kubitva/engine.py): legal and deterministic, takes a win
and a kill when it has one, builds a house from the start, and beats a uniformly random player
(a few seeded games here; bench/kubitva/kubitva.py plays the 100 games the issue asks for)."""

import random

import pytest

from kubitva_positions import grid9, play
from shared_rules.kubitva import engine as en
from shared_rules.kubitva import rules as kb
from test_kubitva_cli import SIEGE


def test_fires_the_super_rocket_that_wins():
    pos = kb.Position.parse(SIEGE)
    a = en.best_action(pos)
    assert pos.format_action(a) == "K@h4/h5"


def test_kills_across_the_border():
    pos = grid9("""
.........
.........
.........
...w.....
...S.....
.........
.........
.........
.........""", land="\n".join(["N" * 9] * 4 + ["S" * 9] * 5))
    assert pos.format_action(en.best_action(pos)) == "d5xd6"


def test_builds_a_house_first():
    pos = kb.start_position("board")
    while pos.turn < 8:
        a = en.best_action(pos)
        assert a in pos.legal_actions()
        pos.push(a)
    owners = [b[5] for b in pos.buildings() if b[0] == kb.INCOME]
    assert kb.S in owners and kb.N in owners
    assert pos.treasury[kb.S] > 0


def test_deterministic_and_legal_along_a_game():
    rng = random.Random(4)
    pos = kb.start_position("board")
    while not pos.is_over():
        a = en.best_action(pos)
        assert a in pos.legal_actions()
        assert en.best_action(kb.Position.parse(pos.notation())) == a  # the position alone decides
        pos.push(a if pos.to_move == kb.S else rng.choice(pos.legal_actions()))
    assert en.best_action(pos) is None


@pytest.mark.parametrize("seed", range(4))
def test_beats_a_random_player(seed):
    wins = 0
    for side in (kb.S, kb.N):
        rng = random.Random(seed * 2 + side)
        pos = kb.start_position("board")
        while not pos.is_over():
            if pos.to_move == side:
                pos.push(en.best_action(pos))
            else:
                pos.push(rng.choice(pos.legal_actions()))
        wins += pos.winners() == [side]
    assert wins == 2
