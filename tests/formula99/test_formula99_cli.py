"""«Формула 99» on the command line: `cargoboard perft/legal/show --game formula99` with the
word `start` (--players, --level, --seed) or a position in the notation (console script from
the venv's bin/), and one-line errors with exit status 1."""

import pytest

from clirun import run


@pytest.mark.parametrize("args,count", [
    (["start", "3"], 1605),
    (["start", "3", "--players", "4", "--level", "2"], 37760),
    (["start", "2", "--players", "9", "--level", "3"], 1447),
    (["L1 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?", "1"], 9),
])
def test_perft(args, count):
    proc = run("perft", "--game", "formula99", *args)
    assert proc.stdout.splitlines()[-1] == str(count) and proc.stderr == ""


def test_perft_divide_sums():
    proc = run("perft", "--game", "formula99", "start", "3", "--divide")
    lines = proc.stdout.splitlines()
    assert lines[0] == "s1-1b1 1605" and lines[-1] == "1605"


def test_legal_and_show():
    proc = run("legal", "--game", "formula99", "L1 1:s,1b2:-:3 5:s,s:-:3 1a - d:- k:?")
    assert proc.stdout.splitlines() == ["1b2-1b3", "1b2-1r", "1b2-2b1", "1b2-2y1", "1b2-2b2",
                                        "1b2-2y2", "1b2-2b3", "1b2-2y3", "s1-1b1"]
    proc = run("show", "--game", "formula99", "start", "s1-1b1", "lay:3y1", "end")
    assert proc.stdout.splitlines() == ["L1 1:s,1b1:3y1=?:2 5:s,s:-:3 5a - d:- k:?",
                                        "scores 1=0 5=0"]


def test_seeded_start_is_the_full_view():
    proc = run("show", "--game", "formula99", "--seed", "42", "--players", "3", "start")
    line = proc.stdout.splitlines()[0]
    assert line.startswith("L1 1:s,s:-:") and line.endswith("/42/0")
    assert run("show", "--game", "formula99", "--seed", "42", "--players", "3",
               "start").stdout == proc.stdout


@pytest.mark.parametrize("args,message,status", [
    (["perft", "--game", "formula99", "start", "2", "--players", "12"], "2 to 9", 2),
    (["perft", "--game", "formula99", "start", "2", "--level", "4"], "1, 2 or 3", 2),
    (["perft", "--game", "formula99", "L1 1:s", "2"], "position needs", 1),
    (["show", "--game", "formula99", "start", "s1-1b2"], "not legal now", 1),
    (["perft", "--game", "formula99", "L1 1:s,s:-:3 5:s,s:-:3 1a - d:- k:?", "1",
      "--players", "3"], "apply to the word 'start'", 2),
    (["perft", "start", "1", "--level", "2"], "formula99 only", 2),
])
def test_errors_are_one_line(args, message, status):
    """Options out of range or not fitting together are usage errors (2), as argparse's own;
    a bad position or action is an error (1)."""
    proc = run(*args, check_rc=None)
    assert proc.returncode == status
    assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("cargoboard: error: ") and message in proc.stderr


@pytest.mark.parametrize("args,message", [
    (["--players", "12"], "--players: 2 to 9"),
    (["--seed", "-1"], "--seed: 0 to 2^31 - 1"),
    (["--samples", "0"], "--samples: 1 to 256"),
    (["--samples", "999999999"], "--samples: 1 to 256"),  # it played for ever
    (["--save", "s.xyz"], "--save s.xyz: the file's name must end in .json or .txt (the form "
                          "it is written in)"),
    (["--engine", "9"], "--engine 9: '9' is no civilisation in play (these play: 1, 5)"),
])
def test_play_options_out_of_range_are_usage_errors(args, message):
    """`play formula99 --players 12` exited 1 where `perft ... --players 12` exits 2 (the
    README: an option out of range is a usage error)."""
    proc = run("play", "formula99", "--seed", "7", *args, check_rc=2)
    assert (proc.stdout, proc.stderr) == ("", "cargoboard: error: %s\n" % message)


def test_play_help_example_watches_four_engines():
    """The help's example "--engine all --seed 7 (watch four engines)" played two: --players
    defaults to 2."""
    proc = run("play", "formula99", "--help")
    line = [x for x in proc.stdout.splitlines() if "watch four engines" in x]
    assert len(line) == 1 and "--players 4" in line[0] and "--engine all" in line[0], line
