"""decode_action checks a booster use without listing every one (the board replays logs on a
small heap): it must accept exactly the booster uses legal_actions() lists."""

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

from shared_rules.cargocube import rules as cc  # noqa: E402
from shared_rules.cargocube import board as g  # noqa: E402


def test_booster_uses_decode_exactly_when_legal():
    rng = random.Random(3)
    checked = 0
    for players in (2, 4):
        pos = cc.start_position(players, cards=True)
        while pos.ply() < 120 and not pos.is_over():
            legal = pos.legal_actions()
            # every position that can use a booster now and then; others (none to use, or
            # one used this turn) now and then too: then every booster use must be refused
            if rng.random() > (0.12 if pos.boost_sources() else 0.03):
                pos.push(rng.choice(legal))
                continue
            boosts = {(a[1], a[3]): a for a in legal if a[0] == cc.BOOST}
            for src in range(g.N_CELLS):
                if not pos.cards[src]:
                    continue
                for dst in range(g.N_CELLS):
                    buf = cc.encode_action((cc.BOOST, src, 0, dst, pos.cards[src], ()))
                    if (src, dst) in boosts:
                        assert cc.decode_action(pos, buf) == (boosts[(src, dst)], 2)
                        checked += 1
                    else:
                        with pytest.raises(cc.RulesError):
                            cc.decode_action(pos, buf)
            pos.push(rng.choice(legal))
    assert checked > 200, checked
