"""Properties of the Cargocube rules core: orientation tables and random whole games.

Orientation: four rolls in one direction restore; 24 orientations reachable from B1; chirality
(B up: pips 1, 2, 3, 4 clockwise seen from above); opposite faces B-O, 1-3, 2-4; the roll rule.

Random games (hypothesis picks players, cards and the seed of the action choices) check at every
step: cubes conserved, corners empty, terminals of seats not in play empty, scores <= 36 and equal
to a score recomputed here from the rulings, notation round trip (also: the re-parsed position has
the same legal actions, i.e. no hidden state), action text round trip, binary round trip with
2 bytes (+1 per hop), and that popping everything restores every earlier position exactly.
The expansions' games (each card layout, the walking teleport, 8 players) check besides: no cube
on any entry portal, one keeper (alive or dead) a seat, biohazards only on top cubes and
controlled by seats in play, spent cards only in the grey zone, at most one teleport and only
keepers on it, scores <= 16 with 8 players (recomputed from the halves of the rulings).
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
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
    assert len(set(o.name(x) for x in range(o.COUNT))) == 24
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
            assert int(clockwise[(i + 1) % 4]) == int(clockwise[i]) % 4 + 1, o.name(x)
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
        assert o.name(x) == f[UP] + f[SOUTH]
        assert o.parse(o.name(x)) == x
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


def _scoring_seat(c, eight):
    """Whose score cell c counts for: its side's seat; with 8 players the half's seat (seats
    1..8 clockwise from the south side's east half; the exit portals count for no one)."""
    side = _terminal_owner(c)
    if side < 0 or not eight:
        return side
    x, y = c % 11, c // 11
    along = (x, y, x, y)[side]  # along the side: the exit portal is at 5
    if along == 5:
        return -1
    first = along > 5 if side in (0, 3) else along < 5  # S, E: east/north half first
    return 2 * side + (0 if first else 1)


def _expected_scores(pos):
    """Scores recomputed from the rulings: the top pips of the cubes in the own terminal."""
    eight = len(pos.seats) == 8
    out = [0] * (8 if eight else 4)
    for c in range(g.N_CELLS):
        owner = _scoring_seat(c, eight)
        st = pos.stacks[c]
        if owner >= 0 and st and st[-1] < cc.KEEPER:
            out[owner] += PIPS[o.faces(st[-1])[UP]]
    return out


def _check_invariants(pos, n_cubes):
    eight = len(pos.seats) == 8
    cubes = 0
    keepers = {}
    teleports = 0
    for c in range(g.N_CELLS):
        st = pos.stacks[c]
        cd = pos.cards[c]
        for i, it in enumerate(st):
            if it < cc.KEEPER:
                cubes += 1
            elif it < cc.TELEPORT:
                keepers.setdefault((it - cc.KEEPER) & 7, []).append(c)
                if it >= cc.DEAD:
                    assert i == 0, "a dead keeper above level 0 on %s" % g.cell_name(c)
            else:
                teleports += 1
                assert g.CELL_KIND[c] == g.GREY
                assert all(cc.KEEPER <= x < cc.DEAD for x in st[i + 1:]), "on the teleport"
                assert i == 0 or not cc.KEEPER <= st[i - 1] < cc.DEAD, "teleport on a keeper"
        kind = g.CELL_KIND[c]
        if kind == g.CORNER:
            assert not st and not cd, "corner %s occupied" % g.cell_name(c)
        owner = _terminal_owner(c)
        if owner >= 0 and owner not in pos.seats and not eight:
            assert not st and not cd, "terminal cell %s of a seat not in play used" % (
                g.cell_name(c))
        if c == g.ENTRY_PORTAL or cd and cc.card_kind(cd) == "x" and kind == g.GREY:
            # (the teleport may stand on cubes; none stands on it: checked above)
            assert all(it >= cc.KEEPER for it in st), "a cube stays on an entry portal"
        if cd and cc.card_kind(cd) == "=":
            assert kind == g.GREY, "a spent card in a terminal"
        lid = pos.lids[c] if pos.lids is not None else 0
        if lid:
            assert st and st[-1] < cc.KEEPER, "a biohazard on no cube"
            assert lid - 1 in pos.seats
    assert cubes == n_cubes
    assert teleports <= 1
    sc = pos.scores()
    assert all(0 <= x <= pos.max_score for x in sc)
    assert pos.max_score == (16 if eight else cc.MAX_SCORE)
    assert sc == _expected_scores(pos)
    for s in range(8 if eight else 4):
        kc = pos.keeper_cell(s)
        if s in pos.seats:
            assert len(keepers.get(s, ())) == 1, "seat %d has not one keeper" % s
            if kc >= 0:
                assert pos.stacks[kc].count(cc.KEEPER + s) == 1
            else:
                assert cc.DEAD + s in pos.stacks[keepers[s][0]]
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
        assert len(cc.encode_action(a)) == 2 + len(a[5])  # (a throw is one byte among the hops)
    for a in checked:
        text = pos.format_action(a)
        assert pos.parse_action(text) == a, text
        buf = b"\x07" + cc.encode_action(a) + b"\x09"
        assert cc.decode_action(pos, buf, 1) == (a, len(buf) - 1), text


def _play_random_game(players, cards, seed, cap, boost_sample, teleport=False):
    rng = random.Random(seed)
    pos = cc.start_position(players=players, cards=cards, teleport=teleport)
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
    assert pos.notation() == cc.start_position(players=players, cards=cards,
                                               teleport=teleport).notation()
    return steps, not actions


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2 ** 32 - 1))
def test_random_games_without_cards(players, seed):
    _play_random_game(players, False, seed, cap=600, boost_sample=0)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2 ** 32 - 1))
def test_random_games_with_cards(players, seed):
    _play_random_game(players, True, seed, cap=600, boost_sample=6)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4, 8]), cards=st.sampled_from(["pyramid", "bastion", "both"]),
       teleport=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_random_expansion_games(players, cards, teleport, seed):
    _play_random_game(players, cards, seed, cap=150, boost_sample=3, teleport=teleport)


def test_random_games_mostly_end_naturally():
    # Fixed seeds, so that every run covers 2, 3 and 4 players with and without cards.
    ended = 0
    for players, cards in ((2, True), (3, False), (4, True)):
        steps, natural = _play_random_game(players, cards, players, cap=600, boost_sample=2)
        ended += natural
    assert ended == 3
