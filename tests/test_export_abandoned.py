"""Games dropped on the board before their end (`abort`, a new game: the log's abandon record)
are "abandoned" in `cargoboard games`, the archive's filter and every export (JSON, text, HTML,
SVG, the terminal replay), survive export then import, and are known in a store written
before the store kept the mark (schema 1: read from the board's log, upgraded on writing)."""

import hashlib
import json
import sqlite3
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from firmware.system import logread  # noqa: E402
from firmware.system.gamelog import GameLog  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from cargoboard import cli  # noqa: E402
from cargoboard.export import cli as export_cli  # noqa: E402
from cargoboard.logrecord import record_from_log  # noqa: E402
from cargoboard.store import SCHEMA_VERSION, Store  # noqa: E402
from logsteps import random_steps  # noqa: E402


def board_logs(folder):
    """The raw logs of three games the board logged one after the other: one over by the
    rules (finish), one dropped before its end (abandon), one still open."""
    gl = GameLog(str(folder), "e6614c31")
    start = cc.start_position(2, cards=True).notation()
    logs = []
    for seed, n, end in ((3, 1 << 30, "finish"), (4, 40, "abandon"), (5, 30, None)):
        gl.begin("cargocube", "polygon+cards", "SN", start, None, cc.RULES_VERSION, 0)
        steps, final = random_steps(seed, n)
        assert final.is_over() == (end == "finish")
        for step in steps:
            if step is None:
                gl.undo()
            else:
                gl.append(step)
        if end == "finish":
            gl.finish()
        elif end == "abandon":
            gl.close()
        number = gl.numbers()[-1]
        logs.append((logread.read(gl, number, 0, logread.size(gl, number)), end))
    return logs


@pytest.fixture
def store(tmp_path):
    """A store with a game that ended by the rules, an abandoned one and an open one."""
    db = tmp_path / "games.sqlite"
    (tmp_path / "board").mkdir()
    with Store(db) as st:
        for raw, end in board_logs(tmp_path / "board"):
            rec = record_from_log(raw)
            assert rec.abandoned == (end == "abandon")
            st.add(rec)
    return db


def cli_out(capsys, argv):
    assert cli.main(argv) == 0
    return capsys.readouterr().out


def copy_free(text):
    """A text record without the tags that say where a copy lives."""
    return [ln for ln in text.splitlines()
            if not ln.startswith(("[Id ", "[Source ", "[SourceGame ", "[Stored "))]


def results(text):
    """{id: result column} of `cargoboard games` (the columns before it hold blanks: the stored
    and played times)."""
    lines = text.splitlines()
    col = lines[0].index("result")
    return {int(line.split()[0]): line[col:].strip() for line in lines[1:]}


def test_games_and_the_archive_filter_say_abandoned(store, capsys):
    got = results(cli_out(capsys, ["games", "--db", str(store)]))
    assert got[2] == "abandoned" and got[3] == "not over" and got[1].startswith("won by ")
    with Store(store, readonly=True) as st:
        assert [r[0] for r in st.list(result="abandoned")] == [2]
        assert [r[0] for r in st.list(result="open")] == [3]
        assert [r[0] for r in st.list(result="over")] == [1]
        assert [r[11] for r in st.list()] == [0, 1, 0]


def test_every_export_says_abandoned_and_import_keeps_it(store, tmp_path, capsys):
    with Store(store, readonly=True) as st:
        rec, other = st.get(2), st.get(3)
    assert rec.abandoned and not other.abandoned
    doc = json.loads(export_cli.render(rec, "json"))
    assert doc["final"]["abandoned"] is True and doc["final"]["over"] is False
    assert json.loads(export_cli.render(other, "json"))["final"]["abandoned"] is False
    text = export_cli.render(rec, "text")
    assert '[Termination "abandoned"]' in text
    assert "Termination" not in export_cli.render(other, "text")
    page = export_cli.render(rec, "html")
    assert "<th>outcome</th><td>abandoned</td>" in page and "game abandoned" in page
    assert "<th>outcome</th><td>not over</td>" in export_cli.render(other, "html")
    assert "\u00b7 game abandoned</text>" in export_cli.render(rec, "svg")
    assert "game abandoned" not in export_cli.render(rec, "svg", at=3)
    assert "game abandoned" not in export_cli.render(other, "svg")
    assert ", abandoned" in cli_out(capsys, ["replay", "2", "--all", "--db", str(store)]).splitlines()[0]
    # export then import keeps the mark, in both forms
    for name, body in (("g.json", json.dumps(doc)), ("g.txt", text)):
        db = tmp_path / ("back-%s.sqlite" % name)
        path = tmp_path / name
        path.write_text(body)
        cli_out(capsys, ["import", str(path), "--db", str(db)])
        assert results(cli_out(capsys, ["games", "--db", str(db)])) == {1: "abandoned"}
        with Store(db, readonly=True) as st:
            assert copy_free(export_cli.render(st.get(1), "text")) == copy_free(text)


def test_import_refuses_a_wrong_abandoned_mark(store, tmp_path, capsys):
    with Store(store, readonly=True) as st:
        over, abandoned = st.get(1), st.get(2)
    cases = [
        ("a.txt", export_cli.render(abandoned, "text").replace(
            '[Termination "abandoned"]', '[Termination "resigned"]'),
         "[Termination] must be 'abandoned'"),
        ("b.txt", export_cli.render(over, "text").replace(
            "[Final", '[Termination "abandoned"]\n[Final'), "over by the rules"),
        ("c.json", export_cli.render(over, "json").replace('"abandoned": false', '"abandoned": true'),
         "final: the game is over by the rules, so it was not abandoned"),
        ("d.json", export_cli.render(abandoned, "json").replace('"abandoned": true',
                                                                '"abandoned": "yes"'),
         "'abandoned' must be true or false"),
    ]
    for name, body, expect in cases:
        path = tmp_path / name
        path.write_text(body)
        assert cli.main(["import", str(path), "--db", str(tmp_path / "x.sqlite")]) == 1
        err = capsys.readouterr().err
        assert expect in err and err.startswith("cargoboard: error: %s" % path), err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_store_from_before_the_mark_is_read_and_upgraded(store, capsys):
    con = sqlite3.connect(store)  # as the store was written at schema version 1
    con.execute("ALTER TABLE games DROP COLUMN abandoned")
    con.execute("ALTER TABLE games DROP COLUMN damage")
    con.execute("UPDATE meta SET value='1' WHERE key='schema'")
    con.commit()
    con.close()
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    got = results(cli_out(capsys, ["games", "--db", str(store)]))  # read only: the logs tell
    assert got[2] == "abandoned" and got[3] == "not over"
    with Store(store, readonly=True) as st:
        assert st.get(2).abandoned and not st.get(3).abandoned
        assert [r[0] for r in st.list(result="abandoned")] == [2]
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    with Store(store) as st:  # a writing command upgrades it
        assert st.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (
            str(SCHEMA_VERSION),)
        assert st.db.execute("SELECT id FROM games WHERE abandoned").fetchall() == [(2,)]
    con = sqlite3.connect(store)
    con.execute("UPDATE meta SET value='7' WHERE key='schema'")
    con.commit()
    con.close()
    assert cli.main(["games", "--db", str(store)]) == 1
    assert "schema version 7, which this cargoboard (version %d) does not know" % SCHEMA_VERSION in \
        capsys.readouterr().err


def test_a_store_from_before_the_damage_mark_tells_it_from_the_logs(store, capsys):
    """Schema 2 had no `damage` column: a game whose log was damaged on the board looked like
    a clean shorter game. Read only, the logs tell it (the file unchanged); a writing command
    adds the column, filled from the logs."""
    con = sqlite3.connect(store)  # as the store was written at schema version 2
    log = bytearray(con.execute("SELECT log FROM games WHERE id=2").fetchone()[0])
    log[len(log) - 20] ^= 0x10  # a record some actions before the end, damaged on the flash
    con.execute("UPDATE games SET log=? WHERE id=2", (bytes(log),))
    con.execute("ALTER TABLE games DROP COLUMN damage")
    con.execute("UPDATE meta SET value='2' WHERE key='schema'")
    con.commit()
    con.close()
    mark = record_from_log(bytes(log)).damage
    assert mark.startswith("log replays to action ") and " of ~" in mark
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    got = results(cli_out(capsys, ["games", "--db", str(store)]))
    assert got[2].startswith("abandoned; damaged: " + mark), got[2]
    assert "damaged" not in got[1] and "damaged" not in got[3]
    with Store(store, readonly=True) as st:
        assert st.get(2).damage == mark and st.get(1).damage is None
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    with Store(store) as st:  # a writing command upgrades it
        assert st.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() == (
            str(SCHEMA_VERSION),)
        assert st.db.execute("SELECT id, damage FROM games WHERE damage IS NOT NULL"
                             ).fetchall() == [(2, mark)]
