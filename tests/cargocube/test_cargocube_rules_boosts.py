"""legal_actions(False) with boost_sources()/is_boost_target() describe exactly the same
actions as legal_actions(), and legal_actions_from(c) is legal_actions(False) filtered by
source: the board's tracker relies on both."""

import random

import pytest

from shared_rules.cargocube import rules as cc


@pytest.mark.parametrize("seed", range(6))
def test_boosts_apart_equal_the_full_list(seed):
    rng = random.Random(seed)
    pos = cc.start_position((2, 3, 4)[seed % 3], cards=True)
    checked = 0
    for _ in range(150):
        full = pos.legal_actions()
        if not full:
            break
        apart = pos.legal_actions(False)
        for src in pos.boost_sources():
            for dst in range(121):
                if pos.is_boost_target(dst):
                    apart.append((cc.BOOST, src, 0, dst, pos.cards[src], ()))
        assert sorted(apart) == sorted(full), pos.notation()
        checked += any(a[0] == cc.BOOST for a in full)
        pos.push(rng.choice(full))
    assert checked > 10  # booster uses were really on offer along the way


def test_no_boost_sources_once_a_booster_was_used_or_during_activation():
    pos = cc.start_position(2, cards=True)
    assert pos.boost_sources() == []  # activation due
    pos.push(pos.parse_action("d4w"))
    assert pos.boost_sources()  # 4 actions, cards in the terminal
    pos.push(pos.parse_action(cc.format_action(
        [a for a in pos.legal_actions() if a[0] == cc.BOOST][0])))
    assert pos.boost_sources() == []


@pytest.mark.parametrize("players,cards,teleport,kinds", [
    (4, True, False, ()), (3, False, False, ()), (4, "both", True, (cc.RIDE, cc.TMOVE, cc.HAZARD)),
    (8, "both", True, (cc.TMOVE,)), (2, "pyramid", True, (cc.RIDE, cc.TMOVE, cc.TURN)),
    (2, "both", True, (cc.RIDE, cc.TMOVE, cc.TURN, cc.HAZARD))])
def test_legal_actions_from_a_cell_is_the_list_filtered_by_source(players, cards, teleport,
                                                                   kinds):
    """kinds: the expansions' actions each game offers on its way (each has its own branch in
    the generation from one cell)."""
    rng = random.Random(players)
    pos = cc.start_position(players, cards=cards, teleport=teleport)
    tried = 0
    seen = set()
    for _ in range(120):
        full = pos.legal_actions()
        if not full:
            break
        plain = [a for a in pos.legal_actions(False) if a[0] != cc.END]
        seen.update(a[0] for a in plain)
        # every piece's cell (keepers, the teleport too), and some other cells
        for c in sorted(set(a[1] for a in plain)) + [rng.randrange(121) for _ in range(3)]:
            assert pos.legal_actions_from(c) == [a for a in plain if a[1] == c], (
                pos.notation(), c)
            tried += 1
        pos.push(rng.choice(full))
    assert tried > 100
    assert set(kinds) <= seen
