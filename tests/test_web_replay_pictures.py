"""The HTML replay (`cargoboard export --format html` and `cargoboard serve`'s /games/N) shows at
every step what `cargoboard export --format svg --at N` shows, for every game kind: a real
headless Chromium steps through the page and its board, pieces, overlay, scores and caption are
compared with the SVG export of the same step. (The «Формула 99» replay once drew no ship — its
piece keys are strings — and rewrote its scores; КУБитва's treasuries stayed $0; the web page
of a hot-seat game showed every hand from the start.)"""

import re
from xml.sax.saxutils import unescape

import pytest

from exportgames import random_cephalopod_game, random_game
from formula99_games import hotseat_game
from test_kubitva_host import game as kubitva_game
from test_web_archive import markup
from webkit import browser_fixture
from cargoboard import cli, games
from cargoboard.store import Store
from cargoboard.web.server import WebServer

browser = pytest.fixture(scope="module")(browser_fixture)

LAYERS = ("board", "pieces", "overlay", "scores")
# A seeded game of every kind. Kept here rather than in each game's folder: the makers are the
# games' test helpers (tests/<game>/), one line each; the check below fails until a new game
# adds its line.
GAME_MAKERS = {"cargocube": lambda: random_game(4, players=3, cards=True, actions=40),
               "cephalopod": lambda: random_cephalopod_game(5, "3x3", actions=30),
               "kubitva": lambda: kubitva_game(3, actions=40),
               "formula99": hotseat_game}


def test_every_game_has_a_replay_here():
    assert sorted(GAME_MAKERS) == sorted(games.kinds())


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """(the store, {kind: (game id, its number of actions)}): one game of each kind."""
    db = tmp_path_factory.mktemp("replays") / "games.sqlite"
    with Store(db) as st:
        ids = {kind: (st.add(rec), len(rec.actions))
               for kind, rec in ((kind, make()) for kind, make in GAME_MAKERS.items())}
    return db, ids


def export_svg(capsys, db, gid, n):
    """{layer: inner SVG, "caption": its text} of `export --format svg --at n`."""
    assert cli.main(["export", str(gid), "--db", str(db), "--format", "svg", "--at",
                     str(n)]) == 0
    svg = capsys.readouterr().out
    out = {}
    for name in LAYERS:
        m = re.search(r'\n<g id="cb-%s">(.*?)</g>\n<(?:g id="cb-|text )' % name, svg, re.S)
        out[name] = m.group(1)
    out["caption"] = unescape(re.search(r'id="cb-caption"[^>]*>([^<]*)</text>', svg).group(1))
    return out


def shown(browser, n):
    """The page's layers after a click on step n's button."""
    browser.driver.find_element("css selector", 'button[data-step="%d"]' % n).click()
    browser.wait(lambda d: d.find_element("id", "cb-counter").text.startswith("%d /" % n),
                 what="step %d" % n)
    return browser.js(
        "var g = function (id) { return document.getElementById(id); };"
        "return {board: g('cb-board').innerHTML, pieces: g('cb-pieces').innerHTML,"
        " overlay: g('cb-overlay').innerHTML, scores: g('cb-scores').innerHTML,"
        " caption: g('cb-caption').textContent};")


def check_steps(browser, capsys, db, gid, total):
    steps = sorted({0, 1, 2, total // 3, total // 2, total - 1, total, 1, 3, 0})
    for n in steps + [total // 2]:  # and back: the page rebuilds a step from any other
        want = export_svg(capsys, db, gid, n)
        got = shown(browser, n)
        for name in LAYERS:
            assert markup(got[name]) == markup(want[name]), (gid, n, name)
        assert got["caption"] == want["caption"], (gid, n)
    return want


@pytest.mark.parametrize("kind", games.kinds())
def test_web_replay_shows_each_step_as_the_svg_export(store, kind, browser, capsys):
    db, ids = store
    gid, total = ids[kind]
    with WebServer(db=db, discover=False) as ws:
        browser.driver.get("%s/games/%d" % (ws.url, gid))
        check_steps(browser, capsys, db, gid, total)
    start = export_svg(capsys, db, gid, 0)
    last = export_svg(capsys, db, gid, total)
    # and what the page once lost of two games (this test's regressions, named by game)
    if kind == "formula99":  # its ships, the civilisations' names
        assert 'data-kind="ship"' in start["pieces"] and "Republic" in last["caption"]
        # the hands only at the end, as every picture of a hot-seat game (docs/export.md)
        assert "data-cards" not in start["pieces"].split('data-kind="discard"')[0]
        assert "data-cards" in last["pieces"].split('data-kind="discard"')[0]
    if kind == "kubitva":
        assert re.search(r'data-kind="treasury"[^>]*data-value="[1-9]', last["scores"])


@pytest.mark.parametrize("kind", ["kubitva", "formula99"])
def test_exported_html_file_shows_each_step_as_the_svg_export(store, kind, browser, capsys,
                                                              tmp_path):
    db, ids = store
    gid, total = ids[kind]
    page = tmp_path / "game.html"
    assert cli.main(["export", str(gid), "--db", str(db), "-o", str(page)]) == 0
    capsys.readouterr()
    browser.driver.get(page.as_uri())
    check_steps(browser, capsys, db, gid, total)


# Counts the page's reads of its frames (data.frames wrapped as the page parses its data):
# injected before the page's own script runs.
COUNT_FRAME_READS = """
(function () {
  var parse = JSON.parse;
  window.cbFrameReads = 0;
  JSON.parse = function () {
    var data = parse.apply(this, arguments);
    if (data && data.frames) {
      data.frames = new Proxy(data.frames, {get: function (t, p) {
        if (typeof p === "string" && /^[0-9]+$/.test(p)) { window.cbFrameReads++; }
        return t[p];
      }});
    }
    return data;
  };
})();
"""

# Steps the page with its buttons (ids), from where it is; after each step its pieces layer is
# compared with the layer rebuilt from frames 0..n of the page's data. Returns [the frames
# read by each step, the steps whose layer differed].
STEP_AND_CHECK = """
var ids = arguments[0], out = [[], []];
var data = JSON.parse(document.getElementById("cb-data").textContent);
for (var i = 0; i < ids.length; i++) {
  var reads = window.cbFrameReads;
  document.getElementById(ids[i]).click();
  out[0].push(window.cbFrameReads - reads);
  var n = Number(document.getElementById("cb-step").value), state = {};
  for (var f = 0; f <= n; f++) {
    var fr = data.frames[f];
    for (var j = 0; j < fr.length; j++) {
      if (fr[j][1] < 0) { delete state[fr[j][0]]; } else { state[fr[j][0]] = fr[j][1]; }
    }
  }
  var keys = Object.keys(state).map(Number).sort(function (a, b) { return a - b; });
  var html = "";
  for (var k = 0; k < keys.length; k++) { html += data.fragments[state[keys[k]]]; }
  var tmp = document.createElementNS("http://www.w3.org/2000/svg", "g");
  tmp.innerHTML = html;
  if (tmp.innerHTML !== document.getElementById("cb-pieces").innerHTML) { out[1].push(n); }
}
return out;
"""


@pytest.mark.parametrize("kind", games.kinds())
def test_stepping_forward_or_back_costs_one_frame(store, kind, browser):
    # The script rebuilt the pieces layer from frame 0 at every step: stepping through a long
    # game was quadratic. A step forward or back now reads one frame or none, and shows what
    # frames 0..n make.
    db, ids = store
    gid, total = ids[kind]
    d = browser.driver
    script = d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                               {"source": COUNT_FRAME_READS})["identifier"]
    try:
        with WebServer(db=db, discover=False) as ws:
            d.get("%s/games/%d#3" % (ws.url, gid))
            assert browser.js("return window.cbFrameReads") == 4  # frames 0..3, once
            reads, wrong = browser.js(STEP_AND_CHECK, ["cb-next"] * (total - 3))
            assert wrong == [] and reads == [1] * (total - 3), kind  # forward: one frame each
            reads, wrong = browser.js(STEP_AND_CHECK, ["cb-prev"] * total)
            assert wrong == [] and reads == [0] * total, kind  # back: its undo, no frame
            reads, wrong = browser.js(STEP_AND_CHECK, ["cb-last", "cb-first", "cb-next"])
            assert wrong == [] and reads == [total, 1, 1], kind
    finally:
        d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
