"""Cephalopod rules core against the independent slow reference (tests/cephalopod/cephref.py):
legal action lists, resulting positions, scores and perft counts on all board sizes; plus
properties of random positions and games (notation, action text and binary round trips, push/pop
restoring everything)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.cephalopod import rules as ce
import cephref as ref

SIZES = [(3, 3), (3, 5), (5, 3), (5, 5)]


def legal_texts(pos):
    return sorted(pos.format_action(a) for a in pos.legal_actions())


def random_game_positions(rows, cols, seed, plies):
    rng = random.Random(seed)
    pos = ce.start_position(rows, cols)
    for _ in range(plies):
        acts = pos.legal_actions()
        if not acts:
            break
        pos.push(rng.choice(acts))
    return ce.Position.parse(pos.notation())


@pytest.mark.parametrize("rows,cols,depth", [(3, 3, 5), (3, 5, 3), (5, 3, 3), (5, 5, 3)])
def test_start_perft_matches_reference(rows, cols, depth):
    pos = ce.start_position(rows, cols)
    assert ce.perft(pos, depth) == ref.perft(ref.parse(pos.notation()), depth)


@pytest.mark.parametrize("seed", range(16))
def test_mid_game_perft_matches_reference(seed):
    rows, cols = SIZES[seed % 4]
    pos = random_game_positions(rows, cols, 500 + seed, rows * cols // 2 + seed % 5)
    depth = 3 if rows * cols < 25 else 2
    assert ce.perft(pos, depth) == ref.perft(ref.parse(pos.notation()), depth), pos.notation()


@pytest.mark.parametrize("seed", range(8))
def test_random_games_agree_action_by_action(seed):
    rng = random.Random(seed)
    for game in range(10):
        rows, cols = SIZES[(seed + game) % 4]
        pos = ce.start_position(rows, cols)
        state = ref.parse(pos.notation())
        while True:
            mine = legal_texts(pos)
            assert mine == sorted(ref.legal(state)), pos.notation()
            assert pos.is_over() == ref.is_over(state)
            sc = ref.scores(state)
            assert pos.scores() == [sc["w"], sc["b"]]
            if not mine:
                break
            text = rng.choice(mine)
            pos.push(pos.parse_action(text))
            state = ref.play(state, text)
            assert pos.notation() == ref.fmt(state)
        winner = "w" if sc["w"] > sc["b"] else "b"
        assert pos.winners() == ["wb".index(winner)]


# -- arbitrary positions (not only reachable ones) -------------------------------------------------

DIE = st.one_of(st.just("."), st.tuples(st.sampled_from("wb"), st.integers(1, 6)).map(
    lambda t: "%s%d" % t))


@st.composite
def positions(draw):
    rows, cols = draw(st.sampled_from(SIZES))
    # Mostly small dice, so that captures are common.
    cells = draw(st.lists(st.one_of(DIE, st.sampled_from([".", "w1", "b1", "w2", "b2"])),
                          min_size=rows * cols, max_size=rows * cols))
    lines = ["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)]
    return "/".join(lines) + " " + draw(st.sampled_from("wb"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_arbitrary_positions_match_reference_and_round_trip(text):
    pos = ce.Position.parse(text)
    assert pos.notation() == text
    state = ref.parse(text)
    assert legal_texts(pos) == sorted(ref.legal(state))
    for a in pos.legal_actions():
        t = pos.format_action(a)
        assert pos.parse_action(t) == a
        buf = ce.encode_action(a)
        assert len(buf) == 2 and ce.decode_action(pos, buf, 0) == (a, 2)
        pos.push(a)
        assert pos.notation() == ref.fmt(ref.play(state, t))
        again = ce.Position.parse(pos.notation())  # no hidden state
        assert again.legal_actions() == pos.legal_actions()
        assert again.scores() == pos.scores()
        pos.pop()
        assert pos.notation() == text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SIZES), st.integers(0, 2 ** 32))
def test_push_pop_restores_every_earlier_position(size, seed):
    rng = random.Random(seed)
    pos = ce.start_position(*size)
    seen = [pos.notation()]
    played = []
    while not pos.is_over():
        a = rng.choice(pos.legal_actions())
        pos.push(a)
        played.append(a)
        seen.append(pos.notation())
        assert sum(pos.scores()) + pos.cells.count(0) == size[0] * size[1]
    assert pos.history() == played and pos.ply() == len(played)
    while played:
        assert pos.notation() == seen[len(played)]
        assert pos.pop() == played.pop()
    assert pos.notation() == seen[0] and pos.scores() == [0, 0]
