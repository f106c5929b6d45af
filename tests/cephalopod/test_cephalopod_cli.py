"""Cephalopod on the host: `cargoboard perft/legal/show --game cephalopod`, `cargoboard cephalopod
paths/hint` (console script from the venv's bin/), the paths computation against a plain
enumeration and the published CodinGame cases, and the game store naming the seats w and b."""

import itertools
import random

import pytest

import codingame_cases
from cargoboard.games.cephalopod import paths as paths_mod
from cargoboard.store import GameRecord, Store
from shared_rules.cephalopod import rules as ce
from clirun import run


# -- perft / legal / show ------------------------------------------------------------------------

@pytest.mark.parametrize("position,depth,count", [
    ("5x5", 3, 13800),
    ("3x3", 4, 3256),
    ("3x5", 2, 210),
    (".w1./b1.b1/.w1. w", 1, 4 + 11),
    ("w1w1b1/b1w2b6/w1b1w1 b", 2, 0),
])
def test_perft(position, depth, count):
    proc = run("perft", "--game", "cephalopod", position, str(depth))
    assert proc.stdout.splitlines()[-1] == str(count) and proc.stderr == ""


def test_perft_divide():
    proc = run("perft", "--game", "cephalopod", ".w1./.../.b1. w", "1", "--divide")
    lines = proc.stdout.splitlines()
    assert lines[-1] == "7"
    assert "b2:b3,b1 1" in lines and "b2 1" not in lines


def test_legal_lists_captures():
    proc = run("legal", "--game", "cephalopod", ".w2./w3.w4/... b")
    assert proc.stdout.splitlines() == ["a1", "b1", "c1", "b2:b3,c2", "b2:b3,a2", "a3:b3,a2",
                                        "c3:c2,b3"]


def test_show_scores_with_w_and_b():
    proc = run("show", "--game", "cephalopod", "3x3", "a1", "c1", "a3", "c3", "b2", "b1:b2,a1")
    assert proc.stdout.splitlines() == ["w1.b1/.../.b2b1 w", "scores w=1 b=3"]
    proc = run("show", "--game", "cephalopod", "w1w6b1/b6.b6/w1b6w1 w", "b2")
    assert proc.stdout.splitlines()[1:] == ["scores w=5 b=4", "over, winners w"]


@pytest.mark.parametrize("args", [
    ["perft", "--game", "cephalopod", "..../... w", "1"],
    ["legal", "--game", "cephalopod", ".../.w9./... w"],
    ["show", "--game", "cephalopod", ".w1./.../.b1. w", "b2"],
    ["show", "--game", "cephalopod", "3x3", "b2", "b2"],
    ["cephalopod", "paths", "1", "5 5 5/0 0 5"],
    ["cephalopod", "paths", "1", "5 5 5/0 0 5/5 5 7"],
    ["cephalopod", "hint", "w1w1b1/b1w2b6/w1b1w1 b"],
])
def test_errors_exit_1_with_one_line(args):
    proc = run(*args, check_rc=1)
    err = proc.stderr.splitlines()
    assert proc.stdout == "" and len(err) == 1, proc.stderr
    assert err[0].startswith("cargoboard: error: ") and "Traceback" not in proc.stderr


def test_a_size_word_of_no_cephalopod_board_names_the_sizes():
    # `show 4x4` said the position needed 2 fields (an audit's finding)
    proc = run("show", "--game", "cephalopod", "4x4", check_rc=1)
    assert proc.stderr == ("cargoboard: error: board 4x4: Cephalopod is played on 5x5, 3x5 (or "
                           "5x3) and 3x3\n"), proc.stderr


@pytest.mark.parametrize("args", [
    ["cephalopod"], ["cephalopod", "paths"], ["cephalopod", "paths", "x", "000/000/000"],
    ["perft", "--game", "chess", "5x5", "1"],
])
def test_usage_errors_exit_2(args):
    proc = run(*args, check_rc=2)
    assert "usage" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("args", [
    ["legal", "--game", "cephalopod", "5x5", "--players", "3"],
    ["perft", "--game", "cephalopod", "5x5", "-1"],
    ["cephalopod", "paths", "-1", "000/000/000"],  # exit 1 before, where perft gave 2
    ["cephalopod", "hint", "5x5", "--depth", "0"],
    ["cephalopod", "hint", "3x3", "--depth", "999999999"],  # it searched for ever
])
def test_options_out_of_range_exit_2_with_one_line(args):
    proc = run(*args, check_rc=2)
    err = proc.stderr.splitlines()
    assert proc.stdout == "" and len(err) == 1 and err[0].startswith("cargoboard: error: ")


def test_hint_prints_a_legal_action():
    proc = run("cephalopod", "hint", ".w1./b1.b1/.w1. w")
    assert proc.stdout == "b2:c2,a2\n"  # takes both black dice


# -- paths ---------------------------------------------------------------------------------------

# The deeper official cases (around a second each) are run by bench/cephalopod/cephalopod.py rather than here.
OFFICIAL = codingame_cases.OFFICIAL[:codingame_cases.FAST]


@pytest.mark.parametrize("depth,rows,answer", OFFICIAL)
def test_paths_official_cases(depth, rows, answer):
    assert paths_mod.paths(depth, paths_mod.parse_rows(rows)) == answer


@pytest.mark.parametrize("depth,rows,answer", OFFICIAL[2:4])
def test_paths_cli_published_cases(depth, rows, answer):
    proc = run("cephalopod", "paths", str(depth), rows)
    assert proc.stdout == "%d\n" % answer
    # the rows as three words, as `paths --help` shows them (ROWS [ROWS ...]): refused before
    proc = run("cephalopod", "paths", str(depth), *rows.split("/"))
    assert proc.stdout == "%d\n" % answer, proc.stderr


def _enumerate(cells, depth):
    """Plain depth-first enumeration of every sequence (no memo, no symmetry)."""
    if depth == 0 or all(cells):
        return int("".join(map(str, cells)))
    total = 0
    for i in range(9):
        if cells[i]:
            continue
        r, c = divmod(i, 3)
        nb = [rr * 3 + cc for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))
              if 0 <= rr < 3 and 0 <= cc < 3 and cells[rr * 3 + cc]]
        groups = [g for k in range(2, len(nb) + 1) for g in itertools.combinations(nb, k)
                  if sum(cells[j] for j in g) <= 6]
        for g in groups or [()]:
            child = list(cells)
            for j in g:
                child[j] = 0
            child[i] = sum(cells[j] for j in g) if g else 1
            total += _enumerate(child, depth - 1)
    return total


@pytest.mark.parametrize("seed", range(12))
def test_paths_match_plain_enumeration(seed):
    rng = random.Random(seed)
    cells = [rng.choice([0, 0, 0, 1, 1, 2, 3, 5, 6]) for _ in range(9)]
    depth = rng.randint(0, 5 if cells.count(0) > 4 else 7)
    assert paths_mod.paths(depth, cells) == _enumerate(cells, depth) % (1 << 30), (cells, depth)


def test_paths_empty_board_and_full_board():
    assert paths_mod.paths(0, [0] * 9) == 0
    assert paths_mod.paths(1, [0] * 9) == 111111111
    assert paths_mod.paths(3, [0] * 9) == _enumerate([0] * 9, 3) % (1 << 30)
    full = [6, 1, 6, 1, 2, 1, 6, 1, 6]
    assert paths_mod.paths(30, full) == 616121616


def test_paths_is_the_rules_core_without_colour():
    """Same sum from the rules core's 3x3 legal actions (colours ignored)."""
    def total(pos, depth):
        if depth == 0 or pos.is_over():
            cells = pos.cells
            # Reading order: the top row (y = 2) first.
            return int("".join(str(cells[y * 3 + x] & 7) for y in (2, 1, 0) for x in range(3)))
        s = 0
        for a in pos.legal_actions():
            pos.push(a)
            s += total(pos, depth - 1)
            pos.pop()
        return s

    pos = ce.Position.parse("w1../.b2./w1.b3 w")
    cells = [1, 0, 0, 0, 2, 0, 1, 0, 3]
    for depth in range(5):
        assert paths_mod.paths(depth, cells) == total(pos, depth) % (1 << 30)


def test_parse_rows_forms():
    assert paths_mod.parse_rows("0 6 0/2 2 2/1 6 1") == [0, 6, 0, 2, 2, 2, 1, 6, 1]
    assert paths_mod.parse_rows("060/222/161") == [0, 6, 0, 2, 2, 2, 1, 6, 1]
    for bad in ("0 6 0/2 2 2", "0 6 0/2 2 7/1 6 1", "0 6/2 2 2/1 6 1", "abc/222/161"):
        with pytest.raises(ValueError):
            paths_mod.parse_rows(bad)


def test_lane_moves_agree_with_composition():
    rng = random.Random(3)
    for s in range(8):
        counts = [rng.randrange(1 << 30) for _ in range(8)]
        pk = sum(counts[t] << (64 * paths_mod.LANE_OF[t]) for t in range(8))
        moved = paths_mod.lanes(paths_mod._move_lanes(pk, s))
        for t in range(8):
            assert moved[paths_mod.COMPOSE[t][s]] == counts[t]


# -- store ---------------------------------------------------------------------------------------

def test_store_names_cephalopod_seats(tmp_path):
    start = ".../.../... w"
    pos = ce.Position.parse(start)
    actions = []
    while not pos.is_over():  # the first legal action each time: a whole game
        a = pos.legal_actions()[0]
        actions.append(pos.format_action(a))
        pos.push(a)
    rec = GameRecord("cephalopod", "3x3", "wb", start, actions)
    with Store(tmp_path / "games.sqlite") as store:
        gid = store.add(rec)
        row = store.db.execute("SELECT scores, winners, final FROM games WHERE id=?",
                               (gid,)).fetchone()
        assert store.get(gid).final_position().is_over()
    final = rec.final_position()
    assert row[2] == final.notation()
    sc = final.scores()
    assert row[0] == "w=%d b=%d" % (sc[0], sc[1])
    assert row[1] == "wb"[final.winners()[0]]


def test_game_files_name_cephalopod_seats():
    from cargoboard.export import gamefile

    start = ".../.../... w"
    pos = ce.Position.parse(start)
    actions = []
    while not pos.is_over():
        a = pos.legal_actions()[-1]
        actions.append(pos.format_action(a))
        pos.push(a)
    rec = GameRecord("cephalopod", "3x3", "wb", start, actions)
    data = gamefile.to_dict(rec)
    assert data["actions"][0]["seat"] == "w" and data["actions"][1]["seat"] == "b"
    for text, read in ((gamefile.to_json(rec), gamefile.from_json),
                       (gamefile.to_text(rec), gamefile.from_text)):
        back = read(text)
        assert (back.kind, back.seats, back.start, back.actions) == (
            "cephalopod", "wb", start, actions)
    assert "w=" in gamefile.to_text(rec) and "SWNE" not in gamefile.to_text(rec)
