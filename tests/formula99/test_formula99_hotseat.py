"""`cargoboard play formula99` (the hot-seat loop, driven with scripted input): engines finish
whole games; humans type actions; a hand appears only on its own player's screens, after a
hand-over screen, and every hidden card is revealed at the end."""

import pytest

from cargoboard.games.formula99.hotseat import HotSeat, Quit, parse_engine_seats
from shared_rules.formula99 import cards as C
from shared_rules.formula99 import rules as R

CLEAR = "<clear>"


def test_engines_play_a_whole_game():
    out = []
    game = HotSeat(players=3, level=2, seed=11, engine="all", out=out.append)
    winners = game.run()
    assert winners == game.pos.winners() and len(winners) == 1
    assert out[-1].startswith("Game over: ") and "wins after" in out[-1]
    start, texts = game.record()
    replay = R.Position.parse(start)
    for t in texts:
        replay.push(replay.parse_action(t))
    assert replay.notation() == game.pos.notation()


class Screens:
    """Scripted humans: each prompt answers with the first legal action (or Enter at a
    hand-over); records what each screen showed."""

    def __init__(self, game_ref):
        self.game_ref = game_ref
        self.screens = [[]]

    def out(self, text):
        self.screens[-1].append(text)

    def clear(self):
        self.screens.append([])

    def inp(self, prompt):
        game = self.game_ref[0]
        if not prompt:
            return ""
        pos = game.pos
        return pos.format_action(pos.legal_actions()[0])


def test_hands_show_only_to_their_player_after_a_hand_over():
    ref = [None]
    s = Screens(ref)
    game = HotSeat(players=2, level=1, seed=5, engine="", inp=s.inp, out=s.out, clear=s.clear)
    ref[0] = game
    deal = {seat: set(game.pos.hand(seat)) for seat in game.pos.seats}
    n = 0
    while not game.pos.is_over() and n < 40:
        who = game.pos.to_move
        if who < 0:
            game.chance()
        else:
            game.human(who)
        n += 1
    handovers = [i for i, sc in enumerate(s.screens) if any("Hand the board to" in t for t in sc)]
    assert len(handovers) >= 4
    for i in handovers:
        name = s.screens[i][0].split("Hand the board to ")[1].split(" (")[0]
        seat = [x for x in game.pos.seats if game.name(x) == name][0]
        other = 1 - seat
        shown = "\n".join(s.screens[i + 1])  # the screen after the hand-over
        mine = [ln for ln in shown.splitlines() if ln[2:].startswith(game.name(seat))]
        theirs = [ln for ln in shown.splitlines() if ln[2:].startswith(game.name(other))]
        assert mine and theirs
        assert " cards " in theirs[0] or " card " in theirs[0]  # a number, not cards
        assert not any(C.name(c) in theirs[0] for c in deal[other])


def test_typed_actions_errors_and_quit():
    answers = iter(["", "help", "legal", "fly", "s1-1b1", "quit"])
    out = []
    game = HotSeat(players=2, level=1, seed=3, inp=lambda p: next(answers), out=out.append,
                   clear=lambda: out.append(CLEAR))
    with pytest.raises(Quit):
        game.run()
    text = "\n".join(out)
    assert "Type an action" in text and "s1-1b1" in text
    assert "not taken: action 'fly' is not in the action notation" in text
    assert game.pos.ply() == 1


def test_engine_seats_by_civilisation():
    pos = R.start_position(4, 1)
    assert parse_engine_seats("37", pos) == {1, 3}
    assert parse_engine_seats("all", pos) == {0, 1, 2, 3}
    assert parse_engine_seats("", pos) == set()
    with pytest.raises(ValueError, match="no civilisation in play"):
        parse_engine_seats("2", pos)
