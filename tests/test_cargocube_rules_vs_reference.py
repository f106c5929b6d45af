"""Cross-check of the rules core against the independent slow reference (tests/reference).

The reference was written from the rulings page without reading shared_rules, so agreement on
legal action lists, resulting positions and perft counts is evidence, not an echo.
"""

import random

import pytest

from shared_rules.cargocube import rules as cc
from tests.reference import ruleref

TRICKY = (
    "b1=*sS,c1=*sS,e1=*sS,f1=2B,g1=*sS,h1=3B,b2=*wW,a3=*sW,b3=2O.B1,c3=3O,a4=*sW,d4=B1,e4=B1,"
    "f4=B1,e5=KW.4O,c6=1O.B1,d6=*aS,e6=*wS,f6=KS,g6=B1.2O.B1,e7=B1,h7=*aN,i7=B1.B1,a8=*sW,"
    "h8=B1,a9=*aW,e11=*sN,f11=KN,g11=*sN,i11=*sN,j11=*sN SWN S 3"
)

# Two wind roses side by side, an acceleration pointing at one, stacks next to the portal.
ROSES = (
    "c1=*sS,f1=KS,e4=*wS,f4=*wN,d4=B1,g4=O1.B1,e3=*aN,e2=2O,f5=B1.B1.B1,g6=4B.B1,f7=KN.B1,"
    "f11=KN2 SN S 2"
).replace("KN2", "B1")


def _mid_game(players, cards, seed, plies):
    rng = random.Random(seed)
    pos = cc.start_position(players, cards=cards)
    for _ in range(plies):
        acts = pos.legal_actions()
        if not acts:
            break
        pos.push(rng.choice(acts))
    return pos


def _same_lists(pos):
    mine = sorted(cc.format_action(a) for a in pos.legal_actions())
    ref = sorted(ruleref.legal(ruleref.parse(pos.notation())))
    assert mine == ref, pos.notation()


@pytest.mark.parametrize("seed", range(12))
def test_random_games_agree_action_by_action(seed):
    rng = random.Random(1000 + seed)
    players = (2, 3, 4)[seed % 3]
    pos = cc.start_position(players, cards=seed % 4 != 0)
    ref_state = ruleref.parse(pos.notation())
    for _ in range(250):
        mine = sorted(cc.format_action(a) for a in pos.legal_actions())
        ref = sorted(ruleref.legal(ref_state))
        assert mine == ref, pos.notation()
        assert pos.is_over() == ruleref.is_over(ref_state)
        if not mine:
            break
        # Prefer cube moves and booster uses so that cards get placed and stacks grow.
        text = rng.choice(mine)
        pos.push(pos.parse_action(text))
        ref_state = ruleref.play(ref_state, text)
        assert pos.notation() == ruleref.fmt(ref_state)
        ref_scores = ruleref.scores(ref_state)
        for s in pos.seats:
            assert pos.scores()[s] == ref_scores["SWNE"[s]]


def test_hand_made_positions_agree():
    for text in (TRICKY, ROSES):
        _same_lists(cc.Position.parse(text))


@pytest.mark.parametrize("text,depth", [
    ("polygon", 3),
    (TRICKY, 2),
    (ROSES, 3),
])
def test_perft_matches_reference(text, depth):
    pos = cc.start_position(2) if text == "polygon" else cc.Position.parse(text)
    assert cc.perft(pos, depth) == ruleref.perft(ruleref.parse(pos.notation()), depth)


@pytest.mark.parametrize("players,cards,seed", [(2, True, 1), (4, True, 2), (3, False, 3)])
def test_perft_mid_game_matches_reference(players, cards, seed):
    pos = _mid_game(players, cards, seed, 40)
    assert cc.perft(pos, 2) == ruleref.perft(ruleref.parse(pos.notation()), 2)
