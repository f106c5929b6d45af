"""The «Формула 99» engine: it beats uniformly random players (a smaller, safe bar than the
bench's 100 games per level: bench/formula99/formula99.py), and its choice never depends on a card its
seat cannot see."""

import pytest

from shared_rules.formula99 import engine as E
from shared_rules.formula99 import rules as R
import formula99_games as G


def play(seed, level, engine_seat):
    pos = R.start_position(4, level, seed)
    rng = E.Lcg(seed)
    while not pos.is_over() and pos.ply() < 3000:
        if pos.to_move == engine_seat:
            a = E.choose(pos, engine_seat, 3, seed + pos.ply())
        else:
            a = E.random_action(pos, rng)
        pos.push(a)
    return pos.winners()


@pytest.mark.parametrize("level", (1, 2, 3))
def test_engine_beats_random_players(level):
    won = sum(play(500 + g, level, g % 4) == [g % 4] for g in range(4))
    assert won >= 3


def swap_hidden(pos, seat):
    """The same position for `seat` with two cards it cannot see exchanged (another hand's and
    the deck's), or None."""
    from shared_rules.formula99 import cards as C
    others = [i for i in range(len(pos.seats)) if i != seat and pos.hand(i)]
    if not others or not pos.deck():
        return None
    f = pos.notation().split()
    i = others[0] + 1  # the seat's field
    a = C.name(pos.hand(others[0])[0])
    b = C.name(pos.deck()[0])
    head, hand = f[i].rsplit(":", 1)
    f[i] = head + ":" + hand.replace(a, b)
    f[-1] = "k:" + f[-1][2:].replace(b, a, 1)
    return R.Position.parse(" ".join(f))  # re-sorts the hand


@pytest.mark.parametrize("seed", range(4))
def test_choice_ignores_cards_the_seat_cannot_see(seed):
    checked = 0
    for pos, a in G.game(seed, 3, 1 + seed % 3, True, plies=60):
        if a is None or pos.to_move < 0 or pos.ply() % 7:
            continue
        other = swap_hidden(pos, pos.to_move)
        if other is None:
            continue
        assert E.choose(pos, pos.to_move, 2, 5) == E.choose(other, pos.to_move, 2, 5)
        checked += 1
    assert checked >= 3


def test_determinize_keeps_what_the_seat_knows():
    pos = G.play_out(3, 4, 2, True, plies=40)
    seat = pos.to_move if pos.to_move >= 0 else pos.turn
    w = E.determinize(pos, seat, E.Lcg(1))
    assert w.public().notation() == pos.public().notation()
    assert w.hand(seat) == pos.hand(seat) and w.charges(seat) == pos.charges(seat)
    assert w.discard() == pos.discard()
