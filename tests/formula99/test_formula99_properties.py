"""Properties of «Формула 99» positions along seeded whole games (both views, every level, 2 to
9 players): the invariants of the rules (ships never share a track cell, charges keep their
3-cell intervals, a blockade lies under its owner's ship, every card is in exactly one place),
the notation and the action texts and binary encodings round-trip, push/pop restores every
earlier position, and the public view of a full game is the game the public actions play."""

import pytest

from shared_rules.formula99 import rules as R
from shared_rules.formula99 import track as T
import formula99_games as G


def check_invariants(pos):
    s = pos.st
    n = len(pos.seats)
    cells = [p for i in range(n) for p in pos.ship_places(i) if p < 72]
    assert len(cells) == len(set(cells)), "two ships on one cell"
    charges = [(c, card, i) for i in range(n) for c, card in pos.charges(i)]
    assert len({c for c, _, _ in charges}) == len(charges), "two charges on one cell"
    for c, card, i in charges:
        assert T.is_track(c)
        if card == R.BLOCKADE:
            assert T.is_red(c) and c in pos.ship_places(i), "blockade without its ship"
        for d, _, _ in charges:
            if d != c and T.lanes_mask(c) & T.lanes_mask(d):
                assert T.dist(c, d) >= 3, "charges %s %s too close" % (T.name(c), T.name(d))
    if pos.full:
        places = []
        for i in range(n):
            places += pos.hand(i)
            assert len(pos.hand(i)) == pos.hand_size(i) <= 5
        places += [card for _, card, _ in charges if card != R.BLOCKADE]
        places += pos.discard() + pos.deck()
        assert sorted(places) == list(range(1, 55)), "a card lost or doubled"
    else:
        assert pos.deck_size() >= 0
        assert all(card in (R.UNKNOWN, R.BLOCKADE) for _, card, _ in charges)
    winners = pos.winners()
    controls = [i for i in range(n) if T.CONTROL in pos.ship_places(i)]
    assert winners == controls
    if winners:
        assert T.FINISH in pos.ship_places(winners[0]) and pos.legal_actions() == []
    else:
        assert pos.legal_actions(), "no legal action before the end"


GAMES = [(seed, 2 + seed % 8, 1 + seed % 3, seed % 2 == 1) for seed in range(24)]


@pytest.mark.parametrize("seed,players,level,full", GAMES)
def test_invariants_and_round_trips_along_games(seed, players, level, full):
    seen = []
    played = []
    for pos, a in G.game(seed, players, level, full, plies=250):
        check_invariants(pos)
        text = pos.notation()
        seen.append(text)
        again = R.Position.parse(text)
        assert again.notation() == text
        assert again.legal_actions() == pos.legal_actions()
        assert again.to_move == pos.to_move
        if a is None:
            break
        for b in pos.legal_actions():
            assert pos.parse_action(pos.format_action(b)) == b
            buf = R.encode_action(b)
            assert len(buf) == 4 and R.decode_action(pos, buf, 0) == (b, 4)
        played.append(a)
    assert pos.history() == played and pos.ply() == len(played)
    while played:
        assert pos.notation() == seen[len(played)]
        assert pos.pop() == played.pop()
    assert pos.notation() == seen[0]


@pytest.mark.parametrize("seed", range(6))
def test_public_view_of_a_full_game_is_the_public_game(seed):
    players = 2 + seed
    level = 1 + seed % 3
    public = R.start_position(players, level)
    for pos, a in G.game(seed, players, level, True, plies=250):
        assert pos.public().notation() == public.notation()
        if a is None:
            break
        pa = R.public_action(a)
        assert pa in public.legal_actions(), pos.format_action(a)
        public.push(pa)


def test_seeded_deal_replays_exactly():
    a = R.start_position(4, 2, seed=12345)
    b = R.start_position(4, 2, seed=12345)
    assert a.notation() == b.notation() != R.start_position(4, 2, seed=54321).notation()
    assert [len(a.hand(i)) for i in range(4)] == [3, 3, 3, 3] and len(a.deck()) == 42


def test_decode_rejects_truncated_and_illegal_bytes():
    pos = R.start_position(2, 1)
    with pytest.raises(R.RulesError, match="truncated"):
        R.decode_action(pos, b"\x01\x00", 0)
    with pytest.raises(R.RulesError, match="not legal"):
        R.decode_action(pos, R.encode_action(R.END), 0)
