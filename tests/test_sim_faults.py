"""`cargoboard sim --fault KIND:ARG`: the faults docs/bringup.md teaches a builder to find, set
on the virtual board from its own command line (before, only through the Python runner,
tests/test_selftest_sim.py), each run through the real CLI in its own process, with the
self-test's answer bringup.md promises beside a healthy board's."""

import re
import signal
import subprocess
from pathlib import Path

import pytest

from clirun import cargoboard_exe, serving_sim
from picotarget import TARGETS, console, require, require_pico

ROOT = Path(__file__).resolve().parent.parent


def sim(tmp_path, script, *args, timeout=120):
    """`cargoboard sim --script FILE ARGS`: (exit status, stdout, stderr)."""
    path = tmp_path / "script.txt"
    path.write_text(script)
    r = subprocess.run([cargoboard_exe(), "sim", "--script", str(path), *args], cwd=str(ROOT),
                       capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    return r.returncode, r.stdout, r.stderr


def replies(out):
    """The board's answers to the script's `send` lines, in order."""
    return [ln.strip() for ln in out.splitlines() if ln.startswith(("  ok", "  err"))]


def test_a_stuck_sensor_blocks_the_start_and_names_its_cell(tmp_path):
    script = "send new selftest\nsend occ\n"
    status, out, err = sim(tmp_path, script)
    assert status == 0 and replies(out)[0] == "ok started", out + err
    status, out, err = sim(tmp_path, script, "--fault", "stuck:c4")
    assert status == 0, out + err
    setup, occ = replies(out)
    assert setup == "ok setup missing=0 extra=1"
    # c4 is cell 35: bit 35 & 7 of byte 35 >> 3 (docs/serial-protocol.md)
    assert occ == "ok 1 " + "00" * 4 + "08" + "00" * 11


SWEEP = "send new selftest sensors\ndrop e5\ntake e5\ndrop f5\ntake f5\nsend seen\nsend unseen\n"


def unseen(out):
    return " ".join(ln.strip()[len("unseen "):] for ln in out.splitlines()
                    if ln.strip().startswith("unseen ")).split()


def test_a_dead_sensor_never_reads_a_cube(tmp_path):
    status, out, err = sim(tmp_path, SWEEP)
    assert status == 0 and "ok seen=2 unseen=119 occupied=0" in replies(out), out + err
    status, out, err = sim(tmp_path, SWEEP, "--fault", "dead:e5")
    assert status == 0, out + err
    assert "ok seen=1 unseen=120 occupied=0" in replies(out)
    assert "e5" in unseen(out) and "f5" not in unseen(out)
    assert "evt selftest seen f5" in out and "evt selftest seen e5" not in out


def test_a_dead_74hc165_loses_its_cells_and_every_later_one_and_the_buttons(tmp_path):
    """Chip 9 holds cells 72..79 (g7..c8): its line high, they and every later cell read empty
    (the test starts, they stay orange) and no button press counts."""
    script = ("send new selftest sensors\ndrop f7\ntake f7\ndrop g7\ntake g7\ndrop k11\n"
              "take k11\npress next\nsend seen\nsend buttons\n")
    status, out, err = sim(tmp_path, script)
    assert status == 0, out + err
    assert replies(out)[1:] == ["ok seen=3 unseen=118 occupied=0",
                                "ok confirm=0 next=1 undo=0 hint=0 end=0 held=-"]
    status, out, err = sim(tmp_path, script, "--fault", "chip:9")
    assert status == 0, out + err
    assert replies(out) == ["ok started", "ok seen=1 unseen=120 occupied=0",
                            "ok confirm=0 next=0 undo=0 hint=0 end=0 held=-"]
    assert "evt selftest seen f7" in out and "seen g7" not in out and "seen k11" not in out


def test_a_dead_74hc165_whose_line_floats_low_reads_every_later_cell_and_button(tmp_path):
    script = ("wait 200\nsend new selftest\nsend new selftest sensors empty=no\nwait 100\n"
              "send buttons\n")
    status, out, err = sim(tmp_path, script, "--fault", "chip:9:low")
    assert status == 0, out + err
    assert replies(out) == ["ok setup missing=0 extra=49",   # cells 72..120 blink magenta
                            "ok started",
                            "ok confirm=0 next=0 undo=0 hint=0 end=0 "
                            "held=confirm,next,undo,hint,end"]


def test_a_button_stuck_closed_reads_held_and_a_dead_one_counts_no_press(tmp_path):
    """Stuck from power-on (the board left on a while first), `next` counts no press in the
    test but reads held; `undo`, dead, counts none however often it is pressed."""
    script = ("wait 200\nsend new selftest sensors\npress undo\npress undo\npress hint\n"
              "send buttons\n")
    status, out, err = sim(tmp_path, script)
    assert status == 0 and replies(out)[-1] == \
        "ok confirm=0 next=0 undo=2 hint=1 end=0 held=-", out + err
    status, out, err = sim(tmp_path, script, "--fault", "stuck:next", "--fault", "dead:undo")
    assert status == 0, out + err
    assert replies(out)[-1] == "ok confirm=0 next=0 undo=0 hint=1 end=0 held=next"
    assert "evt button next" in out  # its one press went to the game the board booted into


def _lit_counts(text):
    """How many LEDs each screen of `sim --interactive` shows lit (an unlit one is drawn grey,
    30, 30, 30), one count a screen, for the screens after the prompts."""
    counts = []
    for screen in text.split("\n> ")[1:]:
        backgrounds = re.findall(r"\x1b\[48;2;(\d+);(\d+);(\d+)m", screen)
        if len(backgrounds) == 157:
            counts.append(sum(1 for b in backgrounds if b != ("30", "30", "30")))
    return counts


def _chase(*args):
    """The LED phase's chase on `sim --interactive`: a screen every 50 ms for a second (the
    chase lights one LED at a time, 150 ms each, from a1)."""
    lines = "send new selftest\n" + "press next\n" * 4 + "wait 50\n" * 20
    r = subprocess.run([cargoboard_exe(), "sim", "--interactive", *args], input=lines,
                       cwd=str(ROOT), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    return r.stdout, _lit_counts(r.stdout)[-20:]


def test_a_led_chain_broken_at_led_k_stops_the_chase_at_k_minus_1():
    out, counts = _chase()
    assert counts == [1] * 20, counts
    out, counts = _chase("--fault", "led:d1")          # LED 3: a1, b1, c1 light, then none
    assert "Faults (docs/bringup.md): led:d1." in out
    assert counts[0] == 1 and 0 in counts, counts
    first_dark = counts.index(0)
    assert counts[first_dark:] == [0] * (20 - first_dark), counts
    assert 6 <= first_dark <= 9, counts                # 3 LEDs of 150 ms: ~0.45 s, 50 ms a screen


@pytest.mark.parametrize("target", TARGETS)
def test_revision_b_a_row_without_supply_is_named_by_calibrate_and_blocks_the_start(tmp_path,
                                                                                    target):
    """The board's bring-up calibration refuses, naming the row's 11 cells (a healthy virtual
    board calibrates at once), and the self-test blinks them: docs/bringup.md, revision B. On
    the emulated Pico too, whose scan reads the row's 0 V through its ADC."""
    require(target)
    script = "send-err calibrate\nsend new selftest\n"
    status, out, err = sim(tmp_path, script, "--rev", "b", "--fault", "row:5",
                           "--target", target, timeout=300)
    assert status == 0, out + err
    row5 = " ".join("%s5" % x for x in "abcdefghijk")
    assert "bring-up: calibrate: err calibrate: the board must be clear " \
           "(|field| > 3.00 mT on %s)" % row5 in out
    assert replies(out)[-1] == "ok setup missing=0 extra=11"
    status, out, err = sim(tmp_path, "send new selftest\n", "--rev", "b", "--target", target,
                           timeout=300)
    assert status == 0 and "calibrate: ok calibrated" in out and \
        replies(out) == ["ok started"], out + err


def test_revision_b_a_reversed_magnet_shows_the_other_sign(tmp_path):
    script = "send new selftest sensors\ndrop e5\ndrop g7\nsend field\n"

    def signs(*args):
        status, out, err = sim(tmp_path, script, "--rev", "b", *args)
        assert status == 0, out + err
        got = dict(w.split("=") for w in replies(out)[-1][len("ok "):].split())
        assert 600 <= abs(int(got["e5"])) <= 800 and 600 <= abs(int(got["g7"])) <= 800, got
        return int(got["e5"]) > 0, int(got["g7"]) > 0
    e5, g7 = signs()
    assert e5 == g7
    e5, g7 = signs("--fault", "reversed:g7")
    assert e5 != g7


def test_the_served_board_has_its_faults_too(tmp_path):
    """`sim --pty` alone (no script, no world): the fault is the board's all the same."""
    pty = tmp_path / "board"
    sim_proc = serving_sim(pty, "--fault", "stuck:c4")
    try:
        assert console(pty, "new selftest") == "ok setup missing=0 extra=1"
    finally:
        sim_proc.send_signal(signal.SIGTERM)
        sim_proc.communicate(timeout=30)
    assert sim_proc.returncode == 0


def test_the_emulated_pico_has_the_same_faults(tmp_path):
    require_pico()
    script = ("wait 1000\nsend new selftest\nsend new selftest sensors empty=no\nwait 100\n"
              "send buttons\n")
    status, out, err = sim(tmp_path, script, "--target", "pico", "--fault", "stuck:c4",
                           "--fault", "stuck:end", timeout=300)
    assert status == 0, out + err
    assert replies(out) == ["ok setup missing=0 extra=1", "ok started",
                            "ok confirm=0 next=0 undo=0 hint=0 end=0 held=end"]


@pytest.mark.parametrize("args, message", [
    (["--fault", "stuck"], "--fault stuck: give KIND:ARG (stuck:CELL, dead:CELL, "
                           "stuck:BUTTON, dead:BUTTON, chip:K, led:N, row:Y, reversed:CELL)"),
    (["--fault", "melted:c4"], "--fault melted:c4: no fault kind 'melted' (chip, dead, led, "
                               "reversed, row, stuck)"),
    (["--fault", "dead:z9"], "--fault dead:z9: 'z9' is neither a cell (a1..k11) nor a button "
                             "(confirm, next, undo, hint, end)"),
    (["--fault", "chip:16"], "--fault chip:16: the chip K must be 0..15, not '16'"),
    (["--fault", "chip:3", "--fault", "chip:5"],
     "--fault chip:5: one dead chip at most (the chain loses everything after the first)"),
    (["--fault", "stuck:c4", "--fault", "dead:C4"],
     "--fault: a sensor or button cannot be both stuck and dead"),
    (["--fault", "led:157"], "--fault led:157: N must be an LED, 0..156, or a cell (a1..k11), "
                             "not '157'"),
    (["--fault", "row:5"], "--fault row:5: rows are powered one at a time on revision b only "
                           "(--rev b)"),
    (["--rev", "b", "--fault", "row:12"], "--fault row:12: the row Y must be 1..11, not '12'"),
    (["--rev", "b", "--fault", "chip:3"], "--fault chip:3: revision b has no 74HC165 chain "
                                          "(its sensors are read through the ADC: row:Y)"),
    (["--fault", "stuck:" + "7" * 5000], "--fault stuck:" + "7" * 34 + "… (5006 characters): "
                                         "'" + "7" * 40 + "… (5000 characters)' is neither a "
                                         "cell (a1..k11) nor a button (confirm, next, undo, "
                                         "hint, end)"),
])
def test_a_bad_fault_is_one_line_exit_2(tmp_path, args, message):
    status, out, err = sim(tmp_path, "send status\n", *args)
    assert (status, out, err) == (2, "", "cargoboard sim: error: %s\n" % message)


def test_a_reversed_magnet_needs_a_world_with_cubes(tmp_path):
    r = subprocess.run([cargoboard_exe(), "sim", "--rev", "b", "--pty", str(tmp_path / "b"),
                        "--fault", "reversed:e5"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("cargoboard sim: error: --fault reversed:CELL is a cube's: with --pty "
                        "alone no cube is ever put down (give --script FILE or --interactive)\n")
    assert not (tmp_path / "b").exists()


def test_help_lists_the_fault_kinds():
    r = subprocess.run([cargoboard_exe(), "sim", "--help"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0
    for kind in ("stuck:CELL", "dead:CELL", "stuck:BUTTON", "dead:BUTTON", "chip:K", "led:N",
                 "row:Y", "reversed:CELL"):
        assert "\n  %s " % kind in r.stdout, kind
    assert "--fault KIND:ARG" in r.stdout


def test_the_self_test_s_sweep_reaches_every_cell_the_corners_too(tmp_path):
    """bringup.md's pass: `unseen=0` once a cube has been on every cell. The world kept the
    four corners out of play (Cargocube's), so the virtual board's self-test could never pass:
    begun with `send new selftest`, its corners take pieces."""
    cells = ["%s%d" % (x, y) for y in range(1, 12) for x in "abcdefghijk"]
    script = "send new selftest sensors\n" + "".join("drop %s\ntake %s\n" % (c, c)
                                                     for c in cells) + "send seen\n"
    status, out, err = sim(tmp_path, script)
    assert status == 0, out[-2000:] + err
    assert replies(out) == ["ok started", "ok seen=121 unseen=0 occupied=0"]
    status, out, err = sim(tmp_path, script, "--fault", "dead:k11")
    assert status == 0 and replies(out)[-1] == "ok seen=120 unseen=1 occupied=0", out[-2000:]
