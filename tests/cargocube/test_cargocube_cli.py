"""The `cargoboard` console script (from the venv's bin/) for Cargocube's rules, the default
game: perft, legal, show, errors.

Expected counts and action lists are worked out by hand from the rulings page (see
test_cargocube_rules_rulings.py for the derivations of the polygon perft numbers).
"""

import re

import pytest

from clirun import run

POLYGON_CELLS = ["c3", "d3", "e3", "f3", "g3", "h3", "i3", "c4", "d4", "e4", "f4", "g4", "h4",
                 "i4", "c5", "d5", "h5", "i5", "c6", "d6", "h6", "i6", "c7", "d7", "h7", "i7",
                 "c8", "d8", "e8", "f8", "g8", "h8", "i8", "c9", "d9", "e9", "f9", "g9", "h9",
                 "i9"]


@pytest.mark.parametrize("position,depth,count", [
    ("e5=B1 SN S a", 0, 1),
    ("e5=B1 SN S a", 1, 4),
    ("e5=B1 SN S a", 2, 4),
    ("e5=B1 SN S a", 3, 0),  # N cannot activate: the game is over
    ("e5=21,b11=41 SN S a", 2, 0),
    ("d4=21.1O,e4=*wS,f4=*wN SN S 2", 1, 19),
    ("polygon", 1, 160),
    ("polygon", 2, 1120),
])
def test_perft_prints_count_on_last_line(position, depth, count):
    proc = run("perft", position, str(depth))
    lines = proc.stdout.splitlines()
    assert lines and lines[-1] == str(count)
    assert proc.stderr == ""


@pytest.mark.parametrize("players,extra,count", [
    (3, [], 1120), (4, [], 1120), (2, ["--cards"], 40240),
])
def test_perft_polygon_players_and_cards(players, extra, count):
    proc = run("perft", "polygon", "2", "--players", str(players), *extra)
    assert proc.stdout.splitlines()[-1] == str(count)


def test_perft_depth_is_capped_with_a_clear_message():
    """`perft polygon 1000` ended in a RecursionError traceback (issue 18): depths up to the
    cap run (here one whose game ends first: 0 sequences), deeper ones are one clear line."""
    proc = run("perft", "e5=B1 SN S a", "100")
    assert proc.returncode == 0 and proc.stdout.splitlines() == ["0"], proc.stderr
    for depth in ("1000", "101", "-1"):
        proc = run("perft", "polygon", depth, check_rc=2)  # a usage error
        assert proc.stdout == ""
        assert proc.stderr == ("cargoboard: error: DEPTH must be 0..100, not %s (perft counts "
                               "every sequence of DEPTH actions: it grows exponentially with "
                               "the depth)\n" % depth)


def test_perft_divide_lists_each_action_then_total():
    proc = run("perft", "e5=B1 SN S a", "2", "--divide")
    lines = proc.stdout.splitlines()
    assert lines[-1] == "4"
    assert set(lines[:-1]) == {"e5n 1", "e5e 1", "e5s 1", "e5w 1"}


def test_legal_one_action_per_line():
    proc = run("legal", "d5=21.1O,e5=*wS SN S 2")
    lines = proc.stdout.splitlines()
    hops = {"d6", "e6", "f6", "f5", "f4", "e4", "d4", "d5"}
    assert len(lines) == len(set(lines))
    assert set(lines) == {"d5n", "d5s", "d5w", "end"} | {"d5e/" + t for t in hops}
    assert proc.stdout.endswith("\n")


def test_legal_game_over_prints_nothing():
    proc = run("legal", "e5=21,b11=41 SN S a")
    assert proc.stdout == ""


def test_legal_polygon_three_players():
    proc = run("legal", "polygon", "--players", "3")
    lines = proc.stdout.splitlines()
    assert len(lines) == 160
    assert set(lines) == {c + d for c in POLYGON_CELLS for d in "nesw"}
    assert all(re.fullmatch(r"[c-i][3-9][nesw]", line) for line in lines)


def test_show_polygon_three_players():
    # Options before the positionals: argparse cannot take ACTIONs after `--players 3`.
    proc = run("show", "--players", "3", "polygon", "e4s", "end")
    lines = proc.stdout.splitlines()
    fields = lines[0].split()
    assert fields[1:] == ["SWN", "W", "a"]
    cells = set(fields[0].split(","))
    assert {"f1=KS", "a6=KW", "f11=KN", "e3=B1.3B"} <= cells
    assert len(cells) == 39 + 3
    assert not any(c.startswith("e4=") or c.startswith("k") for c in cells)
    assert lines[1] == "scores S=0 W=0 N=0"


def test_show_reports_game_over_and_winners():
    proc = run("show", "e5=21,b1=41,b11=41 SN S a")
    assert proc.stdout.splitlines() == ["b1=41,e5=21,b11=41 SN S a", "scores S=4 N=4",
                                        "over, winners SN"]


@pytest.mark.parametrize("args", [
    ["perft", "e5=B1 SN", "1"],
    ["perft", "a1=B1 SN S a", "1"],
    ["perft", "e5=13 SN S a", "2"],
    ["legal", "e5=B1,e5=B1 SN S a"],
    ["legal", "e5=B1 NS S a"],
    ["legal", "f6=B1 SN S a"],
    ["show", "e5=B1 SN S a", "e5q"],
    ["show", "e5=B1 SN S a", "end"],
    ["show", "e5=B1 SN S a", "e5n", "e6n"],
    ["perft", "e5=B1 SN S a", "-1"] + ["USAGE"],
    ["legal", "e5=B1 SN S a", "--cards"] + ["USAGE"],
    ["legal", "e5=B1 SN S a", "--teleport"] + ["USAGE"],
    ["perft", "polygon", "1", "--cards", "--expansion", "both"] + ["USAGE"],
    ["legal", "e5=B1.!Q SN S a"],
    ["show", "f1=KS,d5=*uS,f11=KN SN S 2", "K@d6"],
])
def test_errors_exit_1_with_one_line_and_no_traceback(args):
    """Errors exit 1; options out of range or not fitting together are usage errors and exit 2,
    as argparse's own (README: Commands)."""
    usage = args[-1] == "USAGE"
    proc = run(*(args[:-1] if usage else args), check_rc=2 if usage else 1)
    assert proc.stdout == ""
    err = proc.stderr.splitlines()
    assert len(err) == 1, proc.stderr
    assert err[0].startswith("cargoboard: error: ") and len(err[0]) > len("cargoboard: error: ")
    assert "Traceback" not in proc.stderr


def test_malformed_position_error_names_the_problem():
    proc = run("legal", "a1=B1 SN S a", check_rc=1)
    assert "a1" in proc.stderr and "corner" in proc.stderr


@pytest.mark.parametrize("phase", ["ax", "2x", "5bx", "4b"])
def test_a_bad_phase_is_quoted_as_typed(phase):
    proc = run("perft", "d4=B1 SN S " + phase, "1", check_rc=1)
    assert "phase '%s'" % phase in proc.stderr, proc.stderr


def test_wrong_usage_exits_2():
    proc = run("perft", check_rc=2)
    assert "usage" in proc.stderr
    assert "Traceback" not in proc.stderr


# The expansions' starts: counts worked out by hand (tests/cargocube/cargocube_expansion_cases.py HAND_PERFT
# explains the terms).
@pytest.mark.parametrize("extra,count", [
    (["--expansion", "pyramid"], 1120 + 8 * 6520),
    (["--expansion", "bastion", "--players", "4"], 1120 + 6 * 6520 + 160 + 3),
    (["--teleport"], 1120 + 640),
    (["--players", "8"], 1120),
    (["--players", "8", "--expansion", "both", "--teleport"], None),
])
def test_perft_polygon_expansions_teleport_and_8_players(extra, count):
    proc = run("perft", "polygon", "2", *extra)
    if count is None:  # no hand count: at least it runs and agrees with the rules core
        from shared_rules.cargocube import rules as cc
        count = cc.perft(cc.start_position(8, cards="both", teleport=True), 2)
    assert proc.stdout.splitlines()[-1] == str(count)


def test_legal_lists_expansion_actions_in_their_notation():
    proc = run("legal", "f1=KS,c5=B1.B1,d5=*cS,e6=*pS.B1,g5=T,h2=2B.!S,f11=KN SN S 2")
    lines = proc.stdout.splitlines()
    # rolls (the catapult's targets n, e, s, w), no keeper steps (S controls the biohazard),
    # teleport moves, spiral turns, biohazard lifts and moves, end
    assert lines[:6] == ["c5n", "c5e^d11", "c5e^d1", "c5s", "c5w", "e6n"]
    assert "Kn" not in lines and "K@d5" not in lines
    assert ["Tn", "Te", "Ts", "Tw", "e6cw", "e6acw"] == [x for x in lines if x[0] == "T" or
                                                          x.endswith("cw")]
    assert "Hh2@b2" in lines and lines[-1] == "end"


def test_show_an_expansion_game_and_8_players():
    proc = run("show", "polygon", "--expansion", "bastion", "e3w", "j1@f1", "end")
    first = proc.stdout.splitlines()[0]
    assert "f1=XS" in first and "j1=" not in first and first.endswith(" SN S a")
    proc = run("show", "polygon", "--players", "8", "e3n", "end")
    lines = proc.stdout.splitlines()
    assert lines[0].endswith(" 12345678 2 a")
    assert lines[1] == "scores 1=0 2=0 3=0 4=0 5=0 6=0 7=0 8=0"
