"""The binary serial protocol (docs/protocol.md): framing on both interpreters, and the
board's answers over a real pseudo-terminal with pyserial (the virtual board runs the
firmware under the MicroPython unix port)."""

import os
import random
import re
import sys
import time

import pytest
import serial

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "host"))

from firmware.drivers import frames as F  # noqa: E402
from firmware.system import link as FL  # noqa: E402
from cargoboard.link import Link, BoardError, LinkError, parse_info  # noqa: E402
from cargoboard.rules import rules_for  # noqa: E402
from cargoboard.sim.runner import UnixRunner  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from shared_rules.versions import RULES  # noqa: E402
from faultlink import FrameTamper  # noqa: E402


def test_crc_and_cobs_known_vectors():
    assert F.crc16(b"123456789") == 0x29B1
    assert bytes(F.cobs_encode(b"\x00")) == b"\x01\x01"
    assert bytes(F.cobs_encode(b"\x11\x22\x00\x33")) == b"\x03\x11\x22\x02\x33"
    assert bytes(F.cobs_encode(bytes(range(1, 255)))) == b"\xff" + bytes(range(1, 255)) + b"\x01"


def test_cobs_round_trip_and_no_zero():
    rnd = random.Random(5)
    for n in list(range(0, 600)) + [F.MAX_PAYLOAD]:
        data = bytes(rnd.choice((0, 0, 1, 255, rnd.randrange(256))) for _ in range(n))
        enc = F.cobs_encode(data)
        assert 0 not in enc
        assert len(enc) <= n + n // 254 + 1
        assert F.cobs_decode(enc) == data


def test_decode_refuses_damage():
    frame = F.encode(3, 9, b"\x00\x01\x02hello\x00")
    assert F.decode(frame[1:-1]) == (3, 9, b"\x00\x01\x02hello\x00")
    for i in range(1, len(frame) - 1):
        for bit in (1, 0x80):
            bad = bytearray(frame[1:-1])
            bad[i - 1] ^= bit
            if 0 in bad:
                continue  # a zero would end the frame on the wire
            assert isinstance(F.decode(bad), int), (i, bit)
    assert F.decode(b"\x01") == F.BAD_LENGTH
    assert F.decode(b"\x05ab") == F.BAD_COBS
    with pytest.raises(ValueError):
        F.encode(1, 1, bytes(F.MAX_BODY + 1))


def test_same_frames_under_micropython(micropython):
    rnd = random.Random(11)
    cases = [(rnd.randrange(256), rnd.randrange(256),
              bytes(rnd.choice((0, rnd.randrange(256))) for _ in range(rnd.randrange(0, 700))))
             for _ in range(40)]
    script = "from firmware.drivers import frames as F\nimport binascii\n"
    script += "cases = %r\n" % ([(t, s, b.hex()) for t, s, b in cases],)
    script += ("for t, s, h in cases:\n"
               "    f = F.encode(t, s, binascii.unhexlify(h))\n"
               "    r = F.decode(f[1:-1])\n"
               "    assert r == (t, s, binascii.unhexlify(h)), r\n"
               "    print(binascii.hexlify(f).decode())\n")
    out = micropython(script).split()
    assert out == [F.encode(t, s, b).hex() for t, s, b in cases]


# --- over the virtual board ---------------------------------------------------------------------

class Board:
    """The virtual board served in a thread, pyserial + Link on its pty."""

    def __init__(self, **kw):
        self.runner = UnixRunner(**kw).start()
        if self.runner.revision == "B":
            from cargoboard.games.cargocube.hallfield import HallWorld
            self.runner.sums = HallWorld().adc_sums()   # an empty board's scan
        self._serving = self.runner.serving()
        self._serving.__enter__()
        self.link = Link(self.runner.port, timeout=0.5)

    def close(self):
        self.link.close()
        self._serving.__exit__(None, None, None)
        self.runner.stop()

    def raw_exchange(self, data, quiet=0.3, give_up=30):
        """Write raw bytes, collect the frames that come back: until the first one has come
        and then `quiet` seconds pass without a byte (a busy machine's board may take longer
        than any fixed wait to answer at all)."""
        ser = self.link.ser
        ser.reset_input_buffer()
        ser.write(data)
        start = last = time.monotonic()
        got = bytearray()
        while time.monotonic() - start < give_up:
            chunk = ser.read(4096)
            now = time.monotonic()
            if chunk:
                got += chunk
                last = now
            elif any(got.split(b"\x00")[:-1]) and now - last >= quiet:
                break
        return [F.decode(b) for b in bytes(got).split(b"\x00") if b]


@pytest.fixture
def board():
    b = Board()
    yield b
    b.close()


def test_hello_reports_versions(board):
    info = board.link.hello()
    from firmware.system.app import VERSION
    assert info["fw"] == VERSION
    assert info["proto"] == str(F.PROTOCOL_VERSION)
    # every game of the registry, in its order, at the version its own rules module plays
    games = [game for game, _ in RULES]
    assert games
    assert info["rules"] == ",".join(
        "%s/%d" % (game, rules_for(game).RULES_VERSION) for game in games)
    assert info["hal"] == "sim" and info["state"] == "idle"


def test_every_bad_frame_gets_an_error_frame(board):
    # damaged CRC
    good = F.encode(FL.HELLO, 7)
    bad = bytearray(good)
    bad[3] ^= 0x40
    replies = board.raw_exchange(bytes(bad))
    assert (FL.ERROR, 0, bytes((FL.E_FRAME,)) + b"bad CRC") in replies
    # not COBS, too short
    assert any(r[0] == FL.ERROR and r[2][0] == FL.E_FRAME for r in board.raw_exchange(b"\x00\x05ab\x00"))
    assert any(r[0] == FL.ERROR and r[2][0] == FL.E_FRAME for r in board.raw_exchange(b"\x00\x01\x00"))
    # too long
    replies = board.raw_exchange(b"\x00" + b"\x01" * 3000 + b"\x00")
    assert any(r[0] == FL.ERROR and b"too long" in r[2] for r in replies)
    # unknown type, bad bodies
    with pytest.raises(BoardError) as e:
        board.link.request(0x33)
    assert e.value.code == FL.E_UNKNOWN
    with pytest.raises(BoardError) as e:
        board.link.request(FL.READ, b"\x00\x01")
    assert e.value.code == FL.E_REQUEST
    with pytest.raises(BoardError) as e:
        board.link.request(FL.EVENTS, b"")
    assert e.value.code == FL.E_REQUEST
    for typ, body in ((FL.FETCH, b"\x00" * 9), (FL.CONFIRM, b"\x00" * 12), (FL.CONFIRM, b""),
                      (FL.LIST, b"\x00" * 3), (FL.LIST, b"\x00" * 5)):
        with pytest.raises(BoardError) as e:
            board.link.request(typ, body)
        assert e.value.code == FL.E_REQUEST, (typ, body)
    with pytest.raises(BoardError) as e:
        board.link.request(FL.TEXT, b"\xff\xfe")
    assert e.value.code == FL.E_REQUEST
    with pytest.raises(BoardError) as e:  # (deploy sends it once: deploy.enter_repl)
        board.link.request(FL.REPL)
    assert "no REPL" in str(e.value)
    # and the board is still there, on both sides of the serial
    assert board.link.hello()["proto"] == "2"
    assert board.link.text("status").startswith("ok state=idle")
    assert "Traceback" not in board.runner.serial_log.decode(errors="replace")


def test_garbage_before_a_frame_is_skipped(board):
    board.link.ser.write(b"\x13\x37 noise \x00\xff\xff\xff")
    assert board.link.hello()["proto"] == "2"


def test_new_config_load_text_and_events(board):
    link = board.link
    events = []
    link.on_event = events.append
    assert link.events(FL.EV_TEXT) == b"\x01"
    assert link.new_game("cargocube polygon SN").startswith("ok setup")
    assert link.configure("bright=40 debounce=20") == {"bright": "40", "budget": "400", "debounce": "20"}
    assert link.configure("") == {"bright": "40", "budget": "400", "debounce": "20"}
    with pytest.raises(BoardError):
        link.configure("bright=999")
    pos = cc.start_position(2)
    pos.push(pos.legal_actions()[3])
    with pytest.raises(BoardError) as e:
        link.load("not a position")
    assert "bad position" in str(e.value)
    assert link.load(pos.notation()) == "ok loaded"
    assert link.text("pos") == "ok " + pos.notation()
    assert link.text("status").startswith("ok state=play")
    link.poll(0.3)
    assert any(e.startswith("game cargocube setup") for e in events)
    assert "load cargocube" in events
    # console errors come back as ERROR 4 with the console's message
    with pytest.raises(BoardError) as e:
        link.text("frobnicate")
    assert e.value.code == FL.E_FAILED and "unknown command" in str(e.value)


def test_config_sets_all_of_its_body_or_nothing(board):
    """A CONFIG body with a bad word is refused whole, the bad word named: before, the words
    ahead of it were set (`bright=40 bogus` left bright at 40 and said it was refused)."""
    link = board.link
    before = link.configure("")
    for body, bad in (("bright=40 bogus", "bogus"), ("debounce=7 bright=41 budget=99999",
                                                     "budget=99999"),
                      ("budget=120 bright=x", "bright=x"), ("bright=42 =3", "=3")):
        with pytest.raises(BoardError) as e:
            link.configure(body)
        assert e.value.code == FL.E_FAILED and "bad setting '%s' (" % bad in str(e.value), \
            (body, str(e.value))
        assert link.configure("") == before, body
    # a good body is set whole, as before
    assert link.configure("bright=40 debounce=20") == dict(before, bright="40", debounce="20")



def test_a_loaded_position_begins_a_log_of_the_variant_position(tmp_path):
    """LOAD ends the game's log and begins one at the loaded position; its header names the
    variant `position` (docs/log-format.md; then `+wait2`, the game's option), as `new cargocube position=...` does. A Cargocube
    game begun as `polygon` kept that name for the loaded start (found by stop 36's
    independent host)."""
    from firmware.system import logformat as LF
    b = Board(flash=str(tmp_path / "flash.img"))
    try:
        link = b.link
        assert link.new_game("cargocube polygon SN").startswith("ok setup")
        pos = cc.start_position(2)
        pos.push(pos.legal_actions()[3])
        assert link.load(pos.notation()) == "ok loaded"
        playing = [g for g, _, _, flags in link.games() if flags & 2]
        assert len(playing) == 1
        total, raw = link.read(playing[0], 0)
        header = LF.parse(raw)[0]
        # (`+wait2`: revision A's default option, kept by the loaded game)
        assert (header.variant, header.start) == ("position+wait2", pos.notation())
        assert header.version == 2
    finally:
        b.close()


def test_text_bodies_outside_printable_ascii_are_refused_and_run_nothing(board):
    """The console drops a line with a byte outside printable ASCII/tab (docs/serial-protocol.md);
    a TEXT, NEW, CONFIG or LOAD body is such a line and gets the same refusal, ERROR 3 naming the
    byte, before anything runs: `abort ñ` in a TEXT frame aborted the game (the console split
    the words and ignored the extra one), `status\\nundo` ran `status`."""
    link = board.link
    assert link.new_game("cargocube polygon SN").startswith("ok setup")
    before = link.text("pos")
    refused = ((FL.TEXT, "abort \u00f1".encode()), (FL.TEXT, b"abort\nstatus"),
               (FL.TEXT, "undo\u00a0".encode()), (FL.TEXT, b"\xff\xfe"), (FL.TEXT, b"abort \x01"),
               (FL.NEW, "cephalopod 5x5 \u00e9".encode()), (FL.CONFIG, "bright=9 \u00fc".encode()),
               (FL.LOAD, cc.start_position(4).notation().encode() + b"\x7f"))
    for typ, body in refused:
        with pytest.raises(BoardError) as e:
            link.request(typ, body)
        assert e.value.code == FL.E_REQUEST, (body, e.value)
        bad = next(b for b in body if not (32 <= b < 127 or b == 9))
        assert "bad character 0x%02x" % bad in str(e.value), (body, e.value)
        assert "printable ASCII" in str(e.value), (body, e.value)
    # nothing ran: the same game at the same position, the settings as they were
    assert link.text("status").startswith("ok state=setup game=cargocube")
    assert link.text("pos") == before
    assert link.configure("")["bright"] != "9"
    assert "Traceback" not in board.runner.serial_log.decode(errors="replace")

@pytest.mark.parametrize("rev", ["A", "B"])
def test_led_budget_stops_at_what_usb_gives(rev):
    """`budget` (CONFIG and the console) goes up to the board revision's USB-safe LED budget
    (its pin map's LED_BUDGET_MAX_MA, checked against circuit/power.py in
    tests/test_circuit_design.py): one more is refused with the same one-line error as any
    setting out of its range, and the budget stays what it was."""
    from hardware import pinmap, pinmap_revb
    top = (pinmap if rev == "A" else pinmap_revb).LED_BUDGET_MAX_MA
    b = Board(revision=rev)
    try:
        link = b.link
        assert link.configure("budget=%d" % top)["budget"] == str(top)
        with pytest.raises(BoardError) as e:
            link.configure("budget=%d" % (top + 1))
        assert str(e.value).endswith("bad setting 'budget=%d' (bright=0..255 budget=0..%d "
                                     "debounce=0..1000)" % (top + 1, top)), str(e.value)
        with pytest.raises(BoardError) as e:
            link.text("budget %d" % (top + 1))
        assert e.value.code == FL.E_FAILED and str(e.value).endswith(
            "usage: budget 0..%d" % top), str(e.value)
        assert link.text("budget") == "ok %d" % top
        assert link.configure("budget=100")["budget"] == "100"
        assert "Traceback" not in b.runner.serial_log.decode(errors="replace")
    finally:
        b.close()


def test_led_frames_follow_the_leds(board):
    link = board.link
    frames = []
    link.on_leds = frames.append
    link.events(FL.EV_LEDS)
    link.new_game("cargocube polygon SN")
    link.poll(0.4)
    assert frames and all(len(f) == 471 for f in frames)
    assert frames[-1] == bytes(board.runner.leds)


def test_led_frames_alone_leave_the_events_as_lines(board, monkeypatch):
    import cargoboard.link as HL
    text = []
    is_text = HL._is_console_text

    def seen(block):
        if is_text(block):
            text.append(bytes(block))
        return is_text(block)

    monkeypatch.setattr(HL, "_is_console_text", seen)
    link = board.link
    events = []
    link.on_event = events.append
    assert link.events(FL.EV_LEDS) == b"\x02"
    link.new_game("cargocube polygon SN")
    link.poll(0.4)
    assert not events  # no EVENT frames: not subscribed
    assert any(b.startswith(b"evt game cargocube setup") for b in b"".join(text).split(b"\n"))


def test_board_id_mismatch_of_protocol_version_is_refused(board, monkeypatch):
    """The refusal says which side to update: the board's firmware when it is older, this
    program when the board's protocol is newer (it said "the firmware or this program")."""
    monkeypatch.setattr(F, "PROTOCOL_VERSION", 99)
    with pytest.raises(LinkError) as e:
        board.link.hello()
    assert str(e.value) == ("the board speaks protocol 2, this program 99: update the "
                            "board's firmware (cargoboard deploy)")
    monkeypatch.setattr(F, "PROTOCOL_VERSION", 1)
    with pytest.raises(LinkError) as e:
        board.link.hello()
    assert str(e.value).startswith("the board speaks protocol 2, this program 1: update this "
                                   "program"), str(e.value)


def test_no_answer_is_a_clear_error(tmp_path):
    master, slave = os.openpty()
    try:
        link = Link(os.ttyname(slave), timeout=0.1, retries=2)
        with pytest.raises(LinkError) as e:
            link.hello()
        assert "no answer" in str(e.value)
        link.close()
    finally:
        os.close(master)
        os.close(slave)


def test_parse_info():
    assert parse_info("cargoboard a=1 b=x=y c") == {"a": "1", "b": "x=y"}


def test_console_text_between_frames_is_not_taken_for_damage(board):
    """Without an event subscription the board's events stay text lines on the same serial;
    the host skips them and does not resend (a resent NEW would set the game up twice)."""
    link = board.link
    assert link.new_game("cargocube polygon SN").startswith("ok setup")
    assert link.text("status").startswith("ok state=setup")
    log = board.runner.serial_log.decode(errors="replace")
    assert log.count("evt game cargocube setup") == 1
    assert link.resent == 0 and link.damaged == 0


def _first(types, fault):
    """A FrameTamper rule: fault(block) on the first frame of one of these types, the rest
    pass; the frames it hit are listed in .hit."""
    def rule(block):
        r = F.decode(block)
        if not rule.hit and isinstance(r, tuple) and r[0] in types:
            rule.hit.append(r)
            return fault(block)
        return block
    rule.hit = []
    return rule


def _damage(block):
    """A bit flipped in the middle of a frame (never into a zero, which would split it)."""
    b = bytearray(block)
    i = len(b) // 2
    b[i] ^= 0x40 if b[i] != 0x40 else 0x01
    return bytes(b)


SETUP_EVENT = b"evt game cargocube setup"


@pytest.mark.parametrize("fault", ["request damaged", "reply lost"])
def test_a_console_command_runs_once_through_a_fault_on_the_wire(fault):
    """A console command (`new` in a TEXT frame, which sets a game up each time it runs) whose
    request frame is damaged on the wire (the board answers ERROR 1, seq 0: it cannot read
    the seq), or whose reply is lost: the host sends the same ONCE frame again, the board runs
    it once and answers the repeat from the reply it kept; the command succeeds. Before, the
    host skipped the seq-0 error as a late reply and waited for a reply that never came
    (`may have run`), though the board had not run it; a lost reply ended the same way."""
    runner = UnixRunner().start()
    try:
        with runner.serving():
            if fault == "request damaged":
                rule = _first((FL.TEXT, FL.TEXT | FL.ONCE), _damage)
                tamper = FrameTamper(runner.port, to_board=rule)
            else:
                rule = _first((FL.TEXT | 0x80,), lambda block: None)
                tamper = FrameTamper(runner.port, to_host=rule)
            try:
                with Link(tamper.port, timeout=0.5, retries=8) as link:
                    reply = link.text("new cargocube polygon SN")
                    assert rule.hit, "the fault was not made"
                    assert reply.startswith("ok setup missing="), reply
                    assert link.resent >= 1  # (more on a machine slower than the timeout)
                    # the board read the repeat before it answered it: every run is logged
                    assert runner.serial_log.count(SETUP_EVENT) == 1, runner.serial_log
                    if fault == "request damaged":
                        # (bad CRC, or bad COBS/length when the flipped byte is a COBS code:
                        # which byte is the middle one depends on the seq, so on how many
                        # HELLO tries a busy machine needed first)
                        assert any(
                            r[:2] == (FL.ERROR, 0) and r[2][:1] == bytes((FL.E_FRAME,))
                            for r in [F.decode(b) for b in bytes(runner.serial_log).split(b"\x00")
                                      if b] if not isinstance(r, int)), runner.serial_log
                    # the board goes on: the next command runs (a new seq, a new ONCE frame)
                    assert link.text("abort") == "ok"
                    assert link.text("status", resend=True).startswith("ok state=idle")
            finally:
                tamper.close()
        assert "Traceback" not in runner.serial_log.decode(errors="replace")
    finally:
        runner.stop()


def test_a_once_request_of_another_link_is_not_taken_for_a_repeat():
    """Two host programs one after the other send the same command with the same seq: the
    second is run, not answered from what the board kept of the first (the HELLO each Link
    sends before its first ONCE request makes the board forget it)."""
    runner = UnixRunner().start()
    try:
        with runner.serving():
            frames = []
            for _ in range(2):
                # (a timeout no busy machine reaches: a HELLO sent again would move the seq)
                with Link(runner.port, timeout=10.0) as link:
                    assert link.text("new cargocube polygon SN").startswith("ok setup")
                    frames.append(link._kept)
        assert frames[0] == frames[1]  # the same seq both times
        assert runner.serial_log.count(SETUP_EVENT) == 2
    finally:
        runner.stop()


class _ReplHal:
    """The smallest HAL with a REPL behind it (as the board has), for the REPL request."""
    name = "fake"
    has_repl = True
    led_budget_max_ma = 413

    def __init__(self):
        self.out = bytearray()
        self.ctrl_c = []

    def serial_write(self, b):
        self.out += b

    def set_ctrl_c(self, on):
        self.ctrl_c.append(on)

    def flash_root(self):
        return None


def test_repl_request_hands_the_board_over_with_ctrl_c_on():
    from firmware.system.app import App
    hal = _ReplHal()
    app = App(hal)
    with pytest.raises(SystemExit):
        app._feed(F.encode(FL.REPL, 9))
    replies = [F.decode(b) for b in bytes(hal.out).split(b"\x00") if b]
    assert replies == [(FL.REPL | 0x80, 9, b"")]
    assert hal.ctrl_c == [False, True]  # off for the frame, back on for the REPL
    # a frame session switches Ctrl-C off, and 3 s of silence gives it back
    hal.ctrl_c.clear()
    app._feed(F.encode(FL.EVENTS, 1, b"\x00"))
    app.now = 10
    app.link.tick(2000)
    assert hal.ctrl_c == [False]
    app.link.tick(3500)
    assert hal.ctrl_c == [False, True]


class _SlowBoard:
    """A board on a pty that answers every request but HELLO late (after `delay` s), counting
    what it was sent: a console command must run once however late its reply comes. Its HELLO says
    `hello` (an older firmware's: no once=1); it answers no request of the types in `mute`.
    A request whose body is in `until_repeat` is answered only once its repeat has come (then
    both, the first try's reply first): late by the host's own timeout, whatever the delays
    of a busy machine (a reply timed by the board's clock could also miss the repeat's try)."""

    def __init__(self, delay, hello=b"cargoboard proto=2", mute=(), until_repeat=()):
        import threading
        import tty
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.delay, self.requests, self._stop = delay, [], False
        self.hello, self.mute, self.frames = hello, mute, []
        self.until_repeat, self._held = until_repeat, {}  # body -> the first try's seq
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        import select
        buf = b""
        while not self._stop:
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                buf += os.read(self.master, 4096)
            except OSError:
                return
            while b"\x00" in buf:
                raw, buf = buf.split(b"\x00", 1)
                r = F.decode(raw) if raw else None
                if not isinstance(r, tuple):
                    continue  # the delimiter before a frame, or a damaged frame
                typ, seq, body = r
                self.requests.append(body)
                self.frames.append(raw)
                if typ in self.mute:
                    continue
                if body in self.until_repeat:
                    if body not in self._held:
                        self._held[body] = seq
                        continue
                    first = self._held.pop(body)
                    os.write(self.master, F.encode(typ | 0x80, first, b"ok " + body))
                elif typ != FL.HELLO:
                    time.sleep(self.delay)
                os.write(self.master, F.encode(typ | 0x80, seq,
                                               self.hello if typ == FL.HELLO else b"ok " + body))

    def close(self):
        self._stop = True
        self._thread.join(2)
        os.close(self.master)
        os.close(self.slave)


def _hello_with_time(body):
    """A host's HELLO body: `time=SECONDS`, its clock now (docs/protocol.md "The board's
    clock")."""
    m = re.fullmatch(rb"time=(\d+)", body)
    return m is not None and abs(int(m.group(1)) - time.time()) < 30


def test_a_late_console_reply_is_waited_for_not_sent_again():
    """On a board that keeps no ONCE request (older firmware: no once=1 in its HELLO) a
    console command is sent once, and its late reply waited for."""
    # (the undo's reply comes one and a half tries late, well before the last try ends; the
    # status's reply only once its repeat has come: before, it came 0.35 s after the first
    # try, and a board thread 50 ms late on a busy machine missed the second try's end too,
    # and saw a third copy)
    board = _SlowBoard(delay=0.75, until_repeat=(b"status",))
    try:
        link = Link(board.port, timeout=0.5, retries=6)
        assert link.text("undo") == "ok undo"
        time.sleep(0.5)  # a second copy, had one been sent, would have been read by now
        # (the HELLO first: does the board keep ONCE requests? this one does not)
        assert _hello_with_time(board.requests[0])  # the HELLO first, with the host's clock
        assert board.requests[1:] == [b"undo"] and link.resent == 0
        assert F.decode(board.frames[1])[0] == FL.TEXT  # a plain TEXT, which it knows
        # a query may be sent again, and the late reply to the first try is taken
        assert link.text("status", resend=True) == "ok status"
        assert link.resent == 1
        assert board.requests.count(b"status") == 2  # (the board answered once it had both)
        link.close()
    finally:
        board.close()


@pytest.mark.parametrize("once", [False, True])
def test_an_unanswered_console_command_says_it_may_have_run(once):
    """A command the board never answers may have run: on an older board it was sent once;
    on one that keeps ONCE requests every try was the same frame (run once at most)."""
    board = _SlowBoard(delay=0, hello=b"cargoboard proto=2" + (b" once=1" if once else b""),
                       mute=(FL.TEXT, FL.TEXT | FL.ONCE))
    try:
        # (a timeout a busy machine's board thread cannot miss: a HELLO answered late would
        # be sent again, and counted among the tries below)
        link = Link(board.port, timeout=1.0, retries=3)
        with pytest.raises(LinkError) as e:
            link.text("undo")
        if once:
            assert "may have run, once at most" in str(e.value) and link.resent == 2
            tries = board.frames[1:]
            assert len(tries) == 3 and len(set(tries)) == 1, tries  # the same frame each time
            assert F.decode(tries[0])[0] == FL.TEXT | FL.ONCE
        else:
            assert "sent once and may have run" in str(e.value) and link.resent == 0
            assert _hello_with_time(board.requests[0]) and board.requests[1:] == [b"undo"]
        link.close()
    finally:
        board.close()


def test_a_silent_port_gets_no_console_command():
    """Nothing answers the HELLO before a command: the command is not sent at all."""
    master, slave = os.openpty()
    try:
        link = Link(os.ttyname(slave), timeout=0.1, retries=2)
        with pytest.raises(LinkError) as e:
            link.text("undo")
        assert "no answer" in str(e.value) and "may have run" not in str(e.value)
        link.close()
        os.set_blocking(master, False)
        sent = os.read(master, 65536)
        assert [F.decode(b)[0] for b in sent.split(b"\x00") if b] == [FL.HELLO, FL.HELLO]
    finally:
        os.close(master)
        os.close(slave)


def test_no_0x03_byte_reaches_a_board_that_has_not_answered(tmp_path):
    """A board that has not read a frame yet (booting, or slower than the timeout) still has
    Ctrl-C on: a 0x03 byte would stop its firmware for the REPL (the audit's F1). Before,
    only the first try avoided one; the third HELLO's seq was 3."""
    master, slave = os.openpty()
    try:
        link = Link(os.ttyname(slave), timeout=0.01, retries=12)
        with pytest.raises(LinkError):
            link.hello()
        with pytest.raises(LinkError):  # a body with a 0x03 waits for a session (HELLO)
            link.request(FL.LIST, b"\x00\x00\x00\x03")
        link.close()
        os.set_blocking(master, False)
        sent = os.read(master, 65536)
        assert sent.count(b"\x00") >= 2 * 12 and 3 not in sent, sent
    finally:
        os.close(master)
        os.close(slave)


def test_a_body_with_0x03_is_sent_in_a_session_only():
    """A request whose body holds a 0x03 (game 3, a CRC) cannot avoid it by its seq: the host
    opens a session with HELLO first, and needs none while the board has answered lately."""
    board = _SlowBoard(delay=0)
    try:
        link = Link(board.port, timeout=1.0, retries=3)
        link.request(FL.LIST, b"\x00\x00\x00\x03")
        link.request(FL.LIST, b"\x00\x00\x00\x03")
        assert _hello_with_time(board.requests[0])
        assert board.requests[1:] == [b"\x00\x00\x00\x03", b"\x00\x00\x00\x03"]
        link.close()
    finally:
        board.close()
