"""`cargoboard deploy` (dry run, and for real onto the virtual board's flash image with the
version check), `cargoboard ports`, and `cargoboard demo` with a short game."""

import html.parser
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))

from cargoboard import build, deploy  # noqa: E402
from cargoboard.link import (ELSEWHERE, NO_BOARD, candidate_ports, find_port, no_board,  # noqa: E402
                             LinkError)

EXE = str(Path(sys.executable).parent / "cargoboard")


def run(*args, timeout=120):
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=timeout)


def test_dry_run_lists_the_files_and_the_mpremote_command():
    r = run("deploy", "--dry-run", "--port", "/dev/ttyACM7")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    files = [x.split(":", 1)[1] for x in lines if x.strip().split()[1:2] and x.split()[1].startswith(":")]
    assert "main.py" in files and "cargoboard.ver" in files
    assert "shared_rules/cargocube/rules.mpy" in files and "firmware/system/app.mpy" in files
    assert "firmware/hal/rp2040.mpy" in files
    assert "firmware/hal/sim.mpy" not in files  # the simulator's HAL stays off the board
    cmd = [x for x in lines if x.startswith("would run: ")][0]
    # the stamp `build=incomplete` goes first, the real one last: a copy cut short leaves a
    # board that says so in HELLO, not the old build's id over a mix of modules
    assert cmd.startswith("would run: mpremote connect /dev/ttyACM7 fs cp STAGE/incomplete.ver "
                          ":cargoboard.ver + fs cp -r "), cmd
    assert cmd.endswith("+ fs cp STAGE/cargoboard.ver :cargoboard.ver + reset"), cmd
    want = [x for x in lines if x.startswith("then check that the board reports ")][0]
    v = build.versions()
    assert "fw=%s rules=%s proto=%s build=" % (v["fw"], v["rules"], v["proto"]) in want
    # revision A (the default): none of revision B's modules, and the boot's board_rev says A
    assert "board_rev" in files and ":board_rev" in cmd
    assert "firmware/hal/rp2040_revb.mpy" not in files
    assert "firmware/games/cargocube/steptracker.mpy" not in files


def test_deploy_rev_b_stages_its_hal_and_says_so(tmp_path):
    """`deploy --rev b` builds revision B's HAL, pin map and step tracking for the board and a
    board_rev of B that the boot reads (firmware/system/boot.py); the two builds differ."""
    staged = {bp: lp for bp, lp, _ in build.stage(tmp_path / "b", "rp2", "B")}
    for path in ("firmware/hal/rp2040_revb.mpy", "firmware/hal/rp2040.mpy",
                 "hardware/pinmap_revb.mpy", "firmware/system/app_revb.mpy",
                 "firmware/games/cargocube/plugin_revb.mpy"):
        assert path in staged, path
    assert "firmware/hal/sim_revb.mpy" not in staged  # the simulator's stays off the board
    assert staged["board_rev"].read_text() == "B\n"
    staged_a = {bp: lp for bp, lp, _ in build.stage(tmp_path / "a", "rp2", "A")}
    assert staged_a["board_rev"].read_text() == "A\n"
    assert build.read_stamp([(bp, lp, 0) for bp, lp in staged.items()])["build"] != \
        build.read_stamp([(bp, lp, 0) for bp, lp in staged_a.items()])["build"]
    r = run("deploy", "--rev", "c", "--dry-run")
    assert r.returncode == 2 and "--rev" in r.stderr


def test_the_games_revision_b_modules_are_found_from_revision_bs_registry(monkeypatch):
    """The build and deploy name no game: a game's revision-B modules are the plug-ins
    firmware/games/revb.py names and what only they import; a module that a module of both
    revisions also imports (Cargocube's plug-in and tracker) goes on revision A too."""
    for module in ("deploy.py", "build.py"):
        assert "cargocube" not in (ROOT / "host/cargoboard" / module).read_text(), module
    sources = build.board_sources("rp2", "B")
    cc = "firmware/games/cargocube/"
    assert build.revb_game_modules(sources) == {
        cc + "plugin_revb.py", cc + "steptracker.py", cc + "steps.py", cc + "field.py"}
    assert {cc + "plugin.py", cc + "tracker.py"} <= set(build.board_sources("rp2", "A"))
    # the rule on a made-up graph: b2 is also named by a (a module of both), so it stays
    graph = {"firmware/games/revb.py": {"p"}, "p": {"b1", "b2"}, "b1": {"b3"}, "b3": set(),
             "b2": {"b4"}, "b4": set(), "a": {"b2"}, "firmware/hal/hall.py": {"b1"}}
    monkeypatch.setattr(build, "_module_refs", lambda rel, modules: graph[rel])
    assert build.revb_game_modules(graph) == {"p", "b1", "b3"}


def test_deploy_timeout_is_a_positive_finite_number(tmp_path):
    """`deploy --timeout nan` waited for ever on a board that never answered; 0 and -3 were
    taken: usage errors now, before any port is opened."""
    for t in ("nan", "0", "-3", "inf"):
        r = run("deploy", "--port", str(tmp_path / "nothing"), "--timeout", t)
        assert r.returncode == 2, (t, r.stdout, r.stderr)
        assert r.stderr == ("cargoboard: error: --timeout wants a finite number of seconds "
                            "above 0, not %s\n" % float(t)), r.stderr


def test_deploy_flash_makes_at_most_the_last_folder(tmp_path):
    """`deploy --flash /nonexistent/x` made the whole path (mkdir -p), and `--flash FILE`
    said "[Errno 17] File exists": one line in words, before the build, nothing made."""
    (tmp_path / "afile").write_text("x")
    r = run("deploy", "--flash", str(tmp_path / "afile"))
    assert (r.returncode, r.stderr) == (1, "cargoboard: error: --flash %s is a file, not a "
                                           "folder\n" % (tmp_path / "afile"))
    r = run("deploy", "--flash", str(tmp_path / "no" / "x"))
    assert (r.returncode, r.stderr) == (1, "cargoboard: error: cannot make the flash folder "
                                           "%s: the folder %s does not exist\n"
                                        % (tmp_path / "no" / "x", tmp_path / "no"))
    assert [p.name for p in tmp_path.iterdir()] == ["afile"]
    r = run("deploy", "--flash", str(tmp_path / "fd"), "--port", "/dev/ttyACM0")
    assert (r.returncode, r.stderr) == (2, "cargoboard: error: --flash DIR deploys to the "
                                           "virtual board's flash, --port PATH to a board: give "
                                           "one of them\n")  # --port was ignored
    assert [p.name for p in tmp_path.iterdir()] == ["afile"]


def test_deploy_flash_reads_at_most_a_flash_image(tmp_path):
    """A DIR/flash.img linked to /dev/zero was read until memory ran out (a MemoryError
    traceback): at most the board's filesystem size is read, then one line, exit 1. The
    child's memory is capped so that a read without a bound fails at once."""
    import resource
    (tmp_path / "fd").mkdir()
    (tmp_path / "fd" / "flash.img").symlink_to("/dev/zero")
    r = subprocess.run([EXE, "deploy", "--flash", str(tmp_path / "fd")], capture_output=True,
                       text=True, timeout=120, preexec_fn=lambda: resource.setrlimit(
                           resource.RLIMIT_AS, (2 << 30, 2 << 30)))
    image = tmp_path / "fd" / "flash.img"
    assert (r.returncode, r.stderr) == (1, "cargoboard: error: writing %s failed: flash image "
                                           "%s: more than the board's 1441792-byte filesystem\n"
                                        % (image, image)), r


def test_ctrl_c_while_the_flash_is_written_ends_the_deploy(tmp_path, monkeypatch, capsys):
    """Ctrl-C while littlefs wrote the image was printed as "Exception ignored in
    'littlefs.lfs._lfs_read'" and dropped (littlefs calls Python from C): the deploy went on
    and exited 0. Now it ends with 130; a first deploy leaves no folder, a later one the old
    image as it was and no part file."""
    import os
    import signal
    import littlefs
    from cargoboard import cli
    from cargoboard.sim.pico import fsimage
    progs = []
    prog = littlefs.UserContext.prog

    def prog_then_ctrl_c(self, cfg, block, off, data):
        progs.append(block)
        if len(progs) == 20:
            os.kill(os.getpid(), signal.SIGINT)  # as a Ctrl-C in the middle of the write
        return prog(self, cfg, block, off, data)
    monkeypatch.setattr(littlefs.UserContext, "prog", prog_then_ctrl_c)
    flash = tmp_path / "vb"
    assert cli.main(["deploy", "--flash", str(flash)]) == 130
    assert len(progs) > 20 and not flash.exists()  # littlefs wrote on, then it ended
    flash.mkdir()
    fsimage.write_files(flash / "flash.img", [("mine.txt", b"the board's own file")])
    before = (flash / "flash.img").read_bytes()
    progs.clear()
    assert cli.main(["deploy", "--flash", str(flash)]) == 130
    assert (flash / "flash.img").read_bytes() == before
    assert [p.name for p in flash.iterdir()] == ["flash.img"]
    assert capsys.readouterr().out == ""


def test_deploy_onto_the_virtual_board_and_check_its_versions(tmp_path):
    flash = tmp_path / "vboard"
    r = run("deploy", "--flash", str(flash))
    assert r.returncode == 0, r.stderr
    assert "runs fw=" in r.stdout
    build_hash = r.stdout.split("build=")[1].split()[0]
    # the virtual board now boots the deployed files (not this checkout's) and says so
    from cargoboard.sim.runner import UnixRunner
    from cargoboard.link import Link
    with UnixRunner(flash=flash / "flash.img", boot_from_flash=True) as runner, runner.serving(), \
            Link(runner.port) as link:
        info = link.hello()
        assert link.new_game("cargocube polygon SN").startswith("ok")
        from shared_rules.cargocube import rules as cc
        assert link.load(cc.start_position(2).notation()) == "ok loaded"  # play: a log begins
        assert link.text("abort") == "ok"  # the game log on the flash: abandoned, kept
    # deploying again keeps the game logs
    r = run("deploy", "--flash", str(flash))
    assert r.returncode == 0, r.stderr
    with UnixRunner(flash=flash / "flash.img", boot_from_flash=True) as runner, runner.serving(), \
            Link(runner.port) as link:
        assert len(link.games()) == 1
    assert info["build"] == build_hash
    v = build.versions()
    assert (info["fw"], info["rules"], info["proto"]) == (v["fw"], v["rules"], v["proto"])
    assert deploy.check_versions(info, dict(v, build=build_hash)) == []
    assert deploy.check_versions(info, dict(info, build="0123456789ab")) == [
        "build: board %s, deployed 0123456789ab" % build_hash]


def test_deploy_a_revision_b_virtual_board_and_play_on_it(tmp_path):
    """`deploy --flash DIR --rev b` failed with a traceback in the runner's thread (a revision-B
    board read no sensor sums while its versions were asked) and "no answer from the board"."""
    flash = tmp_path / "vboard"
    r = run("deploy", "--flash", str(flash), "--rev", "b")
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    assert "runs fw=" in r.stdout
    script = tmp_path / "s.txt"
    script.write_text("new-game cargocube polygon SN\nsend status\n")
    r = run("sim", "--flash", str(flash), "--from-flash", "--rev", "b", "--script", str(script))
    assert r.returncode == 0 and "hal=sim" in r.stdout and " state=play " in r.stdout, r.stdout


def test_a_boards_flash_booted_on_the_unix_target_is_one_line(tmp_path):
    """The emulated Pico's flash (the board's files: no simulated HAL) booted with `sim
    --from-flash` on the unix target: one line naming what to do, exit 2; it was a MicroPython
    traceback (ImportError: no module named 'firmware.hal.sim')."""
    from cargoboard.sim.pico import fsimage
    from cargoboard.sim.pico.runner import firmware_files
    (tmp_path / "pico").mkdir()
    fsimage.write_files(tmp_path / "pico" / "flash.img", firmware_files())
    script = tmp_path / "s.txt"
    script.write_text("wait 100\n")
    r = run("sim", "--flash", str(tmp_path / "pico"), "--from-flash", "--script", str(script))
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr, r.stdout
    assert r.stderr == ("cargoboard sim: error: %s: cannot start the simulated board: the "
                        "firmware on the flash is a board's, with no simulated HAL "
                        "(firmware/hal/sim): boot it with --target pico, or put a virtual board's "
                        "there with cargoboard deploy --flash DIR\n" % script), r.stderr
    assert r.stdout == ""


def test_deploy_version_mismatch_is_an_error(tmp_path, monkeypatch):
    """The check fails when the board reports other versions than the ones deployed (here: the
    stamp written says another firmware version than the code that runs)."""
    real_stage = deploy.stage

    def stage_with_wrong_stamp(out_dir, target="rp2", rev="A"):
        staged = real_stage(out_dir, target, rev)
        for board_path, local, _ in staged:
            if board_path == build.STAMP:
                local.write_text(local.read_text().replace("fw=", "fw=9"))
        return staged

    monkeypatch.setattr(deploy, "stage", stage_with_wrong_stamp)
    from cargoboard.sim import flashdeploy

    class Args:
        dry_run = False
        port = None
        flash = str(tmp_path / "vb")
        rev = "A"
        timeout = deploy.COPY_TIMEOUT_S

    try:
        deploy.run(Args(), out=lambda text: None, flash=flashdeploy)
    except deploy.DeployError as e:
        assert "runs other firmware than deployed: fw: board" in str(e)
    else:
        raise AssertionError("a version mismatch passed the check")


def test_no_prompt_from_the_board_stops_deploy_before_mpremote(tmp_path):
    """A board that never shows MicroPython's prompt (here a port nobody answers): deploy
    asks once for the hand-over, sends Enter/Ctrl-C/Ctrl-B while the port stays silent, and
    at --timeout stops with one line, exit 1, before mpremote has sent a byte."""
    import os
    import tty
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    port = os.ttyname(slave)
    try:
        r = run("deploy", "--port", port, "--timeout", "3")
        sent = os.read(master, 65536)
    finally:
        os.close(master)
        os.close(slave)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("cargoboard: error: the board on %s did not come to "
                               "MicroPython's prompt within 3 s" % port), r.stderr
    assert r.stderr.endswith("it last said 'nothing'); nothing was copied\n"), r.stderr
    assert "copying" not in r.stdout
    from firmware.drivers import frames as F
    from firmware.system import link as L
    frame, tries = sent.split(b"\x00")[1], sent.split(b"\x00")[-1]
    assert F.decode(frame)[0] == L.REPL  # one hand-over request, then only the tries
    assert tries and tries == deploy.TO_PROMPT * (len(tries) // len(deploy.TO_PROMPT)), sent


def test_deploy_to_a_board_without_a_repl_says_so(tmp_path):
    """The virtual board under the unix port answers the hand-over with an error (no REPL
    behind it): deploy says so in one line and points to --flash."""
    from cargoboard.sim.runner import UnixRunner
    with UnixRunner(flash=tmp_path / "flash.img") as runner, runner.serving():
        r = run("deploy", "--port", runner.port, "--timeout", "60")
    assert r.returncode == 1 and r.stderr == (
        "cargoboard: error: the board on %s cannot hand over to a REPL: this board (sim) has "
        "no REPL (the virtual board: deploy --flash DIR)\n" % runner.port), r.stderr


def test_no_board_attached_is_said_plainly():
    """ports, sync and deploy say the same line, each with what it takes: sync and deploy
    point to their --port, ports (which takes none) does not; deploy names only the virtual
    board that can take a deploy. (find_port said deploy's words, and ports the --port it has
    not.)"""
    if candidate_ports():
        return  # a real board is plugged in on this machine: nothing to check
    try:
        find_port(None)
    except LinkError as e:
        assert str(e) == NO_BOARD + ELSEWHERE
    else:
        raise AssertionError
    for argv, line in ((["sync"], NO_BOARD + ELSEWHERE), (["ports"], NO_BOARD),
                       (["deploy"], no_board(deploy.DEPLOYABLE_SIMS) + ELSEWHERE)):
        r = run(*argv)
        assert (r.returncode, r.stdout, r.stderr) == (1, "", "cargoboard: error: %s\n"
                                                      % line), argv
    assert "a Pico running MicroPython shows up as USB 2e8a:0005" in NO_BOARD
    assert "cargoboard sim --pty PATH" in NO_BOARD
    assert "--port" not in NO_BOARD and "deploy" not in NO_BOARD
    assert "start a virtual board with `cargoboard sim --target pico --pty PATH`;" in r.stderr


def test_ports_without_a_board_is_a_cargoboard_error(monkeypatch, capsys):
    """`ports` found nothing: exit 1 with the `cargoboard: error:` line of every command
    (issue 18: it printed a bare line on stdout), whatever is plugged into this machine."""
    from cargoboard import cli, link as L
    monkeypatch.setattr(L.list_ports, "comports", lambda: [])
    assert cli.main(["ports"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "cargoboard: error: %s\n" % NO_BOARD


def test_ports_filter_by_the_picos_usb_ids(monkeypatch):
    from serial.tools import list_ports_common
    from cargoboard import link as L

    def port(dev, vid, pid):
        p = list_ports_common.ListPortInfo(dev, skip_link_detection=True)
        p.vid, p.pid, p.description = vid, pid, "dev " + dev
        return p

    monkeypatch.setattr(L.list_ports, "comports", lambda: [
        port("/dev/ttyACM0", 0x2E8A, 0x0005), port("/dev/ttyUSB0", 0x0403, 0x6001)])
    assert candidate_ports() == [("/dev/ttyACM0", "board on USB (dev /dev/ttyACM0)")]
    assert find_port(None) == "/dev/ttyACM0"
    monkeypatch.setattr(L.list_ports, "comports", lambda: [
        port("/dev/ttyACM0", 0x2E8A, 0x0005), port("/dev/ttyACM1", 0x2E8A, 0x0005)])
    try:
        find_port(None)
    except LinkError as e:
        assert "several boards" in str(e)
    else:
        raise AssertionError


class _Collect(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


def test_demo_with_a_short_game(tmp_path):
    out = tmp_path / "demo"
    r = run("demo", "--actions", "14", "--out", str(out), "--no-screen", timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "demo ok" in r.stdout and "1 new game stored" in r.stdout
    assert "writing into %s" % out in r.stdout
    html_file = out / "game-1.html"
    svg_file = out / "game-1-final.svg"
    assert str(html_file) in r.stdout and str(svg_file) in r.stdout
    ET.parse(svg_file)  # valid XML
    p = _Collect()
    p.feed(html_file.read_text())
    assert "svg" in p.tags or "script" in p.tags
    r = run("games", "--db", str(out / "games.sqlite"))
    assert r.returncode == 0 and "cargocube" in r.stdout
    # nothing left running: no micropython child of ours survives
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(out) not in ps


def test_demo_never_touches_an_existing_store_or_flash(tmp_path, monkeypatch):
    """`demo --out DIR` refuses a DIR holding a store, a flash or an export (the player's data
    folder, or an earlier demo) and leaves it as it was; without --out it takes a fresh
    folder beside an earlier demo's and says which."""
    from cargoboard.games.cargocube.demo import choose_out
    data = tmp_path / "data"
    (data / "flash").mkdir(parents=True)
    (data / "games.sqlite").write_bytes(b"the player's games")
    (data / "flash" / "flash.img").write_bytes(b"the board's logs")
    r = run("demo", "--out", str(data), "--no-screen")
    assert r.returncode == 1 and r.stderr.startswith("cargoboard: error: %s" % (data / "games.sqlite"))
    assert "already exists" in r.stderr and len(r.stderr.splitlines()) == 1
    (data / "games.sqlite").unlink()
    r = run("demo", "--out", str(data), "--no-screen")
    assert r.returncode == 1 and "%s already exists" % (data / "flash") in r.stderr
    assert (data / "flash" / "flash.img").read_bytes() == b"the board's logs"
    assert sorted(p.name for p in data.rglob("*")) == ["flash", "flash.img"]
    # the default: ./demo-out unless an earlier demo's files are there, then ./demo-out-2, ...
    monkeypatch.chdir(tmp_path)
    assert choose_out(None, False) == tmp_path / "demo-out"
    (tmp_path / "demo-out").mkdir()
    assert choose_out(None, False) == tmp_path / "demo-out"  # empty: free
    (tmp_path / "demo-out" / "game-1.html").write_text("an earlier replay")
    assert choose_out(None, False) == tmp_path / "demo-out-2"
    (tmp_path / "demo-out-2").write_text("a file, not a folder")
    assert choose_out(None, False) == tmp_path / "demo-out-3"
    assert choose_out(None, True) == tmp_path / "demo-out-3"


def test_demo_plays_an_expansion_game(tmp_path):
    """`cargoboard demo --expansion both`: the cards of both expansions (and here the walking
    teleport) on the virtual board at the Pico's heap, synced and exported like any game."""
    out = tmp_path / "demo"
    r = run("demo", "--expansion", "both", "--teleport", "--actions", "40", "--seed", "2",
            "--out", str(out), "--no-screen", timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "with «Пирамида» and «Бастион» and the walking teleport" in r.stdout
    assert "demo ok" in r.stdout and "1 new game stored" in r.stdout
    svg = ET.parse(out / "game-1-final.svg").getroot()
    cards = {e.get("data-card") for e in svg.iter() if e.get("data-kind") == "card"}
    assert {"u", "c", "p", "x", "h", "v"} & cards
    r = run("games", "--db", str(out / "games.sqlite"))
    assert r.returncode == 0 and "polygon+both+teleport" in r.stdout


def test_demo_numbers_out_of_range_are_usage_errors_before_anything_is_made(tmp_path):
    """`demo --screen-every 0 --no-screen` ended in a ZeroDivisionError traceback and left
    out/flash/flash.img behind; --actions 0, --hint-share 2 or nan and --pace -1 were taken.
    Usage errors (exit 2) now, checked before the --out folder is made."""
    out = tmp_path / "x"
    for args, text in ((["--screen-every", "0"], "--screen-every wants 1 or more (draw every N "
                                                 "actions), not 0"),
                       (["--actions", "0"], "--actions wants 1 or more, not 0"),
                       (["--actions", "-1"], "--actions wants 1 or more, not -1"),
                       (["--hint-share", "2"], "--hint-share wants a share from 0 to 1, not 2.0"),
                       (["--hint-share", "nan"], "--hint-share wants a share from 0 to 1, not nan"),
                       (["--pace", "-1"], "--pace wants seconds, 0 or more, not -1.0")):
        r = run("demo", *args, "--no-screen", "--out", str(out))
        assert (r.returncode, r.stdout, r.stderr) == (2, "", "cargoboard: error: %s\n" % text)
        assert not out.exists()
    # an empty --out took the current folder; a missing parent grew a tree of folders
    r = subprocess.run([EXE, "demo", "--out", "", "--no-screen"], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2 and "--out wants a folder name" in r.stderr, r.stderr
    deep = tmp_path / "nodir" / "sub"
    r = run("demo", "--out", str(deep), "--no-screen")
    assert (r.returncode, r.stderr) == (1, "cargoboard: error: cannot make --out %s: the folder "
                                           "%s does not exist\n" % (deep, deep.parent))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_demo_out_may_hold_other_files(tmp_path):
    """--out is documented as what it is: a folder that may hold other files (they are left
    alone), not "a new or empty folder"."""
    from cargoboard.games.cargocube.demo import choose_out
    (tmp_path / "notes.txt").write_text("mine")
    assert choose_out(str(tmp_path), False) == tmp_path
    r = run("demo", "--help")
    assert "new or empty" not in r.stdout
    assert "other files are left alone" in " ".join(r.stdout.split())
    assert "new or empty" not in (ROOT / "README.md").read_text()


def test_a_read_only_flash_or_pty_folder_is_said_before_the_board_starts(tmp_path):
    """`sim --flash rof` (a read-only folder) said "OSError: 30", `sim --pty rof/brd` played
    the whole script and then failed with exit 1, `deploy --flash rof` said "[Errno 30]
    Read-only file system: 'rof/flash.img.tmp'" after the build: one line in words first."""
    from test_cli_store import read_only_mount
    folder = tmp_path / "ro"
    folder.mkdir()
    script = tmp_path / "game.txt"
    script.write_text("expect phase a\n")
    ro = "it is on a read-only file system"
    for argv, status, line in [
            (["sim", "--script", str(script), "--flash", str(folder)], 2,
             "cargoboard sim: error: cannot write the flash folder %s: %s" % (folder, ro)),
            (["sim", "--script", str(script), "--flash", str(folder / "sub")], 2,
             "cargoboard sim: error: cannot make the flash folder %s: the folder %s cannot be "
             "written (%s)" % (folder / "sub", folder, ro)),
            (["sim", "--script", str(script), "--pty", str(folder / "brd")], 2,
             "cargoboard sim: error: cannot link %s: the folder %s cannot be written (%s)"
             % (folder / "brd", folder, ro)),
            (["deploy", "--flash", str(folder)], 1,
             "cargoboard: error: cannot write the flash folder %s: %s" % (folder, ro))]:
        assert read_only_mount(folder, argv) == (status, line + "\n")
    assert list(folder.iterdir()) == []


def _full_image(image):
    """A board image whose filesystem has no room left (one file filling it)."""
    import littlefs
    from cargoboard.sim.pico import fsimage
    fs = fsimage._fs()
    n = 0
    while True:
        try:
            with fs.open(f"filler{n}", "wb") as f:
                f.write(b"\x5a" * 4096)
        except littlefs.LittleFSError as e:
            assert e.code == littlefs.LittleFSError.Error.LFS_ERR_NOSPC
            break
        n += 1
    fsimage.save(fs, image)


def test_deploy_and_sim_onto_a_full_flash_image_say_so_in_one_line(tmp_path):
    """A full image: `deploy --flash DIR` and `sim --target pico --flash DIR` name the image and
    say it is full, and leave it as it was; littlefs' LittleFSError was a traceback."""
    flash = tmp_path / "vb"
    flash.mkdir()
    image = flash / "flash.img"
    _full_image(image)
    before = image.read_bytes()
    r = run("deploy", "--flash", str(flash))
    assert r.returncode != 0 and "Traceback" not in r.stdout + r.stderr, r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    assert f"flash image {image}: its filesystem is full" in r.stderr, r.stderr
    script = tmp_path / "s.txt"
    script.write_text("wait 100\n")
    r = run("sim", "--target", "pico", "--flash", str(flash), "--script", str(script))
    assert r.returncode != 0 and "Traceback" not in r.stdout + r.stderr, r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    assert f"flash image {image}: its filesystem is full" in r.stderr, r.stderr
    assert image.read_bytes() == before
    assert not (flash / "flash.img.tmp").exists()


def test_a_demo_whose_sync_stores_no_game_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    """The demo's sync storing nothing is the command's one-line error (exit 1); it was a
    RuntimeError, which cargoboard's main does not catch: a traceback."""
    from cargoboard import cli, sync
    monkeypatch.setattr(sync, "sync", lambda link, store, **kw: sync.SyncResult())
    assert cli.main(["demo", "--out", str(tmp_path / "dd"), "--actions", "3",
                     "--no-screen"]) == 1
    assert capsys.readouterr().err == "cargoboard: error: the sync stored no game\n"
