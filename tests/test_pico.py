"""The firmware on its real target: the stock MicroPython RP2040 image on an emulated Pico
(`cargoboard sim --target pico`: rp2040js with the board's flash chip, 74HC165 chain, WS2812
line and USB CDC modelled around it; host/cargoboard/sim/pico/). Everything above the silicon
is the real thing: the firmware's .mpy deploy build in a littlefs image, its RP2040 HAL, the
host tools over a real pty (pyserial, mpremote, SQLite).

Skipped, with the reason printed, where the boot ROM and the MicroPython image are not there.
The bring-up walk of all 121 cells is in test_selftest_sim.py (both targets)."""

import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from picotarget import SimProcess, require_pico  # noqa: E402
from cargoboard.link import Link, LinkError  # noqa: E402
from firmware.drivers import frames as FR  # noqa: E402
from firmware.system import link as FL  # noqa: E402
from cargoboard.sim.pico import fsimage  # noqa: E402
from cargoboard.sim.pico.images import find_images  # noqa: E402
from cargoboard.sim.pico.runner import PicoRunner, firmware_files  # noqa: E402
from cargoboard.sim.runner import FirmwareError, PowerCut  # noqa: E402
from cargoboard.build import STAMP, versions  # noqa: E402
from cargoboard.deploy import enter_repl, wait_hello  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.sync import sync  # noqa: E402
from simkit import WAIT  # noqa: E402
from test_cephalopod_sim import Game, _play, _whole_game  # noqa: E402  (tests/cephalopod/)

CLI = [sys.executable, "-m", "cargoboard"]


@pytest.fixture(autouse=True)
def _pico():
    require_pico()


def finish(gm):
    text = "\n".join(gm.out)
    gm.close()
    assert "evt error" not in text and "Traceback" not in text, text


def test_boot_hello_a_game_to_its_end_and_sync_into_sqlite(tmp_path):
    """Boot and HELLO over the binary protocol; a scripted 2-player game (Cephalopod 3x3) to
    its end, `expect` of the true final position; `cargoboard sync`'s code fetches its log over
    the emulated USB into a SQLite store."""
    gm = Game("3x3", target="pico", flash=tmp_path / "flash.img")
    try:
        assert "evt boot cargoboard fw=%s hal=rp2040" % versions()["fw"] in gm.s.events
        _whole_game(gm, 3)                       # ends with `expect` of the final position
        assert gm.pos.is_over() and gm.state()[0] == "over"
        assert "evt log finished game=1" in gm.s.events
        runner = gm.s.runner
        assert runner.target == "pico" and runner.emu_ns > 5e9
        gm.s.ser.close()  # the script's console; the host tools open the pty afresh
        with runner.serving(), Store(tmp_path / "games.sqlite") as store:
            # as `cargoboard deploy` waits for a board: the first binary request loads the
            # firmware's host link (a fraction of a second on the chip, longer in wall time
            # than the Link's retries allow when this machine is busy); the link's timeout is
            # wall time too: the emulated board answers in its own time, 2-10x slower
            hello = wait_hello(runner.port)
            with Link(runner.port, timeout=10.0) as link:
                res = sync(link, store)
                assert len(res.stored) == 1, res.summary()
                rec = store.get(res.stored[0][1])
        want = versions()
        assert (hello["hal"], hello["fw"], hello["rules"], hello["proto"]) == (
            "rp2040", want["fw"], want["rules"], want["proto"])
        # the board id is the flash chip's unique id (machine.unique_id)
        assert hello["board"] == "e660583883452c27"
    finally:
        finish(gm)
    assert (rec.kind, rec.variant, rec.source) == ("cephalopod", "3x3", "e660583883452c27")
    assert rec.actions == [gm.pos.format_action(a) for a in gm.pos.history()]
    assert rec.positions()[-1].notation() == gm.pos.notation()
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        assert db.execute("select count(*) from games").fetchone()[0] == 1
    # synced, the board may delete the log: it said so (flags) and the image still holds it
    # until the host asks; what matters here is that the image is a littlefs the host reads
    assert "games" in fsimage.listdir(tmp_path / "flash.img")


def _a_game_synced_from_a_sim(tmp_path, flash, db, seats):
    """`cargoboard sim --target pico --flash FLASH` served on a pty: a game started and aborted
    there (its log kept, abandoned), then `cargoboard sync` of that port into db. The board's
    id (its hello's). The game: Cargocube of `seats`, or Cephalopod of that size ("3x3"); each
    call of a test another (the store takes an abandoned game like one it holds, not known
    when played, for the same game, and does not store it again)."""
    from clirun import run
    from shared_rules.cargocube import rules as cc
    pty = tmp_path / "board"
    sim = SimProcess(pty, flash)
    try:
        with Link(str(pty), timeout=10.0) as link:
            board = link.hello()["board"]
            if "x" in seats:
                assert link.new_game("cephalopod " + seats).startswith("ok")
            else:
                assert link.new_game("cargocube polygon " + seats).startswith("ok")
                assert link.load(cc.start_position(len(seats)).notation()) == "ok loaded"
            assert link.text("abort") == "ok"
        r = run("sync", "--port", str(pty), "--db", str(db))
        assert "1 new game stored" in r.stdout, r.stdout
    finally:
        sim.stop()
    return board


def test_each_sim_flash_folder_is_its_own_board_kept_in_the_folder(tmp_path):
    """Every emulated Pico answered the one unique id of flash.mjs's chip, so two `cargoboard
    sim --target pico --flash DIR` boards with other folders were one board to `sync`: the
    second's game 1 went to the first's BOARD#2 as if one flash had been erased. Now the sim
    command gives a --flash folder's board its own chip id, made once and kept in DIR/unique_id:
    two folders are two boards in the store, the same folder again one board (its game 2 beside
    its game 1), so is the folder moved and its image erased (its numbering begun again: #2).
    Without --flash the board keeps the emulator's one fixed id, as every PicoRunner does unless
    given another (runs compare)."""
    db = tmp_path / "games.sqlite"
    first = _a_game_synced_from_a_sim(tmp_path, tmp_path / "a", db, "SN")
    other = _a_game_synced_from_a_sim(tmp_path, tmp_path / "b", db, "SWN")
    # the same folder again, then moved: the same board, its games numbered on from its flash
    again = _a_game_synced_from_a_sim(tmp_path, tmp_path / "a", db, "SWNE")
    (tmp_path / "a").rename(tmp_path / "a2")
    moved = _a_game_synced_from_a_sim(tmp_path, tmp_path / "a2", db, "3x3")
    # its flash erased: the same board, numbering from 1 again (BOARD#2, docs/protocol.md)
    (tmp_path / "a2" / "flash.img").unlink()
    erased = _a_game_synced_from_a_sim(tmp_path, tmp_path / "a2", db, "5x5")
    with Store(db, readonly=True) as st:
        assert sorted((src, n) for _, src, n, *_ in st.list()) == sorted(
            [(first, 1), (first, 2), (first, 3), (other, 1), (first + "#2", 1)])
    assert again == moved == erased == first != other != "e660583883452c27" != first
    assert len(first) == 16
    assert first == (tmp_path / "a2" / "unique_id").read_text().strip()
    assert other == (tmp_path / "b" / "unique_id").read_text().strip()
    throwaway = _a_game_synced_from_a_sim(tmp_path, None, tmp_path / "t.sqlite", "SN")
    assert throwaway == "e660583883452c27"


@pytest.mark.parametrize("unique_id", ["mine\n", "/dev/zero"])
def test_a_sim_flash_folders_damaged_board_id_is_one_line_exit_2(tmp_path, unique_id):
    """A DIR/unique_id that holds no id: one line naming it, exit status 2, before the board
    starts; the file is left as it was. A link to /dev/zero was read until memory ran out (a
    MemoryError traceback); the child's memory is capped so that such a read fails at once."""
    import resource
    from clirun import cargoboard_exe
    (tmp_path / "a").mkdir()
    if unique_id.startswith("/"):
        (tmp_path / "a" / "unique_id").symlink_to(unique_id)
    else:
        (tmp_path / "a" / "unique_id").write_text(unique_id)
    r = subprocess.run([cargoboard_exe(), "sim", "--target", "pico", "--flash",
                        str(tmp_path / "a"), "--pty", str(tmp_path / "p")], capture_output=True,
                       text=True, timeout=120, preexec_fn=lambda: resource.setrlimit(
                           resource.RLIMIT_AS, (2 << 30, 2 << 30)))
    assert (r.returncode, r.stderr) == (2, (
        "cargoboard sim: error: %s holds no board id (16 hex digits, the flash chip's unique "
        "id); remove it to make the folder's board a new one\n" % (tmp_path / "a" / "unique_id"))), r
    if not unique_id.startswith("/"):
        assert (tmp_path / "a" / "unique_id").read_text() == unique_id
    assert not (tmp_path / "a" / "flash.img").exists()


FRAME_CODEC = """
import binascii, random
from firmware.drivers import frames as F
random.seed(%d)
for i in range(40):
    n = random.getrandbits(10) %% (F.MAX_BODY + 1)
    zeros = random.getrandbits(2)  # 0: no zeros (COBS's 254-byte runs), else some
    body = bytes([0 if zeros and random.getrandbits(3) == 0 else random.getrandbits(8) or 1
                  for _ in range(n)])
    w = F.encode(i, i + 1, body)
    back = F.decode(memoryview(w)[1:-1])
    print("F", binascii.hexlify(body).decode(), binascii.hexlify(w).decode(),
          "ok" if back == (i, i + 1, body) else "bad")
print("native" if hasattr(F, "crc16_table") else "python")
"""


LED_FINISH = """
import binascii, random
from firmware.drivers import leds as L
random.seed(%d)
N = L.N_LEDS
p = L.Painter()
for i in range(12):
    for j in range(3 * N):
        p.frame[j] = random.getrandbits(8)
    for j in range(N):
        r = random.getrandbits(3)
        p._pat[j] = 0 if r < 3 else 0x10 | (r & 3)
    p.budget_ma = 200 + random.getrandbits(11) if i %% 3 else 100000
    before = binascii.hexlify(p.frame).decode()
    pat = binascii.hexlify(p._pat).decode()
    p.frame_no = 0  # every blink pattern on: finish() leaves the frame as it made it
    p.finish()
    n = p.blinking()
    print("L", p.budget_ma, int(p.scaled), before, pat, binascii.hexlify(p.frame).decode(), n,
          binascii.hexlify(p._bl[:n]).decode(), binascii.hexlify(p._bl_rgb[:3 * n]).decode(),
          binascii.hexlify(p._lo).decode(), binascii.hexlify(p._hi).decode(), p.last_ma)
ov = L.Overlay()
for i in range(12):
    for j in range(3 * N):
        p.frame[j] = random.getrandbits(8)
    for j in range(N):
        p._pat[j] = random.getrandbits(8)
    p.cap = random.getrandbits(8)
    ne = len(ov.buf) // 4
    for e in range(ne):
        # every cell, colour (9 and up: none), level and blink pattern (4 and up: none)
        ov.buf[4 * e] = random.getrandbits(7) %% L.N_CELLS
        ov.buf[4 * e + 1] = random.getrandbits(4) %% (L.N_COLOURS + 2)
        ov.buf[4 * e + 2] = random.getrandbits(8)
        ov.buf[4 * e + 3] = random.getrandbits(3) %% 6
    ov.lo = random.getrandbits(5)
    ov.n = ov.lo + random.getrandbits(8) %% (ne - ov.lo + 1)
    print("C", p.cap, ov.lo, ov.n, binascii.hexlify(ov.buf).decode(),
          binascii.hexlify(p.frame).decode(), binascii.hexlify(p._pat).decode(), end=" ")
    p.cells(ov)
    print(binascii.hexlify(p.frame).decode(), binascii.hexlify(p._pat).decode())
print("native" if L.Painter._group.__class__ is not type(L.Painter.animate) else "python")
print("native-cells" if L.Painter.cells.__class__ is not type(L.Painter.animate) else "python")
"""


def _led_finish_matches_python(stdout):
    """Each `L` line of LED_FINISH (the board's Painter.finish() on a random frame) as the
    Python code does it here."""
    from firmware.drivers import leds as L
    lines = [x.split() for x in stdout.splitlines() if x.startswith("L ")]
    assert len(lines) == 12, stdout
    assert "native" in stdout.split()  # the board ran the viper loop, not the Python one
    p = L.Painter()
    blinking = 0
    for _, budget, scaled, before, pat, *board in lines:
        p.frame[:] = bytes.fromhex(before)
        p._pat[:] = bytes.fromhex(pat)
        p.budget_ma = int(budget)
        p.frame_no = 0
        p.finish()
        n = p.blinking()
        assert (int(p.scaled), p.frame.hex(), str(n), p._bl[:n].hex(), p._bl_rgb[:3 * n].hex(),
                p._lo.hex(), p._hi.hex(), str(p.last_ma)) == (int(scaled), *board), budget
        blinking += n
    assert blinking > 100 and {x[2] for x in lines} == {"0", "1"}
    # Painter.cells (firmware/hal/rp2040.py's led_cells on the board) on random overlays
    cells = [x.split() for x in stdout.splitlines() if x.startswith("C ")]
    assert len(cells) == 12, stdout
    assert "native-cells" in stdout.split()
    ov = L.Overlay()
    drawn = 0
    for _, cap, lo, n, buf, before, pat, frame_after, pat_after in cells:
        p.cap = int(cap)
        ov.buf[:] = bytes.fromhex(buf)
        ov.lo, ov.n = int(lo), int(n)
        p.frame[:] = bytes.fromhex(before)
        p._pat[:] = bytes.fromhex(pat)
        p.cells(ov)
        assert (p.frame.hex(), p._pat.hex()) == (frame_after, pat_after), (cap, lo, n)
        drawn += ov.n - ov.lo
    assert drawn > 300


def test_native_frame_codec_and_led_finish_match_the_python_ones():
    """On the RP2040 the frame codec's CRC-16 and COBS run as viper code
    (firmware/drivers/frames_viper.py): random bodies of every length up to the largest, with
    and without zeros, framed on the emulated board come out byte for byte as the host's Python
    codec frames them, and the board decodes its own frames back. So does the LEDs' render end
    (firmware/hal/rp2040.py's led_group: a frame scaled into the current budget, the blinking LEDs
    grouped by pattern) on random frames, scaled and not, and its drawing of a plug-in's
    overlay (led_cells, Painter.cells) on random overlays and palettes."""
    from cargoboard.deploy import _mpremote_exe
    from firmware.drivers import frames as F
    with PicoRunner() as runner, runner.serving():
        r = subprocess.run([_mpremote_exe(), "connect", runner.port, "exec", FRAME_CODEC % 7],
                           capture_output=True, text=True, timeout=600)
        leds = subprocess.run([_mpremote_exe(), "connect", runner.port, "exec", LED_FINISH % 5],
                              capture_output=True, text=True, timeout=600)
    assert leds.returncode == 0, leds.stderr
    _led_finish_matches_python(leds.stdout)
    assert r.returncode == 0, r.stderr
    lines = [x.split() for x in r.stdout.splitlines() if x.startswith("F ")]
    assert len(lines) == 40, r.stdout
    lengths = set()
    for i, (_, body, wire, ok) in enumerate(lines):
        body = bytes.fromhex(body)
        lengths.add(len(body) // 254)
        assert ok == "ok", (i, body)
        assert bytes.fromhex(wire) == F.encode(i, i + 1, body), (i, body)
    assert len(lengths) >= 3  # frames past one and two COBS blocks of 254
    assert "native" in r.stdout.split()  # the board ran the viper codec, not the Python one


def test_power_cut_in_a_log_append_loses_nothing_completed(tmp_path):
    """The power goes early in the flash program of a log append (a torn page: its first tenth
    written, littlefs's commit without its CRC); the board boots again on the same flash: the
    game resumes with every completed action, and takes the torn one again from the dice."""
    gm = Game("3x3", target="pico", flash=tmp_path / "flash.img")
    try:
        _play(gm, ["b2", "a1", "c3"])
        before = gm.pos.notation()
        assert gm.position() == before
        runner = gm.s.runner
        ops = len(runner.flash_ops)
        runner.cut_during_flash_op(1, 0.1)
        with pytest.raises(PowerCut) as cut:
            gm.act("a3")                         # the board takes it; its log append is cut
        assert "torn" in str(cut.value), str(cut.value)
        assert len(runner.flash_ops) == ops + 1   # the cut came in the first operation
        gm.s.restart()                           # power on, the dice where the hand left them
        # a3 was not completed: the board has the three before it
        assert "evt log resumed game=1 actions=3 records=3 dropped=0" in gm.s.events, (
            gm.s.events[-8:], gm.out[-20:])
        assert gm.position() == before
        # the die on a3 is still there: the board takes the move again, and logs it
        gm.run(WAIT, "expect " + gm.pos.notation())
        gm.run("restart")
        assert "evt log resumed game=1 actions=4 records=4 dropped=0" in gm.s.events
    finally:
        finish(gm)


def test_a_host_faster_than_the_booted_board_leaves_its_firmware_running(tmp_path):
    """A sync started as soon as the board's link appears (the audit's F1): the board has
    not read the host's first HELLO when its timeout sends the next ones, and each frame
    reaches it while it still has Ctrl-C on. Before, only the first frame after a quiet spell
    avoided a 0x03 byte; the third try's seq was 3, the firmware stopped for the REPL, and
    every later sync failed until a reset. Now every frame avoids it until the board has
    answered one, so the host fails (or works) and the firmware runs on."""
    image = tmp_path / "flash.img"
    fsimage.write_files(image, firmware_files())
    with PicoRunner(flash=image, boot_from_flash=True) as runner, runner.serving():
        # tries far quicker than the board reads: seqs 1, 2, 3, ... before it answers any
        with Link(runner.port, timeout=0.02, retries=12) as eager:
            try:
                eager.hello()
            except LinkError:
                pass  # no answer in time is a clean failure; the point is what follows
        with Link(runner.port, timeout=10.0) as link:
            link.hello()
            status = link.text("status", resend=True)  # a TEXT reply: no stale HELLO's
            # a ONCE request (docs/protocol.md) on the chip's build, and a raw repeat of its
            # frame: the reply kept, sent again, and the command not run again (a game set up
            # twice says so twice)
            setups = runner.serial_log.count(b"evt game cargocube setup")  # (the boot game's)
            once = link.text("new cargocube polygon SN")
            link.write_raw(FR.encode(FL.TEXT | FL.ONCE, link._kept, b"new cargocube polygon SN"))
            for _ in range(3000):  # (read slices of the serial timeout; unsolicited frames pass)
                again = link._next_frame()
                if again is not None and again[1]:
                    break
            after = link.text("status", resend=True)  # the board has written all before it
    assert b">>>" not in runner.serial_log, bytes(runner.serial_log[-500:])
    assert status.startswith("ok state="), status
    assert once.startswith("ok setup") and again[0] == FL.TEXT | 0x80 and \
        again[2] == once.encode()
    assert after.startswith("ok state=setup"), after
    assert runner.serial_log.count(b"evt game cargocube setup") == setups + 1, \
        bytes(runner.serial_log)


def test_deploy_with_mpremote_then_boot_into_it(tmp_path):
    """`cargoboard deploy --port PTY` against the emulated board: the real mpremote (raw REPL of
    the real MicroPython, fs cp), the reset restarts the emulated chip from its flash, and the
    board then reports the deployed versions. Before: an image with other firmware (another
    build stamp) and a game log, which the deploy keeps, and a host that has just spoken
    binary frames (the firmware has Ctrl-C off).

    The hand-over ends at MicroPython's prompt, not in a reboot: before, main.py raised
    SystemExit, which the rp2 port takes for a soft reboot; the firmware ran again, a retried
    frame reaching it turned Ctrl-C off, mpremote's Ctrl-C was data and mpremote waited for
    ever (CI's failure). Then, on the deployed firmware, a second hand-over whose frame lands
    in the REPL as typed bytes (a stray copy) ends at the prompt too."""
    image = tmp_path / "flash.img"
    files = [(bp, data if bp != STAMP else data.replace(b"build=", b"build=old"))
             for bp, data in firmware_files()]
    files.append(("games/keep.txt", b"a user's file"))
    fsimage.write_files(image, files)
    with PicoRunner(flash=image, boot_from_flash=True) as runner, runner.serving():
        with Link(runner.port, timeout=10.0) as link:
            link.hello()  # a binary session: the firmware has Ctrl-C off
        deploy_start = len(runner.serial_log)
        # deploy's own limit fails it with one line; the test's limit above it catches a
        # stall anywhere else (mpremote once hung here for 14 minutes)
        try:
            r = subprocess.run(CLI + ["deploy", "--port", runner.port, "--timeout", "600"],
                               capture_output=True, text=True, timeout=720, cwd=ROOT)
        except subprocess.TimeoutExpired as e:
            pytest.fail("cargoboard deploy to the emulated Pico did not finish in 12 minutes; "
                        "its output so far: %s" % ((e.stdout or b"")[-2000:],), pytrace=False)
        resets = [x for x in runner.logs if x.startswith("chip reset")]
        repl_start = len(runner.serial_log)
        first = enter_repl(runner.port)
        again = enter_repl(runner.port)
    # (read once the board is no longer served: the serving thread writes the board's output
    # to the pty before it adds it to serial_log)
    deployed = bytes(runner.serial_log[deploy_start:repl_start])
    after = bytes(runner.serial_log[repl_start:])
    assert r.returncode == 0, r.stdout + r.stderr
    # the old firmware handed over: until mpremote's raw REPL (whose own soft reboot follows)
    # the console shows the REPL's prompt and no soft reboot, and deploy saw the prompt
    handed = deployed[:deployed.find(b"raw REPL; CTRL-B to exit")]
    assert b">>> " in handed and b"soft reboot" not in handed, deployed[:2000]
    assert "the board is at MicroPython's prompt: MicroPython v1.26.1" in r.stdout, r.stdout
    assert "runs fw=%s" % versions()["fw"] in r.stdout, r.stdout
    assert resets, runner.logs
    assert b"build=old" not in fsimage.read_file(image, STAMP)
    assert fsimage.read_file(image, "games/keep.txt") == b"a user's file"
    # enter_repl returns only at a prompt; the firmware's own hand-over prints the banner
    assert first.startswith("MicroPython v1.26.1") and again in ("", first), after
    assert b"soft reboot" not in after and b"evt boot" not in after, after


def _mpremotes_on(port):
    """The command lines of the running mpremote processes that name port."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(b"mpremote" in c for c in cmd) and port.encode() in cmd:
            found.append(b" ".join(cmd).decode(errors="replace"))
    return found


def test_a_deploy_stopped_midway_says_so_and_leaves_no_mpremote_behind(tmp_path):
    """SIGTERM (kill, a closed session) while mpremote copied ended `cargoboard deploy` at once
    (-15, not a word) and left mpremote copying on, holding the port, to reset the board
    after the deploy had ended. It ends as Ctrl-C does: mpremote stopped, one line that says
    the board may hold part of the firmware and what to do, exit 143; that deploy again
    brings the board back."""
    with PicoRunner(flash=tmp_path / "flash.img") as runner, runner.serving():
        p = subprocess.Popen(CLI + ["deploy", "--port", runner.port, "--timeout", "600"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            for line in p.stdout:
                if line.startswith("copying "):
                    break
            p.send_signal(signal.SIGTERM)
            out, err = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                p.kill()
        assert p.returncode == 143, (p.returncode, out, err)
        assert err == ("interrupted: mpremote was stopped midway: the board may hold part of "
                       "the new firmware (its hello says build=incomplete) and not start; run "
                       "`cargoboard deploy` again (its game logs are kept)\n"), err
        assert _mpremotes_on(runner.port) == []
        r = subprocess.run(CLI + ["deploy", "--port", runner.port, "--timeout", "600"],
                           capture_output=True, text=True, timeout=720, cwd=ROOT)
        assert r.returncode == 0 and "runs fw=%s" % versions()["fw"] in r.stdout, r


def test_a_board_left_at_micropythons_prompt_is_named_so(tmp_path):
    """A board at MicroPython's prompt (a deploy cut short, mpremote) echoes the host's frames
    as typed text, with no zero byte: sync said `no answer from the board`, which sends a
    user to the cable. It says the board is at the prompt, and what to do; no store is
    made."""
    db = tmp_path / "games.sqlite"
    with PicoRunner(flash=tmp_path / "flash.img") as runner, runner.serving():
        enter_repl(runner.port)  # the firmware hands over, as to a deploy
        r = subprocess.run(CLI + ["sync", "--port", runner.port, "--db", str(db)],
                           capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr == ("cargoboard: error: the board on %s is at MicroPython's prompt, not "
                        "running the Cargoboard firmware: run `cargoboard deploy` (a deploy "
                        "cut short, or mpremote, leaves it so), or unplug it and plug it in "
                        "again\n" % runner.port), r.stderr
    assert not db.exists()


def test_bad_uf2_boot_rom_or_flash_image_give_one_clear_line(tmp_path, monkeypatch):
    rom, uf2 = find_images()
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\x00" * 1000)
    garbage = tmp_path / "garbage.img"
    garbage.write_bytes(bytes(range(256)) * 64)
    cases = [
        (dict(uf2=bad), "UF2 %s: 1000 bytes is not a whole number of 512-byte UF2 blocks" % bad),
        (dict(bootrom=bad), "boot ROM %s: 1000 bytes, an RP2040 boot ROM has 16384" % bad),
        (dict(bootrom=uf2), "boot ROM %s:" % uf2),
        (dict(flash=garbage, boot_from_flash=True),
         "flash image %s: not a littlefs filesystem of the board" % garbage),
    ]
    for kwargs, start in cases:
        with pytest.raises(FirmwareError) as e:
            PicoRunner(**kwargs).start().stop()
        text = str(e.value)
        assert text.startswith(start) and "\n" not in text, text
    # the command line: one line, exit status 2, no traceback
    monkeypatch.setenv("CARGOBOARD_PICO_UF2", str(bad))
    script = tmp_path / "s.txt"
    script.write_text("send status\n")
    r = subprocess.run(CLI + ["sim", "--target", "pico", "--script", str(script)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stdout + r.stderr
    assert r.stderr == "cargoboard sim: error: %s: cannot start the simulated board: UF2 %s: " \
        "1000 bytes is not a whole number of 512-byte UF2 blocks\n" % (script, bad), r.stderr
    # and without the images: where the official files come from
    monkeypatch.setenv("CARGOBOARD_PICO_UF2", str(tmp_path / "missing.uf2"))
    r = subprocess.run(CLI + ["sim", "--target", "pico", "--script", str(script)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stdout == "" and r.stderr.startswith("cargoboard sim: error: ")
    assert "https://micropython.org/download/RPI_PICO/" in r.stderr
    assert "fc2a8096e0d999d3caca11b34381854599d68aee3e905d3cccbd5247ca78d07c" in r.stderr


WS2812_DMA = '''
import rp2, array, time
from machine import Pin
from firmware.hal.rp2040 import _ws2812
sm = rp2.StateMachine(0, _ws2812, freq=8000000, sideset_base=Pin(22))
sm.active(1)
N = 157
a = array.array("I", [((i * 7) & 0xFF) << 16 | ((255 - i) & 0xFF) << 8 | (i & 0xFF) for i in range(N)])
t0 = time.ticks_us()
sm.put(a, 8)
t1 = time.ticks_us()
time.sleep_ms(5)
b = array.array("I", [(i << 24) | (((i * 5) & 0xFF) << 16) | (((i * 3) & 0xFF) << 8) for i in range(N)])
d = rp2.DMA()
ctrl = d.pack_ctrl(size=2, inc_read=True, inc_write=False, treq_sel=0)  # DREQ_PIO0_TX0
t2 = time.ticks_us()
d.config(read=b, write=sm, count=N, ctrl=ctrl, trigger=True)
t3 = time.ticks_us()
while d.active():
    pass
t4 = time.ticks_us()
print("put_us=%d dma_start_us=%d dma_done_us=%d" % (
    time.ticks_diff(t1, t0), time.ticks_diff(t3, t2), time.ticks_diff(t4, t2)))
def loop():
    t = time.ticks_us()
    for i in range(10000):
        pass
    return time.ticks_diff(time.ticks_us(), t)
print("loop_us=%d" % loop())
'''


def test_led_chain_by_pio_and_by_dma_with_silicon_timing(tmp_path):
    """The firmware's WS2812 program on PIO0 (its 8 MHz clock divider and delay cycles stepped
    with the core's clock): `sm.put` of 157 LEDs blocks ~4.7 ms as on silicon; the same line
    fed by DMA from the PIO's TX DREQ returns at once and sends the frame in the same time.
    Both frames are decoded back from GPIO22's edges, LED for LED. And the idle USB line does
    not interrupt the chip."""
    image = tmp_path / "flash.img"
    files = [(bp, data) for bp, data in firmware_files() if not bp.endswith("main.py")]
    fsimage.write_files(image, files + [("main.py", WS2812_DMA.encode())])
    with PicoRunner(flash=image, boot_from_flash=True) as runner:
        runner.step(20)
        out = bytes(runner.serial_log).decode()
        leds = bytes(runner.leds)
        frames = list(runner.led_frames)
    m = re.search(r"put_us=(\d+) dma_start_us=(\d+) dma_done_us=(\d+)", out)
    assert m, out
    put_us, start_us, done_us = map(int, m.groups())
    # 157 x 24 bits x 1.25 us = 4.71 ms; put() returns when the last word is in the 4-word
    # FIFO, the DMA finishes alike; starting the DMA takes tens of microseconds
    assert 4500 < put_us < 5000 and 4500 < done_us < 5000 and start_us < 200, out
    assert [(n, round(d / 1000)) for _, d, n in frames] == [(157, 4709), (157, 4709)], frames
    assert leds == bytes(v for i in range(157) for v in ((i * 5) & 255, i, (i * 3) & 255))
    # An idle USB serial costs nothing: an empty 10000-round loop takes 33.9 ms of emulated
    # time; with rp2040js's OUT-endpoint storm (an interrupt every 10 us) it took 98.7 ms.
    loop_us = int(re.search(r"loop_us=(\d+)", out).group(1))
    assert loop_us < 40000, out


BUSY = '''
import time
t = time.ticks_us()
d = {}
s = 0
for i in range(800):
    s = (s * 31 + i) & 0xFFFFFF
    d[i % 97] = str(s)[-3:] + "x"
    if i % 7 == 0:
        s ^= len(d) << 3
print("busy", s, len(d), sorted(d.values())[:3], time.ticks_diff(time.ticks_us(), t))
'''


def test_every_opcode_runs_in_fastcore_as_in_rp2040js():
    """fastcore.mjs executes every 16-bit opcode (and BL) itself: each, one at a time from many
    register, flag and memory states, must leave the chip exactly as rp2040js's own
    executeInstruction leaves an identical chip (registers, flags, cycles, memory, mode)."""
    import json
    from cargoboard.sim.pico.runner import find_node
    r = subprocess.run([find_node(), str(ROOT / "tests" / "pico_fastcore_ops.mjs"), "4"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    summary = json.loads(r.stdout.splitlines()[0]) if r.stdout else {}
    assert r.returncode == 0, r.stdout[:4000] + r.stderr
    assert summary["instructions"] == 4 * 65536
    assert summary["uncovered"] == [] and summary["blTaken"] > 0 and summary["differences"] == 0


def test_fast_instruction_dispatch_runs_cycle_for_cycle_as_rp2040js(tmp_path):
    """fastcore.mjs runs the core itself: the chip must end in the same state, cycle for cycle,
    as with rp2040js's own executeInstruction (a Python workload, boot included)."""
    import json
    from cargoboard.sim.pico.runner import PINS, find_node
    rom, uf2 = find_images()
    image = tmp_path / "flash.img"
    fsimage.write_files(image, [("main.py", BUSY.encode())])
    r = subprocess.run([find_node(), str(ROOT / "tests" / "pico_fastcore.mjs"), str(rom),
                        str(uf2), str(image), str(PINS), "500"],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    fast, slow = [json.loads(line) for line in r.stdout.splitlines()]
    assert "busy" in fast["serial"], fast["serial"]
    assert fast["cycles"] > 10_000_000
    for key in ("cycles", "coreCycles", "nanos", "wfiNanos", "registers", "flags", "sram",
                "serial", "leds"):
        assert fast[key] == slow[key], key
    # the fast board (built first) ran V8's warm-up (warmup.mjs) through to its end
    assert fast["warmUp"].get("error") is None, fast["warmUp"]["error"]
    assert fast["warmUp"]["instructions"] >= 7000, fast["warmUp"]


# The revision-B HAL set up on the stock image, then the pins it owns read back from SIO
# (GPIO_OUT, GPIO_OE): the regulator's PS pin and ROW_EN.
REVB_PINS_MAIN = b"""import machine
from firmware.hal.rp2040_revb import Rp2040HallHal
hal = Rp2040HallHal()
out = machine.mem32[0xD0000010]
oe = machine.mem32[0xD0000020]
print('pins', [((out >> g) & 1, (oe >> g) & 1) for g in (23, 11)])
"""


def test_revb_hal_drives_the_regulator_into_pwm_mode(tmp_path):
    """Revision B reads its sensors with the ADC, whose reference is the Pico's 3V3: the Pico
    datasheet recommends the RT6150's PWM mode then (its PS pin, GP23, high; the stock image
    leaves it low). The HAL, as `cargoboard deploy --rev b` builds it, drives GP23 high as an
    output, and ROW_EN high (no row powered) as before."""
    from cargoboard.build import stage
    files = [(bp, Path(lp).read_bytes()) for bp, lp, _ in stage(tmp_path / "build", "rp2", "B")
             if bp != "main.py"]
    image = tmp_path / "flash.img"
    fsimage.write_files(image, files + [("main.py", REVB_PINS_MAIN)])
    with PicoRunner(flash=image, boot_from_flash=True, revision="B") as runner:
        log = bytes(runner.serial_log).decode(errors="replace")
    line = [x for x in log.splitlines() if x.startswith("pins ")]
    assert line == ["pins [(1, 1), (1, 1)]"], log


def test_sim_pty_stopped_while_the_emulated_pico_boots_exits_0_and_leaves_nothing(tmp_path):
    """`cargoboard sim --target pico --pty PATH` sent SIGTERM while its board still boots (the
    emulator runs, nothing is served yet) stops as it does once serving: exit 0, the emulator
    gone, no link. It died with 143 until stop 36 (the audit's C5). (The build's mpy-cross,
    started before the emulator, is test_device_compile.py's signal test's.)"""
    import os
    import signal
    import time
    from cargoboard.build import stage
    pty = tmp_path / "board"
    exe = str(Path(sys.executable).parent / "cargoboard")
    # the board's build in the cache first, as the sim stages it: the wait below is for the
    # emulator's start, not for a build (on a clean machine's cold cache, beside the other
    # worker, it took longer than that wait: "the emulator never started before serving")
    stage(tmp_path / "staged", "rp2")
    sim = subprocess.Popen([exe, "sim", "--target", "pico", "--pty", str(pty)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children = Path("/proc/%d/task/%d/children" % (sim.pid, sim.pid))
    try:
        kids = []

        def node_children():  # not the build's mpy-cross --version, which comes first
            try:
                return [k for k in children.read_text().split()
                        if Path("/proc/%s/comm" % k).read_text().strip() == "node"]
            except OSError:
                return []
        for _ in range(600):  # the emulator started: the handler is in place before it
            kids = node_children() if sim.poll() is None else []
            if kids or sim.poll() is not None:
                break
            time.sleep(0.02)
        assert kids and not pty.is_symlink(), "the emulator never started before serving"
    finally:
        sim.send_signal(signal.SIGTERM)
        out, err = sim.communicate(timeout=30)
    assert sim.returncode == 0 and err == "" and "serving" not in out, (sim.returncode, out, err)
    assert not pty.is_symlink()
    for kid in kids:
        assert not os.path.exists("/proc/%s" % kid) or \
            Path("/proc/%s/stat" % kid).read_text().split()[2] == "Z", "emulator %s left" % kid
