"""legal_actions(False) with boost_sources()/is_boost_target() describe exactly the same
actions as legal_actions(): the board's tracker relies on it."""

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
