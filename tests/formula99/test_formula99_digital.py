"""«Формула 99» with digital cards: the board's plug-in holds the seeded deal (`deal=SEED`,
docs/board-formula99.md), for `cargoboard serve`'s seat pages. Whole seeded games played by the
hand model on the firmware's own scanner and plug-in (in process; the same firmware under the
MicroPython unix port is played in tests/formula99/test_formula99_web.py): cards come only as `card X`
from their holder, a card shown needs nothing, the board's full position follows the truth."""

import pytest

from cargoboard.games.formula99.play import play_game, truth_steps
from firmware.games.formula99 import tracker as T
from firmware.games.formula99.plugin import Game
from shared_rules.formula99 import rules as R


@pytest.mark.parametrize("seed,players,level", [(0, 2, 1), (1, 3, 2), (2, 4, 3), (5, 2, 3)])
def test_whole_games_with_digital_cards(seed, players, level):
    st = play_game(seed, players=players, level=level, digital=True)
    assert st.wrong == 0, st.failures
    assert st.actions > 60 and st.cards > 5


def test_a_deal_starts_the_full_position_and_hides_nothing_from_the_board():
    g = Game({"layout": "L2", "seats": "15", "deal": "42"})
    assert g.pos.notation() == R.start_position(2, 2, seed=42, civs=[1, 5]).notation()
    assert g.command(["hands"]) == "ok 1=3 5=3"
    for bad in ("-1", "x", "2147483648"):
        with pytest.raises(ValueError, match="deal="):
            Game({"layout": "L2", "seats": "15", "deal": bad})


def test_a_known_card_is_shown_at_once_and_undone_with_its_action():
    # the first action of a seeded game that leads to a chance node (a charge crossed, a draw)
    for seed in range(40):
        for truth, before, after, pa, text, eff in truth_steps(seed, 3, 2):
            if truth.is_chance():
                break
        else:
            continue
        break
    a = truth.pop()
    full_before = truth.notation()
    ply = truth.ply()
    t = T.Tracker(truth)
    assert t.act(a)
    assert not truth.is_chance() and truth.ply() >= ply + 2  # the card was shown at once
    shown = truth.ply() - ply
    t.take_log()
    assert t.press_undo()
    assert truth.notation() == full_before
    assert [how for how, _ in t.take_log()] == ["undo"] * shown


def test_observe_reads_only_the_changes_and_keeps_the_whole_sense_vector():
    """The tracker updates its sense vector from the cells that changed: after any sequence of
    occupancies it equals the sense vector read whole (start zones count their two cells)."""
    import random
    rnd = random.Random(7)
    t = T.Tracker(R.start_position(4, 3, civs=[1, 3, 5, 7]))
    occ = bytearray(16)
    for step in range(300):
        for _ in range(rnd.randint(1, 4)):
            g = rnd.randrange(121)
            occ[g >> 3] ^= 1 << (g & 7)
        t.observe(bytearray(occ), step * 10)
        assert t.observed == t.sense(occ), step


def test_every_game_the_plug_in_starts_keeps_two_chunks_of_the_undo_log():
    """A new game, a deal, a position given and a position loaded all bound the rules core's
    undo log (Position.keep_undo): 200 actions later the position holds at most 2 chunks of it
    and takes back as far as a position with the whole log (a new game's bound was lost once
    when the plug-in's set-up moved to once.py; only the heap bench showed it)."""
    start = R.start_position(3, 2, civs=[1, 4, 7]).notation()
    games = [Game({"layout": "L2", "seats": "147"}),
             Game({"layout": "L2", "seats": "147", "deal": "9"}),
             Game({"position": start})]
    loaded = Game({"layout": "L1", "seats": "15"})
    loaded.load(start)
    games.append(loaded)
    for g in games:
        whole = R.Position.parse(g.pos.notation())
        x = 5
        for _ in range(200):
            if g.pos.is_over():
                break
            acts = g.pos.legal_actions()
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            a = acts[(x >> 8) % len(acts)]
            g.pos.push(a)
            whole.push(a)
        assert g.pos.ply() > 100 and len(g.pos._chunks) + len(g.pos._spare) <= 2
        g.pos.take_back_to(3)
        while whole.ply() > 3:
            whole.pop()
        assert g.pos.st == whole.st
