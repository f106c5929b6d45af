"""Which commands may create or change a store (issue 18): the read-only commands (`games`,
`export`, `replay`) create nothing, neither a file nor a folder; the writing commands
(`import`, `sync`) refuse a file that is not a Cargoboard store and leave it as it was; a
`sync` that gets no answer from the board creates nothing, not even the default store's
folders."""

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from cargoboard import cli
from cargoboard.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "img" / "example-game.txt"


def run(capsys, argv):
    """(exit status, the error line) of the CLI run in this process."""
    status = cli.main(argv)
    err = capsys.readouterr().err.strip()
    return status, err


def tree(path):
    return sorted(str(p.relative_to(path)) for p in Path(path).rglob("*"))


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def foreign_files(tmp_path):
    """SQLite files that are not stores: another program's, and an empty file."""
    foreign = tmp_path / "notes.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE notes(x)")
    con.execute("INSERT INTO notes VALUES('mine')")
    con.commit()
    con.close()
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    return foreign, empty


@pytest.mark.parametrize("argv", [["games"], ["export", "1"], ["replay", "1", "--all"]])
def test_reading_commands_create_nothing(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    for db in ("typo.sqlite", str(tmp_path / "no" / "such" / "dir" / "g.sqlite")):
        status, err = run(capsys, argv + ["--db", db])
        assert status == 1 and err.startswith("cargoboard: error: no game store at "), err
        assert len(err.splitlines()) == 1
        assert tree(tmp_path) == []
    # the default store (no --db) is not made either, nor its folders
    monkeypatch.delenv("CARGOBOARD_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    status, err = run(capsys, argv)
    assert status == 1 and "no game store at %s" % (tmp_path / "data") in err
    assert tree(tmp_path) == []


@pytest.mark.parametrize("argv", [["games"], ["export", "1"], ["replay", "1", "--all"],
                                  ["import", str(EXAMPLE)]])
def test_no_command_adds_to_a_file_that_is_not_a_store(tmp_path, capsys, argv):
    for db in foreign_files(tmp_path):
        before = sha(db)
        status, err = run(capsys, argv + ["--db", str(db)])
        assert status == 1 and "is not a Cargoboard game store" in err, err
        assert sha(db) == before
        if db.name == "empty.sqlite":  # what to do about it
            assert "it is empty: remove it, or give another file" in err, err
    con = sqlite3.connect(tmp_path / "notes.sqlite")
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["notes"]
    con.close()


def test_import_makes_a_store_only_in_an_existing_folder(tmp_path, capsys):
    status, err = run(capsys, ["import", str(EXAMPLE), "--db", str(tmp_path / "no" / "g.sqlite")])
    assert status == 1 and "the folder %s does not exist" % (tmp_path / "no") in err
    assert tree(tmp_path) == []
    bad = tmp_path / "bad.txt"
    bad.write_text("[Game \"cargocube\"]\n\nnonsense\n")
    status, err = run(capsys, ["import", str(bad), "--db", str(tmp_path / "g.sqlite")])
    assert status == 1 and err.startswith("cargoboard: error: %s" % bad)
    assert tree(tmp_path) == ["bad.txt"]  # a file that does not import leaves no store
    status, err = run(capsys, ["import", str(EXAMPLE), "--db", str(tmp_path / "g.sqlite")])
    assert status == 0
    with Store(tmp_path / "g.sqlite", readonly=True) as st:
        assert len(st.list()) == 1
    status, _ = run(capsys, ["games", "--db", str(tmp_path / "g.sqlite")])
    assert status == 0


def test_the_default_store_written_out_gets_its_folders_as_the_implied_one(tmp_path, capsys,
                                                                           monkeypatch):
    """One rule for every writing command (store.folders_may_be_made): the default store's
    folders are made whether it is implied or given with --db (in any spelling of the same
    path); `sync --db` with the default path written out said "the folder ... does not exist"
    where `serve --db` with it made them."""
    monkeypatch.delenv("CARGOBOARD_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    spelled = tmp_path / "data" / ".." / "data" / "cargoboard" / "games.sqlite"
    master, slave = os.openpty()  # a serial port where nothing answers
    try:
        status, err = run(capsys, ["sync", "--port", os.ttyname(slave), "--db", str(spelled)])
    finally:
        os.close(master)
        os.close(slave)
    # past the store's check to the board, which did not answer: still nothing made
    assert status == 1 and err.startswith("cargoboard: error: no answer from the board"), err
    assert tree(tmp_path) == []
    status, err = run(capsys, ["import", str(EXAMPLE), "--db", str(spelled)])
    assert (status, err) == (0, "")
    with Store(readonly=True) as st:
        assert len(st.list()) == 1
    # any other store still wants an existing folder
    status, err = run(capsys, ["import", str(EXAMPLE), "--db", str(tmp_path / "no" / "g.sqlite")])
    assert status == 1 and "the folder %s does not exist" % (tmp_path / "no") in err


def test_cargoboard_db_in_a_missing_folder_makes_no_folders(tmp_path, capsys, monkeypatch):
    """$CARGOBOARD_DB is a name the user chose, as --db is: a mistyped one makes no folders
    (until stop 43 every writing command made them, as for the standard place), and the
    error says the name came from $CARGOBOARD_DB. Only the standard place
    ($XDG_DATA_HOME/cargoboard/) gets its folders made, however it is named."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    typo = tmp_path / "gmaes" / "club" / "games.sqlite"
    monkeypatch.setenv("CARGOBOARD_DB", str(typo))
    want = ("cargoboard: error: cannot make a game store at %s ($CARGOBOARD_DB): the folder %s "
            "does not exist" % (typo, typo.parent))
    status, err = run(capsys, ["import", str(EXAMPLE)])
    assert status == 1 and err.startswith(want), err
    assert tree(tmp_path) == []
    master, slave = os.openpty()  # a serial port where nothing answers: never asked
    try:
        status, err = run(capsys, ["sync", "--port", os.ttyname(slave)])
    finally:
        os.close(master)
        os.close(slave)
    assert status == 1 and err.startswith(want), err
    assert tree(tmp_path) == []
    # the standard place, named by $CARGOBOARD_DB: its folders are made as when it is implied
    standard = tmp_path / "data" / "cargoboard" / "games.sqlite"
    monkeypatch.setenv("CARGOBOARD_DB", str(standard))
    status, err = run(capsys, ["import", str(EXAMPLE)])
    assert (status, err) == (0, "")
    with Store(standard, readonly=True) as st:
        assert len(st.list()) == 1



def test_xdg_data_home_naming_a_file_is_said_not_sync_advised(tmp_path, capsys, monkeypatch):
    """$XDG_DATA_HOME naming a file: `games` advised running sync, which cannot make the store
    under a file ("Not a directory" once it had asked the board). Each command now says
    which path is a file and what to mend, and makes nothing."""
    monkeypatch.delenv("CARGOBOARD_DB", raising=False)
    data = tmp_path / "data"
    data.write_text("a file of mine\n")
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    where = data / "cargoboard" / "games.sqlite"
    status, err = run(capsys, ["games"])
    assert (status, err) == (1, "cargoboard: error: no game store at %s: %s is a file, not a "
                                "folder, so no command can make one there (mend "
                                "$XDG_DATA_HOME, or give --db)" % (where, data))
    for argv in (["import", str(EXAMPLE)], ["sync", "--port", "/dev/null"]):
        status, err = run(capsys, argv)
        assert (status, err) == (1, "cargoboard: error: cannot make a game store at %s: %s is "
                                    "a file, not a folder (mend $XDG_DATA_HOME, or give --db)"
                                 % (where, data)), argv
    status, err = run(capsys, ["import", str(EXAMPLE), "--db", str(data / "g.sqlite")])
    assert (status, err) == (1, "cargoboard: error: cannot make a game store at %s: %s is a "
                                "file, not a folder (mend the name)" % (data / "g.sqlite", data))
    assert tree(tmp_path) == ["data"] and data.read_text() == "a file of mine\n"

def test_sync_that_gets_no_answer_creates_nothing(tmp_path, capsys, monkeypatch):
    master, slave = os.openpty()  # a serial port where nothing answers
    try:
        port = os.ttyname(slave)
        monkeypatch.delenv("CARGOBOARD_DB", raising=False)
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        status, err = run(capsys, ["sync", "--port", port])
        assert status == 1 and err.startswith("cargoboard: error: no answer from the board")
        assert tree(tmp_path) == []
        for db in foreign_files(tmp_path):  # refused before the board is asked anything
            before = sha(db)
            status, err = run(capsys, ["sync", "--port", port, "--db", str(db)])
            assert status == 1 and "is not a Cargoboard game store" in err, err
            assert sha(db) == before
        status, err = run(capsys, ["sync", "--port", port, "--db", str(tmp_path / "x" / "g.sqlite")])
        assert status == 1 and "does not exist" in err
        assert not (tmp_path / "x").exists()
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("argv", [["games"], ["export", "1"], ["replay", "1", "--all"],
                                  ["import", str(EXAMPLE)], ["sync", "--port", "/dev/null"]])
def test_a_folder_or_a_device_as_db_is_no_store(tmp_path, capsys, argv):
    """`--db DIR`: games, export and replay said "no game store at DIR" while import and sync
    said it is a folder; `sync --db /dev/full` said "no game store ... (`cargoboard sync` makes
    one)". Every command now says what the path is, and leaves it alone."""
    status, err = run(capsys, argv + ["--db", str(tmp_path)])
    assert (status, err) == (1, "cargoboard: error: %s is a folder, not a game store" % tmp_path)
    status, err = run(capsys, argv + ["--db", "/dev/full"])
    assert (status, err) == (1, "cargoboard: error: /dev/full is not a game store (a device or "
                                "another special file, not a regular file); not changing it")
    assert tree(tmp_path) == []


def test_db_help_names_every_place_the_store_is_looked_for(capsys):
    """The store honours $XDG_DATA_HOME (store.default_path); the --db help of sync, games,
    export, import, replay and serve left it out."""
    parser = cli.build_parser()
    sub = [a for a in parser._actions if a.dest == "command"][0]
    for name in ("sync", "games", "export", "import", "replay", "serve"):
        text = " ".join(sub.choices[name].format_help().split())
        assert "$CARGOBOARD_DB, else $XDG_DATA_HOME/cargoboard/games.sqlite" in text, name


@pytest.mark.parametrize("argv", [["export"], ["replay", "--all"]])
def test_a_game_id_past_sqlites_integers_is_no_game(tmp_path, capsys, argv):
    """`export 99999999999999999999999` printed an OverflowError traceback."""
    db = tmp_path / "g.sqlite"
    assert run(capsys, ["import", str(EXAMPLE), "--db", str(db)])[0] == 0
    for ref in ("99999999999999999999999", str(2 ** 63), "-99999999999999999999999", "0"):
        status, err = run(capsys, argv[:1] + [ref] + argv[1:] + ["--db", str(db)])
        assert (status, err) == (1, "cargoboard: error: no game %s in %s (see `cargoboard "
                                    "games`)" % (ref, db)), ref


def test_a_port_that_does_not_open_is_said_once(capsys, tmp_path):
    """`sync --port /dev/ttyNOPE` named the path three times among pyserial's errno texts."""
    status, err = run(capsys, ["sync", "--port", "/dev/ttyNOPE", "--db", "/nonexistent/x"])
    assert status == 1  # the store is checked first: its folder does not exist
    never = tmp_path / "never.sqlite"
    for port, words in (("/dev/ttyNOPE", "No such file or directory"),
                        ("/", "Is a directory"),
                        (str(EXAMPLE), "Inappropriate ioctl for device (not a serial port?)")):
        status, err = run(capsys, ["sync", "--port", port, "--db", str(never)])
        assert (status, err) == (1, "cargoboard: error: cannot open %s: %s" % (port, words))
    assert not never.exists()  # no store is made for a sync that cannot start


def read_only_mount(folder, argv):
    """(exit status, stderr) of the CLI run with folder bind-mounted read only (a private
    mount namespace: root here, so file modes would not stop a write)."""
    import shutil
    import subprocess
    import sys
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("needs root and unshare(1) for a read-only mount")
    cmd = ("mount --bind {0} {0} && mount -o remount,bind,ro {0} && exec {1} -m cargoboard "
           "{2}").format(folder, sys.executable, " ".join(argv))
    proc = subprocess.run(["unshare", "-m", "sh", "-c", cmd], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    if "mount" in proc.stderr and "cargoboard" not in proc.stderr:
        pytest.skip("no read-only mount here: " + proc.stderr.strip())
    return proc.returncode, proc.stderr


def test_a_read_only_store_or_folder_is_named_before_the_board_is_asked(tmp_path):
    """`sync --db ro.sqlite` fetched every game, then said "attempt to write a readonly
    database" without the path; a new store in a read-only folder "unable to open database
    file". Both are now said first, with the path."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "games.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(db)]) == 0
    before = sha(db)
    for argv in (["sync", "--port", "/dev/ttyNOPE"], ["import", str(EXAMPLE)]):
        status, err = read_only_mount(folder, argv + ["--db", str(db)])
        assert (status, err) == (1, "cargoboard: error: cannot write the game store %s: it is "
                                    "on a read-only file system\n" % db)
        status, err = read_only_mount(folder, argv + ["--db", str(folder / "new.sqlite")])
        assert (status, err) == (1, "cargoboard: error: cannot make a game store at %s: the "
                                    "folder %s cannot be written (it is on a read-only file "
                                    "system)\n" % (folder / "new.sqlite", folder))
    status, err = read_only_mount(folder, ["games", "--db", str(db)])  # reading still works
    assert status == 0 and err == ""
    assert sha(db) == before and sorted(os.listdir(folder)) == ["games.sqlite"]


def test_a_store_locked_by_another_program_is_said_so(tmp_path, capsys):
    """A store another program holds locked was "not a usable game store: database is
    locked"."""
    db = tmp_path / "games.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(db)]) == 0
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # as a program in the middle of writing it
    try:
        status, err = run(capsys, ["games", "--db", str(db)])  # after SQLite's 5 s wait
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (status, err) == (1, "cargoboard: error: %s is in use: another program holds it "
                                "locked (a sync, serve or import still writing?); try again "
                                "when it has finished" % db)


def hot_journal(db):
    """Leave db as a power cut in the middle of a write does: a transaction begun, pages
    changed (the old ones in db-journal, the new ones partly in db), the process gone."""
    import subprocess
    import sys
    subprocess.run([sys.executable, "-c", "import os, sqlite3, sys\n"
                    "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                    "c.execute('PRAGMA cache_size=1')\n"
                    "c.execute('BEGIN')\n"
                    "c.execute('UPDATE games SET log=zeroblob(100000)')\n"
                    "os._exit(0)", str(db)], check=True, timeout=60)
    assert Path(str(db) + "-journal").stat().st_size > 0


@pytest.mark.parametrize("argv", [["games"], ["export", "1"], ["replay", "1", "--all"],
                                  ["import", str(EXAMPLE)]])
def test_a_write_a_power_cut_left_half_done_is_rolled_back(tmp_path, capsys, argv):
    """After a power cut in the middle of a write (a hot journal beside the store) every
    command said "X is not a usable game store: attempt to write a readonly database": SQLite
    may not roll the journal back on a read-only connection. The store is opened for writing
    once to do so; the command then goes on, and sees the store as before the write."""
    db = tmp_path / "games.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(db)]) == 0
    capsys.readouterr()
    assert cli.main(argv + ["--db", str(db)]) == 0
    before = capsys.readouterr()
    hot_journal(db)
    assert cli.main(argv + ["--db", str(db)]) == 0
    assert capsys.readouterr() == before
    assert os.listdir(tmp_path) == ["games.sqlite"]


def test_a_deleted_games_id_is_not_given_again(tmp_path):
    """The web audit's case: game 7 deleted (the newest), the next import became game 7, so a
    bookmark of /games/7 or a script's `export 7` opened another game."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from exportgames import random_game
    db = tmp_path / "g.sqlite"
    with Store(db) as st:
        ids = [st.add(random_game(seed, players=2, actions=5)) for seed in (1, 2, 3)]
        assert ids == [1, 2, 3]
        st.delete(3)
        st.delete(2)
    with Store(db) as st:  # (kept in the store, not in the program)
        assert st.add(random_game(4, players=2, actions=5)) == 4
        assert [row[0] for row in st.list()] == [1, 4]


def test_two_writers_never_take_the_same_id(tmp_path):
    """The review's case: the new game's id was read before the write began, so another
    program's sync or import committing meanwhile took it too, and the INSERT failed (UNIQUE
    constraint failed: games.id). The write lock is taken first now: the other waits."""
    import sys
    import threading
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from exportgames import random_game
    db = tmp_path / "g.sqlite"
    a = Store(db)
    a.add(random_game(1, players=2, actions=5))
    got = {}

    def other():
        with Store(db) as b:
            got["b"] = b.add(random_game(2, players=2, actions=5))

    real = a._next_id

    def interleaved():
        n = real()
        t = threading.Thread(target=other)
        t.start()
        t.join(1.0)   # (another program's add, as this one is about to write)
        got["thread"] = t
        return n

    a._next_id = interleaved
    try:
        got["a"] = a.add(random_game(3, players=2, actions=5))
    finally:
        a.close()
    got["thread"].join(10)
    assert sorted([got["a"], got["b"]]) == [2, 3]


def test_a_reopened_game_deleted_during_a_sync_is_stored_anew(tmp_path):
    """The review's case: a game reopened on the board (a take-back after its end) is stored
    over its old record; deleted meanwhile (the archive's delete), the UPDATE found nothing,
    yet its id was returned as stored and the board would delete its only copy."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from exportgames import random_game
    with Store(tmp_path / "g.sqlite") as st:
        gid = st.add(random_game(1, players=2, actions=5))
        st.delete(gid)
        rec = random_game(1, players=2, actions=7)
        rec.continues = gid
        [new] = st.add_all([rec])
        assert new != gid and len(st.get(new).actions) == 7


IN_USE = ("%s is in use: another program holds it locked (a sync, serve or import still "
          "writing?); try again when it has finished")


def test_a_store_another_program_is_writing_is_in_use_for_import(tmp_path, capsys):
    """The audit's case: another program in a write transaction (BEGIN IMMEDIATE: readers may
    go on, writers wait), `import` waited SQLite's 5 s, then said "database is locked". It is
    the documented "in use" now, and the store is as it was."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from exportgames import random_game
    from cargoboard.export import gamefile
    db = tmp_path / "games.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(db)]) == 0
    new_game = tmp_path / "new.json"
    new_game.write_text(gamefile.to_json(random_game(1, players=2, actions=5)))
    before = sha(db)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # as another program's sync about to write
    try:
        status, err = run(capsys, ["import", str(new_game), "--db", str(db)])
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (status, err) == (1, "cargoboard: error: " + IN_USE % db)
    assert sha(db) == before


def test_games_takes_the_archives_filters(tmp_path, capsys):
    """`games` listed every game, with no way to ask for one kind, a number of seats, a result
    or days (the archive of `serve` has these filters): it takes the same ones; a filter out of
    range is a usage error, exit 2, and filters that match nothing say so."""
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    import exportgames
    db = tmp_path / "g.sqlite"
    with Store(db) as st:
        two = exportgames.random_game(1, players=2, actions=10)   # played 2025-03-02
        four = exportgames.random_game(2, players=4, actions=10)  # played 2025-03-03
        ceph = exportgames.random_cephalopod_game(3, "3x3", actions=4)  # 2026-11-04
        ids = st.add_all([two, four, ceph])

    def listed(*argv):
        assert cli.main(["games", "--db", str(db), *argv]) == 0
        out = capsys.readouterr().out.splitlines()
        return [int(line.split()[0]) for line in out[1:]] if out[0].startswith("id ") else out
    assert listed() == ids
    assert listed("--game", "cephalopod") == [ids[2]]
    assert listed("--players", "4") == [ids[1]]
    assert listed("--result", "open", "--game", "cargocube") == ids[:2]
    assert listed("--since", "2025-03-03", "--until", "2025-12-31") == [ids[1]]
    assert listed("--game", "kubitva") == ["no games in %s match (3 games in all)" % db]
    for argv, word in ((["--game", "chess"], "--game"), (["--players", "10"], "--players"),
                       (["--result", "won"], "--result"), (["--since", "2026-13-01"], "--since"),
                       (["--until", "20261201"], "--until")):
        with pytest.raises(SystemExit) as e:
            cli.main(["games", "--db", str(db), *argv])
        err = capsys.readouterr().err
        assert e.value.code == 2 and "cargoboard games: error: argument %s: " % word in err, err


@pytest.mark.parametrize("argv", [["games"], ["export", "1", "-o", "x.json"], ["replay", "1"]])
def test_a_store_damaged_past_its_schema_is_named_in_the_error(tmp_path, capsys, monkeypatch,
                                                                argv):
    """A store that opens but whose games table is damaged (a disk fault, a copy cut short):
    the reading commands said SQLite's words alone, `database disk image is malformed`,
    naming no file. They name the store, by --db or $CARGOBOARD_DB; nothing is written."""
    from storekit import damage_games_table
    db = tmp_path / "g.sqlite"
    assert cli.main(["import", str(EXAMPLE), "--db", str(db)]) == 0
    damage_games_table(db)
    before = sha(db)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, argv + ["--db", str(db)]) == (
        1, "cargoboard: error: %s is not a usable game store: database disk image is "
           "malformed" % db)
    monkeypatch.setenv("CARGOBOARD_DB", str(db))
    assert run(capsys, argv)[1].startswith("cargoboard: error: %s is not a usable" % db)
    assert sha(db) == before and not (tmp_path / "x.json").exists()


def test_a_store_in_a_missing_folder_is_not_offered_to_sync(tmp_path, capsys, monkeypatch):
    """A store named in a folder that does not exist: the reading commands advised `cargoboard
    sync` or `import` to make it, which refuse it (no command makes a user's folders, only the
    standard place's). They say the folder is missing; the standard place keeps the advice."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CARGOBOARD_DB", raising=False)
    db = tmp_path / "nope" / "g.sqlite"
    status, err = run(capsys, ["games", "--db", str(db)])
    assert (status, err) == (1, "cargoboard: error: no game store at %s: its folder %s does not "
                                "exist (no command makes it: make it first, or mend the name; "
                                "or give --db)" % (db, db.parent))
    assert run(capsys, ["import", str(EXAMPLE), "--db", str(db)])[0] == 1  # as it says
    status, err = run(capsys, ["games"])
    assert status == 1 and "(`cargoboard sync` or `cargoboard import` makes one" in err, err
    assert tree(tmp_path) == []


@pytest.mark.parametrize("game", ["kubitva", "formula99"])
def test_games_says_when_a_game_of_cargoboard_play_was_played(tmp_path, game):
    """`games` showed `-` (not known) as `played` for a game of `cargoboard play`: the PC that
    ran it knew the time. Its record now has the PC's clock when it began, as a board's game
    has the board's clock, and `games`, the archive and the replay show it."""
    import datetime as dt
    import subprocess
    from clirun import cargoboard_exe

    def cargoboard(*args):
        return subprocess.run([cargoboard_exe(), *args], cwd=str(tmp_path), input="",
                              capture_output=True, text=True, timeout=120)
    before = dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0, tzinfo=None)
    assert cargoboard("play", game, "--save", "g.json").returncode == 0
    after = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    db = str(tmp_path / "s.sqlite")
    assert cargoboard("import", "g.json", "--db", db).returncode == 0
    proc = cargoboard("games", "--db", db)
    assert proc.returncode == 0, proc
    header, row = proc.stdout.splitlines()
    played = row[header.index("played"):header.index("game")].strip()
    assert before <= dt.datetime.strptime(played, "%Y-%m-%d %H:%M") <= after, proc.stdout
    with Store(db, readonly=True) as st:
        assert st.get(1).played.endswith("Z")
