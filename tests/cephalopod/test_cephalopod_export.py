"""Cephalopod games as pictures: the SVG diagram (valid XML; every die read back from its data
attributes, its drawn pips and the last action equal the position), the HTML replay (its data
rebuilds the diagram of every step), the terminal replay, and the export/import/replay commands
on a stored game."""

import io
import json
import xml.etree.ElementTree as ET

import pytest

from cargoboard import cli
from cargoboard.export import cli as export_cli, diagram, gamefile, replay
from cargoboard.games.cephalopod import draw as draw_cephalopod
from cargoboard.export.html import game_html
from cargoboard.store import Store
from shared_rules.cephalopod import rules as ce

from exportgames import parse_page, pieces_of, random_cephalopod_game as random_game

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def games():
    out = [random_game(s, size, n) for s, (size, n) in enumerate(
        [("5x5", 0), ("5x5", 40), ("5x5", 300), ("3x5", 300), ("5x3", 30), ("3x3", 300)])]
    assert out[2].positions()[-1].is_over() and out[5].positions()[-1].is_over()
    return out


def _by_kind(root, kind):
    return [e for e in root.iter() if e.get("data-kind") == kind]


def check_svg(text, pos, before=None, action=None):
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg" and root.get("data-position") == pos.notation()
    cells = _by_kind(root, "cell")
    assert sorted(e.get("data-cell") for e in cells) == sorted(
        pos.cell_name(c) for c in range(pos.rows * pos.cols))
    dice = {e.get("data-cell"): e for e in _by_kind(root, "die")}
    assert set(dice) == {pos.cell_name(c) for c in range(len(pos.cells)) if pos.cells[c]}
    for name, e in dice.items():
        c = pos.parse_cell(name)
        assert e.get("data-colour") == "wb"[pos.colour(c)]
        assert e.get("data-pips") == str(pos.pips(c))
        # the pips are drawn: one circle each, in the die's contrasting colour
        pips = [p for p in e.iter(SVG + "circle") if p.get("data-kind") == "pip"]
        assert len(pips) == pos.pips(c)
        face = e.find(SVG + "rect").get("fill")
        assert {p.get("fill") for p in pips} == {draw_cephalopod.PIP_FILL[pos.colour(c)]}
        assert face == draw_cephalopod.DIE_FILL[pos.colour(c)]
    scores = {e.get("data-seat"): e for e in _by_kind(root, "score")}
    sc = pos.scores()
    assert {k: (v.get("data-score"), v.text) for k, v in scores.items()} == {
        "w": (str(sc[0]), "w %d" % sc[0]), "b": (str(sc[1]), "b %d" % sc[1])}
    last = _by_kind(root, "last-action")
    if action:
        a = before.parse_action(action)
        assert [e.get("data-action") for e in last] == [action]
        assert last[0].get("data-cell") == before.cell_name(a >> 4)
        assert last[0].get("data-pips") == str(pos.pips(a >> 4))
        assert sorted(e.get("data-cell") for e in _by_kind(last[0], "captured")) == sorted(
            before.cell_name(n) for n in before.captured_cells(a))
    else:
        assert last == []
    return root


def test_diagram_module_for_the_kind():
    assert diagram.for_kind("cephalopod") is draw_cephalopod


def test_svg_shows_each_position(games):
    checked = captures = 0
    for rec in games:
        positions = rec.positions()
        last = len(positions) - 1
        for n in sorted({0, last, last // 2, last // 3, max(0, last - 1)}):
            before = positions[n - 1] if n else None
            action = rec.actions[n - 1] if n else None
            text = export_cli.render(rec, "svg", n, positions)
            root = check_svg(text, positions[n], before, action)
            cap = _by_kind(root, "caption")[0].text
            assert cap.startswith("ply %d of %d" % (n, last))
            if action:
                assert "%s played %s" % ("wb"[before.to_move], action) in cap
                captures += ":" in action
            checked += 1
    assert checked >= 20 and captures >= 3


def test_svg_of_every_pip_count_and_the_game_over_caption():
    pos = ce.Position.parse("w1w2w3/b4b5b6/w6b1. w")
    text = draw_cephalopod.svg(pos)
    root = check_svg(text, pos)
    assert sorted(int(e.get("data-pips")) for e in _by_kind(root, "die")) == [1, 1, 2, 3, 4,
                                                                             5, 6, 6]
    full = ce.Position.parse("w1w2w3/b4b5b6/w6b1w1 b")
    root = check_svg(draw_cephalopod.svg(full), full)
    assert _by_kind(root, "caption")[0].text.endswith("game over, winner w")


def test_html_replay_holds_every_step(games):
    for rec in games[1:4]:
        positions = rec.positions()
        text = game_html(rec, positions)
        page = parse_page(text)
        assert page.urls == []
        assert sorted(page.steps) == list(range(len(rec.actions) + 1))
        (meta, raw), _ = page.scripts
        data = json.loads(raw)
        steps = data["steps"]
        assert [s["position"] for s in steps] == [p.notation() for p in positions]
        for n, (s, pos) in enumerate(zip(steps, positions)):
            assert s["scores"] == {"w": pos.scores()[0], "b": pos.scores()[1]}
            assert s["seat"] == (None if n == 0 else "wb"[positions[n - 1].to_move])
            built = pieces_of(data["frames"], data["fragments"], n)
            assert built == "".join(f for _, f in sorted(draw_cephalopod.pieces(pos).items()))
        svg = text[text.index("<svg"):text.index("</svg>") + 6]
        check_svg(svg, positions[0])
        assert "<li>w: " in text and "<li>b: " in text


def test_terminal_replay(games):
    rec = games[1]
    rec.id = 4
    out = io.StringIO()
    assert replay.run(rec, out) == 0
    text = out.getvalue()
    positions = rec.positions()
    for n in range(1, len(positions)):
        mover = "wb"[positions[n - 1].to_move]
        assert "step %d of %d: %s played %s" % (n, len(rec.actions), mover,
                                                rec.actions[n - 1]) in text
        assert "\n%s\n" % positions[n].notation() in text
    assert draw_cephalopod.TEXT_LEGEND in text.replace("\n", " ")
    board = draw_cephalopod.text_board(positions[-1], color=True)
    assert "\x1b[1;34m b" in board or "\x1b[1;97m w" in board


def test_export_import_replay_commands(games, tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    with Store(db) as st:
        gid = st.add(games[2])
    out = tmp_path / "g.svg"
    assert cli.main(["export", str(gid), "--db", str(db), "-o", str(out)]) == 0
    positions = games[2].positions()
    check_svg(out.read_text(), positions[-1], positions[-2], games[2].actions[-1])
    assert cli.main(["export", str(gid), "--db", str(db), "--format", "svg", "--at", "0"]) == 0
    assert cli.main(["export", str(gid), "--db", str(db), "-o", str(tmp_path / "g.html")]) == 0
    assert cli.main(["export", str(gid), "--db", str(db), "-o", str(tmp_path / "g.txt")]) == 0
    capsys.readouterr()
    assert cli.main(["import", str(tmp_path / "g.txt"), "--db", str(tmp_path / "h.sqlite")]) == 0
    assert "imported" in capsys.readouterr().out
    assert cli.main(["replay", str(gid), "--db", str(db), "--all", "--from",
                     str(len(positions) - 2)]) == 0
    text = capsys.readouterr().out
    assert "game over, winner" in text and "scores w=" in text
    back = gamefile.read_game((tmp_path / "g.txt").read_text(), "g.txt")
    assert back.actions == games[2].actions and back.seats == "wb"
