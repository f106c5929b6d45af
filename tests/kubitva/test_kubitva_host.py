"""КУБитва on the host: the SVG diagram read back against the position (cubes, land, border,
buildings, treasuries, the last action of every kind), the exports (JSON, text, SVG, HTML), the
store and import round trip, the terminal replay, and `cargoboard play kubitva` played through
its stdin (two people, the engine, undo, mistakes, --save then import)."""

import io
import json
import random
import subprocess
import xml.etree.ElementTree as ET

import pytest

import mpy
from exportgames import parse_page, pieces_of
from kubitva_positions import ARENA
from cargoboard import cli
from cargoboard.export import cli as export_cli, diagram, gamefile, replay
from cargoboard.games.kubitva import draw
from cargoboard.export.html import game_html
from cargoboard.store import GameRecord, Store
from shared_rules.kubitva import engine as en
from shared_rules.kubitva import rules as kb
from clirun import cargoboard_exe

SVG = "{http://www.w3.org/2000/svg}"


def game(seed, start=kb.BOARD, actions=160, variant="board"):
    """A GameRecord of a seeded game: the engine's choices mixed with random ones."""
    rng = random.Random(seed)
    pos = kb.Position.parse(start)
    played = []
    while len(played) < actions and not pos.is_over():
        legal = pos.legal_actions()
        a = en.best_action(pos) if rng.random() < 0.7 else rng.choice(legal)
        played.append(pos.format_action(a))
        pos.push(a)
    return GameRecord("kubitva", variant, "SN", start, played, source="board-k",
                      source_game=seed + 1, played="2026-12-%02d" % (1 + seed))


@pytest.fixture(scope="module")
def games():
    out = [game(0), game(1, ARENA, 120, "arena"), game(2, actions=2000)]
    assert out[2].positions()[-1].is_over()
    return out


def by_kind(root, kind):
    return [e for e in root.iter() if e.get("data-kind") == kind]


def check_svg(text, pos, before=None, action=None):
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg" and root.get("data-position") == pos.notation()
    lands = {e.get("data-cell"): e.get("data-land") for e in by_kind(root, "cell")}
    assert lands == {pos.cell_name(c): draw.land_letter(pos.terr[c]) for c in range(pos.n)}
    cubes = {e.get("data-cell"): e for e in by_kind(root, "cube")}
    assert {k: e.get("data-cube") for k, e in cubes.items()} == {
        pos.cell_name(c): kb.cube_text(pos.cells[c]) for c in range(pos.n) if pos.cells[c]}
    for name, e in cubes.items():
        c = pos.parse_cell(name)
        if pos.cells[c] >= kb.WORKER:
            assert e.get("data-points") == str(pos.points[c])
    edges = set()
    for c in range(pos.n):
        for d in (0, 1):
            t = pos.nb[c * 4 + d]
            if t != kb.NONE and pos.terr[t] & 1 != pos.terr[c] & 1:
                edges.add("%s %s" % (pos.cell_name(c), pos.cell_name(t)))
    assert {e.get("data-between") for e in by_kind(root, "border")} == edges
    assert [(e.get("data-building"), e.get("data-door"), e.get("data-opening"))
            for e in by_kind(root, "building")] == [
        (draw.BUILDING_NAME[b[0]], pos.cell_name(b[1]), pos.cell_name(b[2]))
        for b in pos.buildings()]
    money = {e.get("data-seat"): int(e.get("data-value")) for e in by_kind(root, "treasury")}
    assert money == {"S": pos.treasury[0], "N": pos.treasury[1]}
    scores = {e.get("data-seat"): int(e.get("data-score")) for e in by_kind(root, "score")}
    assert scores == {"S": pos.scores()[0], "N": pos.scores()[1]}
    last = by_kind(root, "last-action")
    if action:
        assert [e.get("data-action") for e in last] == [action]
        a = before.parse_action(action)
        marks = [e.get("data-kind") for e in last[0].iter() if e.get("data-kind")][1:]
        code = a & 255
        if a == kb.END:
            assert marks == []
        elif code < kb.KILL:
            moved = [(e.get("data-from"), e.get("data-to")) for e in by_kind(last[0], "moved")]
            want = [(before.cell_name(a >> 8), before.cell_name(before.action_cell(a)))]
            cube = before.moved_cube(a)
            if cube:
                want.append((before.cell_name(cube[0]), before.cell_name(cube[1])))
            assert moved == want
        elif code < kb.FILL:
            assert marks == ["killed"]
        elif code < kb.BUY:
            assert sorted(e.get("data-cell") for e in by_kind(last[0], "filled")) == sorted(
                pos.cell_name(r) for r in before.rooms_of(a >> 8, before.nb[(a >> 8) * 4 +
                                                                           (code & 3)]))
        elif before.rocket_target(a) >= 0:
            assert marks == ["flight", "destroyed"]
            assert by_kind(last[0], "destroyed")[0].get("data-cell") == before.cell_name(
                before.rocket_target(a))
        else:
            assert marks == ["placed"]
    else:
        assert last == []
    return root


def test_diagram_module_for_the_kind():
    assert diagram.for_kind("kubitva") is draw


def test_svg_of_every_kind_of_action(games):
    seen = set()
    for rec in games:
        positions = rec.positions()
        for n in range(1, len(positions)):
            text = rec.actions[n - 1]
            kind = text[0] + "@" if "@" in text else ("kill" if "x" in text[1:] else
                                                     ("end" if text == "end" else "step"))
            if kind in seen and n % 25:
                continue
            seen.add(kind)
            svg = export_cli.render(rec, "svg", n, positions)
            root = check_svg(svg, positions[n], positions[n - 1], text)
            cap = by_kind(root, "caption")[0].text
            assert cap.startswith("ply %d of %d" % (n, len(rec.actions)))
    assert {"step", "end", "i@", "m@", "s@"} <= seen
    check_svg(draw.svg(kb.start_position("full")), kb.start_position("full"))


def test_svg_marks_a_rocket_and_a_kill():
    from test_kubitva_cli import SIEGE
    pos = kb.Position.parse(SIEGE)
    after = pos.copy()
    after.push(after.parse_action("K@h4/h5"))
    root = check_svg(draw.svg(after, pos, "K@h4/h5"), after, pos, "K@h4/h5")
    assert by_kind(root, "caption")[0].text.endswith("game over (base breached), winner S")
    pos = kb.Position.parse(ARENA)
    after = pos.copy()
    after.push(after.parse_action("e6xf6"))
    check_svg(draw.svg(after, pos, "e6xf6"), after, pos, "e6xf6")


def test_text_and_json_round_trip(games):
    for rec in games:
        positions = rec.positions()
        for text, read in ((gamefile.to_text(rec, positions), gamefile.from_text),
                           (gamefile.to_json(rec, positions), gamefile.from_json)):
            back = read(text, "g")
            assert back.actions == rec.actions and back.start == rec.start
            assert back.kind == "kubitva" and back.seats == "SN"
    doc = json.loads(gamefile.to_json(games[2]))
    assert doc["final"]["over"] and doc["final"]["winners"] in ("S", "N", "SN")
    assert set(doc["actions"][0]["scores"]) == {"S", "N"}


def test_html_replay_holds_every_step(games):
    rec = games[1]
    positions = rec.positions()
    page = parse_page(game_html(rec, positions))
    assert page.urls == [] and sorted(page.steps) == list(range(len(rec.actions) + 1))
    data = json.loads(page.scripts[0][1])
    assert [s["position"] for s in data["steps"]] == [p.notation() for p in positions]
    for n in (0, 1, len(positions) // 2, len(positions) - 1):
        built = pieces_of(data["frames"], data["fragments"], n)
        assert built == "".join(f for _, f in sorted(draw.pieces(positions[n]).items()))


def _kinds_drawn(monkeypatch):
    """The list the drawing's tags append their data-kind to from now on (the test's end
    puts draw._tag back)."""
    drawn = []
    tag = draw._tag
    monkeypatch.setattr(draw, "_tag", lambda name, attrs, body=None: drawn.append(
        dict(attrs).get("data-kind")) or tag(name, attrs, body))
    return drawn


def _forget(*caches):
    """Empty the drawing's caches named: what follows is drawn afresh."""
    for f in caches:
        getattr(draw, f).cache_clear()


def test_the_replay_draws_each_land_once(games, monkeypatch):
    """The board under the pieces (each cell's land, the border) depends on the lands only,
    which stay for many actions: the replay page drew it at every step, 40 % of a 486-action
    game's 2.5 s page (web43's audit). Now once for each land the game has, and each land's
    cells once for all its lands (kb43: the game's 91 lands have 11 011 cells, 251 different
    ones), the page the same (its SVG of each step is the export's: tests/test_export.py,
    test_web_archive.py)."""
    drawn = _kinds_drawn(monkeypatch)
    forget = lambda: _forget("_background", "_land_cell", "_border_edge")  # the lands drawn before
    for rec in games[:2]:
        positions = rec.positions()
        forget()
        del drawn[:]
        page = game_html(rec, positions)
        lands = {(p.rows, p.cols, bytes(p.terr)) for p in positions}
        cells = {(rows, cols, c, terr[c]) for rows, cols, terr in lands
                 for c in range(rows * cols)}
        assert drawn.count("cell") == len(cells), (rec.variant, len(cells))
        assert len(lands) < len(positions) / 2
        assert len(cells) < sum(rows * cols for rows, cols, _ in lands) / 2
        forget()
        assert game_html(rec, positions) == page  # drawn afresh: the same


def test_a_long_games_page_made_again_draws_no_land_again():
    """`serve` makes a game's page again (the game changed, its page no longer kept) with what
    was drawn kept: the board under the pieces of each land (draw._background) kept room for 32
    lands, and a page draws them in the order played, so the engine's 486-action game's 91
    lands were each drawn again at every page (the least recently used dropped just before it
    was wanted). Now the whole game's lands stay, bounded (draw.LANDS_KEPT)."""
    pos = kb.Position.parse(kb.BOARD)
    played = []
    while not pos.is_over() and len(played) < 600:
        a = en.best_action(pos)
        played.append(pos.format_action(a))
        pos.push(a)
    rec = GameRecord("kubitva", "board", "SN", kb.BOARD, played)
    positions, actions = rec.replay()
    lands = {(p.rows, p.cols, bytes(p.terr)) for p in positions}
    assert 80 < len(lands) <= draw.LANDS_KEPT <= 256, len(lands)
    _forget("_background")
    page = game_html(rec, positions, actions)
    assert draw._background.cache_info().misses == len(lands)
    assert game_html(rec, positions, actions) == page
    assert draw._background.cache_info().misses == len(lands)  # none drawn again


def test_the_replay_draws_each_cube_and_building_once(games, monkeypatch):
    """A cube's picture depends on its cell, the cube and a unit's points only, a building's on
    itself and its rooms: the replay page drew every cube and building of every step (twice a
    step until kb43), 22 719 cubes for 246 different ones in a 486-action game. Now each
    different one once, the page the same bytes as drawn afresh."""
    drawn = _kinds_drawn(monkeypatch)
    forget = lambda: _forget("_cube_drawn", "_building_drawn", "_background")  # drawn before
    for rec in games[:2]:
        forget()
        positions = rec.positions()
        del drawn[:]
        page = game_html(rec, positions)
        cubes = {(c, p.cells[c], p.points[c] if p.cells[c] >= kb.WORKER else 0)
                 for p in positions for c in range(p.n) if p.cells[c]}
        buildings = {(b, tuple(p.rooms_of(b[1], b[2]))) for p in positions
                     for b in p.buildings()}
        assert drawn.count("cube") == len(cubes), rec.variant
        assert drawn.count("building") == len(buildings), rec.variant
        assert len(cubes) < sum(len(draw.pieces(p)) for p in positions) / 10
        forget()
        assert game_html(rec, positions) == page  # drawn afresh: the same


def test_terminal_replay(games):
    rec = games[0]
    rec.id = 3
    out = io.StringIO()
    assert replay.run(rec, out) == 0
    text = out.getvalue()
    assert "step 1 of %d: S played %s" % (len(rec.actions), rec.actions[0]) in text
    assert draw.TEXT_LEGEND.split(";")[0] in text.replace("\n", " ")


def test_store_export_import_commands(games, tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    with Store(db) as st:
        gid = st.add(games[2])
    for suffix in ("svg", "html", "txt", "json"):
        assert cli.main(["export", str(gid), "--db", str(db), "-o",
                         str(tmp_path / ("g." + suffix))]) == 0
    positions = games[2].positions()
    check_svg((tmp_path / "g.svg").read_text(), positions[-1], positions[-2],
              games[2].actions[-1])
    capsys.readouterr()
    for suffix in ("txt", "json"):
        assert cli.main(["import", str(tmp_path / ("g." + suffix)), "--db",
                         str(tmp_path / ("h%s.sqlite" % suffix))]) == 0
        assert "imported" in capsys.readouterr().out
        with Store(tmp_path / ("h%s.sqlite" % suffix)) as st:
            back = st.get(1)
        assert back.actions == games[2].actions and back.kind == "kubitva"
        assert back.final_position().notation() == positions[-1].notation()


# -- cargoboard play kubitva -------------------------------------------------------------------

def play(*args, stdin=""):
    return subprocess.run([cargoboard_exe(), "play", "kubitva", *args], input=stdin,
                          capture_output=True, text=True, timeout=300, cwd=str(mpy.REPO_ROOT))


def test_play_two_people_with_mistakes_hint_and_undo():
    proc = play("--no-color", stdin="c4n c5n\nc6q\nf4s\nlegal\nhint\nend\ni8w\nundo\nquit\n")
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout
    assert "not played: action 'c6q'" in out
    assert "not played: action 'f4s': the way is not free" in out
    assert "f4n f4e f4w i4n i4e i4s i4w c6e c6s c6w end" in out  # `legal`, by cell
    assert "hint: " in out
    assert "N to move, turn 2/60" in out
    # after N's step and the undo, N's worker is back on i8 and N is to move
    last_board = out[out.rindex(" 11 "):]
    assert last_board.splitlines()[3].split()[9] == "w" and "N to move, turn 2/60" in last_board


def test_play_against_the_engine_and_save_then_import(tmp_path):
    saved = tmp_path / "game.txt"
    proc = play("--engine", "SN", "--save", str(saved), "--no-color")
    assert proc.returncode == 0, proc.stderr
    assert "game over (" in proc.stdout and "game over: game over" not in proc.stdout
    assert "(engine) plays" in proc.stdout
    rec = gamefile.from_text(saved.read_text(), "game.txt")
    assert rec.kind == "kubitva" and rec.positions()[-1].is_over()
    db = tmp_path / "s.sqlite"
    assert cli.main(["import", str(saved), "--db", str(db)]) == 0
    proc = play("--save", str(saved), stdin="quit\n")
    assert proc.returncode == 1 and "exists" in proc.stderr


def test_play_help_and_a_line_played_whole_or_not_at_all():
    proc = play("--no-color", stdin="help\nc4n zz c5n\nc4n c5n\nquit\n")
    assert proc.returncode == 0 and proc.stderr == ""
    out = proc.stdout
    assert "legal        the legal actions" in out and "quit         stop" in out  # `help`
    assert "not played: action 'zz'" in out and "(nor the rest of the line)" in out
    # the refused line left the board as it was (c4n not kept): the same line then plays
    # both steps, the worker from c4 to c6
    after = out[out.index("(nor the rest of the line)"):]
    rows = {line.split()[0]: line.split() for line in after.splitlines()[1:14] if line.strip()}
    assert rows["6"][3].startswith("W") and rows["4"][3] == "." and rows["5"][3] == "."


def test_play_save_is_checked_before_the_game_and_kept_on_ctrl_c(tmp_path):
    proc = play("--save", str(tmp_path / "nowhere" / "k.txt"), stdin="c4n\nquit\n")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == "cargoboard: error: cannot write %s: the folder %s does not exist\n" % (
        tmp_path / "nowhere" / "k.txt", tmp_path / "nowhere")
    import os
    import select
    import signal
    saved = tmp_path / "k.txt"
    p = subprocess.Popen([cargoboard_exe(), "play", "kubitva", "--save", str(saved)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=str(mpy.REPO_ROOT))
    p.stdin.write(b"c4n c5n\n")
    p.stdin.flush()
    seen = b""
    while seen.count(b"S> ") < 2:  # its second prompt: the line is played
        ready, _, _ = select.select([p.stdout], [], [], 60)
        assert ready, seen
        chunk = os.read(p.stdout.fileno(), 65536)
        assert chunk, seen
        seen += chunk
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, (out, err)
    assert "saved 2 actions to %s" % saved in out.decode()
    rec = gamefile.from_text(saved.read_text(), "k.txt")
    assert rec.actions == ["c4n", "c5n"]


def test_play_errors():
    # options out of range are usage errors (exit 2), as the README says; they were 1
    proc = play("--engine", "X")
    assert proc.returncode == 2 and proc.stderr == ("cargoboard: error: --engine takes S, N or "
                                                    "SN, not 'X'\n")
    proc = play("--map", "huge")
    assert proc.returncode == 2 and proc.stderr == ("cargoboard: error: no КУБитва map 'huge' "
                                                    "(maps: board, full)\n")
    proc = play("--position", "nonsense")
    assert proc.returncode == 1 and "5 fields" in proc.stderr
