"""The store audit of stop 38: a store is never seen half made or half upgraded, whatever
signal ends the program that writes it, and writers at once neither fail nor lose games.
Where a bug needs a signal at one point of a write, the signal is sent from inside the
command at that point (an SQLite trace callback sees the statement about to run), never
after a guessed delay."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cargoboard import cli
from cargoboard.store import SCHEMA_VERSION, Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "img" / "example-game.txt"

# Runs `cargoboard ARGV...` in this Python with a signal sent to itself when a statement
# containing MARK is about to run (SQLite's trace callback: before each statement).
SIGNAL_AT_STATEMENT = """
import os, signal, sqlite3, sys
mark, signame, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
real_connect = sqlite3.connect
def connect(*args, **kwargs):
    db = real_connect(*args, **kwargs)
    def trace(sql):
        if mark in sql:
            os.kill(os.getpid(), getattr(signal, signame))
    db.set_trace_callback(trace)
    return db
sqlite3.connect = connect
from cargoboard.cli import main
sys.exit(main(argv))
"""


def cli_signalled_at(mark, signame, argv):
    """(exit status, stdout, stderr) of the CLI in another process sent signame as the first
    statement containing mark is about to run."""
    proc = subprocess.run([sys.executable, "-c", SIGNAL_AT_STATEMENT, mark, signame] + argv,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def run(capsys, argv):
    status = cli.main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_store_whose_making_is_killed_is_not_left_half_made(tmp_path, capsys):
    """The audit's case: the first sync killed while it made the store left its first tables
    only (SQLite commits each CREATE), and every later command said "not a Cargoboard game
    store". The store is made in a file beside it and linked in place when whole."""
    db = tmp_path / "games.sqlite"
    status, _, _ = cli_signalled_at("CREATE TABLE IF NOT EXISTS rejected", "SIGKILL",
                                    ["import", str(EXAMPLE), "--db", str(db)])
    assert status == -signal.SIGKILL
    assert not db.exists()  # no store rather than half of one
    status, out, err = run(capsys, ["import", str(EXAMPLE), "--db", str(db)])
    assert (status, err) == (0, "") and out.startswith("imported ")
    status, out, _ = run(capsys, ["games", "--db", str(db)])
    assert status == 0 and len(out.splitlines()) == 2


# Runs `cargoboard ARGV...` in this Python with a signal sent to itself just before the new
# store's temporary file, made whole, is linked into place.
SIGNAL_AT_LINK = """
import os, signal, sys
signame, argv = sys.argv[1], sys.argv[2:]
real_link = os.link
def link(*args, **kwargs):
    os.kill(os.getpid(), getattr(signal, signame))
    return real_link(*args, **kwargs)
os.link = link
from cargoboard.cli import main
sys.exit(main(argv))
"""


def cli_signalled_at_link(signame, argv):
    proc = subprocess.run([sys.executable, "-c", SIGNAL_AT_LINK, signame] + argv,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_a_store_making_killed_outright_leaves_a_file_the_next_writer_removes(tmp_path,
                                                                             capsys):
    """SIGKILL (or a power cut) while a store is made leaves its temporary file: the next
    command that writes a store there removes it, and only what is surely such a leftover: a
    file of that exact name, of this machine, whose program runs no more, untouched for
    STALE_AFTER_S (a fresh one may be a container's of the same host name, making it now)."""
    from cargoboard.store_files import _HOST, STALE_AFTER_S

    def age(*names):
        """Files last written before STALE_AFTER_S: as a leftover found later is."""
        then = time.time() - STALE_AFTER_S - 5
        for name in names:
            os.utime(tmp_path / name, (then, then))
    db = tmp_path / "games.sqlite"
    status, _, _ = cli_signalled_at_link("SIGKILL", ["import", str(EXAMPLE), "--db", str(db)])
    assert status == -signal.SIGKILL
    left = os.listdir(tmp_path)
    assert len(left) == 1 and left[0].startswith(".games.sqlite.%s." % _HOST) and \
        left[0].endswith(".new"), left
    dead = int(left[0].split(".")[-2].split("-")[0])  # the killed program's id
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    try:
        kept = [
            ".games.sqlite.%s.%d-0123abcd.new" % (_HOST, live.pid),  # it may be making one
            ".games.sqlite.%s.%d-0123abcd.new-journal" % (_HOST, live.pid),
            ".games.sqlite.other-machine.%d-0123abcd.new" % dead,  # a shared folder's
            ".games.sqlite.%s.%d-0123abcd.new.bak" % (_HOST, dead),  # not the very name
            ".games.sqlite.%s.%d-0123ABCD.new" % (_HOST, dead),
            "games.sqlite.%s.%d-0123abcd.new" % (_HOST, dead),
            ".other.sqlite.%s.%d-0123abcd.new" % (_HOST, dead),  # another store's
        ]
        fresh = [".games.sqlite.%s.%d-fedcba98.new" % (_HOST, dead)]  # written just now
        kept += fresh
        stale = [".games.sqlite.%s.%d-89abcdef.new-journal" % (_HOST, dead)]
        for name in kept + stale:
            (tmp_path / name).write_text("someone's")
        age(left[0], *stale, *[name for name in kept if name not in fresh])
        status, out, err = run(capsys, ["import", str(EXAMPLE), "--db", str(db)])
        assert (status, err) == (0, "") and out.startswith("imported ")
        assert sorted(os.listdir(tmp_path)) == sorted(kept + ["games.sqlite"])
        # a leftover beside a store that exists (killed between the link and the removal)
        # goes with the next write too
        (tmp_path / stale[0]).write_text("stale")
        age(stale[0])
        status, out, err = run(capsys, ["import", str(EXAMPLE), "--db", str(db)])
        assert (status, err) == (0, "") and "already stored as game 1" in out
        assert sorted(os.listdir(tmp_path)) == sorted(kept + ["games.sqlite"])
        assert all((tmp_path / name).read_text() == "someone's" for name in kept)
    finally:
        live.kill()
        live.wait()


@pytest.mark.parametrize("signame,status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_sigterm_or_ctrl_c_while_a_store_is_made_leaves_nothing(tmp_path, signame, status):
    """SIGTERM's default ended the program without its `finally`: the temporary file stayed.
    It now ends the command as Ctrl-C does, the file removed first (exit 143)."""
    db = tmp_path / "games.sqlite"
    got, _, err = cli_signalled_at_link(signame, ["import", str(EXAMPLE), "--db", str(db)])
    assert got == status and "Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_a_store_made_meanwhile_by_another_program_is_used_not_replaced(tmp_path, capsys):
    """Two first imports (or syncs) at once: the second, started while the first made the
    store, found a half-made file ("not a Cargoboard game store"); it now makes its own, and
    the first, finding that one in place when its own is made, uses it."""
    db = tmp_path / "games.sqlite"
    real_connect = sqlite3.connect
    other = []

    def connect(*args, **kwargs):
        con = real_connect(*args, **kwargs)

        def trace(sql):
            if "CREATE TABLE IF NOT EXISTS games" in sql and not other:
                other.append(subprocess.run(
                    [sys.executable, "-m", "cargoboard", "import", str(EXAMPLE), "--db",
                     str(db)], cwd=ROOT, timeout=300, capture_output=True, text=True))
        con.set_trace_callback(trace)
        return con

    sqlite3.connect = connect
    try:
        status, out, err = run(capsys, ["import", str(EXAMPLE), "--db", str(db)])
    finally:
        sqlite3.connect = real_connect
    assert (other[0].returncode, other[0].stderr) == (0, "")
    assert other[0].stdout.startswith("imported ")
    assert (status, err) == (0, "") and "already stored as game 1" in out
    with Store(db, readonly=True) as st:
        assert st.count() == 1
    assert sorted(os.listdir(tmp_path)) == ["games.sqlite"]


def old_store(tmp_path, schema):
    """A store as the code of that schema version wrote it (1: no `abandoned`, 2: no
    `damage`, 3: no indexes), of one game with a (junk) board log, for the upgrade to read."""
    db = tmp_path / "old.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(db)]) == 0
    con = sqlite3.connect(db)
    con.execute("UPDATE games SET log=?", (bytes(8),))
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='index' AND sql "
                               "IS NOT NULL").fetchall():
        con.execute("DROP INDEX " + name)
    if schema < 3:
        con.execute("ALTER TABLE games DROP COLUMN damage")
    if schema < 2:
        con.execute("ALTER TABLE games DROP COLUMN abandoned")
    con.execute("UPDATE meta SET value=? WHERE key='schema'", (str(schema),))
    con.commit()
    con.close()
    return db


def schema_of(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
    finally:
        con.close()


# the upgrade's step from each old version: its statement after the ALTER TABLE
UPGRADE_UPDATE = {1: "UPDATE games SET abandoned", 2: "UPDATE games SET damage",
                  3: "CREATE INDEX IF NOT EXISTS games_by_start"}


@pytest.mark.parametrize("schema", [1, 2, 3])
def test_an_upgrade_killed_midway_leaves_the_old_store(tmp_path, capsys, schema):
    """The audit's case: killed after the upgrade's ALTER TABLE (committed on its own), the
    store had the new column and the old version, and every writing command failed for good
    with "duplicate column name: damage". The upgrade is one transaction now."""
    db = old_store(tmp_path, schema)
    status, _, _ = cli_signalled_at(UPGRADE_UPDATE[schema], "SIGKILL",
                                    ["import", str(EXAMPLE), "--db", str(db)])
    assert status == -signal.SIGKILL
    capsys.readouterr()
    status, out, err = run(capsys, ["import", str(EXAMPLE), "--db", str(db)])
    assert (status, err) == (0, "") and "already stored as game 1" in out
    assert schema_of(db) == str(SCHEMA_VERSION)


# Runs `cargoboard ARGV...` with Ctrl-C (a real SIGINT) arriving while the upgrade's function
# NAME reads the first game's log.
CTRL_C_IN_UPGRADE = """
import signal, sys
import cargoboard.store_schema
def interrupted(log):
    signal.raise_signal(signal.SIGINT)
setattr(cargoboard.store_schema, sys.argv[1], interrupted)  # where upgrade finds it
from cargoboard.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("schema,function", [(1, "log_abandoned"), (2, "log_damage")])
def test_ctrl_c_in_an_upgrade_exits_130_and_leaves_the_old_store(tmp_path, schema, function):
    """Ctrl-C during the upgrade's UPDATE said "could not be upgraded: user-defined function
    raised exception" and exited 1 (SQLite's words for the KeyboardInterrupt raised in
    log_damage), the new column committed already. Now: rolled back, exit 130 as any Ctrl-C,
    the store byte for byte as it was."""
    db = old_store(tmp_path, schema)
    before = db.read_bytes()
    proc = subprocess.run([sys.executable, "-c", CTRL_C_IN_UPGRADE, function, "import",
                           str(EXAMPLE), "--db", str(db)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert (proc.returncode, proc.stderr) == (130, "")
    assert db.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["old.sqlite"]


def test_what_sync_asks_of_each_game_is_found_by_an_index(tmp_path):
    """The audit's case: Store.stored_from and Store.find, asked for each game a sync fetches,
    read every game of the store (EXPLAIN QUERY PLAN: SCAN games), ~2 ms a game each at 1061
    games. Both are found by an index now, in a new store and in one upgraded to it."""
    old = old_store(tmp_path, 3)
    new = tmp_path / "new.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(new)]) == 0
    for db in (new, old):
        with Store(db) as st:
            asked = []
            st.db.set_trace_callback(asked.append)  # (each statement with its values)
            rec = st.get(1)
            del asked[:]
            st.stored_from(rec.source, rec.source_game)
            st.find(rec.kind, rec.start, rec.actions, rec.played, check_played=True)
            st.db.set_trace_callback(None)
            lookups = [sql for sql in asked if "WHERE id=" not in sql]
            assert len(lookups) == 2
            for sql in lookups:
                plan = " ".join(row[-1] for row in st.db.execute("EXPLAIN QUERY PLAN " + sql))
                assert "USING INDEX" in plan and "SCAN games" not in plan, (sql, plan)


def test_two_imports_of_one_game_at_once_store_it_once(tmp_path):
    """Import looks for the game, then adds it: in one write transaction, so a second import
    of the same file meanwhile waits and finds it (without, both found nothing and both
    stored it). The second starts while the first is between its look and its add."""
    import threading
    from cargoboard.export import cli as export_cli, gamefile
    db = tmp_path / "games.sqlite"
    Store(db).close()
    rec = gamefile.read_game(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE), None)
    first = Store(db)
    results = {}
    others = []

    def import_second():  # another program: its own connection, in its own thread
        with Store(db) as second:
            results["second"] = export_cli.store_game(second, rec)

    look = first.find

    def find_then_let_the_other_go(*args, **kwargs):
        found = look(*args, **kwargs)
        others.append(threading.Thread(target=import_second))
        others[0].start()
        others[0].join(3)  # it finishes at once unless it must wait for this one's lock
        return found

    first.find = find_then_let_the_other_go
    results["first"] = export_cli.store_game(first, rec)
    first.close()
    others[0].join()
    assert results["first"][1] is True and results["second"] == (results["first"][0], False)
    with Store(db) as st:
        assert len(st.list()) == 1
