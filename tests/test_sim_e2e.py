"""Simulator end to end: firmware under the MicroPython unix port (the runner's 224k heap), the binary
channel, a real pseudo-terminal driven by real pyserial, the test plug-in (tests/sim_testgame.py)."""

import argparse
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))

import serial  # noqa: E402,F401  (pyserial is a runtime dependency: missing it must fail, not skip)

from cargoboard.sim.runner import UnixRunner, FirmwareError  # noqa: E402
from cargoboard.sim.script import Session, ScriptError, run_script  # noqa: E402
from cargoboard.sim import add_parser  # noqa: E402

PLUGIN = ["test=tests.sim_testgame"]


def _ask(r, ser, line, frames=3):
    ser.write(line)
    ser.flush()
    r.wait_serial_input(2.0)
    r.step(frames)
    out = b""
    deadline = time.time() + 2
    while time.time() < deadline:
        out += ser.read(4096)
        if out.endswith(b"\n") and (b"\nok" in b"\n" + out or b"\nerr" in b"\n" + out):
            break
        time.sleep(0.01)
    return out.decode()


@pytest.fixture
def board():
    r = UnixRunner(plugins=PLUGIN).start()
    ser = serial.Serial(r.port, 115200, timeout=0)
    r.step(1)
    yield r, ser
    ser.close()
    r.stop()


def test_hello_status_and_errors_over_pty(board):
    r, ser = board
    out = _ask(r, ser, b"hello\n")
    from firmware.games import REGISTRY  # every registered game, then the test plug-in
    names = ",".join([e[0] for e in REGISTRY] + ["test"])
    assert "ok cargoboard fw=0.2 proto=1 hal=sim games=%s" % names in out
    out = _ask(r, ser, b"status\n")
    assert "ok state=idle game=-" in out
    assert "err unknown command 'frobnicate'" in _ask(r, ser, b"frobnicate\n")
    assert "err unknown button 'x'" in _ask(r, ser, b"press x\n")
    assert "err unknown game 'nope'" in _ask(r, ser, b"new nope\n")
    assert "err line too long" in _ask(r, ser, b"a" * 700 + b"\n")
    assert "err bad character" in _ask(r, ser, b"\xff\xfe\x01hello\n")
    # a zero byte opens a binary frame (docs/protocol.md): the text after it is frame data
    # until the frame times out (250 ms), then the console answers lines again
    _ask(r, ser, b"\x00hello\n")
    r.step(30)
    assert "ok cargoboard" in _ask(r, ser, b"hello\n")
    assert "err usage: bright" in _ask(r, ser, b"bright 999\n")
    assert "Traceback" not in r.serial_log.decode(errors="replace")
    # still alive and answering
    assert "ok cargoboard" in _ask(r, ser, b"hello\r\n")


def test_plugin_exception_is_an_err_line_not_a_crash(board):
    r, ser = board
    assert "ok setup" in _ask(r, ser, b"new test pair SN\n")
    assert "err unknown layout" in _ask(r, ser, b"new test hexagon SN\n")
    r.sensors[1] = 0x30                       # b2, c2 occupied -> setup complete
    r.step(5)
    out = _ask(r, ser, b"boom\n")
    assert "err RuntimeError: test plug-in exploded on purpose" in out
    assert "ok state=play game=test" in _ask(r, ser, b"status\n")


def test_an_empty_position_is_refused_not_a_new_game():
    """`new GAME position=` (the notation left out) is a bad position, as the game says one
    with any other text; it started the board edition (or the game's usual start). The sim
    script's new-game says the board's refusal too."""
    s = Session(out=lambda text: None)
    try:
        for game, words in (("kubitva", "bad position: position needs 5 fields"),
                            ("cephalopod", "bad position: position needs 2 fields"),
                            ("cargocube", "RulesError: position needs 4 fields"),
                            ("formula99", "bad position: position needs 'L<level>")):
            for text in ("", "x"):
                final = s.query("new %s position=%s" % (game, text))[1]
                assert final.startswith("err " + words), (game, text, final)
            assert s.query("status")[1].startswith("ok state=idle game=-"), game
        with pytest.raises(ScriptError, match="new kubitva: err bad position"):
            s.execute("new-game kubitva position=")
    finally:
        s.close()


def test_led_frames_sent_only_when_changed(board):
    r, ser = board
    n0 = r.led_updates
    r.step(50)
    assert r.led_updates == n0               # idle board: nothing changes
    _ask(r, ser, b"new test pair SN\n")
    r.step(40)                                # setup assist blinks: missing cells
    assert r.led_updates > n0
    o = 3 * 12                                # b2 blinks white while missing
    seen = {bytes(r.leds[o:o + 3])}
    for _ in range(70):
        r.step(1)
        seen.add(bytes(r.leds[o:o + 3]))
    assert bytes(3) in seen and len(seen) == 2


def test_firmware_deterministic_time(board):
    r, ser = board
    r.step(100)
    out = _ask(r, ser, b"status\n", frames=1)
    assert " t=1010 " in out or " t=1020 " in out or " t=1000 " in out, out


def test_quit_ends_process_cleanly():
    r = UnixRunner(plugins=PLUGIN).start()
    r.step(3)
    proc = r.proc
    r.stop()
    assert proc.returncode == 0


def test_a_signal_while_the_firmware_is_spawned_stops_it(monkeypatch):
    """A SIGTERM handler's exception raised in Popen after the fork left the child running
    and unknown to stop(): CI's `sim --target pico --pty` stopped while booting left a child
    behind. The signal now waits until the runner knows the process, and start() stops it on
    the way out."""
    from popensignal import Stopped, sigterm_inside_popen
    with sigterm_inside_popen(monkeypatch, lambda cmd: Path(cmd[0]).name == "micropython") \
            as spawned:  # the firmware, not the build's mpy-cross
        with pytest.raises(Stopped):
            UnixRunner(plugins=PLUGIN).start()
    assert len(spawned) == 1 and spawned[0].returncode is not None


def test_bad_plugin_module_reported_not_crash():
    with UnixRunner(plugins=["ghost=tests.no_such_module"]) as r:
        s = serial.Serial(r.port, 115200, timeout=0)
        out = _ask(r, s, b"new ghost\n")
        s.close()
    assert "err game 'ghost' not available" in out


SCRIPT = """\
# end-to-end with the test plug-in
new-game test row SN
bounce g5                      # no accepted change
slide b2 b3 b4 b5              # b2 -> b5 crossing b3, b4
resolve c2,d2,e2,f2,b5:N:2.0   # candidate +2: next x1 + confirm
expect c2,d2,e2,f2,b5:N:2.0
lift c2
place c4
resolve d2,e2,f2,c4,b5:S:2.3   # candidate +3: next x2 + confirm
press undo
expect c2,d2,e2,f2,b5:N:2.0
"""


def test_script_runs_and_counts_presses(tmp_path):
    p = tmp_path / "game.txt"
    p.write_text(SCRIPT)
    lines = []
    assert run_script(str(p), out=lines.append, plugins=PLUGIN) == 0
    text = "\n".join(lines)
    assert "evt action b2-b5+2" in text
    assert "evt action c2-c4+3" in text
    assert "change +g5" not in text and "change -g5" not in text
    assert "+b3" not in text and "+b4" not in text
    assert "resolved b2-b5+2: 2 press(es)" in text
    assert "resolved c2-c4+3: 3 press(es)" in text
    assert "ok; 6 button press(es)" in text


def test_script_failure_names_the_line(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("new-game test pair SN\n\n# c\nexpect b2,c2:S:0.1\nwait 10\n")
    lines = []
    assert run_script(str(p), out=lines.append, plugins=PLUGIN) == 1
    text = "\n".join(lines)
    assert f"{p}:4: FAILED: expected position" in text
    assert "b2,c2:S:0.0" in text


@pytest.mark.parametrize("line,msg", [
    ("lift a1", "a1 is a corner"),
    ("lift e5", "e5 is empty"),
    ("place e5", "the hand is empty"),
    ("lift z9", "'z9' is not a cell"),
    ("press fire", "unknown button 'fire'"),
    ("dance", "unknown verb 'dance'"),
    ("wait soon", "usage: wait MS"),
    ("wait ²", "usage: wait MS"),  # a digit to str.isdigit, not to int()
    ("turn e5 left", "usage: turn CELL cw|acw"),
    ("wait 99999999999", "wait 99999999999: at most 600000 ms (10 minutes of board time)"),
    ("resolve nowhere", "no candidate" if False else "unreachable"),
    ("send fly", "the board refused 'fly': err unknown command"),
    ("send-err status", "the board took 'status' (ok "),
])
def test_script_bad_lines(tmp_path, line, msg):
    p = tmp_path / "s.txt"
    p.write_text("new-game test pair SN\n" + line + "\n")
    lines = []
    assert run_script(str(p), out=lines.append, plugins=PLUGIN) == 1
    text = "\n".join(lines)
    assert f"{p}:2: FAILED:" in text and msg in text, text


def test_send_err_holds_when_the_board_refuses(tmp_path):
    p = tmp_path / "s.txt"
    p.write_text("new-game test pair SN\nsend-err fly\nsend status\n")
    lines = []
    assert run_script(str(p), out=lines.append, plugins=PLUGIN) == 0, lines


def test_add_parser_cli(tmp_path):
    p = tmp_path / "ok.txt"
    p.write_text("new-game test pair SN\nexpect b2,c2:S:0.0\n")
    ap = argparse.ArgumentParser(prog="cargoboard")
    sub = ap.add_subparsers(dest="cmd")
    add_parser(sub)
    args = ap.parse_args(["sim", "--script", str(p), "--plugin", PLUGIN[0]])
    assert args.func(args) == 0
    args = ap.parse_args(["sim", "--script", str(tmp_path / "missing.txt")])
    assert args.func(args) == 2


def test_failed_resolve_reports_the_presses_it_made(tmp_path):
    """A `resolve` that pressed `confirm` and then failed said 0 presses (issue 18): the
    failed line and the total count every press made."""
    p = tmp_path / "r.txt"
    p.write_text("new-game test pair SN\nresolve nowhere\n")
    lines = []
    assert run_script(str(p), out=lines.append, plugins=PLUGIN) == 1
    text = "\n".join(lines)
    assert text.count("evt button confirm") == 1, text
    assert ("%s:2: FAILED: position unreachable from the candidates (none) (after 1 button "
            "press(es) on this line)" % p) in lines, text
    assert lines[-1].startswith("%s: FAILED; 1 button press(es);" % p), text


def test_unknown_cargocube_layout_lists_the_known_ones(tmp_path):
    """`new cargocube hexagon SN` answered with the cells parser's complaint (issue 18)."""
    p = tmp_path / "hex.txt"
    p.write_text("new-game cargocube hexagon SN\n")
    lines = []
    assert run_script(str(p), out=lines.append) == 1
    assert "%s:1: FAILED: new cargocube: err unknown layout 'hexagon' (layouts: polygon)" % p \
        in lines, lines
    from shared_rules.cargocube import rules as cc
    with pytest.raises(cc.RulesError, match=r"^unknown layout 'hexagon' \(layouts: polygon\)$"):
        cc.start_position(2, "hexagon")


def test_script_that_is_not_utf8_names_the_file_exit_2(tmp_path):
    """A script saved in Latin-1 (issue 18: a bare codec error, exit 1): the file is named,
    the status is the documented 2 (the script cannot be read), no traceback."""
    import subprocess
    p = tmp_path / "latin1.txt"
    p.write_bytes("# caf\u00e9 au lait\nwait 10\n".encode("latin-1"))
    exe = str(Path(sys.executable).parent / "cargoboard")
    r = subprocess.run([exe, "sim", "--script", str(p)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr == ("cargoboard sim: error: %s: cannot read: not UTF-8 text (byte 0xe9 at "
                        "offset 5); a script is UTF-8 text\n" % p)
    assert r.stdout == ""


def _memory_capped():
    """preexec_fn: the child's address space capped at 2 GB, so that a file read without a
    bound ends in a MemoryError at once, not after eating the shared machine's memory."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_script_longer_than_16_mib_is_not_read_on_exit_2(tmp_path):
    """`sim --script /dev/zero` read until memory ran out (a MemoryError traceback, exit 1):
    at most 16 MiB is read, as `import` reads, then one line, the documented exit 2."""
    import subprocess
    exe = str(Path(sys.executable).parent / "cargoboard")
    r = subprocess.run([exe, "sim", "--script", "/dev/zero"], capture_output=True, text=True,
                       timeout=60, preexec_fn=_memory_capped)
    assert (r.returncode, r.stdout, r.stderr) == (
        2, "", "cargoboard sim: error: /dev/zero: cannot read: longer than 16 MiB; a script is "
               "some KB\n"), r


def test_cargocube_setup_from_start_position(tmp_path):
    """new-game cargocube lays out shared_rules start stacks and the firmware starts the game."""
    p = tmp_path / "cc.txt"
    p.write_text("new-game cargocube polygon SN\nsend status\n")
    lines = []
    rc = run_script(str(p), out=lines.append)
    text = "\n".join(lines)
    assert rc == 0, text
    assert "state=play game=cargocube" in text


# --- `cargoboard sim` options and paths: checked first, one line each (the audit of 2026-12) ---

def _sim(*args, cwd=None, env=None, timeout=60):
    import os
    import subprocess
    exe = str(Path(sys.executable).parent / "cargoboard")
    return subprocess.run([exe, "sim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=None if env is None else {**os.environ, **env})


def _one_line(r, status, text):
    assert r.returncode == status, (r.returncode, r.stdout, r.stderr)
    assert r.stderr == "cargoboard sim: error: %s\n" % text, r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_sim_pty_board_that_cannot_start_is_one_line_exit_2(tmp_path):
    """`sim --pty` printed a FirmwareError traceback (exit 1) whenever the board could not start,
    and with an unusable flash said first that it served the board: one line, exit status 2,
    as `--script` gives, nothing linked or said."""
    (tmp_path / "vb").mkdir()
    (tmp_path / "vb" / "flash.img").write_bytes(bytes(100_000))  # no littlefs image
    r = _sim("--flash", "vb", "--pty", "b", cwd=tmp_path)
    _one_line(r, 2, "cannot start the simulated board: the board cannot use its flash %s: "
                    "OSError: %s holds no littlefs image (84)"
              % ((tmp_path / "vb" / "flash.img",) * 2))
    assert r.stdout == "" and not (tmp_path / "b").is_symlink()
    r = _sim("--target", "pico", "--pty", "b", cwd=tmp_path,
             env={"CARGOBOARD_PICO_DIR": "/nonexistent", "CARGOBOARD_PICO_BOOTROM": "",
                  "CARGOBOARD_PICO_UF2": ""})
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("cargoboard sim: error: cannot start the simulated board: no "
                               "/nonexistent/rp2040-bootrom-b1.bin for the emulated Pico"), r.stderr
    # the folder the user chose is where it goes (it advised setting the variable already set)
    assert r.stderr.endswith(" and put it at /nonexistent/rp2040-bootrom-b1.bin\n"), r.stderr


def test_sim_pty_path_is_checked_before_the_board_starts(tmp_path):
    """A --pty PATH that is a file, the user's own link or in no folder: one line, exit 2,
    before any script runs (it used to run the script, then end in a traceback or an
    [Errno] text); the file and the link are left as they were."""
    (tmp_path / "myfile").write_text("mine")
    (tmp_path / "empty.txt").write_text("")
    for extra in ([], ["--script", "empty.txt"]):
        r = _sim(*extra, "--pty", "myfile", cwd=tmp_path)
        _one_line(r, 2, "myfile exists and is not a symlink; not replacing it")
        assert r.stdout == "" and (tmp_path / "myfile").read_text() == "mine"
    (tmp_path / "mylink").symlink_to(tmp_path / "myfile")
    r = _sim("--pty", "mylink", cwd=tmp_path)
    _one_line(r, 2, "mylink is a link to %s, not one to a board's pseudo-terminal; not "
                    "replacing it" % (tmp_path / "myfile"))
    assert (tmp_path / "mylink").resolve() == tmp_path / "myfile"
    r = _sim("--pty", "nodir/p", cwd=tmp_path)
    _one_line(r, 2, "cannot link nodir/p: the folder %s does not exist" % (tmp_path / "nodir"))


def test_sim_pty_replaces_a_stale_link_and_removes_its_own(tmp_path):
    """A link an earlier board left (to a pseudo-terminal that is gone, a killed run) is
    replaced; the board's own link goes when it stops."""
    import select
    import signal
    import subprocess
    pty = tmp_path / "board"
    pty.symlink_to("/dev/pts/999999")
    exe = str(Path(sys.executable).parent / "cargoboard")
    # the firmware's build in the cache first, as the sim's: the wait for the link below is
    # for the sim, not for a build (a cold cache's took longer: TimeoutExpired)
    from cargoboard.build import cached_build
    cached_build()
    sim = subprocess.Popen([exe, "sim", "--pty", str(pty)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        # waited for is the serving line, which comes once the link is made: waiting for the
        # link, the test sent its SIGTERM between the link and the line on a loaded machine
        # (the sim stopped cleanly, having said nothing, and the check of its line failed)
        ready, _, _ = select.select([sim.stdout], [], [], 15)
        first = sim.stdout.readline() if ready else ""
        assert first.startswith("serving the virtual board on %s -> /dev/pts/" % pty), first
        assert pty.readlink().exists()
    finally:
        sim.send_signal(signal.SIGTERM)
        out, err = sim.communicate(timeout=10)
    assert sim.returncode == 0 and err == "", err
    assert not pty.is_symlink()


def test_a_link_a_killed_sim_left_to_a_pty_given_out_again_is_not_opened(tmp_path):
    """A sim killed outright (SIGKILL) leaves its link to /dev/pts/N, and the system gives N to
    the next program that opens a pseudo-terminal. `sync --port LINK` then opened that
    program's terminal and spoke frames into it (and `serve`, which follows an unplugged
    board's link until it is back, held another helper's sim so: seen at stop 43), and `sim
    --pty LINK` refused the link as "in use". The host tools refuse such a link in one line,
    writing nothing to the pty, and the sim replaces it; a link made with its pty is taken."""
    import os
    import subprocess
    from cargoboard import virtual_ports
    from clirun import cargoboard_exe
    master, slave = os.openpty()  # the other program's pseudo-terminal
    try:
        pty = os.ttyname(slave)
        link = tmp_path / "board"
        link.symlink_to(pty)
        assert virtual_ports.stale_link(str(link)) is None  # made with its pty: a live sim's
        hour_ago = time.time() - 3600  # made for an earlier /dev/pts/N of that number
        os.utime(link, (hour_ago, hour_ago), follow_symlinks=False)
        db = tmp_path / "games.sqlite"
        r = subprocess.run([cargoboard_exe(), "sync", "--port", str(link), "--db", str(db)],
                           capture_output=True, text=True, timeout=120)
        assert (r.returncode, r.stdout) == (1, ""), r
        assert r.stderr == (
            "cargoboard: error: %s is a link an earlier virtual board left to %s, which the "
            "system has since given to another program (a terminal, another sim): not opening "
            "it; start the virtual board again (cargoboard sim --pty %s replaces the link) or "
            "remove the link\n" % (link, pty, link)), r.stderr
        os.set_blocking(master, False)
        with pytest.raises(BlockingIOError):
            os.read(master, 4096)  # not a byte was written to the other program's terminal
        assert not db.exists()
        from cargoboard.build import cached_build
        from picotarget import SimProcess
        cached_build()  # (the sim's build made first: its wait is for the sim)
        sim = SimProcess(link, target="unix")  # serving: the link replaced
        try:
            assert str(link.readlink()) != pty
        finally:
            sim.stop()  # (exit 0, nothing on stderr)
        assert not link.is_symlink()
    finally:
        os.close(master)
        os.close(slave)


def test_sim_pty_stopped_by_sigterm_twice_still_tidies_up(tmp_path):
    """A second SIGTERM that came while the first was being handled (a service manager's
    repeat, `kill` typed twice) broke off the tidying: the link could be left and the exit was
    143. The first SIGTERM now makes the board ignore the others until it has stopped: exit 0,
    the link gone, the firmware's process ended."""
    import signal
    from clirun import serving_sim
    pty = tmp_path / "board"
    for pause in (0.0, 0.001, 0.005, 0.02):
        sim = serving_sim(pty)
        children = Path("/proc/%d/task/%d/children" % (sim.pid, sim.pid))
        kids = []
        try:
            kids = children.read_text().split()
        finally:
            sim.send_signal(signal.SIGTERM)
            time.sleep(pause)
            if sim.poll() is None:
                sim.send_signal(signal.SIGTERM)
            out, err = sim.communicate(timeout=10)
        assert (sim.returncode, err) == (0, ""), (pause, sim.returncode, err)
        assert not pty.is_symlink(), pause
        for kid in kids:
            assert not Path("/proc/%s" % kid).exists() or \
                Path("/proc/%s/stat" % kid).read_text().split()[2] == "Z", (pause, kid)


def test_sim_options_are_checked_by_the_parser(tmp_path):
    """--heapsize abc/0/1k and --plugin foo went to the firmware, which died with its stdout
    and stderr dumped; --shift without --rev b was silently ignored: usage errors now."""
    for args, text in ((["--heapsize", "abc"], "argument --heapsize: 'abc' is not a size"),
                       (["--heapsize", "0"], "argument --heapsize: 0 is out of range: 128k"),
                       (["--heapsize", "1k"], "argument --heapsize: 1k is out of range: 128k"),
                       (["--plugin", "foo"], "argument --plugin: 'foo': give NAME=MODULE"),
                       (["--plugin", "x=tests.no_such"],
                        "argument --plugin: no module tests.no_such in %s" % ROOT)):
        r = _sim(*args, "--pty", "b", cwd=tmp_path)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stderr.splitlines()[-1].startswith("cargoboard sim: error: " + text), r.stderr
        assert "firmware std" not in r.stdout + r.stderr and not (tmp_path / "b").is_symlink()
    _one_line(_sim("--shift", "1", "--pty", "b", cwd=tmp_path), 2,
              "--shift and --bumps apply to --rev b only (the revision-A board sees no field)")
    # each names its option and the value given (one message for both named neither)
    _one_line(_sim("--rev", "b", "--shift", "-1", "--pty", "b", cwd=tmp_path), 2,
              "--shift wants mm, 0 or more, not -1")
    _one_line(_sim("--rev", "b", "--bumps", "2", "--pty", "b", cwd=tmp_path), 2,
              "--bumps wants a chance 0..1, not 2")
    from cargoboard.sim import heapsize, plugin
    assert [heapsize(t) for t in ("256K", "2m", "131072")] == ["256k", "2m", "131072"]
    assert plugin(PLUGIN[0]) == PLUGIN[0]
    assert plugin("cc=firmware.games.cargocube.plugin") == "cc=firmware.games.cargocube.plugin"


def test_sim_modes_that_do_not_fit_together_are_one_line_exit_2(tmp_path):
    """`--interactive --pty PATH` served the board and dropped --interactive without a word (no
    prompt, stdin ignored, running until killed). Of the modes --script, --interactive and
    --pty only --script with --pty fits (the board is served after the script); the other
    pairs are refused with one line, exit 2, before anything starts or is linked."""
    import subprocess
    exe = str(Path(sys.executable).parent / "cargoboard")
    r = subprocess.run([exe, "sim", "--interactive", "--pty", "b"], cwd=tmp_path, input="quit\n",
                       capture_output=True, text=True, timeout=30)
    _one_line(r, 2, "--interactive and --pty do not fit together: the prompt drives the board "
                    "that --pty would serve to host tools; give one of them (--script FILE "
                    "--pty PATH serves after the script)")
    r = _sim("--interactive", "--script", "s.txt", cwd=tmp_path)  # the parser's own refusal
    assert r.returncode == 2 and r.stderr.splitlines()[-1] == (
        "cargoboard sim: error: argument --script: not allowed with argument --interactive"), r
    assert list(tmp_path.iterdir()) == []


def test_sim_flash_folder_is_checked_before_anything_is_made(tmp_path):
    """`--from-flash --flash typo` made an empty typo/ and then failed; a --flash that is a
    file said "[Errno 17] File exists"; a --flash deep in folders that do not exist made them
    all. Now nothing is made unless it can be used, and at most the last folder."""
    (tmp_path / "afile").write_text("x")
    _one_line(_sim("--from-flash", "--flash", "typo", "--pty", "b", cwd=tmp_path), 2,
              "no flash image to boot from: there is no folder typo (cargoboard deploy --flash "
              "typo puts the firmware there)")
    _one_line(_sim("--flash", "afile", "--pty", "b", cwd=tmp_path), 2,
              "--flash afile is a file, not a folder")
    _one_line(_sim("--flash", "no/such/x", "--pty", "b", cwd=tmp_path), 2,
              "cannot make the flash folder no/such/x: the folder %s does not exist"
              % (tmp_path / "no" / "such"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


# A mistyped option of every game (the typo chosen near a real option's name: card for cards),
# and the options its plug-in lists in the refusal. Kept by hand (each game's options and
# messages are its firmware's); the check below fails until a new game is added here.
MISTYPED = [
    ("unix", "cargocube polygon SN", "new cargocube polygon SN card=base", "card",
     "cargocube takes layout= seats= cards= teleport= position= wait="),
    ("pico", "cargocube polygon SN", "new cargocube polygon SWNE cards=both teleprt=1", "teleprt",
     "cargocube takes layout= seats= cards= teleport= position= wait="),
    ("unix", "cephalopod 5x5", "new cephalopod 5x5 colour=w", "colour",
     "cephalopod takes layout= seats= position="),
    ("unix", "kubitva board", "new kubitva board rockets=0", "rockets",
     "kubitva takes layout= seats= position="),
    ("unix", "formula99 L1 15", "new formula99 L2 1357 deel=7", "deel",
     "formula99 takes layout= seats= deal= position=")]


def test_a_mistyped_option_is_tried_for_every_game():
    from cargoboard import games
    assert sorted({old.split()[0] for _, old, *_ in MISTYPED}) == sorted(games.kinds())


@pytest.mark.parametrize("target, old, line, typo, takes", MISTYPED)
def test_a_mistyped_new_game_option_is_refused_and_the_old_game_goes_on(target, old, line, typo,
                                                                        takes):
    """`new cargocube polygon SN card=base` (for cards=) started a game without cards, and
    every game took any key=value word it did not know the same way. (The old game is of the
    same game: another game's code may not fit beside it on the unix port's 192 KiB, and is
    then dropped first, docs/serial-protocol.md.)"""
    from picotarget import require
    require(target)
    s = Session(out=lambda text: None, target=target)
    try:
        _, final = s.query("new " + old)
        assert final.startswith("ok"), final
        _, before = s.query("status")
        _, final = s.query(line)
        assert final == "err unknown option '%s' (%s)" % (typo, takes)
        _, final = s.query("status")
        assert final.split()[:3] == before.split()[:3] and " errors=0 " in final, (before, final)
    finally:
        s.close()
