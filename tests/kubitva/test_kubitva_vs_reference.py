"""КУБитва rules core against the independent slow reference (tests/kubitva/kubitva_ref.py,
written from docs/rules/kubitva.md): perft counts, legal action lists and the positions after
every action in seeded random games and on arbitrary positions; and the invariants of whole
random games (cubes appear and vanish only by the rules that make or destroy them, treasuries
never go negative, each side's land stays one connected region, push/pop and the notation lose
nothing)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from driver_kubitva import walled_grid
from kubitva_positions import ARENA
from shared_rules.kubitva import rules as kb
import kubitva_ref as ref


def legal_texts(pos):
    return [pos.format_action(a) for a in pos.legal_actions()]


@pytest.mark.parametrize("word,depth,count", [("board", 3, 2229), ("full", 2, 599)])
def test_start_perft_matches_reference(word, depth, count):
    pos = kb.start_position(word)
    assert kb.perft(pos, depth) == count
    assert ref.perft(ref.parse(pos.notation()), depth) == count


def test_arena_perft_matches_reference():
    pos = kb.Position.parse(ARENA)
    assert kb.perft(pos, 2) == ref.perft(ref.parse(ARENA), 2) == 681


def ref_sites(text):
    """The reference's fill sites: door/opening names in fill_sites' order (by the opening's
    cell, then the direction from it to the door room)."""
    st = ref.parse(text)
    found = []
    for y in range(st["rows"]):
        for x in range(st["cols"]):
            o = (x, y)
            for di, d in enumerate(ref.DIRS):  # d: from the door to the opening
                door = ref.add(o, (None, -d[1], -d[2]))
                if ref.on_grid(st, door) and ref.fill_ok(st, door, o):
                    found.append((ref.index(st, o), (di + 2) % 4,
                                  "%s/%s" % (ref.name(door), ref.name(o))))
    found.sort()
    return [t for _, _, t in found]


def test_fill_sites_match_reference_on_walled_grids():
    # grids of every size and wall density, which hold far more sites (several at one opening,
    # openings on units and off the side's land) than games do
    x = 7
    with_sites = 0
    for _ in range(400):
        text, x = walled_grid(x)
        pos = kb.Position.parse(text)
        mine = ["%s/%s" % (pos.cell_name(r), pos.cell_name(pos.nb[r * 4 + d]))
                for r, d in pos.fill_sites()]
        assert mine == ref_sites(text), text
        with_sites += bool(mine)
    assert with_sites > 100


def pick(rng, texts, ends=0.15):
    """A random action, `end` seldom (so that units go far): when `end` is drawn it is kept
    with probability `ends`."""
    t = rng.choice(texts)
    if t == "end" and len(texts) > 1 and rng.random() > ends:
        t = rng.choice(texts[:-1])
    return t


@pytest.mark.parametrize("seed", range(6))
def test_random_games_agree_action_by_action(seed):
    rng = random.Random(seed)
    start = ARENA if seed % 2 else kb.BOARD
    pos = kb.Position.parse(start)
    state = ref.parse(start)
    for _ in range(150):
        mine = legal_texts(pos)
        assert mine == ref.legal(state), pos.notation()
        assert pos.is_over() == ref.is_over(state)
        sc = ref.scores(state)
        assert pos.scores() == [sc["S"], sc["N"]]
        if not mine:
            break
        t = pick(rng, mine)
        pos.push(pos.parse_action(t))
        state = ref.play(state, t)
        assert pos.notation() == ref.fmt(state), t
    assert "".join("SN"[s] for s in pos.winners()) == ref.winners(state)


# -- invariants of whole games ---------------------------------------------------------------------

def counts(pos):
    out = {}
    for v in pos.cells:
        out[v] = out.get(v, 0) + 1
    return out


def connected(pos, side):
    cells = [c for c in range(pos.n) if pos.terr[c] & 1 == side]
    if not cells:
        return True
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        c = todo.pop()
        for d in range(4):
            u = pos.nb[c * 4 + d]
            if u != kb.NONE and u not in seen and pos.terr[u] & 1 == side:
                seen.add(u)
                todo.append(u)
    return len(seen) == len(cells)


def expected_counts(before, pos, a):
    """The cube counts after action a, from the counts before, by the rules that create or
    destroy cubes (docs sections 6-7)."""
    out = dict(before)

    def add(v, n):
        out[v] = out.get(v, 0) + n
        out[kb.EMPTY] = out.get(kb.EMPTY, 0) - n

    if a == kb.END:
        return out
    code = a & 255
    letter = kb.item_letter(a)
    side = pos.to_move
    if kb.KILL <= code < kb.FILL:
        victim = pos.cells[pos.action_cell(a)]
        add(victim, -1)
    elif kb.FILL <= code < kb.BUY:
        rooms = pos.rooms_of(a >> 8, pos.nb[(a >> 8) * 4 + (code & 3)])
        add(kb.FILL_KINDS[(code - kb.FILL) >> 2], len(rooms))
    elif letter in ("b", "a"):
        add(kb.BRICK if letter == "b" else kb.ARMOUR, 1)
    elif letter in ("w", "s"):
        add((kb.WORKER if letter == "w" else kb.SOLDIER) + side, 1)
    elif letter == "x":
        out[kb.WASTE] -= 1
        out[kb.BRICK] = out.get(kb.BRICK, 0) + 1
    elif letter in ("k", "K"):
        hit = pos.cells[pos.rocket_target(a)]
        add(hit, -1)
        if hit != kb.ARMOUR:
            add(kb.WASTE, 1)
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("seed", range(4))
def test_whole_random_games_keep_the_invariants(seed):
    rng = random.Random(1000 + seed)
    start = (kb.BOARD, ARENA)[seed % 2]
    pos = kb.Position.parse(start)
    seen = [pos.notation()]
    while not pos.is_over():
        acts = pos.legal_actions()
        a = pos.parse_action(pick(rng, [pos.format_action(x) for x in acts], 1.0))
        want = expected_counts(counts(pos), pos, a)
        money = list(pos.treasury)
        pos.push(a)
        assert counts(pos) == want, pos.format_action(a)
        assert min(pos.treasury) >= 0
        if a != kb.END:
            assert pos.treasury[pos.to_move ^ 1] == money[pos.to_move ^ 1]
        assert connected(pos, kb.S) and connected(pos, kb.N), pos.notation()
        assert sum(pos.scores()) == pos.n
        text = pos.notation()
        again = kb.Position.parse(text)
        assert again.notation() == text and again.legal_actions() == pos.legal_actions()
        seen.append(text)
    assert pos.winners() and pos.legal_actions() == []
    played = pos.history()
    assert len(played) == pos.ply() == len(seen) - 1
    while pos.ply():
        assert pos.notation() == seen[pos.ply()]
        assert pos.pop() == played[pos.ply()]
    assert pos.notation() == start


# -- arbitrary positions (not only reachable ones) -------------------------------------------------

PIECES = "....bbaxxipmrWwSs"


@st.composite
def positions(draw):
    """6 x 6 grids with both bases (S's base cube on b2, N's on e5, walled with armour) and
    anything anywhere else; a random split of the land, whose turn, points, money."""
    cols = rows = 6
    cells = draw(st.lists(st.sampled_from(PIECES), min_size=36, max_size=36))
    grid = {}
    for i, ch in enumerate(cells):
        grid[(i % cols, i // cols)] = ch
    for (x, y), ch in (((1, 1), "q"), ((1, 0), "a"), ((0, 1), "a"), ((2, 1), "a"), ((1, 2), "a"),
                       ((4, 4), "q"), ((4, 5), "a"), ((3, 4), "a"), ((5, 4), "a"), ((4, 3), "a")):
        grid[(x, y)] = ch
    side = draw(st.sampled_from("SN"))
    split = draw(st.lists(st.integers(0, 6), min_size=6, max_size=6))  # S cells per row
    land = {}
    for y in range(rows):
        for x in range(cols):
            land[(x, y)] = "S" if x < split[y] else "N"
    land[(1, 1)] = "S"
    land[(4, 4)] = "N"
    fresh = draw(st.lists(st.integers(0, 35), max_size=4))
    active = draw(st.one_of(st.none(), st.integers(0, 35)))
    state = {"cols": cols, "rows": rows, "grid": {c: v for c, v in grid.items() if v != "."},
             "pts": {}, "land": land, "fresh": set(), "side": side,
             "money": {"S": draw(st.integers(0, 25)), "N": draw(st.integers(0, 25))},
             "turn": 3, "limit": 60}
    for i in fresh:
        c = (i % cols, i // cols)
        if land[c] == side:
            state["fresh"].add(c)
    if active is not None:
        c = (active % cols, active // cols)
        if state["grid"].get(c, ".") in ("WS" if side == "S" else "ws"):
            state["pts"][c] = draw(st.integers(1, 9))
    for c, v in state["grid"].items():
        if v in ("WS" if side == "S" else "ws") and c not in state["pts"] and \
                draw(st.integers(0, 5)) == 0:
            state["pts"][c] = 0
    return ref.fmt(state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_arbitrary_positions_match_reference_and_round_trip(text):
    pos = kb.Position.parse(text)
    assert pos.notation() == text
    state = ref.parse(text)
    mine = legal_texts(pos)
    assert mine == ref.legal(state)
    for a in pos.legal_actions():
        t = pos.format_action(a)
        assert pos.parse_action(t) == a
        assert kb.decode_action(pos, kb.encode_action(a), 0) == (a, 2)
        pos.push(a)
        assert pos.notation() == ref.fmt(ref.play(state, t)), t
        again = kb.Position.parse(pos.notation())  # no hidden state
        assert again.legal_actions() == pos.legal_actions()
        pos.pop()
        assert pos.notation() == text


def every_number(pos):
    """Every action number a position could be asked about: each cell's 72 codes (steps, kills,
    fills, purchases and some that are none), a cell past the grid, end, and out of range."""
    for c in range(pos.n + 1):
        for code in range(72):
            yield (c << 8) + code
    yield from (kb.END, -1, kb.END + 1)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_is_legal_is_membership_in_legal_actions(text):
    # is_legal generates only the actions of the kind asked about (parse_action, decode_action
    # and push_checked use it); it must answer as the whole list does, for any number
    pos = kb.Position.parse(text)
    legal = set(pos.legal_actions())
    for a in every_number(pos):
        assert pos.is_legal(a) == (a in legal), (a, text)
    with pytest.raises(kb.RulesError):
        kb.decode_action(pos, bytes((pos.n, 0)), 0)


def test_is_legal_is_membership_in_legal_actions_along_games():
    # positions of games from the busy arena that fill whenever they can: every 20th, and the
    # first with fill sites (buildings to buy at and units are everywhere)
    checked = fills = 0
    for seed in range(3):
        rng = random.Random(seed)
        pos = kb.Position.parse(ARENA)
        while not pos.is_over() and pos.ply() < 120:
            acts = pos.legal_actions()
            filling = [a for a in acts if a != kb.END and kb.FILL <= a & 255 < kb.BUY]
            if pos.ply() % 20 == 0 or (filling and fills < 6):
                legal = set(acts)
                for a in every_number(pos):
                    assert pos.is_legal(a) == (a in legal), (pos.format_action(a) if a >> 8 <
                                                             pos.n else a, pos.notation())
                checked += 1
                fills += bool(filling)
            pos.push(rng.choice(filling or acts))
    assert checked >= 12 and fills == 6
