"""The pictures of a game: the SVG diagram (valid XML; every drawn cube, keeper, card, stack
height and score read back from its data attributes and visible text equals the position), the
HTML replay (valid, self-contained, its embedded data rebuilds the diagram of every step; its
script steps through them when node is there to run it), the terminal replay, and the docs
picture (it is the export of the game stored beside it)."""

import io
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import exportgames
from exportgames import parse_page, pieces_of
import mpy
from cargoboard import cli
from cargoboard.export import cli as export_cli, diagram, gamefile, replay
from cargoboard.games.cargocube import draw as draw_cargocube
from cargoboard.export.html import game_html
from cargoboard.store import Store
from shared_rules.cargocube import rules as cc
from shared_rules.cargocube import board as g
from shared_rules.cargocube import orient as o

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def games():
    return exportgames.many_games()


def _by_kind(root, kind):
    return [e for e in root.iter() if e.get("data-kind") == kind]


def _texts(el):
    return [t.text for t in el.iter(SVG + "text")]


def check_svg(text, pos, action=None):
    """Parse the SVG and compare everything it draws with pos."""
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg" and root.get("data-position") == pos.notation()
    letters = pos.SEAT_LETTERS  # SWNE, or 12345678 with 8 players
    eight = len(pos.seats) == 8
    sides = range(4) if eight else pos.seats  # the sides in play
    cells = _by_kind(root, "cell")
    assert len(cells) == 121
    kinds = {e.get("data-cell"): e.get("data-cell-kind") for e in cells}
    assert kinds["f6"] == "portal" and kinds["a1"] == "corner"
    for s in range(4):
        exit_cell = g.cell_name(g.EXIT_PORTAL[s])
        assert kinds[exit_cell] == ("exit-" + "SWNE"[s] if s in sides else "out")
    if eight:  # each half of a terminal is its seat's
        for s in pos.seats:
            assert {kinds[g.cell_name(c)] for c in pos.terminal_cells(s)} == {
                "terminal-" + letters[s]}
    assert [e.get("data-cell") for e in _by_kind(root, "portal")] == ["f6"]
    assert sorted(e.get("data-seat") for e in _by_kind(root, "exit-portal")) == sorted(
        "SWNE"[s] for s in sides)

    # Stacks: one per occupied cell, items bottom to top with what each one is.
    stacks = {e.get("data-cell"): e for e in _by_kind(root, "stack")}
    occupied = {g.cell_name(c): c for c in range(121) if pos.stacks[c]}
    assert set(stacks) == set(occupied)
    n_cubes = 0
    for name, c in occupied.items():
        st = pos.stacks[c]
        el = stacks[name]
        assert el.get("data-height") == str(len(st))
        items = [e for e in el if e.get("data-kind") in ("cube", "keeper", "dead-keeper",
                                                          "teleport")]
        assert len(items) == len(st)
        heights = [e for e in el if e.get("data-kind") == "height"]
        assert [t.text for t in heights] == ([str(len(st))] if len(st) > 1 else [])
        lids = [e for e in el if e.get("data-kind") == "biohazard"]
        lid = pos.lids[c] if pos.lids is not None else 0
        assert [e.get("data-seat") for e in lids] == ([letters[lid - 1]] if lid else [])
        for level, (item, e) in enumerate(zip(st, items)):
            assert e.get("data-cell") == name and e.get("data-level") == str(level)
            top = level == len(st) - 1
            if item >= cc.TELEPORT:
                assert e.get("data-kind") == "teleport"
                assert _texts(e) == (["T"] if top else [])
                continue
            if item >= cc.KEEPER:
                dead = item >= cc.DEAD
                seat = letters[(item - cc.KEEPER) & 7]
                assert e.get("data-kind") == ("dead-keeper" if dead else "keeper")
                assert e.get("data-seat") == seat
                if top:
                    assert _texts(e) == [("X" if dead else "K") + seat]
                continue
            n_cubes += 1
            f = o.faces(item)  # up, down, north, east, south, west
            assert e.get("data-kind") == "cube" and e.get("data-orient") == o.name(item)
            assert [e.get("data-" + k) for k in ("top", "bottom", "north", "east", "south",
                                                  "west")] == list(f)
            if level == len(st) - 1:
                # Visible: the four side faces (N, E, S, W), then the top face.
                assert _texts(e) == [f[2], f[3], f[4], f[5], f[0]]
            else:
                assert _texts(e) == []
    assert n_cubes == sum(1 for s in pos.stacks for it in s if it < cc.KEEPER)

    cards = {e.get("data-cell"): e for e in _by_kind(root, "card")}
    assert set(cards) == {g.cell_name(c) for c in range(121) if pos.cards[c]}
    for name, e in cards.items():
        cd = pos.cards[g.parse_cell(name)]
        assert e.get("data-card") == cc.card_kind(cd)
        assert e.get("data-owner") == letters[cc.card_owner(cd)]
        placed = g.CELL_KIND[g.parse_cell(name)] == g.GREY
        assert e.get("data-placed") == str(int(placed))
        assert _texts(e) == [cc.card_kind(cd)]

    scores = {e.get("data-seat"): e for e in _by_kind(root, "score")}
    assert set(scores) == {letters[s] for s in pos.seats}
    for s in pos.seats:
        e = scores[letters[s]]
        assert e.get("data-score") == str(pos.scores()[s])
        assert e.text == "%s %d" % (letters[s], pos.scores()[s])
    last = _by_kind(root, "last-action")
    if action and action != "end":
        assert [e.get("data-action") for e in last] == [action]
    else:
        assert last == []
    return root


def test_svg_shows_each_position(games):
    checked = 0
    for rec in games:
        positions = rec.positions()
        picks = sorted({0, len(positions) - 1, len(positions) // 2, len(positions) // 3})
        for n in picks:
            text = export_cli.render(rec, "svg", n, positions)
            root = check_svg(text, positions[n], rec.actions[n - 1] if n else None)
            caption = [e for e in _by_kind(root, "caption")]
            assert len(caption) == 1 and caption[0].text.startswith(
                "ply %d of %d" % (n, len(rec.actions)))
            checked += 1
    assert checked >= 30


def test_svg_draws_hops_stacks_and_cards():
    """A hand-made position with what random games may miss: a wind-rose hop into the own
    terminal, a tall stack with keepers inside, cards of every kind placed and unused."""
    start = ("b1=*sS,d1=*aS,f1=KS,c3=B1.KN.21.B1,e4=B1,d5=21.1O,e5=*wS,g5=*aN,"
             "h8=O2.O3.4B.KW.12.B1.B2.B3.B4.B1.B2,f11=*sN,a6=*wW SWN S 2")
    pos = cc.Position.parse(start)
    action = "d5e/e4"  # the roll onto the wind rose hops onto e4
    before = pos.copy()
    pos.push(pos.parse_action(action))
    text = draw_cargocube.svg(pos, before, action)
    root = check_svg(text, pos, action)
    path = _by_kind(root, "last-action")[0]
    assert path.get("data-from") == "d5" and path.get("data-to") == "e4"
    assert len(path.find(SVG + "polyline").get("points").split()) == 3  # d5, e5, e4
    heights = {e.get("data-cell"): e.get("data-height") for e in _by_kind(root, "stack")}
    assert heights["h8"] == "11" and heights["c3"] == "4"


# Font sizes of the drawing's text classes (draw.STYLE): how much room each written label needs.
FONT = {m.group(1): int(m.group(2)) for m in
        re.finditer(r"\.cb \.(\w+)\{font-size:(\d+)px", draw_cargocube.STYLE)}


def _arrow_head(root):
    """The last action's arrow head as a triangle (tip, base corners) in the SVG's pixels."""
    marker = root.find(".//%smarker" % SVG)
    size = float(marker.get("markerWidth")) * 3  # markerUnits strokeWidth: .path's 3 px
    assert marker.get("viewBox") == "0 0 10 10" and marker.get("refY") == "5"
    beyond = (10 - float(marker.get("refX"))) / 10 * size  # the tip past the path's end
    drawn = _by_kind(root, "last-action")[0]
    line = drawn.find(SVG + "polyline")
    if line is not None:
        pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        d = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
    else:  # a spiral turn: "M x,y A r,r 0 1,SWEEP x2,y2", a circle's arc from its top
        m = re.fullmatch(r"M([\d.]+),([\d.]+) A([\d.]+),[\d.]+ 0 1,([01]) ([\d.]+),([\d.]+)",
                         drawn.find(SVG + "path").get("d"))
        sx, sy, r, sweep, x2, y2 = (float(v) for v in m.groups())
        vx, vy = (x2 - sx) / r, (y2 - sy - r) / r  # from the centre to the end, unit length
        ux, uy = (-vy, vx) if sweep else (vy, -vx)  # the tangent the way it turns
    x2, y2 = x2 + beyond * ux, y2 + beyond * uy
    bx, by = x2 - size * ux, y2 - size * uy
    half = size / 2
    return (x2, y2), (bx - half * uy, by + half * ux), (bx + half * uy, by - half * ux)


def _covers(tri, box):
    """Whether the triangle reaches into the box (x0, y0, x1, y1), sampled finely."""
    (ax, ay), (bx, by), (cx, cy) = tri
    n = 24
    for i in range(n + 1):
        for j in range(n + 1 - i):
            a, b = i / n, j / n
            x = ax + a * (bx - ax) + b * (cx - ax)
            y = ay + a * (by - ay) + b * (cy - ay)
            if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
                return True
    return False


def test_the_last_action_arrow_covers_no_written_face(games):
    """The arrow head of the last action sat on the top face's digit of the piece it points
    at (issue 18): over whole games, the head lies on no label of any piece, card or height."""
    heads = 0
    for rec in games:
        positions = rec.positions()
        for n in range(1, len(positions)):
            if rec.actions[n - 1] == "end":
                continue
            root = ET.fromstring(draw_cargocube.svg(positions[n], positions[n - 1],
                                                    rec.actions[n - 1]))
            head = _arrow_head(root)
            heads += 1
            pieces = root.find(".//%sg[@id='cb-pieces']" % SVG)
            for t in pieces.iter(SVG + "text"):
                size = FONT[t.get("class").split()[0]]
                x, y = float(t.get("x")), float(t.get("y"))
                if abs(x - head[0][0]) > 40 or abs(y - head[0][1]) > 40:
                    continue  # far from the head (which is 15 px long)
                w = 0.3 * size * len(t.text)
                box = (x - w, y - size / 2 + 1, x + w, y + size / 2 - 1)
                assert not _covers(head, box), (rec.actions[n - 1], n, t.text, box, head)
    assert heads > 300


def test_svg_draws_every_piece_and_card_of_the_expansions():
    """Every card kind placed and unused, a spent card, a biohazard, a dead keeper, the
    teleport under a keeper; the last action a spiral turn (drawn as an arc round its cell),
    then a catapult throw (its path goes on to the terminal)."""
    start = ("b1=*uS,c1=*cS,d1=*pS,e1=*xS,f1=KS,g1=*hS,h1=*vS,c3=*=N.B1,d4=*xN,e4=B1.!N,"
             "e5=*pN.21.B1,f5=T.KN,h4=XW,h5=*cN,g5=B1.B1,f11=2B SWN S 3")
    pos = cc.Position.parse(start)
    before = pos.copy()
    pos.push(pos.parse_action("e5cw"))
    root = check_svg(draw_cargocube.svg(pos, before, "e5cw"), pos, "e5cw")
    arc = _by_kind(root, "last-action")[0].find(SVG + "path")
    assert arc is not None and " A" in arc.get("d")
    cards = {e.get("data-card") for e in _by_kind(root, "card")}
    assert cards == set("ucpxhv=")
    assert [e.get("data-seat") for e in _by_kind(root, "biohazard")] == ["N"]
    assert [e.get("data-seat") for e in _by_kind(root, "dead-keeper")] == ["W"]
    assert len(_by_kind(root, "teleport")) == 1
    before = pos.copy()
    pos.push(pos.parse_action("g5e^h11"))  # onto the catapult on h5, thrown into N's terminal
    root = check_svg(draw_cargocube.svg(pos, before, "g5e^h11"), pos, "g5e^h11")
    points = _by_kind(root, "last-action")[0].find(SVG + "polyline").get("points").split()
    assert len(points) == 3  # g5, h5, h11


def test_no_diagram_for_another_kind():
    with pytest.raises(diagram.NoDiagram, match="no diagram for game kind 'xiangqi' yet"):
        diagram.for_kind("xiangqi")


# -- HTML --------------------------------------------------------------------------------------

def test_html_replay_is_valid_self_contained_and_holds_every_step(games):
    for rec in games:
        positions = rec.positions()
        text = game_html(rec, positions)
        assert text.startswith("<!DOCTYPE html>")
        page = parse_page(text)
        assert page.urls == []  # nothing to fetch: no src, no href
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg\")", text)
        for bid in ("cb-first", "cb-prev", "cb-next", "cb-last"):
            assert page.ids[bid][0] == "button"
        # first/last as |◀ and ▶|: U+23EE/U+23ED are missing from many fonts (empty boxes)
        assert not re.search("\u23ee|\u23ed|&#x23e[de];|&#923[34];", text, re.I)
        assert '>|&#x25C0;</button>' in text and '>&#x25B6;|</button>' in text
        assert page.ids["cb-step"][1]["max"] == str(len(rec.actions))
        assert sorted(page.steps) == list(range(len(rec.actions) + 1))
        (meta, raw), (_, js) = page.scripts
        assert meta == {"type": "application/json", "id": "cb-data"}
        assert "getElementById(\"cb-data\")" in js
        data = json.loads(raw)
        steps = data["steps"]
        assert [s["position"] for s in steps] == [p.notation() for p in positions]
        assert [s["action"] for s in steps] == [None] + rec.actions
        draw = draw_cargocube
        for n, (s, pos) in enumerate(zip(steps, positions)):
            assert s["ply"] == n
            assert s["scores"] == {pos.SEAT_LETTERS[x]: pos.scores()[x] for x in pos.seats}
            built = pieces_of(data["frames"], data["fragments"], n)
            assert built == "".join(f for _, f in sorted(draw.pieces(pos).items()))
        # The diagram in the page (the start) is valid SVG and shows the start.
        svg = text[text.index("<svg"):text.index("</svg>") + 6]
        check_svg(svg, positions[0])


NODE_DRIVER = r"""
const fs = require("fs");
const html = fs.readFileSync(process.argv[2], "utf8");
const dataText = html.match(/<script type="application\/json" id="cb-data">([\s\S]*?)<\/script>/)[1];
const js = html.match(/<script>([\s\S]*?)<\/script>/)[1];
const els = {};
function el(id) {
  if (!els[id]) els[id] = {id: id, innerHTML: "", textContent: "", value: 0, attrs: {},
    setAttribute(k, v) { this.attrs[k] = String(v); }, getAttribute(k) { return this.attrs[k]; }};
  return els[id];
}
el("cb-data").textContent = dataText;
const stepButtons = [...html.matchAll(/<button type="button" data-step="(\d+)">/g)].map(m => {
  const b = el("step-" + m[1]); b.attrs["data-step"] = m[1]; return b; });
const listeners = {};
global.document = {getElementById: el, querySelectorAll: () => stepButtons,
                   addEventListener: (t, f) => { listeners[t] = f; }};
global.location = {hash: process.argv[4] || ""};
global.history = {replaceState() {}};
eval(js);
const out = [];
function snap() {
  out.push({pieces: el("cb-pieces").innerHTML, overlay: el("cb-overlay").innerHTML,
            caption: el("cb-caption").textContent, counter: el("cb-counter").textContent,
            current: stepButtons.filter(b => b.className === "cur").map(b => b.attrs["data-step"])});
}
snap();
for (const cmd of process.argv[3].split(",")) {
  if (cmd.startsWith("key:")) listeners.keydown({key: cmd.slice(4), target: {tagName: "BODY"}, preventDefault() {}});
  else if (cmd.startsWith("click:")) { const b = el("step-" + cmd.slice(6)); b.onclick.call(b); }
  else if (cmd.startsWith("slide:")) { el("cb-step").value = cmd.slice(6); el("cb-step").oninput(); }
  else el("cb-" + cmd).onclick();
  snap();
}
console.log(JSON.stringify(out));
"""


def test_html_replay_script_steps_through_the_game(games, tmp_path):
    """Runs the page's own script under node with a stand-in for the few DOM calls it makes."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page's script is not run (its data is checked "
                    "by the test above)")
    rec = games[1]  # 25 actions, 2 players
    positions = rec.positions()
    page = tmp_path / "g.html"
    page.write_text(game_html(rec, positions), encoding="utf-8")
    driver = tmp_path / "driver.js"
    driver.write_text(NODE_DRIVER)
    cmds = "next,next,prev,last,next,first,prev,click:7,key:ArrowRight,key:ArrowLeft,key:End,slide:3"
    expect = [5, 6, 7, 6, 25, 25, 0, 0, 7, 8, 7, 25, 3]
    proc = subprocess.run([node, str(driver), str(page), cmds, "#5"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    shots = json.loads(proc.stdout)
    assert len(shots) == len(expect)
    for shot, n in zip(shots, expect):
        pos = positions[n]
        assert shot["counter"] == "%d / %d" % (n, len(rec.actions))
        assert shot["current"] == [str(n)]
        assert shot["pieces"] == "".join(f for _, f in sorted(draw_cargocube.pieces(pos).items()))
        before = positions[n - 1] if n else None
        action = rec.actions[n - 1] if n else None
        assert shot["overlay"] == draw_cargocube.overlay(before, action)
        assert shot["caption"].startswith("ply %d of 25" % n)


# -- terminal replay -------------------------------------------------------------------------------

def _shown_steps(text):
    return [int(m) for m in re.findall(r"^step (\d+) of \d+", text, re.M)]


def test_replay_all_prints_every_step(games):
    rec = games[1]
    rec.id = 5
    out = io.StringIO()
    assert replay.run(rec, out) == 0
    text = out.getvalue()
    assert _shown_steps(text) == list(range(len(rec.actions) + 1))
    positions = rec.positions()
    for pos in positions:
        assert "\n%s\n" % pos.notation() in text
    # The board rows show the top items: the start's keepers and cubes.
    assert re.search(r"^  1 .* KS .* 1$", text, re.M)
    assert "step 3 of 25: %s played %s" % ("SWNE"[positions[2].to_move], rec.actions[2]) in text


def test_replay_without_a_diagram_shows_notation_and_scores_once(games):
    """A kind with no drawing module still replays: the notation and the scores, each once."""
    rec = games[1]
    positions = rec.positions()
    text = replay.frame(rec, positions, 3, draw=None)
    assert text.splitlines()[0].startswith("step 3 of 25: ")
    assert text.count(positions[3].notation()) == 1
    assert text.count("scores ") == 1


def test_replay_keys(games):
    rec = games[1]
    keys = "\n".join(["", "n", "p", "p", "p", "12", "99", "l", "n", "f", "what", "²", "q",
                      "n"]) + "\n"
    out = io.StringIO()
    assert replay.run(rec, out, io.StringIO(keys), interactive=True) == 0
    text = out.getvalue()
    assert _shown_steps(text) == [0, 1, 2, 1, 0, 0, 12, 12, 25, 25, 0, 0, 0]
    assert "this is the start" in text and "no step 99" in text
    assert "that was the last step" in text and "unknown key 'what'" in text
    assert "unknown key '²'" in text  # a digit to str.isdigit, not to int(): it quit
    # a step of 5000 digits (int() refuses past 4300: the replay ended with an error), or a
    # long line, is said cut short and the replay goes on
    out = io.StringIO()
    keys = "\n".join(["3", "9" * 5000, "x" * 5000, "0012", "q"]) + "\n"
    assert replay.run(rec, out, io.StringIO(keys), interactive=True) == 0
    text = out.getvalue()
    assert _shown_steps(text) == [0, 3, 3, 3, 12]
    assert "no step %s… (5000 characters): the game has steps 0..25" % ("9" * 40) in text
    assert "unknown key '%s… (5000 characters)'" % ("x" * 40) in text
    # End of input ends the replay as q does.
    out = io.StringIO()
    assert replay.run(rec, out, io.StringIO("n\n"), interactive=True, start=24) == 0
    assert _shown_steps(out.getvalue()) == [24, 25]


def test_replay_command(tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    with Store(db) as st:
        gid = st.add(exportgames.random_game(3, players=3, cards=True, actions=12))
    assert cli.main(["replay", str(gid), "--db", str(db), "--all", "--from", "10"]) == 0
    out = capsys.readouterr().out
    assert _shown_steps(out) == [10, 11, 12] and "\x1b[" not in out
    assert cli.main(["replay", str(gid), "--db", str(db), "--all", "--color", "always"]) == 0
    assert "\x1b[1;31m KS" in capsys.readouterr().out
    assert cli.main(["replay", str(gid), "--db", str(db), "--from", "13"]) == 2
    assert "--from must be 0..12" in capsys.readouterr().err


def test_console_script_errors_without_traceback(tmp_path):
    """The installed command itself: one line on stderr, exit 1; --debug the traceback."""
    exe = str(Path(sys.executable).parent / "cargoboard")
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "cargocube"]\n')
    proc = subprocess.run([exe, "import", str(bad), "--db", str(tmp_path / "d.sqlite")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == "cargoboard: error: %s: missing tag [Variant] (required: Game Variant " \
                          "Seats Start)\n" % bad
    proc = subprocess.run([exe, "--debug", "import", str(bad), "--db", str(tmp_path / "d.sqlite")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" in proc.stderr and "GameFileError" in proc.stderr


# -- the docs picture -------------------------------------------------------------------------------

DOCS_IMG = Path(mpy.REPO_ROOT) / "docs" / "img"
DOCS_AT = 102  # the ply shown in docs/img/example-position.svg


def docs_svg():
    """The docs picture as export draws it from docs/img/example-game.txt."""
    rec = gamefile.read_game((DOCS_IMG / "example-game.txt").read_text(encoding="utf-8"),
                             "example-game.txt")
    rec.id = 1
    return export_cli.render(rec, "svg", DOCS_AT), rec


def test_docs_picture_is_the_export_of_its_game():
    text, rec = docs_svg()
    check_svg(text, rec.positions()[DOCS_AT], rec.actions[DOCS_AT - 1])
    current = (DOCS_IMG / "example-position.svg").read_text(encoding="utf-8")
    assert current == text, (
        "docs/img/example-position.svg is not what the exporter draws now; regenerate it: "
        "cargoboard import docs/img/example-game.txt --db /tmp/ex.sqlite && "
        "cargoboard export 1 --db /tmp/ex.sqlite --format svg --at %d "
        "-o docs/img/example-position.svg --force" % DOCS_AT)


def test_docs_html_page_size_is_measured():
    """docs/export.md quotes the size of the docs game's HTML replay page: it must be the size
    the exporter makes now (within 5 %), not a figure from an older page."""
    doc = (Path(mpy.REPO_ROOT) / "docs" / "export.md").read_text(encoding="utf-8")
    m = re.search(r"The page of the (\d+)-action\s+docs\s+game\s+is\s+about\s+(\d+)\s+KB", doc)
    assert m, "docs/export.md no longer quotes the HTML page size: update this test"
    _, rec = docs_svg()
    size = len(export_cli.render(rec, "html").encode("utf-8"))
    assert int(m.group(1)) == len(rec.actions)
    claimed = int(m.group(2)) * 1000
    assert abs(size - claimed) <= 0.05 * claimed, (
        "docs/export.md says about %s KB, the page is %d bytes" % (m.group(2), size))
