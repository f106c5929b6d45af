"""What every command does with bad surroundings rather than bad arguments (found by an audit
of the CLI): a closed standard output or input, a full disk behind standard output, an
argument so long that echoing it would flood the terminal. One line each, never a traceback."""

import os
import subprocess

import exportgames
import pytest

from cargoboard import cli
from cargoboard.store import Store
from clirun import cargoboard_exe


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("store") / "games.sqlite"
    with Store(path) as st:
        st.add(exportgames.random_game(1, actions=10))
    return path


def shell(command, cwd):
    """command run by bash with $B the console script (for redirections such as `>&-`)."""
    return subprocess.run(["bash", "-c", command], cwd=str(cwd), capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, B=cargoboard_exe()))


@pytest.mark.parametrize("command", ["legal polygon", "export 1 --db %(db)s",
                                     "demo --out dd --actions 3 --no-screen"])
def test_a_closed_standard_output_is_said_before_anything_runs(store_path, tmp_path, command):
    """`legal polygon >&-` printed nothing and exited 0; export raised AttributeError; demo
    left its folder behind. Python has no sys.stdout then: said once, exit 1, nothing made."""
    proc = shell("$B %s >&-" % (command % {"db": store_path}), tmp_path)
    assert (proc.returncode, proc.stderr) == (
        1, "cargoboard: error: standard output is closed\n"), proc
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, rc, out", [
    ("replay 1 --db %(db)s", 0, "step 10 of 10"),
    ("import - --db new.sqlite", 1, ""),
    ("play kubitva --save s.txt", 0, "saved 0 actions to s.txt"),
    ("play formula99 --save s.json", 0, "saved to s.json"),
])
def test_a_closed_standard_input_reads_as_empty(store_path, tmp_path, command, rc, out):
    """`<&-` gave AttributeError (replay, import -), TypeError (play kubitva) and "input():
    lost sys.stdin" (play formula99): an interactive command ends as at the end of input."""
    proc = shell("$B %s <&-" % (command % {"db": store_path}), tmp_path)
    assert proc.returncode == rc, proc
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) <= 1, proc.stderr
    assert out in proc.stdout


@pytest.mark.parametrize("command", ["show polygon", "legal --game kubitva board",
                                     "export 1 --db %(db)s", "replay 1 --all --db %(db)s"])
def test_a_full_disk_behind_standard_output_is_said_in_words(store_path, tmp_path, command):
    """`show polygon > /dev/full` said "[Errno 28] No space left on device"."""
    proc = shell("$B %s > /dev/full" % (command % {"db": store_path}), tmp_path)
    assert (proc.returncode, proc.stderr) == (
        1, "cargoboard: error: cannot write the output: No space left on device\n"), proc


def _every_command():
    """Every command and sub-command as typed after `cargoboard` ("" the program itself)."""
    sub = cli.build_parser()._subparsers._group_actions[0]
    return [""] + [p.prog.split(" ", 1)[1] for p in cli._all_parsers(sub)]


@pytest.mark.parametrize("command", _every_command())
def test_help_to_a_full_disk_is_said_in_words(tmp_path, command):
    """`cargoboard --help > /dev/full` and `perft --help > /dev/full` exited 0 without a word
    (argparse drops a failed write): its help goes through every command's output error."""
    proc = shell("$B %s --help > /dev/full" % command, tmp_path)
    assert (proc.returncode, proc.stderr) == (
        1, "cargoboard: error: cannot write the output: No space left on device\n"), proc
    proc = shell("set -o pipefail; $B %s --help | head -c 10" % command, tmp_path)  # stops early
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "usage: car", ""), proc


@pytest.mark.parametrize("game, start", [("cargocube", "polygon"), ("cephalopod", "5x5"),
                                         ("kubitva", "board"), ("formula99", "start")])
def test_an_error_line_echoes_at_most_600_characters(capsys, game, start):
    """A 100 KB action was echoed whole in its error line (every game)."""
    assert cli.main(["show", "--game", game, start, "x" * 100000]) == 1
    cap = capsys.readouterr()
    line = "cargoboard: error: " + "action 'x" + "x" * (600 - len("action 'x") - 1) + "\u2026\n"
    assert cap.err == line


@pytest.mark.parametrize("argv, said", [
    (["X"], "argument COMMAND: invalid choice: %s"),
    (["show", "--game", "X"], "argument --game: invalid choice: %s"),
    (["export", "1", "--format", "X"], "argument --format/-f: invalid choice: %s"),
    (["sim", "--target", "X"], "argument --target: invalid choice: %s"),
    (["games", "--players", "X"], "argument --players: a number of seats 1..9, not %s"),
    (["games", "--players=X"], "argument --players: a number of seats 1..9, not %s"),
    (["perft", "polygon", "X"], "argument DEPTH: invalid int value: %s"),
    (["legal", "polygon", "--players", "X"], "argument --players: invalid int value: %s"),
])
def test_argparses_own_errors_quote_a_long_argument_short(capsys, argv, said):
    """argparse's usage errors ("invalid choice: 'xxx...'", an option's own `not %r`) echoed a
    100 KB argument whole, then up to 600 characters of it (`games --players <5000 digits>`):
    now quoted short as our own messages quote one (clikit.shown), in every command."""
    with pytest.raises(SystemExit) as e:
        cli.main([a.replace("X", "x" * 100000) for a in argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    message = err.splitlines()[-1].split(": error: ", 1)[1]
    assert message.startswith(said % ("'" + "x" * 40 + "\u2026 (100000 characters)'")), message


def test_an_unrecognized_long_argument_is_quoted_short(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["games", "y" * 5000])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "cargoboard: error: unrecognized arguments: " + "y" * 40 + "\u2026 (5000 characters)")


def test_a_device_output_needs_no_writable_folder_and_a_dangling_link_is_taken(tmp_path,
                                                                                monkeypatch):
    """`export --force -o /dev/null` is written as it is: its folder /dev, which a user may not
    write, is no reason to refuse it (the tests run as root, so os.access is made to say no).
    A link to nothing exists for `--save`: open(..., "x") refuses it at the game's end."""
    import os
    from cargoboard.clikit import CommandError, check_new_file
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    check_new_file(os.devnull, replace=True)
    with pytest.raises(CommandError, match="may not be written"):
        check_new_file(str(tmp_path / "new.svg"), replace=True)
    monkeypatch.undo()
    link = tmp_path / "game.json"
    link.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(CommandError, match="it exists"):
        check_new_file(str(link))


@pytest.mark.parametrize("argv, words", [
    (["perft", "--game", "kubitva", "boards", "1"], "'board' / 'full'"),
    (["legal", "--game", "cephalopod", "5x5x"], "5x5, 3x5, 5x3, 3x3"),
    (["perft", "5x5", "1"], "'polygon'"),
    (["legal", "--game", "formula99", "strat"], "'start'"),
    (["kubitva", "hint", "boards"], "'board' / 'full'"),
    (["cephalopod", "hint", "3x3x"], "5x5, 3x5, 5x3, 3x3")])
def test_a_mistyped_start_word_gets_the_start_words(capsys, argv, words):
    """A one-word POSITION that does not read got only the notation's field count ("position
    needs 5 fields ..., got 1"), never the start words it most likely misspelt (audit F5)."""
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("cargoboard: error: position needs") and err.count("\n") == 1, err
    assert ("; POSITION: " in err) and words in err.split("; POSITION: ")[1], err


@pytest.mark.parametrize("command", ["play kubitva --save s.txt", "play formula99 --save s.json"])
def test_a_save_that_runs_out_of_room_leaves_no_half_file(tmp_path, command):
    """A --save write that fails half way (here the file size limit, as a full disk) says so
    naming the file and leaves no file: open(path, "x") left half of one, which the same
    --save then refused as existing."""
    import resource
    import signal

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    name = command.split()[-1]
    proc = subprocess.run([cargoboard_exe(), *command.split()], cwd=str(tmp_path), input="",
                          capture_output=True, text=True, timeout=120, preexec_fn=small_files)
    assert (proc.returncode, proc.stderr) == (
        1, "cargoboard: error: cannot write %s: File too large\n" % name), proc
    assert list(tmp_path.iterdir()) == []


def _play_games():
    """The games `cargoboard play` has a sub-command for (each game's own `add_play_parser`)."""
    import argparse
    play = cli.build_parser()._subparsers._group_actions[0].choices["play"]
    return sorted(next(a for a in play._actions
                       if isinstance(a, argparse._SubParsersAction)).choices)


def test_every_game_can_be_played():
    assert _play_games() == ["formula99", "kubitva"]  # (cargocube and cephalopod have none)


@pytest.mark.parametrize("game", _play_games())
def test_play_save_writes_the_form_its_suffix_names_and_import_takes_it(tmp_path, game):
    """`play kubitva --save k.json` wrote the text record, which `import k.json` then refused
    as "not valid JSON" (play formula99 chose by the suffix). Every game's --save now writes
    JSON for .json and the text record for .txt, and refuses any other name before the game,
    one line, exit 2, nothing made."""
    def cargoboard(*args):
        return subprocess.run([cargoboard_exe(), *args], cwd=str(tmp_path), input="",
                              capture_output=True, text=True, timeout=120)
    for name, first in (("g.json", "{"), ("g.TXT", "[")):
        proc = cargoboard("play", game, "--save", name)
        assert proc.returncode == 0 and proc.stderr == "", proc
        assert (tmp_path / name).read_text(encoding="utf-8").startswith(first)
        proc = cargoboard("import", name, "--db", name + ".sqlite")
        assert proc.returncode == 0 and proc.stdout.startswith("imported %s as game " % name), proc
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = cargoboard("play", game, "--save", "g.svg")
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        2, "", "cargoboard: error: --save g.svg: the file's name must end in .json or .txt "
               "(the form it is written in)\n"), proc
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def _path_options():
    """(argv, option) for every option or argument of every command that names a file, a
    folder or a path (its metavar in clikit.PATH_NAMES), given '' (other required arguments
    get "1": the empty name is refused before they are read)."""
    from cargoboard import clikit
    sub = cli.build_parser()._subparsers._group_actions[0]
    out = []
    for p in cli._all_parsers(sub):
        words = p.prog.split(" ")[1:]
        positionals = [a for a in p._actions if not a.option_strings and a.required
                       and not isinstance(a, type(sub))]
        for action in p._actions:
            if action.metavar not in clikit.PATH_NAMES:
                continue
            rest = ["" if a is action else "1" for a in positionals]
            opt = [action.option_strings[0], ""] if action.option_strings else []
            out.append((words + rest + opt, "/".join(action.option_strings) or action.metavar))
    return out


@pytest.mark.parametrize("argv, option", _path_options())
def test_an_empty_name_for_a_file_is_a_usage_error_and_makes_nothing(tmp_path, argv, option):
    """`play kubitva --save "$OUT"` with OUT unset played the whole game and saved it nowhere;
    `import k.json --db ''` made the default store under ~/.local/share (stop 41's code
    read). Every option that names a file, a folder or a path refuses '' in one line. (Run
    as a process with a timeout: without the check `sim --pty ''` serves until killed.)"""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("CARGOBOARD_DB", None)
    proc = subprocess.run([cargoboard_exe()] + argv, cwd=str(tmp_path), env=env, timeout=60,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == "", proc
    # named by its command, as argparse names the command's other usage errors
    import itertools
    words = itertools.takewhile(lambda w: w not in ("", "1") and not w.startswith("-"), argv)
    prog = " ".join(["cargoboard"] + list(words))
    assert proc.stderr.startswith("%s: error: %s wants " % (prog, option)), proc
    assert proc.stderr.endswith(", not ''\n") and len(proc.stderr.splitlines()) == 1, proc
    assert list(tmp_path.iterdir()) == []


def test_every_kind_of_path_option_is_checked_for_an_empty_name():
    kinds = {tuple(argv[:1]) for argv, _ in _path_options()}
    assert {("import",), ("export",), ("sim",), ("deploy",), ("sync",), ("serve",), ("demo",),
            ("play",), ("games",)} <= kinds


def test_a_value_error_no_command_expects_is_a_bug_with_its_traceback(monkeypatch, capsys):
    """cli.main caught every ValueError, so a bug that raised one (a bad int(), a wrong
    unpacking of a tuple) was one line and exit 1, as a bad file is, and no traceback told
    where. The errors a command expects of bad input are named (clikit.InputError: a game
    file's, an unknown game's, a sim world's, ...); any other ValueError goes up as a bug."""
    from cargoboard import rules
    from cargoboard.export.gamefile import GameFileError

    def buggy(args):
        raise ValueError("invalid literal for int() with base 10: 'x'")
    monkeypatch.setattr(cli, "cmd_legal", buggy)
    with pytest.raises(ValueError, match="invalid literal"):
        cli.main(["legal", "polygon"])
    assert capsys.readouterr().err == ""
    for expected in (GameFileError("game.json: line 3: not a game"),
                     rules.UnknownGame("unknown game 'chess'")):
        def refused(args, expected=expected):
            raise expected
        monkeypatch.setattr(cli, "cmd_legal", refused)
        assert cli.main(["legal", "polygon"]) == 1
        assert capsys.readouterr().err == "cargoboard: error: %s\n" % expected
