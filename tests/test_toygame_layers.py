"""Adding a game touches only its own folders plus one registry line per layer.

The toy game of tests/toygame/ (its rules core, its board plug-in and its drawing, all outside
the project's folders) is registered on the three layers at run time, with no edit to a
project file: the rules registry (`cargoboard.rules.register`), the board's registry
(`main.py --plugin toy=toygame.plugin` under the virtual board) and the host's registry
(`cargoboard.games.register`, which the exports ask for the game's drawing). Then it is
played on the virtual board with a hand, logged on the board's flash, synced over the
pseudo-terminal into a real store, exported in every format and read back.

Also: every game of the project has its folder on every layer, under the same inner names.
"""

import json
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(TESTS))

from cargoboard import cli, games, rules  # noqa: E402
from shared_rules.versions import RULES  # noqa: E402
from cargoboard.export import cli as export_cli, gamefile  # noqa: E402
from cargoboard.link import Link  # noqa: E402
from cargoboard.sim.runner import UnixRunner  # noqa: E402
from cargoboard.sim.script import Session  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.sync import sync  # noqa: E402

PLUGIN = ["toy=toygame.plugin"]
MOVES = ["lift e2", "place e3", "expect e3 g10 N",
         "lift g10", "place g9", "expect e3 g9 S",
         "lift e3", "place e4", "expect e4 g9 N"]


@pytest.fixture
def toy():
    """The toy registered with the host's rules and games registries for this test."""
    rules.register("toy", "toygame.rules")
    games.register("toy", "toygame")
    yield
    rules.MODULES.pop("toy", None)
    games.PACKAGES.pop("toy", None)


def test_the_toy_is_unknown_until_registered():
    with pytest.raises(rules.UnknownGame):
        rules.rules_for("toy")
    assert games.part("toy", "draw") is None


def test_the_toy_plays_logs_syncs_and_exports(toy, tmp_path, capsys):
    image = tmp_path / "flash.img"
    s = Session(out=lambda line: None, flash=image, plugins=PLUGIN, extra_path=[TESTS])
    try:
        hello = s.query("hello")[1]
        from firmware.games import REGISTRY
        names = ",".join([e[0] for e in REGISTRY] + ["toy"])
        assert "games=%s " % names in hello, hello
        s.execute("new-game toy start")
        s.execute("expect start")            # the host's rules registry names the start
        for line in MOVES:
            s.execute(line)
        s.wait(200)
        assert s.query("status")[1].startswith("ok state=play game=toy "), s.query("status")
    finally:
        s.close()
    assert "evt action e4" in s.events and "evt over" in s.events, s.events
    assert any(e.startswith("evt log finished game=") for e in s.events), s.events

    db = tmp_path / "games.sqlite"
    r = UnixRunner(flash=image, plugins=PLUGIN, extra_path=[TESTS]).start()
    try:
        with r.serving(), Store(db) as store, Link(r.port) as link:
            res = sync(link, store)
            assert len(res.stored) == 1 and res.rejected == [], res
            gid = res.stored[0][1]
            rec = store.get(gid)
            assert link.games() == []          # synced, so the board let it go
    finally:
        r.stop()
    assert (rec.kind, rec.variant, rec.seats, rec.start) == ("toy", "start", "SN", "e2 g10 S")
    assert rec.actions == ["e3", "g9", "e4"]

    positions = rec.positions()
    assert positions[-1].notation() == "e4 g9 N" and positions[-1].is_over()
    assert positions[-1].scores() == [1, 0]
    doc = json.loads(export_cli.render(rec, "json"))
    assert [a["action"] for a in doc["actions"]] == ["e3", "g9", "e4"]
    svg = ElementTree.fromstring(export_cli.render(rec, "svg", 1))
    cells = sorted(e.get("data-cell") for e in svg.iter() if e.get("data-kind") == "token")
    assert cells == ["e3", "g10"]             # the toy's own drawing, after 1 action
    html = export_cli.render(rec, "html")
    assert "e4 g9 N" in html and "<svg" in html
    back = gamefile.read_game(export_cli.render(rec, "text"), "toy.txt")
    assert (back.kind, back.start, back.actions) == ("toy", rec.start, rec.actions)

    out = tmp_path / "toy.svg"
    assert cli.main(["export", str(gid), "--db", str(db), "-o", str(out)]) == 0
    assert 'data-cell="e4"' in out.read_text()
    capsys.readouterr()
    assert cli.main(["perft", "--game", "toy", "start", "2"]) == 0
    assert capsys.readouterr().out.split()[-1] == "16"


def test_the_commands_that_name_the_games_name_the_toy(toy, capsys):
    """`games --game KIND`'s help lists the games of the rules registry, as its check does: it
    listed the four of the project by hand, so a new game's line in the registry was not
    enough."""
    with pytest.raises(SystemExit):
        cli.main(["games", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "only games of this game: cargocube, cephalopod, formula99, kubitva, toy" in out, out


def test_a_game_without_a_cli_part_has_its_bad_position_said_in_one_line(toy, capsys):
    """perft, legal and show read the position of a game with no `cli` part (the toy) through
    its rules; a one-word position that does not read is one line (exit 1) naming what a
    POSITION may be, where it was an AttributeError's traceback (the game's POSITION_HELP)."""
    assert cli.main(["legal", "--game", "toy", "nonsense"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cargoboard: error: ") and err.count("\n") == 1, err
    assert err.endswith("; POSITION: the game's notation or a start word\n"), err


@pytest.mark.parametrize("game", [game for game, _ in RULES])
def test_every_game_has_its_folder_on_every_layer(game):
    assert rules.rules_for(game).__name__ == "shared_rules.%s.rules" % game
    assert (ROOT / "shared_rules" / game / "rules.py").is_file()
    assert (ROOT / "shared_rules" / game / "engine.py").is_file()
    assert (ROOT / "shared_rules" / game / "__init__.py").read_text() == ""
    assert (ROOT / "firmware" / "games" / game / "plugin.py").is_file()
    assert (ROOT / "firmware" / "games" / game / "tracker.py").is_file()
    from firmware.games import REGISTRY
    assert [game, "firmware.games.%s.plugin" % game] in REGISTRY
    assert games.part(game, "draw").__name__ == "cargoboard.games.%s.draw" % game
    # (no `play` part is demanded: no framework asks the registry for one; a game's
    # whole-game driver is its own tests' and benchmarks' business, docs/firmware.md)
    # and its tests and benchmarks in a folder of their own (the layout rule: the path says
    # the game)
    assert any((ROOT / "tests" / game).glob("test_*.py"))
    assert any((ROOT / "bench" / game).glob("*.py"))
