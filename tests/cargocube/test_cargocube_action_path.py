"""cc.action_path: the cells a moving piece stands on in turn (the hand model and the board's
tracker both follow it)."""

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from test_cargocube_rules_vs_reference import TRICKY


def names(path):
    return [g.cell_name(c) for c in path]


def test_roll_slide_hop_and_teleport():
    pos = cc.Position.parse(TRICKY)
    # c6 rolls east onto the acceleration on d6, slides on to the wind rose on e6, hops onto
    # the entry portal f6 and is sent to S's exit portal f1.
    a = pos.parse_action("c6e/f6")
    assert names(cc.action_path(pos, a)) == ["d6", "e6", "f6", "f1"]
    a = pos.parse_action("c6e/d7")
    assert names(cc.action_path(pos, a)) == ["d6", "e6", "d7"]


def test_plain_roll_step_card_and_end():
    pos = cc.Position.parse(TRICKY)
    assert names(cc.action_path(pos, pos.parse_action("g6n"))) == ["g7"]
    assert names(cc.action_path(pos, pos.parse_action("Kw"))) == ["e6"]
    boost = [a for a in pos.legal_actions() if a[0] == cc.BOOST][0]
    assert cc.action_path(pos, boost) == (boost[3],)
    assert cc.action_path(pos, cc.END_ACTION) == ()
