"""Revision B on the virtual board: the real firmware under MicroPython reads the scan's ADC sums
('G' frames) from the field model, through its HAL logic, level scanner and tracker. The moves
revision A cannot see (the test_cargocube_sim_resolve scenario: an activation onto a stack,
then a move from stack to stack) are taken with no button."""

import pytest

from picotarget import TARGETS, require
from shared_rules.cargocube import rules as cc
from shared_rules.geometry import cell_name
from cargoboard.sim import REVB_HEAP
from cargoboard.games.cargocube.hallfield import Noise
from cargoboard.sim.script import run_script

SCENARIO = ("d4w", "c4n")  # onto c4 (only d4 empties), then c4's top onto c5 (nothing empties)


def _script(pos, expect_each):
    lines = ["new-game cargocube polygon SN"]
    for text in SCENARIO:
        a = pos.parse_action(text)
        lines += ["lift " + cell_name(a[1]), "place " + cell_name(a[3])]
        pos.push(a)
        if expect_each:
            lines.append("expect " + pos.notation())
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("target", TARGETS)
def test_moves_revision_a_cannot_see_are_taken_with_no_button(tmp_path, target):
    """On the unix port and on the emulated RP2040, where `deploy --rev b`'s build scans the
    emulator's analog front end (sim/pico/devices.mjs) with its viper loop on the ADC."""
    require(target)
    pos = cc.start_position(2)
    path = tmp_path / "revb.txt"
    path.write_text(_script(pos, True))
    lines = []
    kw = {"heapsize": REVB_HEAP} if target == "unix" else {}
    status = run_script(str(path), out=lines.append, revision="B", noise=Noise(shift_mm=0.5),
                        target=target, **kw)
    text = "\n".join(lines)
    assert status == 0, text
    assert "ok; 0 button press(es); 0 firmware error event(s)" in text
    assert "auto d4w" in text and "auto c4n" in text


# «Пирамида» as test_cargocube_sim_expansions plays it, ending with a spiral turn: the script's
# `turn` turns the stack's magnets where it stands (nothing is lifted), and the board reads the
# turn from the cells around it. Then the turned cube is rolled on: the world's magnets and the
# board's tracked faces must still agree.
PYRAMID_TURN = ("d4w", "b1@e2", "K@e2", "end", "c9n", "end", "i3w", "i1@b4", "c4w^b1", "end",
                "d9n", "end", "g3w", "j1@h2", "h3s", "h2cw")


def test_a_scripted_spiral_turn_is_taken_with_no_button(tmp_path):
    from cargoboard.games.cargocube.scriptgen import action_lines
    pos = cc.start_position(2, cards="pyramid")
    lines = ["new-game cargocube polygon SN pyramid"]
    for text in PYRAMID_TURN + ("h2e",):
        a = pos.parse_action(text)
        lines += action_lines(pos, a)
        pos.push(a)
        lines.append("resolve " + pos.notation())
    lines.append("expect " + pos.notation())
    assert "turn h2 cw" in lines
    path = tmp_path / "spiral.txt"
    path.write_text("\n".join(lines) + "\n")
    out = []
    status = run_script(str(path), out=out.append, revision="B", noise=Noise(shift_mm=0.5),
                        heapsize=REVB_HEAP)
    text = "\n".join(out)
    assert status == 0, text[-3000:]
    assert "evt auto h2cw" in text and "evt auto h2e" in text, text[-3000:]
    assert "0 firmware error event(s)" in text


# A «Пирамида» position (4 players' cards in play) whose j8 (a cube on an acceleration card)
# reads next to an ADC spike: its field differs by a few hundredths of a mT every few frames.
JITTER = "d1=*wS.21,f1=KS.41,c2=3B,d2=*uS,e2=*sN,f2=*sS,g2=*uN,h2=3B,j2=*cS,b3=*sN,d3=B1,e3=B1,f3=B1,i3=B1,c4=*=N,d4=B1,e4=B1,f4=B1.4O,g4=B1,h4=B1,i4=B1,i5=B1,c6=1O,d6=1O,e6=21,g6=*aS,h6=B1.1O,j6=21,c7=B1,d7=B1,f7=*sS,g7=O3,h7=B1,i7=B1,c8=*pN,d8=B1,f8=B1,i8=B1,j8=*aN.O1,b9=*pS,c9=B1,d9=B1.2O,e9=*sS,f9=B1.14,g9=B1.1O,h9=B1,j9=*sN,e10=1O,i10=*wN,f11=KN_SN_S_1"


def _run_revb(tmp_path, lines):
    path = tmp_path / "revb.txt"
    path.write_text("\n".join(lines) + "\n")
    out = []
    status = run_script(str(path), out=out.append, revision="B", noise=Noise(shift_mm=0.5),
                        heapsize=REVB_HEAP)
    return status, "\n".join(out)


def test_a_start_takes_a_jittering_cell_as_it_reads(tmp_path):
    """The game starts while j8's field still moves: its baseline is what it reads then, not
    its field before the pieces were put down (a step of a whole cube no move explains: the
    board saw no move after it, and a missed move asked for was the wrong one)."""
    pos = cc.Position.parse(JITTER.replace("_", " "))
    a = pos.parse_action("f1n")  # the cube on S's keeper onto the springboard card on f2
    pos.push(a)
    status, text = _run_revb(tmp_path, ["new-game cargocube position=" + JITTER,
                                        "lift f1", "place f2", "expect " + pos.notation()])
    assert status == 0, text[-3000:]
    assert "evt auto f1n" in text and "0 button press(es)" in text, text[-3000:]


def test_a_missed_move_asked_for_is_not_taken_on_a_cells_jitter(tmp_path):
    """Nothing moved; the player presses confirm (a missed move?) and the board shows its
    guess. j8's jitter is no move: the guess stays shown, not taken (it was, within a second:
    a move nobody made)."""
    status, text = _run_revb(tmp_path, ["new-game cargocube position=" + JITTER, "wait 500",
                                        "press confirm", "wait 1000", "send history"])
    assert status == 0, text[-3000:]
    assert "evt state asking" in text and "evt confirm" not in text, text[-3000:]
    assert text.splitlines()[-2].strip() == "ok", text[-3000:]


# «Бастион» with the walking teleport, 2 players: the teleport on g8 (on a cube) is moved onto
# the 2-stack on h8. Its lift shows (the board waits, a move begun); its landing on the third
# level shows too little to be taken.
TELEPORT_ON_STACKS = "b1=*xS,f1=KS,h1=*aS,i1=*hS,j1=*vS,f2=3B,c3=B1,d3=B1,e3=B1,g3=B1,h3=B1,i3=B1,c4=B1,d4=B1,e4=B1,f4=B1.21,g4=B1,h4=B1,j4=*sS,c5=B1,d5=*wN,e5=21.3B,f5=*sS,h5=B1.41,j5=*sN,c6=B1,e6=O2,g6=*wS,h6=B1,i6=B1,d7=B1,h7=B1,i7=B1,b8=*xN,c8=B1,d8=*sS,e8=B1,f8=B1,g8=B1.T,h8=B1.2B,i8=B1,c9=B1,d9=B1,e9=B1,f9=B1,g9=B1,h9=B1,i9=B1,j9=*sN,b11=*vN,c11=*hN,d11=*aN,e11=*sN.KN SN N 1b"


def test_a_move_seen_begun_is_offered_first_when_the_player_says_it_was_made(tmp_path):
    """The player presses confirm (the board has not taken the move): of the moves onto and off
    stacks, which all fit "no occupancy changed", the one the board saw begin (the teleport
    lifted off g8) is shown first, so confirm takes it. It was shown last of 16 (hint order)."""
    pos = cc.Position.parse(TELEPORT_ON_STACKS)
    pos.push(pos.parse_action("Te"))
    assert pos.notation() == "b1=*xS,f1=KS,h1=*aS,i1=*hS,j1=*vS,f2=3B,c3=B1,d3=B1,e3=B1,g3=B1,h3=B1,i3=B1,c4=B1,d4=B1,e4=B1,f4=B1.21,g4=B1,h4=B1,j4=*sS,c5=B1,d5=*wN,e5=21.3B,f5=*sS,h5=B1.41,j5=*sN,c6=B1,e6=O2,g6=*wS,h6=B1,i6=B1,d7=B1,h7=B1,i7=B1,b8=*xN,c8=B1,d8=*sS,e8=B1,f8=B1,g8=B1,h8=B1.2B.T,i8=B1,c9=B1,d9=B1,e9=B1,f9=B1,g9=B1,h9=B1,i9=B1,j9=*sN,b11=*vN,c11=*hN,d11=*aN,e11=*sN.KN SN S a"
    status, text = _run_revb(tmp_path, [
        "new-game cargocube position=" + TELEPORT_ON_STACKS.replace(" ", "_"),
        "lift g8", "place h8", "resolve " + pos.notation()])
    assert status == 0, text[-3000:]
    assert "resolved Te: 2 press(es)" in text, text[-3000:]


# A 2-player game with the base cards (the audit's cc_2p_cards_noT_101.txt, before its d5e): d5's
# lone cube goes onto the springboard card on e5, where it reads next to an ADC spike: its
# field differs by a few hundredths of a mT every 0.1-0.3 s.
ONTO_A_CARD = "g1=KS,b2=*wN,c2=3B,d2=34,e2=*sN,i2=*aS,c3=3B.34,e3=41,f3=3B,b4=*sS,d4=B1.41,g4=B1,h4=B1.1O.2O,i4=21,j4=*wS,c5=B1,d5=B1,e5=*sS,f5=*aN,g5=*sN,i5=B1.12,j5=2O,c6=*sN,d6=B1,e6=*sN,h6=B1,j6=*sS,b7=4B,c7=1O,d7=21,e7=34,g7=KN,h7=B1,i7=43,c8=3B,f8=3B,h8=12,i8=O3,b9=O1,e9=1O,f9=1B.4O,g9=B1.41,i9=B1,c10=3O,d10=3B,e10=1O,j10=*sS_SN_N_a"


def test_a_move_is_taken_settle_ms_after_the_hand_whatever_its_cell_jitters(tmp_path):
    """d5e lands on a cell that jitters: the board takes it SETTLE_MS (0.4 s) after the cube was
    put down, as on revision A. (Each reading restarted the wait: it took the move 1.2 s
    later, just as the player, having waited 1 s, said with `confirm` that a move was missed,
    so that the next lift took a move nobody made.)"""
    status, text = _run_revb(tmp_path, ["new-game cargocube position=" + ONTO_A_CARD,
                                        "lift d5", "place e5", "wait 400", "send history"])
    assert status == 0, text[-3000:]
    assert text.splitlines()[-2].strip() == "ok d5e", text[-3000:]


def test_a_question_opened_while_a_move_settles_stays_until_answered(tmp_path):
    """The player presses confirm (a missed move?) while the board still lets f1n settle: the
    question stays, f1n shown first, and confirm takes it. (The wait went on under the
    question: 0.3 s later the board took f1n and closed the question, and the player's next
    press, meant for it, asked for another move.)"""
    status, text = _run_revb(tmp_path, ["new-game cargocube position=" + JITTER, "lift f1",
                                        "place f2", "press confirm", "wait 1000",
                                        "send state", "press confirm", "send history"])
    assert status == 0, text[-3000:]
    assert "evt auto" not in text, text[-3000:]
    lines = [x.strip() for x in text.splitlines()]
    assert "ok state=asking diff=- actions=0" in lines, text[-3000:]
    assert "evt confirm f1n" in text and lines[-2] == "ok f1n", text[-3000:]


# Two 2-stacks beside a lone cube, S to move with 2 actions: c5's top onto d5 (c5e), which
# revision B takes with no button, then e5's top onto d5 (e5w).
BESIDE_STACKS = "c5=B1.B1,d5=B1,e5=B1.B1,f1=KS,f11=KN_SN_S_2"


def _stray_confirm_lines(wait_ms):
    pos = cc.Position.parse(BESIDE_STACKS.replace("_", " "))
    pos.push(pos.parse_action("c5e"))
    after_first = pos.notation()
    for text in ("e5w", "c5w"):  # then N rolls c5's lone cube west
        pos.push(pos.parse_action(text))
    # e5w's landing on the third level is too small to see: the board waits, and asks when
    # c5w comes, e5w first (as with no stray press): the player's `confirm` takes both
    return ["new-game cargocube position=" + BESIDE_STACKS, "lift c5", "place d5",
            "expect " + after_first, "press confirm", "wait %d" % wait_ms, "send state",
            "lift e5", "place d5", "wait 1000", "lift c5", "place b5", "wait 1000",
            "press confirm", "expect " + pos.notation()]


def test_a_stray_confirm_after_a_move_taken_takes_nothing(tmp_path):
    """The player presses `confirm` after a move onto a stack, as revision A asks, but the
    board took it itself and nothing has moved since: the board shows that move as taken
    (`evt taken`) and offers nothing, so neither playing on nor waiting takes a move (the
    press offered d5e, and playing on or 3 s took it: a move nobody made, nothing red). The
    moves played are then read as with no press."""
    for wait_ms in (300, 3500):
        status, text = _run_revb(tmp_path, _stray_confirm_lines(wait_ms))
        assert status == 0, text[-3000:]
        assert "evt auto c5e" in text and "evt taken c5e" in text, text[-3000:]
        assert "ok state=idle diff=- actions=1" in text, text[-3000:]
        assert "evt confirm d5e" not in text, text[-3000:]
        assert "evt confirm e5w" in text and "2 button press(es)" in text, text[-3000:]


def test_a_second_confirm_offers_the_moves_the_board_may_have_missed(tmp_path):
    """A move whose steps stay within the noise (a third level) changes nothing the board can
    see: the first `confirm` shows the last move taken, the second offers the missed moves."""
    lines = _stray_confirm_lines(300)[:5] + ["wait 500", "press confirm", "wait 300",
                                              "send candidates"]
    status, text = _run_revb(tmp_path, lines)
    assert status == 0, text[-3000:]
    assert "evt taken c5e" in text and "state=asking" in text.splitlines()[-2], text[-3000:]


def test_a_confirm_pressed_twice_in_haste_is_one_press(tmp_path):
    """Two presses 100 ms apart (in haste, or a bounce) are one: the second came before anyone
    could read the green. It offered d5e, and 3 s later the board took it."""
    lines = _stray_confirm_lines(300)[:5] + ["wait 100", "press confirm", "wait 4000",
                                              "send history", "send state"]
    status, text = _run_revb(tmp_path, lines)
    assert status == 0, text[-3000:]
    assert "evt confirm" not in text and "ok state=idle diff=- actions=1" in text, text[-3000:]


def test_a_stray_confirm_after_the_turn_ended_takes_nothing(tmp_path):
    """`end`, then `confirm` out of habit with nothing moved: the turn's end is shown taken
    (the corners green) and nothing is offered (the next player's e5w was, and 3 s later the
    board took it: an activation nobody made)."""
    lines = _stray_confirm_lines(300)[:2] + ["place d5", "wait 200", "press end", "wait 500",
                                              "press confirm", "wait 4000", "send history"]
    status, text = _run_revb(tmp_path, lines)
    assert status == 0, text[-3000:]
    assert "evt taken end" in text and "evt confirm" not in text, text[-3000:]
    assert text.splitlines()[-2].strip() == "ok c5e end", text[-3000:]


def test_resolve_asks_again_when_the_board_shows_its_last_move_taken(tmp_path):
    """The script's `resolve` presses what a player would: `confirm` shows the move last taken
    (nothing moved since), so it presses `confirm` again for the moves the board may have
    missed (it gave up: "position unreachable from the candidates (none)")."""
    pos = cc.Position.parse(BESIDE_STACKS.replace("_", " "))
    for text in ("c5e", "d5e"):
        pos.push(pos.parse_action(text))
    lines = _stray_confirm_lines(300)[:4] + ["resolve " + pos.notation()]
    status, text = _run_revb(tmp_path, lines)
    assert status == 0, text[-3000:]
    assert "evt taken c5e" in text and "resolved d5e: 3 press(es)" in text, text[-3000:]


def test_a_question_left_open_and_the_move_after_it_are_taken_under_heavy_bumps(tmp_path):
    """The finding of stop 38 (still so at 40): 30 % bumps, bottom cubes shifting up to 1 mm.
    S's activation e3s is made with a stack nudged beside it, so the board asks about it; the
    player plays on (Kn) without answering. e3s followed by Kn is the one reading of the
    board: both are taken, no button (Kn read red)."""
    path = tmp_path / "bumps.txt"
    path.write_text("\n".join(["new-game cargocube polygon SN cards", "slide e3 e2",
                               "wait 1000", "send state", "slide f1 f2", "wait 1000",
                               "send history", "send state"]) + "\n")
    out = []
    status = run_script(str(path), out=out.append, revision="B",
                        noise=Noise(shift_mm=1.0, bump_rate=0.3), heapsize=REVB_HEAP)
    text = "\n".join(out)
    assert status == 0, text[-3000:]
    replies = [x.strip() for x in text.splitlines() if x.strip().startswith("ok ")]
    assert replies == ["ok state=asking diff=e2,e3 actions=0", "ok e3s Kn",  # the question
                       "ok state=idle diff=- actions=2"], text[-3000:]
    assert "evt state mismatch" not in text and "0 button press(es)" in text, text[-3000:]
