"""Cross-check of the rules core against the independent slow reference (tests/cargocube/ruleref.py).

The reference was written from the rulings page without reading shared_rules, so agreement on
legal action lists, resulting positions and perft counts is evidence, not an echo.
"""

import random

import pytest

from shared_rules.cargocube import rules as cc
import ruleref

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


# -- the expansions, the walking teleport and 8 players ----------------------------------------

EXPANSION_STARTS = [
    (2, "pyramid", False), (2, "bastion", True), (4, "both", False), (4, "both", True),
    (8, "pyramid", False), (8, "both", True), (3, "bastion", False),
]


def _is_expansion_action(pos, a):
    kind = a[0]
    return (kind > cc.END or a[5] and a[5][-1] >= cc.THROW or
            kind == cc.BOOST and (a[4] - 1) >> 3 >= cc.BASE_CARDS)


@pytest.mark.parametrize("index", range(len(EXPANSION_STARTS)))
def test_expansion_games_agree_action_by_action(index):
    """Random games that prefer the expansions' actions (so that umbrellas are ridden, catapults
    throw, biohazards pass between seats), compared with the reference after every action."""
    players, layout, teleport = EXPANSION_STARTS[index]
    rng = random.Random(2000 + index)
    pos = cc.start_position(players, cards=layout, teleport=teleport)
    ref_state = ruleref.parse(pos.notation())
    for _ in range(160):
        acts = pos.legal_actions()
        mine = sorted(cc.format_action(a) for a in acts)
        assert mine == sorted(ruleref.legal(ref_state)), pos.notation()
        if not acts:
            break
        special = [a for a in acts if _is_expansion_action(pos, a)]
        a = rng.choice(special if special and rng.random() < 0.6 else acts)
        text = cc.format_action(a)
        pos.push(a)
        ref_state = ruleref.play(ref_state, text)
        assert pos.notation() == ruleref.fmt(ref_state)
        ref_scores = ruleref.scores(ref_state)
        assert [pos.scores()[s] for s in pos.seats] == [
            ref_scores[pos.SEAT_LETTERS[s]] for s in pos.seats]
    while pos.ply():
        pos.pop()
    assert pos.notation() == cc.start_position(players, cards=layout, teleport=teleport).notation()


# Hand-made: a catapult next to an acceleration and a wind rose, a spiral under a keeper, a
# biohazard on the exit portal's cube closing S's portals, the teleport on an extra portal, a
# dead keeper; a sacrifice, an umbrella ready for a ride, control of a biohazard about to pass.
EXPANSION_TRICKY = (
    "b1=*uS,f1=KS,h1=*hS,i1=*vS,j1=*pS,c3=*aN,d3=*cN,e3=B1.B1,b4=21.B1,c4=*wS,d4=B1.B1,"
    "e5=*pN.41,f5=*xN.T,g5=B1.2O,d6=XN,e6=B1,g6=*uS,a6=KW.B1,h7=B1.B1,f11=3B.!N "
    "SWN S 3"
)
EXPANSION_SAC = "b1=*vS,e2=B1.!N,f1=KS,f2=KN,c3=B1.B1,d4=*cS,d5=*uS,e4=B1.B1 SN S 2"


@pytest.mark.parametrize("text,depth", [(EXPANSION_TRICKY, 2), (EXPANSION_SAC, 3)])
def test_expansion_perft_matches_reference(text, depth):
    pos = cc.Position.parse(text)
    assert cc.perft(pos, depth) == ruleref.perft(ruleref.parse(pos.notation()), depth)


@pytest.mark.parametrize("players,layout,teleport", [(2, "both", True), (8, "bastion", False)])
def test_expansion_start_perft_matches_reference(players, layout, teleport):
    pos = cc.start_position(players, cards=layout, teleport=teleport)
    assert cc.perft(pos, 2) == ruleref.perft(ruleref.parse(pos.notation()), 2)
