"""Properties of the Cargocube rules core: orientation tables and random whole games.

Orientation: four rolls in one direction restore; 24 orientations reachable from B1; chirality
(B up: pips 1, 2, 3, 4 clockwise seen from above); opposite faces B-O, 1-3, 2-4; the roll rule.

Random games (hypothesis picks players, cards and the seed of the action choices) check at every
step: cubes conserved, corners empty, terminals of seats not in play empty, scores <= 36 and equal
to a score recomputed here from the rulings, notation round trip (also: the re-parsed position has
the same legal actions, i.e. no hidden state), action text round trip, binary round trip with
2 bytes (+1 per hop), and that popping everything restores every earlier position exactly.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.cargocube import rules as cc
from shared_rules import geometry as g
from shared_rules.cargocube import orient as o

FACES = "B1234O"
OPPOSITE = {"B": "O", "O": "B", "1": "3", "3": "1", "2": "4", "4": "2"}
PIPS = {"B": 0, "O": 0, "1": 1, "2": 2, "3": 3, "4": 4}
UP, DOWN, NORTH, EAST, SOUTH, WEST = range(6)
SIDE = (NORTH, EAST, SOUTH, WEST)  # by direction n, e, s, w


# ---------------------------------------------------------------------------------------------
# Orientation


def test_four_rolls_in_one_direction_restore():
    for ori in range(o.COUNT):
        for d in range(4):
            x = ori
            seen = []
            for _ in range(4):
                x = o.ROLL[x * 4 + d]
                seen.append(x)
            assert x == ori
            assert len(set(seen)) == 4  # and not earlier


def test_24_orientations_reachable_from_start():
    reached = {o.START}
    todo = [o.START]
    while todo:
        x = todo.pop()
        for d in range(4):
            y = o.ROLL[x * 4 + d]
            if y not in reached:
                reached.add(y)
                todo.append(y)
    assert len(reached) == 24 == o.COUNT
    assert len(set(o.NAMES)) == 24
    assert len(set(o.faces(x) for x in range(o.COUNT))) == 24


def test_opposite_faces():
    for x in range(o.COUNT):
        f = o.faces(x)
        assert sorted(f) == sorted(FACES)
        assert OPPOSITE[f[UP]] == f[DOWN]
        assert OPPOSITE[f[NORTH]] == f[SOUTH]
        assert OPPOSITE[f[EAST]] == f[WEST]


def test_chirality_b_up_pips_clockwise_seen_from_above():
    b_up = [x for x in range(o.COUNT) if o.faces(x)[UP] == "B"]
    assert len(b_up) == 4
    for x in b_up:
        f = o.faces(x)
        clockwise = [f[NORTH], f[EAST], f[SOUTH], f[WEST]]  # N -> E -> S -> W is clockwise
        for i in range(4):
            assert int(clockwise[(i + 1) % 4]) == int(clockwise[i]) % 4 + 1, o.NAMES[x]
    # O up: seen from above the order is reversed (the cube is upside down).
    for x in range(o.COUNT):
        f = o.faces(x)
        if f[UP] == "O":
            clockwise = [f[NORTH], f[EAST], f[SOUTH], f[WEST]]
            for i in range(4):
                assert int(clockwise[(i + 1) % 4]) == (int(clockwise[i]) - 2) % 4 + 1


def test_roll_rule_and_names_and_values():
    for x in range(o.COUNT):
        f = o.faces(x)
        assert o.NAMES[x] == f[UP] + f[SOUTH]
        assert o.parse(o.NAMES[x]) == x
        assert o.VALUE[x] == PIPS[f[UP]]
        for d in range(4):
            h = o.faces(o.ROLL[x * 4 + d])
            toward = SIDE[d]
            away = SIDE[(d + 2) % 4]
            assert h[DOWN] == f[toward]
            assert h[toward] == f[UP]
            assert h[away] == f[DOWN]
            assert h[UP] == f[away]
            for side in SIDE:
                if side not in (toward, away):
                    assert h[side] == f[side]


# ---------------------------------------------------------------------------------------------
# Random games


def _terminal_owner(c):
    k = g.CELL_KIND[c]
    return k - g.TERMINAL if k >= g.TERMINAL else -1


def _expected_scores(pos):
    """Scores recomputed from the rulings: uncovered cubes in the own terminal, top pips."""
    out = [0, 0, 0, 0]
    for c in range(g.N_CELLS):
        owner = _terminal_owner(c)
        st = pos.stacks[c]
        if owner >= 0 and st and st[-1] < cc.KEEPER:
            out[owner] += PIPS[o.faces(st[-1])[UP]]
    return out


def _check_invariants(pos, n_cubes):
    cubes = 0
    for c in range(g.N_CELLS):
        st = pos.stacks[c]
        for it in st:
            if it < cc.KEEPER:
                cubes += 1
        kind = g.CELL_KIND[c]
        if kind == g.CORNER:
            assert not st and not pos.cards[c], "corner %s occupied" % g.cell_name(c)
        owner = _terminal_owner(c)
        if owner >= 0 and owner not in pos.seats:
            assert not st and not pos.cards[c], "terminal cell %s of a seat not in play used" % (
                g.cell_name(c))
        if c == g.ENTRY_PORTAL:
            assert all(it >= cc.KEEPER for it in st), "a cube stays on the entry portal"
    assert cubes == n_cubes
    sc = pos.scores()
    assert all(0 <= x <= cc.MAX_SCORE for x in sc)
    assert sc == _expected_scores(pos)
    for s in range(4):
        kc = pos.keeper_cell(s)
        if s in pos.seats:
            assert kc >= 0 and cc.KEEPER + s in pos.stacks[kc]
        else:
            assert kc == -1


def _check_action_round_trips(pos, actions, rng, sample):
    texts = [pos.format_action(a) for a in actions]
    assert len(set(texts)) == len(texts), "two legal actions share a text"
    # Every action: binary length; every non-booster action: text and binary round trips.
    # Booster uses (up to ~490 per position, all alike) are round-tripped for a random sample.
    boosts = [a for a in actions if a[0] == cc.BOOST]
    checked = [a for a in actions if a[0] != cc.BOOST]
    checked += rng.sample(boosts, min(sample, len(boosts)))
    for a in actions:
        assert len(cc.encode_action(a)) == 2 + len(a[5])
    for a in checked:
        text = pos.format_action(a)
        assert pos.parse_action(text) == a, text
        buf = b"\x07" + cc.encode_action(a) + b"\x09"
        assert cc.decode_action(pos, buf, 1) == (a, len(buf) - 1), text


def _play_random_game(players, cards, seed, cap, boost_sample):
    rng = random.Random(seed)
    pos = cc.start_position(players=players, cards=cards)
    n_cubes = sum(1 for st in pos.stacks for it in st if it < cc.KEEPER)
    assert n_cubes == 40
    trail = []  # (notation, stacks, cards, scores) before each action
    steps = 0
    while True:
        note = pos.notation()
        _check_invariants(pos, n_cubes)
        assert cc.Position.parse(note).notation() == note
        actions = pos.legal_actions()
        assert cc.Position.parse(note).legal_actions() == actions  # no hidden state
        if not actions or steps >= cap:
            break
        _check_action_round_trips(pos, actions, rng, boost_sample)
        trail.append((note, [list(s) for s in pos.stacks], bytes(pos.cards), pos.scores()))
        pos.push(rng.choice(actions))
        steps += 1
    if not actions:
        assert pos.is_over()
        assert pos.winners() and set(pos.winners()) <= set(pos.seats)
        best = max(pos.scores()[s] for s in pos.seats)
        assert all(pos.scores()[s] == best for s in pos.winners())
    # Pop everything: every earlier position comes back exactly.
    while trail:
        note, stacks, cards_, scores = trail.pop()
        pos.pop()
        assert pos.notation() == note
        assert [list(s) for s in pos.stacks] == stacks
        assert bytes(pos.cards) == cards_
        assert pos.scores() == scores
    assert pos.notation() == cc.start_position(players=players, cards=cards).notation()
    return steps, not actions


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2 ** 32 - 1))
def test_random_games_without_cards(players, seed):
    _play_random_game(players, False, seed, cap=600, boost_sample=0)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2 ** 32 - 1))
def test_random_games_with_cards(players, seed):
    _play_random_game(players, True, seed, cap=600, boost_sample=6)


def test_random_games_mostly_end_naturally():
    # Fixed seeds, so that every run covers 2, 3 and 4 players with and without cards.
    ended = 0
    for players, cards in ((2, True), (3, False), (4, True)):
        steps, natural = _play_random_game(players, cards, players, cap=600, boost_sample=2)
        ended += natural
    assert ended == 3
