"""КУБитва on the command line: `cargoboard perft/legal/show --game kubitva` (console script
from the venv's bin/), with the map words, the divide, the scores and the result, and one-line
errors for bad positions and illegal actions."""

import pytest

from kubitva_positions import ARENA
from clirun import run

# S's barracks on h4 faces N's base wall h7; S has 20 for a super rocket (test_kubitva_rulings)
SIEGE = (".......a./......aqa/.......a./........./........./......bmb/.a.....b./aqa....../"
         ".a....... 9N/9N/9N/9N/9S/9S/9S/9S/9S S 20,0 1/60")


@pytest.mark.parametrize("position,depth,count", [
    ("board", 0, 1),
    ("board", 1, 13),
    ("board", 2, 184),
    ("full", 2, 599),
    (ARENA, 1, 27),
    (SIEGE, 2, 0 + 1),  # the rocket ends the game; after `end` N (no units) can only end
])
def test_perft(position, depth, count):
    proc = run("perft", "--game", "kubitva", position, str(depth))
    assert proc.stdout.splitlines()[-1] == str(count) and proc.stderr == ""


def test_perft_divide_lists_every_first_action():
    proc = run("perft", "--game", "kubitva", "board", "2", "--divide")
    lines = proc.stdout.splitlines()
    assert lines[-1] == "184"
    assert len(lines) == 14 and lines[0] == "c4n 12" and lines[-2] == "end 13"


def test_legal():
    proc = run("legal", "--game", "kubitva", SIEGE)
    assert proc.stdout.splitlines() == ["K@h4/h5", "end"]


def test_show_scores_and_result():
    proc = run("show", "--game", "kubitva", SIEGE, "K@h4/h5")
    lines = proc.stdout.splitlines()
    assert lines[0].split("/")[2] == "........." and " S 0,0 1/60" in lines[0]  # h7 is gone
    assert lines[1:] == ["scores S=45 N=36", "over, winners S"]
    proc = run("show", "--game", "kubitva", "board", "c4n", "c5n", "end")
    assert proc.stdout.splitlines()[1:] == ["scores S=60 N=61"]
    assert " N 0,0 2/60" in proc.stdout


@pytest.mark.parametrize("args,message,status", [
    (["perft", "--game", "kubitva", "bogus", "1"], "5 fields", 1),
    (["legal", "--game", "kubitva", ARENA.replace(" S 40,40", " Q 40,40")], "side to move", 1),
    (["show", "--game", "kubitva", "board", "c4s"], "not free", 1),
    (["show", "--game", "kubitva", "board", "end", "c4n"], "holds no unit of N", 1),
    (["legal", "--game", "kubitva", "board", "--players", "3"], "cargocube only", 2),  # usage
    (["perft", "--game", "kubitva", "board", "-1"], "DEPTH", 2),
    # '²' is a digit to CPython's str.isdigit, not to int(): it said "invalid literal"
    (["legal", "--game", "kubitva", SIEGE.replace("20,0", "2²,0")], "treasuries", 1),
    (["legal", "--game", "kubitva", SIEGE.replace("1/60", "1/6²")], "turn", 1),
    (["legal", "--game", "cephalopod", "5x²"], "position", 1),
])
def test_errors_are_one_line(args, message, status):
    proc = run(*args, check_rc=status)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cargoboard: error: ") and message in lines[0]
