"""Every ruling of Cargocube's expansions and variants on small hand-built positions
(tests/cargocube/cargocube_expansion_cases.py, worked out from the rulings page), checked on the rules
core; hand-counted perfts of the expansion starts; notation round trips; the binary encoding."""

import pytest

from shared_rules.cargocube import rules as cc
import cargocube_expansion_cases as X


def texts(pos):
    out = [pos.format_action(a) for a in pos.legal_actions()]
    assert len(out) == len(set(out)), "duplicate legal actions: %r" % out
    return set(out)


@pytest.mark.parametrize("case", X.CASES, ids=[c["name"] for c in X.CASES])
def test_expansion_rulings(case):
    pos = cc.Position.parse(case["pos"])
    acts = texts(pos)
    if "legal" in case:
        assert acts == case["legal"]
        assert pos.is_over() == (not case["legal"])
    assert case.get("has", set()) <= acts
    assert not (case.get("lacks", set()) & acts)
    if "scores" in case:
        got = pos.scores()
        assert {pos.SEAT_LETTERS[s]: got[s] for s in pos.seats} == case["scores"]
    before = pos.notation()
    for action, after in case.get("play", ()):
        pos.push_checked(pos.parse_action(action))
        assert pos.notation() == after
        assert cc.Position.parse(after).notation() == after
    for _ in case.get("play", ()):
        pos.pop()
    assert pos.notation() == before


@pytest.mark.parametrize("players,layout,teleport,depth,count", X.HAND_PERFT)
def test_expansion_starts_hand_counts(players, layout, teleport, depth, count):
    pos = cc.start_position(players, cards=layout or False, teleport=teleport)
    assert cc.perft(pos, depth) == count


@pytest.mark.parametrize("text,hexcode", [
    ("c5e^k5", "1724b6"), ("Tw", "5003"), ("K@d5", "702f"), ("e5cw", "d87f"),
    ("e5acw", "d87e"), ("He5@d4", "d824"),
])
def test_binary_encoding_of_the_documented_examples(text, hexcode):
    positions = {
        "c5e^k5": "f1=KS,a5=KW,c5=B1.B1,d5=*cS,d11=KN SWNE S 2",
        "Tw": "f1=KS,f6=T,f11=KN SN S 2",
        "K@d5": "f1=KS,d5=*uS,f11=KN SN S 2",
        "e5cw": "f1=KS,e5=*pS.B1,f11=KN SN S 2",
        "e5acw": "f1=KS,e5=*pS.B1,f11=KN SN S 2",
        "He5@d4": "f1=KS,e5=B1.!S,f11=KN SN S 2",
    }
    pos = cc.Position.parse(positions[text])
    a = pos.parse_action(text)
    code = cc.encode_action(a)
    assert code.hex() == hexcode
    assert cc.decode_action(pos, code, 0) == (a, len(code))


def test_eight_wind_roses_in_one_roll_encode_for_the_log():
    """8 wind roses (a loaded position: a game's start has 4) make a roll of 8 hops, more than
    the word's 3-bit count held: its encoding was refused, so the board could not log it."""
    pos = cc.Position.parse("g1=K1,c3=*s1.B1,c4=*w1,d4=*w2,e4=*w3,f4=*w4,g4=*w5,h4=*w6,i4=*w7,"
                            "j4=*w8 12345678 1 3")
    a = pos.parse_action("c3n/d4/e4/f4/g4/h4/i4/j4/j5")
    assert a in pos.legal_actions()
    code = cc.encode_action(a)
    assert code.hex() == "0c012425262728292a35" and len(code) <= 12  # a log record's payload
    assert cc.decode_action(pos, code, 0) == (a, len(code))
