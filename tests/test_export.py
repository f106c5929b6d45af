"""Export and import of stored games (docs/export.md): export then import is the identity on
many seeded games (2, 3, 4 players, with and without cards, one that ends), in both forms,
through a real SQLite store; import refuses what the rules core does not accept, with one line
naming the file and the line or action; importing a game already stored adds nothing."""

import json

import pytest

import exportgames
from cargoboard import cli
from cargoboard.export import cli as export_cli, gamefile
from cargoboard.clikit import MAX_INPUT_FILE
from cargoboard.store import Store

# Header fields that say where a stored copy lives, not what the game is.
WHERE = ("id", "source", "source_game", "stored")
WHERE_TAGS = ("Id", "Source", "SourceGame", "Stored")


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """(path of a store holding many games, their ids)."""
    path = tmp_path_factory.mktemp("store") / "games.sqlite"
    with Store(path) as st:
        ids = [st.add(rec) for rec in exportgames.many_games()]
    return path, ids


def _what(doc):
    doc = json.loads(json.dumps(doc))
    for key in WHERE:
        doc["header"].pop(key)
    return doc


def _same_game(a, b):
    assert (a.kind, a.variant, a.seats, a.start, a.actions, a.played) == \
           (b.kind, b.variant, b.seats, b.start, b.actions, b.played)
    assert a.final_position().notation() == b.final_position().notation()


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_export_then_import_is_the_identity(stored, tmp_path, fmt):
    path, ids = stored
    with Store(path) as src, Store(tmp_path / "other.sqlite") as dst:
        for gid in ids:
            rec = src.get(gid)
            text = export_cli.render(rec, fmt)
            new_id, new = export_cli.import_game(dst, text, "game%d" % gid)
            assert new
            back = dst.get(new_id)
            _same_game(rec, back)
            assert back.source == "import" and back.log is None
            again = export_cli.render(back, fmt)
            if fmt == "json":
                assert _what(json.loads(again)) == _what(json.loads(text))
            else:
                def strip(t):
                    return [ln for ln in t.splitlines() if ln.split(" ")[0][1:] not in WHERE_TAGS]
                assert strip(again) == strip(text)


def test_json_form_holds_every_position_and_score(stored):
    path, ids = stored
    with Store(path) as st:
        rec = st.get(ids[2])
    doc = json.loads(export_cli.render(rec, "json"))
    positions = rec.positions()
    assert doc["format"] == "cargoboard-game" and doc["version"] == 1
    assert doc["header"]["kind"] == "cargocube" and doc["header"]["id"] == ids[2]
    assert [a["action"] for a in doc["actions"]] == rec.actions
    assert [a["ply"] for a in doc["actions"]] == list(range(1, len(rec.actions) + 1))
    for a, before, after in zip(doc["actions"], positions, positions[1:]):
        assert a["position"] == after.notation()
        assert a["seat"] == "SWNE"[before.to_move]
        assert a["scores"] == {"SWNE"[s]: after.scores()[s] for s in after.seats}
    assert doc["final"]["position"] == positions[-1].notation()


def test_finished_game_carries_its_result(stored):
    path, ids = stored
    with Store(path) as st:
        rec = st.get(ids[-1])
    doc = json.loads(export_cli.render(rec, "json"))
    assert doc["final"] == {"position": rec.final_position().notation(),
                            "scores": {"S": 36, "N": 0}, "over": True, "winners": "S",
                            "abandoned": False}
    text = export_cli.render(rec, "text")
    assert '[Result "S=36 N=0"]' in text and '[Winners "S"]' in text
    assert text.splitlines()[-3:] == ["; turn 1: S", "e5w", "f2s"]


def test_text_form_reads_by_hand(tmp_path):
    """Comments, blank lines, several actions on a line, cells in any order, few tags."""
    text = ('[Game "cargocube"]\n[Variant "custom"]  \n[Seats "SN"]\n'
            '[Start "f11=KN,e5=B1,f2=B1.B2,b1=41,c1=41,d1=41,e1=41,g1=41,h1=41,i1=41,j1=41 '
            'SN S a"]\n\n; S activates\ne5w   f2s ; and wins\n')
    rec = gamefile.read_game(text, "hand.txt")
    assert rec.actions == exportgames.FINISHED_ACTIONS
    assert rec.start == gamefile.read_game(text, "x").start  # canonical notation
    assert rec.final_position().is_over()


def test_import_twice_adds_nothing(stored, tmp_path, capsys):
    path, ids = stored
    out = tmp_path / "g.json"
    assert cli.main(["export", str(ids[1]), "--db", str(path), "-o", str(out)]) == 0
    db = tmp_path / "new.sqlite"
    assert cli.main(["import", str(out), "--db", str(db)]) == 0
    assert capsys.readouterr().out == ("imported %s as game 1 (cargocube polygon SN, 25 actions)\n"
                                       % out)
    text_file = tmp_path / "g.txt"
    assert cli.main(["export", "1", "--db", str(db), "-o", str(text_file)]) == 0
    for again in (out, text_file):
        assert cli.main(["import", str(again), "--db", str(db)]) == 0
        assert "already stored as game 1" in capsys.readouterr().out
    # A game from a board is recognised as well: the store it came from refuses it.
    assert cli.main(["import", str(text_file), "--db", str(path)]) == 0
    assert "already stored as game %d" % ids[1] in capsys.readouterr().out
    with Store(db) as st:
        assert len(st.list()) == 1
    with Store(path) as st:
        assert len(st.list()) == len(ids)


def test_export_suffix_picks_format_and_stdin_import(stored, tmp_path, capsys, monkeypatch):
    path, ids = stored
    for suffix, head in ((".json", "{"), (".txt", "[Game"), (".svg", "<svg"),
                         (".html", "<!DOCTYPE html>")):
        out = tmp_path / ("g" + suffix)
        assert cli.main(["export", str(ids[0]), "--db", str(path), "-o", str(out)]) == 0
        assert out.read_text(encoding="utf-8").startswith(head)
    capsys.readouterr()
    assert cli.main(["export", str(ids[3]), "--db", str(path), "--format", "text"]) == 0
    text = capsys.readouterr().out
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert cli.main(["import", "-", "--db", str(tmp_path / "s.sqlite")]) == 0
    assert capsys.readouterr().out.startswith("imported <stdin> as game 1")


# -- bad input: one line, exit 1, no traceback --------------------------------------------------

def _lines(stored_path, tmp_path):
    """The text record of the 25-action game, as lines."""
    with Store(stored_path) as st:
        rec = st.get(2)
    return export_cli.render(rec, "text").splitlines(), rec


def _error(capsys, argv, status=1, prog="cargoboard"):
    rc = cli.main(argv)
    cap = capsys.readouterr()
    assert rc == status, (rc, cap)
    assert cap.out == ""
    lines = cap.err.splitlines()
    head = prog + ": error: "
    assert len(lines) == 1 and lines[0].startswith(head), cap.err
    return lines[0][len(head):]


def test_import_names_the_line_of_an_illegal_action(stored, tmp_path, capsys):
    path, ids = stored
    lines, rec = _lines(path, tmp_path)
    # Replace the 5th action by one that is well formed but not legal there.
    idx = [i for i, ln in enumerate(lines) if ln and not ln.startswith(("[", ";"))][4]
    lines[idx] = "b2n"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    msg = _error(capsys, ["import", str(bad), "--db", str(tmp_path / "db.sqlite")])
    assert msg.startswith("%s line %d: action 'b2n' is not legal in " % (bad, idx + 1))


@pytest.mark.parametrize("edit,expect", [
    (lambda t: t.replace("[Seats", '[Colour "red"]\n[Seats'), "line 3: unknown tag [Colour]"),
    (lambda t: t.replace('[Variant "polygon"]\n', ""), "missing tag [Variant]"),
    (lambda t: t.replace('[Result "S=0 N=0"]', '[Result "S=3 N=0"]'),
     "[Result] says 'S=3 N=0', the replay gives 'S=0 N=0'"),
    (lambda t: t.replace('[Game "cargocube"]', '[Game "chess"]'), "unknown game 'chess'"),
    (lambda t: t.replace('[Seats "SN"]', '[Seats "SWN"]'),
     "seats 'SWN' do not match the start position's 'SN'"),
    (lambda t: t.replace("[Start \"", "[Start \"a1=B1,"), "bad start position: corner a1"),
    (lambda t: t + "[Played \"later\"]\n", "tag [Played] after the actions"),
    (lambda t: t.replace('[Actions "25"]', '[Actions "26"]'),
     "[Actions] says 26, the file holds 25"),
    (lambda t: t.replace("[Game", "[Game cargocube]\n[X"), "line 1: malformed tag"),
    (lambda t: t + "e5x\n", "action 'e5x': expected a roll"),
])
def test_import_text_errors(stored, tmp_path, capsys, edit, expect):
    path, ids = stored
    lines, rec = _lines(path, tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text(edit("\n".join(lines) + "\n"))
    msg = _error(capsys, ["import", str(bad), "--db", str(tmp_path / "db.sqlite")])
    assert msg.startswith(str(bad)) and expect in msg


@pytest.mark.parametrize("edit,expect", [
    (lambda d: "{\"header\": ", "not valid JSON"),
    (lambda d: [1, 2], "expected a JSON object"),
    (lambda d: {**d, "version": 7}, "version 7 not supported"),
    (lambda d: {**d, "comment": "hi"}, ": unknown field 'comment'"),
    (lambda d: {**d, "actions": [dict(d["actions"][0], note="x")]},
     "action 1: unknown field 'note'"),
    (lambda d: {**d, "header": {**d["header"], "colour": "red"}}, "header: unknown field 'colour'"),
    (lambda d: {**d, "header": {**d["header"], "start": ""}}, "'start' must be a non-empty"),
    (lambda d: {**d, "actions": d["actions"][:3] + [{"ply": 4, "action": "b2n"}]},
     "action 4 (b2n): action 'b2n' is not legal"),
    (lambda d: {**d, "actions": [dict(d["actions"][0], position="e5=B1 SN S a")]},
     "action 1 (%s): the position is"),
    (lambda d: {**d, "actions": [dict(d["actions"][0], scores={"S": 1, "N": 0})]},
     "scores are S=0 N=0 by the rules, the file says S=1 N=0"),
    (lambda d: {**d, "actions": [dict(d["actions"][0], seat="N")]},
     "played by N, but S is to move"),
    (lambda d: {**d, "final": dict(d["final"], over=True)}, "final: the game is not over"),
    (lambda d: {**d, "final": dict(d["final"], winners="N")},
     "final: winners are '' by the rules"),
])
def test_import_json_errors(stored, tmp_path, capsys, edit, expect):
    path, ids = stored
    with Store(path) as st:
        rec = st.get(ids[1])
    doc = json.loads(export_cli.render(rec, "json"))
    new = edit(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(new if isinstance(new, str) else json.dumps(new))
    msg = _error(capsys, ["import", str(bad), "--db", str(tmp_path / "db.sqlite")])
    if "%s" in expect:
        expect = expect % rec.actions[0]
    assert msg.startswith(str(bad)) and expect in msg, msg
    assert not (tmp_path / "db.sqlite").exists() or not Store(tmp_path / "db.sqlite").list()


def test_import_of_what_is_no_game_file_ends_in_one_line(tmp_path, capsys):
    """'[' * 100000 + ']' * 100000 raised RecursionError with a traceback; /dev/zero was read
    for ever. Each is one line and nothing is stored."""
    db = tmp_path / "db.sqlite"
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    assert _error(capsys, ["import", str(deep), "--db", str(db)]) == \
        "%s: not a game file (JSON nested too deeply)" % deep
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_INPUT_FILE + 1)
    assert _error(capsys, ["import", str(big), "--db", str(db)]) == \
        "%s is longer than 16 MiB: no game file (some KB) is that long" % big
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "cargoboard", "import", "/dev/zero", "--db",
                           str(db)], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (1, "cargoboard: error: /dev/zero is longer than "
                                                 "16 MiB: no game file (some KB) is that long\n")
    assert not db.exists()


def test_import_of_an_svg_or_html_export_says_which_exports_import(stored, tmp_path, capsys):
    """`import g1.svg` / `g1.html` said "missing tag [Game]": now it says that such an export
    cannot be imported and which can, by the suffix or (no suffix) by the first character."""
    path, _ = stored
    db = tmp_path / "db.sqlite"
    with Store(path) as st:
        rec = st.get(2)
    for name, fmt, what in (("g1.svg", "svg", "an SVG diagram"), ("g1.html", "html", "an HTML page"),
                            ("g1.htm", "html", "an HTML page"), ("picture", "svg", "an SVG or XML file"),
                            ("page", "html", "an HTML page")):
        f = tmp_path / name
        f.write_text(export_cli.render(rec, fmt))
        msg = _error(capsys, ["import", str(f), "--db", str(db)])
        assert msg == ("%s is %s, which cannot be imported: import reads a game's JSON or text "
                       "export (.json, .txt; `cargoboard export GAME --format json|text`)"
                       % (f, what)), msg
    assert not db.exists()


@pytest.mark.parametrize("output", [[], ["-o", "-"]])
def test_force_without_a_file_to_replace_is_a_usage_error(stored, tmp_path, output):
    """`export 1 --force` without -o (or with -o -, standard output) wrote the game and exited
    0, --force doing nothing: options that do not fit together exit 2 with one line, as
    `--at` with `--format text` does."""
    import clirun
    proc = clirun.run("export", "1", "--db", str(stored[0]), "--force", *output, check_rc=2)
    assert (proc.stdout, proc.stderr) == ("", "cargoboard: error: --force applies to -o FILE "
                                              "only (it lets FILE be replaced)\n"), proc


def test_command_errors_are_one_line(stored, tmp_path, capsys):
    path, ids = stored
    db = str(path)
    assert "no game 999 in" in _error(capsys, ["export", "999", "--db", db])
    assert "game id must be a number, not 'x'" in _error(capsys, ["replay", "x", "--db", db])
    missing = tmp_path / "none.sqlite"
    assert _error(capsys, ["export", "1", "--db", str(missing)]).startswith("no game store at")
    assert not missing.exists()
    # a step past the game's end is out of range as one below 0 is: a usage error (2; it was
    # 1 while -1 was 2), the game's range said
    assert _error(capsys, ["export", "2", "--db", db, "-f", "svg", "--at", "26"],
                  status=2) == "game 2 has 25 actions: --at must be 0..25"
    assert _error(capsys, ["replay", "2", "--db", db, "--all", "--from", "26"],
                  status=2) == "game 2 has 25 actions: --from must be 0..25"
    assert "--at applies to --format svg only" in _error(capsys, ["export", "2", "--db", db,
                                                                  "--at", "3"], status=2)
    # a step below 0 is out of range (usage, 2; it was 1), said before the store is read
    assert _error(capsys, ["export", "2", "--db", db, "-f", "svg", "--at", "-1"],
                  status=2) == "--at must be 0 or more, not -1 (0 = the start)"
    assert _error(capsys, ["replay", "2", "--db", db, "--all", "--from", "-1"],
                  status=2) == "--from must be 0 or more, not -1 (0 = the start)"
    assert _error(capsys, ["import", str(tmp_path / "nofile.json"), "--db", db]) == \
        "no such file: %s" % (tmp_path / "nofile.json")
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert "is not UTF-8 text" in _error(capsys, ["import", str(binary), "--db", db])
    notdb = tmp_path / "not.sqlite"
    notdb.write_text("this is no database, " * 100)
    assert "is not a usable game store" in _error(capsys, ["export", "1", "--db", str(notdb)])


def test_output_that_cannot_be_written_is_said_in_words(stored, tmp_path, capsys):
    """`export -o adir` said "[Errno 21] Is a directory: 'adir'", `-o nodir/x.svg` an [Errno 2]
    text: the path and what is wrong with it, before the store is read."""
    path, ids = stored
    db = str(path)
    assert _error(capsys, ["export", "1", "--db", db, "-o", str(tmp_path)]) == \
        "cannot write %s: it is a folder; give a file name" % tmp_path
    out = tmp_path / "nodir" / "x.svg"
    assert _error(capsys, ["export", "1", "--db", db, "-o", str(out)]) == \
        "cannot write %s: the folder %s does not exist" % (out, out.parent)
    assert not out.parent.exists()
    # any other OSError that reaches the CLI is told the same way: its path, then the words
    from cargoboard.clikit import error_text
    assert error_text(IsADirectoryError(21, "Is a directory", "adir")) == "adir: Is a directory"
    assert error_text(FileExistsError(17, "File exists", "a", None, "b")) == "a -> b: File exists"
    assert error_text(OSError("cannot open /dev/ttyACM0: busy")) == \
        "cannot open /dev/ttyACM0: busy"


def test_debug_shows_the_traceback(stored):
    from cargoboard.store import StoreError
    path, ids = stored
    for argv in (["--debug", "export", "999", "--db", str(path)],
                 ["export", "999", "--db", str(path), "--debug"]):
        with pytest.raises(StoreError):
            cli.main(argv)


def test_every_command_help_has_an_example(capsys):
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert {"export", "import", "replay", "perft", "legal", "show", "sim", "demo"} <= set(
        sub.choices)
    assert "example" in parser.format_help()
    for name, p in sub.choices.items():
        text = p.format_help()
        assert "example" in text and "\n  cargoboard %s" % name in text, name


def test_export_never_replaces_a_file_unasked_nor_the_store(stored, tmp_path, capsys,
                                                            monkeypatch):
    """`export 1 --db s.sqlite -o s.sqlite` wrote the JSON over the store it read (every game
    lost), and any existing -o FILE was replaced silently."""
    path, ids = stored
    db = tmp_path / "s.sqlite"
    db.write_bytes(path.read_bytes())
    before = db.read_bytes()
    for force in ([], ["--force"]):
        assert _error(capsys, ["export", "1", "--db", str(db), "-o", str(db)] + force) == \
            "cannot write %s: it is the game store being read; give another file" % db
        link = tmp_path / "link.json"  # another name of the store: refused as well
        if not link.exists():
            link.symlink_to(db)
        assert "it is the game store being read" in _error(
            capsys, ["export", "1", "--db", str(db), "-o", str(link)] + force)
    assert db.read_bytes() == before
    with Store(db) as st:
        assert len(st.list()) == len(ids)
    # the default store (no --db) is recognised too
    monkeypatch.setenv("CARGOBOARD_DB", str(db))
    assert "it is the game store being read" in _error(
        capsys, ["export", "1", "-o", str(db), "--force"])
    monkeypatch.delenv("CARGOBOARD_DB")
    out = tmp_path / "keep.json"
    out.write_text("a file of mine\n")
    assert _error(capsys, ["export", "1", "--db", str(db), "-o", str(out)]) == \
        "cannot write %s: it exists; give another file, or --force to replace it" % out
    assert out.read_text() == "a file of mine\n"
    out.chmod(0o640)
    assert cli.main(["export", "1", "--db", str(db), "-o", str(out), "--force"]) == 0
    assert json.loads(out.read_text())["header"]["id"] == 1
    assert out.stat().st_mode & 0o777 == 0o640  # replaced, its mode kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json", "link.json", "s.sqlite"]



def test_export_to_a_device_or_a_pipe_needs_no_force(stored, tmp_path, capsys):
    """`export 1 -o /dev/null` was refused ("it exists; ... --force"): a character device or a
    pipe holds no file of the user's to protect, and writing to it is what was asked."""
    import os
    import threading
    path, _ = stored
    assert cli.main(["export", "1", "--db", str(path), "-o", os.devnull]) == 0
    assert capsys.readouterr().err == "wrote game 1 as json to %s\n" % os.devnull
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    assert cli.main(["export", "1", "--db", str(path), "-o", str(fifo)]) == 0
    reader.join(10)
    assert json.loads(got[0])["header"]["id"] == 1

def test_export_never_writes_the_files_sqlite_keeps_beside_the_store(stored, tmp_path, capsys,
                                                                    monkeypatch):
    """`export 5 -o good.sqlite-journal --db good.sqlite` wrote a file that SQLite then took
    for the journal of an unfinished write. The store's -journal, -wal and -shm names are
    refused as the store itself is; `-o ''` silently meant standard output."""
    path, ids = stored
    monkeypatch.chdir(path.parent)
    for end in ("-journal", "-wal", "-shm"):
        for name in (path.name + end, str(path) + end):
            assert _error(capsys, ["export", "1", "--db", path.name, "-o", name, "--force"]) == \
                "cannot write %s: SQLite keeps the game store's own %s file under that " \
                "name; give another file" % (name, end)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert _error(capsys, ["export", "1", "--db", str(path), "-o", ""], status=2,
                  prog="cargoboard export") == "--output/-o wants a file name, not ''"


def test_export_that_runs_out_of_room_leaves_the_old_file(stored, tmp_path):
    """A write that fails half way (here the file size limit, as a full disk) leaves the file
    that was there, whole, and no part file beside it."""
    import resource
    import signal
    import subprocess
    import sys
    path, ids = stored
    out = tmp_path / "g.html"
    out.write_text("the old page\n")

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    proc = subprocess.run([sys.executable, "-m", "cargoboard", "export", str(ids[1]), "--db",
                           str(path), "-o", str(out), "--force"], capture_output=True, text=True,
                          preexec_fn=small_files)
    assert proc.returncode == 1, proc
    assert proc.stderr == "cargoboard: error: cannot write %s: File too large\n" % out
    assert out.read_text() == "the old page\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.html"]


def test_control_characters_of_a_game_file_are_not_printed_raw(tmp_path, capsys):
    """A game file's variant (free text) with ESC sequences and a newline went raw to the
    terminal from `import`, `games` and `replay`: it could clear the screen, retitle the
    window or forge a line. They are printed as escapes; the layout column is as wide as its
    longest entry (polygon+both+teleport overflowed it)."""
    rec = exportgames.random_cephalopod_game(1, "3x3", actions=6)
    doc = gamefile.to_dict(rec)
    doc["header"]["variant"] = "a\x1b[2J\x1b]0;pwned\x07\nfake line"
    game = tmp_path / "esc.json"
    game.write_text(json.dumps(doc))
    db = tmp_path / "s.sqlite"
    with Store(db) as st:
        st.add(exportgames.random_game(3, variant="polygon+both+teleport", actions=4))
    out = []
    for argv in (["import", str(game)], ["import", str(game)], ["games"],
                 ["replay", "2", "--all", "--color", "never"]):
        assert cli.main(argv + ["--db", str(db)]) == 0
        out.append(capsys.readouterr().out)
    for text in out:
        assert not any(c != "\n" and not c.isprintable() for c in text), text
        assert "a\\x1b[2J\\x1b]0;pwned\\x07\\nfake line" in text
        assert "\nfake line" not in text
    table = out[2].splitlines()
    assert len(table) == 3
    col = table[0].index("seats")
    assert table[1][col - 1:col + 3] == " SN " and table[2][col - 1:col + 3] == " wb "
    assert table[0].index("stored") == table[1].index("20")  # when stored, not played


@pytest.fixture(scope="module")
def four_kinds(tmp_path_factory):
    """(a store holding a seeded game of each of the four games, [(id, kind)]): Cargocube with
    cards, Cephalopod, КУБитва, and «Формула 99» played by its engines (its cards hidden until
    the end: replay shows its record view)."""
    from cargoboard.games.formula99.hotseat import HotSeat
    from cargoboard.store import GameRecord
    from test_kubitva_host import game as kubitva_game
    f99 = HotSeat(players=2, level=1, seed=5, engine="all", out=lambda *a: None)
    f99.run()
    start, texts = f99.record()
    games = [exportgames.random_game(7, 3, True, 60),
             exportgames.random_cephalopod_game(3, "5x5", 40),
             kubitva_game(3, actions=60),
             GameRecord("formula99", "L1", f99.pos.SEAT_LETTERS, start, texts, source="play")]
    path = tmp_path_factory.mktemp("kinds") / "games.sqlite"
    with Store(path) as st:
        ids = [(st.add(rec), rec.kind) for rec in games]
    return path, ids


def test_replay_from_a_step_replays_the_game_once(four_kinds, capsys, monkeypatch):
    """`cargoboard replay --from N` worked the game's positions out through the rules twice
    (once to check N, once to show them) and, for a game that hides cards, its shown view
    twice. Now once each; what it prints is the tail of the whole replay, as before (the same
    bytes as before the change, checked on these games)."""
    from cargoboard.games.formula99 import record as f99record
    from cargoboard.store import GameRecord
    path, ids = four_kinds
    worked = []
    replay, view = GameRecord.replay, f99record.shown  # (positions() is replay()'s first)
    monkeypatch.setattr(GameRecord, "replay",
                        lambda rec: worked.append("rules") or replay(rec))
    monkeypatch.setattr(f99record, "shown", lambda *a: worked.append("view") or view(*a))
    for gid, kind in ids:
        argv = ["replay", str(gid), "--db", str(path), "--all", "--color", "always"]
        assert cli.main(argv) == 0
        whole = capsys.readouterr().out
        title, _, steps = whole.partition("\n\nstep 0 of ")
        n = len(steps.split("\nstep ")) // 2
        del worked[:]
        assert cli.main(argv + ["--from", str(n)]) == 0
        assert worked == ["rules"] + ["view"] * (kind == "formula99"), (kind, worked)
        tail = capsys.readouterr().out
        assert tail.startswith(title + "\n\nstep %d of " % n)
        assert whole.endswith(tail[len(title):]) and len(tail) < len(whole)


def test_the_html_replay_draws_each_step_once(four_kinds, tmp_path, monkeypatch):
    """The replay page drew each step's pieces twice, for its frames and for the step's SVG
    (whose other layers the page takes): 40 % of a 486-action КУБитва game's page (web43). Now
    once a step (and once more for the diagram the page holds for readers without script);
    the pages are the same bytes (checked on seeded games of every kind against the code
    before)."""
    from cargoboard.export import diagram
    from cargoboard.store import Store
    path, ids = four_kinds
    for gid, kind in ids:
        draw = diagram.for_kind(kind)
        pieces, drawn = draw.pieces, []
        monkeypatch.setattr(draw, "pieces", lambda pos: drawn.append(pos) or pieces(pos))
        out = tmp_path / ("g%d.html" % gid)
        assert cli.main(["export", str(gid), "--db", str(path), "--format", "html",
                         "-o", str(out)]) == 0
        with Store(path) as st:
            steps = len(st.get(gid).actions) + 1
        assert len(drawn) == steps + 1, (kind, len(drawn), steps)
        monkeypatch.setattr(draw, "pieces", pieces)
