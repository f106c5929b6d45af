"""The game log on the virtual board: the real firmware (MicroPython unix port, the runner's 224 KiB heap)
with its flash in a littlefs image file. A game is played, the power is cut (the firmware
process killed) and the board boots again on the same image with the pieces where they were:
it resumes the game and tracks the same position; the host's reading of the log
(cargoboard.logrecord) gives the same game."""

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from shared_rules.cargocube import rules as cc  # noqa: E402
from cargoboard.games.cargocube.scriptgen import game_script  # noqa: E402
from cargoboard.sim.script import Session, run_script  # noqa: E402
from cargoboard.sim import add_parser  # noqa: E402
from cargoboard.logrecord import record_from_log  # noqa: E402
from logsteps import steps_text  # noqa: E402


DRIVER = ROOT / "tests" / "driver_mkflash.py"


def script_lines(seed, actions):
    # the board that asks at once (wait=0): a record per action, as counted below (the
    # waiting board's log and resume: tests/cargocube/test_cargocube_waiting.py)
    text, final = game_script(seed=seed, actions=actions, check_every=0, wait=0)
    lines = [x for x in text.splitlines() if x and not x.startswith("#")]
    assert lines[-1].startswith("expect ")
    return lines[:-1], final


def test_game_resumes_after_power_cuts(tmp_path):
    lines, final = script_lines(seed=21, actions=14)
    resolves = [i for i, x in enumerate(lines) if x.startswith("resolve ")]
    cut1 = resolves[5] + 1
    cut2 = resolves[10] + 1
    out = []
    s = Session(out=out.append, flash=tmp_path / "flash.img")
    try:
        for line in lines[:cut1]:
            s.execute(line)
        before = s.position()
        s.restart()
        assert s.position() == before
        assert "evt log resumed game=1 actions=6 records=6 dropped=0" in s.events
        assert s.query("state")[1].startswith("ok state=idle diff=- actions=6")
        for line in lines[cut1:cut2]:
            s.execute(line)
        # A take-back, and the power goes before the player has put the piece back (the
        # resumed board then shows where it must go, as it did before the cut).
        s.press("undo")
        undone = cc.Position.parse(s.position())
        s.restart()
        after_undo = s.position()
        assert after_undo == undone.notation()
        data, final_line = s.query("games")
        assert data == ["game 1 %s open current" % data[0].split()[2]], data
        assert final_line.startswith("ok 1 free=") and "low=0 current=1 board=sim-" in final_line
        board = final_line.split("board=")[1]
        # the host reads the log over the line protocol and replays it
        size = int(data[0].split()[2])
        raw = b""
        while len(raw) < size:
            _, r = s.query("logread 1 %d 200" % len(raw))
            raw += bytes.fromhex(r[3:])
        rec = record_from_log(raw)
        assert rec.source == board and rec.source_game == 1 and rec.status == "open"
        assert rec.undos == 1 and rec.problem is None
        assert rec.final_position().notation() == after_undo
        assert len(rec.actions) == 10
    finally:
        s.close()
    text = "\n".join(out)
    assert "evt error" not in text and "Traceback" not in text, text


def test_restart_verb_and_cli_flash_dir(tmp_path):
    """`restart` in a script, `cargoboard sim --flash DIR` keeping the flash across runs."""
    lines, final = script_lines(seed=4, actions=5)
    first = tmp_path / "first.txt"
    first.write_text("\n".join(lines + ["restart", "expect " + final.notation()]) + "\n")
    ap = argparse.ArgumentParser(prog="cargoboard")
    sub = ap.add_subparsers(dest="cmd")
    add_parser(sub)
    flash = tmp_path / "board"
    args = ap.parse_args(["sim", "--script", str(first), "--flash", str(flash)])
    assert args.func(args) == 0
    assert (flash / "flash.img").is_file()
    # A second run on the same flash: the game is there (the pieces are not: the world of a
    # new run starts empty, so the board sees them all lifted, but it tracks the same game).
    second = tmp_path / "second.txt"
    second.write_text("send games\nsend pos\n")
    out = []
    assert run_script(str(second), out=out.append, flash=flash / "flash.img") == 0
    text = "\n".join(out)
    assert "evt log resumed game=1 actions=5 records=5 dropped=0" in text, text
    assert re.search(r"game 1 \d+ open current", text), text
    assert "ok " + final.notation() in text, text


def test_long_four_player_game_resumes_in_the_pico_heap(micropython, tmp_path):
    """A long 4-player game with the cards (the largest positions), written to a flash image
    by the board's store, resumes on the virtual board with the Pico's 192 KiB heap."""
    rng = random.Random(9)
    pos = cc.start_position(4, cards=True)
    start = pos.notation()
    steps = []
    while len(steps) < 200:
        if pos.ply() and rng.random() < 0.05:
            pos.pop()
            steps.append(None)
            continue
        pos.push(rng.choice(pos.legal_actions()))
        steps.append(cc.encode_action(pos.history()[-1]))
        if pos.is_over():
            pos.pop()
            steps.append(None)
    (tmp_path / "start.txt").write_text(start + "\n")
    (tmp_path / "steps.txt").write_text(steps_text(steps))
    image = tmp_path / "flash.img"
    micropython(DRIVER, heapsize="1m", path=[str(ROOT / "tests")],
                args=[image, "cargocube", "polygon+cards", "SWNE", tmp_path / "start.txt",
                      tmp_path / "steps.txt"])
    out = []
    s = Session(out=out.append, flash=image)
    try:
        s.wait(100)
        undos = steps.count(None)
        assert ("evt log resumed game=1 actions=%d records=%d dropped=0" % (
            len(steps) - 2 * undos, len(steps))) in s.events, s.events
        assert s.position() == pos.notation()
        _, mem = s.query("mem")
    finally:
        s.close()
    text = "\n".join(out)
    assert "evt error" not in text, text
    print("resumed %d actions of a 4-player game; heap after: %s" % (pos.ply(), mem))


def test_relative_flash_dir_is_where_the_user_typed_it(tmp_path, monkeypatch):
    """`sim --flash DIR` and `deploy --flash DIR` with a relative DIR: the firmware runs in
    the repository's folder, the image must still be DIR/flash.img from the user's folder;
    and a flash the board cannot use is an error, never a board silently without a log."""
    import subprocess
    exe = str(Path(sys.executable).parent / "cargoboard")
    script = tmp_path / "game.txt"
    script.write_text("new-game cargocube polygon SN\nsend games\n")
    r = subprocess.run([exe, "sim", "--script", "game.txt", "--flash", "vboard"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"game 1 \d+ open current", r.stdout), r.stdout
    assert (tmp_path / "vboard" / "flash.img").stat().st_size > 0
    assert not (ROOT / "vboard").exists()
    r = subprocess.run([exe, "deploy", "--flash", "vboard"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0 and "the virtual board (vboard) runs fw=" in r.stdout, r.stderr
    (tmp_path / "broken" / "flash.img").mkdir(parents=True)  # not an image
    r = subprocess.run([exe, "sim", "--script", "game.txt", "--flash", "broken"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "the board cannot use its flash %s" % (tmp_path / "broken" / "flash.img") in r.stderr
