"""A running `cargoboard sim --pty PATH` is found as a board is (cargoboard.virtual_ports):
`ports` lists it, `sync` without --port takes it when it is the only board and names every
board when there are several; a sim that is gone is forgotten without a word. Each test has
its own folder of running sims (conftest), so the sims of parallel tests, or the user's, are
not seen."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cargoboard import virtual_ports
from cargoboard.link import ELSEWHERE, NO_BOARD, find_port, no_board
from cargoboard.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clirun import run  # noqa: E402
from picotarget import SimProcess  # noqa: E402


@pytest.fixture
def no_usb_board(monkeypatch):
    """What a machine without a Pico plugged in sees (for the in-process checks)."""
    from cargoboard import link
    monkeypatch.setattr(link.list_ports, "comports", lambda: [])


def test_ports_and_sync_find_the_running_virtual_board(tmp_path):
    from serial.tools import list_ports
    from cargoboard.link import PICO_VID
    if any(p.vid == PICO_VID for p in list_ports.comports()):
        return  # a real board is plugged in on this machine: the commands would see it too
    script = tmp_path / "game.txt"
    script.write_text("new-game cargocube polygon SN\nlift c3\nplace c2\nwait 600\n"
                      "new-game cargocube polygon SN\n")
    first = SimProcess(tmp_path / "board", target="unix", script=script)
    second = None
    try:
        r = run("ports")
        assert r.stdout == "%s\tvirtual board (cargoboard sim --target unix, pid %d)\n" % (
            tmp_path / "board", first.proc.pid), r.stdout
        assert find_port(None) == str(tmp_path / "board")
        db = tmp_path / "games.sqlite"
        r = run("sync", "--db", str(db))  # no --port: the single board there is
        assert r.stdout.splitlines()[-1].startswith("%s: 1 new game stored" % (tmp_path / "board"))
        with Store(db, readonly=True) as st:
            assert len(st.list()) == 1

        second = SimProcess(tmp_path / "other", target="unix")
        r = run("ports")
        assert [line.split("\t")[0] for line in r.stdout.splitlines()] == [
            str(tmp_path / "board"), str(tmp_path / "other")]
        r = run("sync", "--db", str(db), check_rc=1)
        assert r.stderr == ("cargoboard: error: several boards found: %s (virtual board "
                            "(cargoboard sim --target unix, pid %d)); %s (virtual board "
                            "(cargoboard sim --target unix, pid %d)); choose one with --port\n"
                            % (tmp_path / "board", first.proc.pid, tmp_path / "other",
                               second.proc.pid))

        # a sim stopped (Ctrl-C, SIGTERM) takes its record away; a killed one cannot, and
        # its record is dropped silently by the next look
        first.stop()
        assert len(list(Path(os.environ[virtual_ports.ENV]).glob("*.json"))) == 1
        second.stop(signal.SIGKILL)
        assert len(list(Path(os.environ[virtual_ports.ENV]).glob("*.json"))) == 1
        r = run("ports", check_rc=1)
        assert (r.stdout, r.stderr) == ("", "cargoboard: error: %s\n" % NO_BOARD)
        assert list(Path(os.environ[virtual_ports.ENV]).iterdir()) == []
    finally:
        first.stop()
        if second:
            second.stop()


def test_a_record_whose_sim_is_gone_or_not_its_pty_is_dropped(tmp_path, no_usb_board):
    folder = Path(os.environ[virtual_ports.ENV])
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    # a process that is gone; a live one whose link leads elsewhere (a pid used again)
    (tmp_path / "b").symlink_to("/dev/null")
    for pid, port in ((gone.pid, tmp_path / "a"), (os.getpid(), tmp_path / "b")):
        (folder / ("%d-abc123.json" % pid)).write_text(json.dumps(
            {"port": str(port), "pty": "/dev/pts/999", "target": "unix"}))
    (folder / ("%d-abc123.json" % os.getpid())).write_text("{")  # a damaged record of ours
    (folder / ("%d-def456.part" % gone.pid)).write_text("{")  # a register() that was killed
    assert virtual_ports.running() == []
    assert list(folder.iterdir()) == []
    try:
        find_port(None)
    except Exception as e:
        assert str(e) == NO_BOARD + ELSEWHERE
    else:
        raise AssertionError


def test_a_record_that_is_a_fifo_or_huge_is_dropped_unread(no_usb_board):
    """A record is read to a bound, and only from a plain file: a FIFO under a record's name
    blocked `cargoboard ports` for good, and a huge file was read whole."""
    import threading
    folder = Path(os.environ[virtual_ports.ENV])
    os.mkfifo(folder / ("%d-abc123.json" % os.getpid()))
    (folder / ("%d-def456.json" % os.getpid())).write_text(
        " " * (virtual_ports.MAX_RECORD + 1) + "{}")
    got = []
    reader = threading.Thread(target=lambda: got.append(virtual_ports.running()), daemon=True)
    reader.start()
    reader.join(10)
    assert got == [[]]
    assert list(folder.iterdir()) == []


def test_a_registry_folder_others_may_write_is_not_used(tmp_path, monkeypatch):
    """In the shared temp folder someone else could make the folder first: its records are
    not read, and a sim registers nothing there (it is served all the same)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv(virtual_ports.ENV, str(shared))
    assert virtual_ports.register(tmp_path / "board", "/dev/pts/1") is None
    (shared / ("%d-abc.json" % os.getpid())).write_text("{}")
    assert virtual_ports.running() == []
    assert [p.name for p in shared.iterdir()] == ["%d-abc.json" % os.getpid()]  # left alone


def test_the_default_folder_is_the_users(monkeypatch):
    monkeypatch.delenv(virtual_ports.ENV)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/")
    assert virtual_ports.folder() == Path("/cargoboard/sims")
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert virtual_ports.folder().name == "cargoboard-sims-%d" % os.getuid()


def test_the_users_own_files_in_the_folder_are_left_alone(tmp_path, monkeypatch, no_usb_board):
    """$CARGOBOARD_SIM_PORTS may name a folder of the user's: only the files register() names
    are read or removed there. Before, every *.json that was no live record was deleted: one
    `cargoboard ports` took the user's settings.json."""
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o755)
    monkeypatch.setenv(virtual_ports.ENV, str(mine))
    own = {"settings.json": "{", "123-notes.json": "[]", "9-abcdef.json.bak": "x",
           "1-abcdef.partial": "x"}
    for name, text in own.items():
        (mine / name).write_text(text)
    assert virtual_ports.running() == []
    assert sorted(p.name for p in mine.iterdir()) == sorted(own)


def test_deploy_finds_only_the_emulated_picos_virtual_board(tmp_path, no_usb_board, capsys):
    """A unix-port sim has no REPL to take a deploy: `deploy` without --port does not pick it
    (nor count it among several boards), where `sync` does; with only such a board there,
    deploy's line names it and says why it is no answer, in deploy's words, which find_port
    (sync's too) does not say."""
    from cargoboard import cli
    from cargoboard.deploy import DEPLOYABLE_SIMS, find_deployable_port
    folder = Path(os.environ[virtual_ports.ENV])
    master, slave = os.openpty()
    try:
        pty = os.ttyname(slave)
        ports = {}
        for target in ("unix", "pico"):
            ports[target] = tmp_path / target
            ports[target].symlink_to(pty)
        (folder / ("%d-aaaaaa.json" % os.getpid())).write_text(json.dumps(
            {"port": str(ports["unix"]), "pty": pty, "target": "unix"}))
        assert find_port(None) == str(ports["unix"])
        there = "the board there is: %s, virtual board (cargoboard sim --target unix, pid %d)" % (
            ports["unix"], os.getpid())
        with pytest.raises(Exception) as e:
            find_port(None, DEPLOYABLE_SIMS)
        assert str(e.value) == "%s%s (%s)" % (no_board(DEPLOYABLE_SIMS), ELSEWHERE, there)
        # the unix port's board is named, and why it is no answer (it said only "no board
        # found ... start a virtual board with `cargoboard sim --target pico`" beside it)
        deploy_line = (
            "%s%s (%s, which cannot take a deploy; `cargoboard deploy --flash DIR` deploys to "
            "the virtual board's flash)" % (no_board(DEPLOYABLE_SIMS), ELSEWHERE, there))
        with pytest.raises(Exception) as e:
            find_deployable_port(None)
        assert str(e.value) == deploy_line
        assert cli.main(["deploy", "--dry-run"]) == 0  # (PORT: no board to deploy to)
        assert "would run: mpremote connect PORT " in capsys.readouterr().out
        assert cli.main(["deploy"]) == 1
        assert capsys.readouterr() == ("", "cargoboard: error: %s\n" % deploy_line)
        (folder / ("%d-bbbbbb.json" % os.getpid())).write_text(json.dumps(
            {"port": str(ports["pico"]), "pty": pty, "target": "pico"}))
        assert find_port(None, DEPLOYABLE_SIMS) == str(ports["pico"])
    finally:
        os.close(master)
        os.close(slave)


def test_a_record_of_an_id_no_process_can_have_is_dropped(no_usb_board):
    """A record's name may hold any number: one too large for the system's process ids was a
    traceback (OverflowError) in `cargoboard ports`, in sync and in serve, for good."""
    folder = Path(os.environ[virtual_ports.ENV])
    (folder / "99999999999-abc123.json").write_text(json.dumps(
        {"port": "/dev/null", "pty": "/dev/null", "target": "unix"}))
    (folder / "99999999999-def456.part").write_text("{")
    assert virtual_ports.running() == []
    assert list(folder.iterdir()) == []

