"""The host end of the binary serial protocol (docs/protocol.md), over pyserial.

`Link(port)` sends one request frame at a time and waits for its reply (same seq); a lost,
corrupted or unanswered request is sent again, so a noisy cable costs time, not data: an
idempotent request with a new seq, one that must not run twice (a console command, NEW, LOAD)
as the same ONCE frame, which the board runs once and answers again from the reply it kept
(docs/protocol.md, "Requests and replies"). Event and LED frames that arrive meanwhile go to
`on_event` / `on_leds`.
"""

from __future__ import annotations

import os
import re
import time

import serial
from serial.tools import list_ports

from firmware.drivers import frames as F
from firmware.system import link as L
from firmware.system import linklog as LL

# The Raspberry Pi Pico under MicroPython: USB vendor 0x2E8A (Raspberry Pi), product 0x0005.
PICO_VID = 0x2E8A
PICO_PIDS = (0x0005,)

try:
    import termios
    _IO_ERRORS = (serial.SerialException, OSError, termios.error)
except ImportError:  # not on a POSIX system
    _IO_ERRORS = (serial.SerialException, OSError)


def _open_error_text(e):
    """Why a port did not open, in words, once: pyserial's text repeats the path and the errno
    ("[Errno 2] could not open port P: [Errno 2] No such file or directory: 'P'")."""
    if getattr(e, "errno", None):
        return os.strerror(e.errno)
    m = re.search(r"\((\d+), '([^']*)'\)", str(e))  # "Could not configure port: (25, '...')"
    if m:
        return "%s (not a serial port?)" % m.group(2)
    return str(e)


# The board turns Ctrl-C off when it reads a good frame and back on 3 s after the last one
# (docs/protocol.md, "Ctrl-C and the REPL"). The host counts a session open for QUIET_S from
# sending a frame that the board answered (it read it no earlier); outside one, no frame of
# ours may carry a 0x03 byte: a board still booting, or slower than our timeout, has not read
# the frames before it, and that byte would stop its firmware for the REPL.
QUIET_S = 2.0


class LinkError(Exception):
    """The board cannot be reached or stopped answering: one line for the user. tells_next:
    whether the line already says what to do next (check the board before sending a command
    again, plug the board in again), so that a sync it breaks off adds no "run sync again"."""

    tells_next = False

    def __init__(self, *args, tells_next=None):
        super().__init__(*args)
        if tells_next is not None:
            self.tells_next = tells_next


class _Broken(Exception):
    """A reply in several frames lost one of them (its pieces no longer follow)."""


class BoardError(LinkError):
    """The board answered with an error frame."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


_NO_BOARD = ("no board found: connect the board by USB (a Pico running MicroPython shows up "
             "as USB 2e8a:0005), or start a virtual board with %s")
NO_BOARD = _NO_BOARD % "`cargoboard sim --pty PATH`"  # what `ports` says (it takes no --port)
ELSEWHERE = "; a board elsewhere: --port PATH"  # what a command that takes --port adds


def no_board(sim_targets=None):
    """NO_BOARD, naming the virtual boards that would do when only some would (`deploy` takes
    only the emulated Pico's: the unix port's sim has no REPL)."""
    if sim_targets is None:
        return NO_BOARD
    return _NO_BOARD % " or ".join("`cargoboard sim --target %s --pty PATH`" % t
                                   for t in sim_targets)


class NoBoardFound(LinkError):
    """find_port found no board to use, in words that fit every command that takes --port
    PATH (sync, deploy). others: the boards there are that are none of the virtual boards
    asked for (port, description); the caller may say why they are no answer (plain: the
    line without them)."""

    def __init__(self, sim_targets, others):
        self.plain = no_board(sim_targets) + ELSEWHERE
        self.others = others
        super().__init__(self.plain + (" (%s)" % boards_there_text(others) if others else ""))


def boards_there_text(boards):
    """`the board there is: PORT, WHAT` (`the boards there are: ...; ...`)."""
    return "%s: %s" % ("the board there is" if len(boards) == 1 else "the boards there are",
                       "; ".join("%s, %s" % b for b in boards))


def candidate_ports(sim_targets=None):
    """The boards there are: serial ports that look like a Pico running MicroPython, then the
    running virtual boards (cargoboard sim --pty, virtual_ports) of sim_targets (None: every
    target): (port, description)."""
    from cargoboard import virtual_ports
    out = []
    for p in list_ports.comports():
        if p.vid == PICO_VID and (p.pid in PICO_PIDS or p.pid is None):
            out.append((p.device, "board on USB (%s)" % (p.description or "Raspberry Pi Pico")))
    return out + virtual_ports.running(sim_targets)


def find_port(port=None, sim_targets=None) -> str:
    """The port to use: the one given (the command's --port), else the single board there is
    (candidate_ports; of the virtual boards only those of sim_targets: `deploy` takes only the
    emulated Pico's). None there: NoBoardFound; several: a LinkError naming them."""
    if port:
        return port
    found = candidate_ports(sim_targets)
    if not found:
        raise NoBoardFound(sim_targets, [] if sim_targets is None else candidate_ports())
    if len(found) > 1:
        raise LinkError("several boards found: %s; choose one with --port"
                        % "; ".join("%s (%s)" % f for f in found))
    return found[0][0]


def hello_body() -> bytes:
    """What a host says in its HELLO: its clock, `time=SECONDS` since 1970 UTC, which the board
    keeps to write into the logs of the games it begins (docs/protocol.md; an older board
    ignores the body)."""
    return b"time=%d" % int(time.time())


def parse_info(text: str) -> dict:
    """`cargoboard fw=0.2 proto=2 ...` -> {'fw': '0.2', 'proto': '2', ...}."""
    out = {}
    for w in text.split():
        k, sep, v = w.partition("=")
        if sep:
            out[k] = v
    return out


class Link:
    def __init__(self, port, timeout=1.0, retries=6, baudrate=115200):
        self.port = port
        self.timeout = timeout
        self.retries = retries
        self.on_event = None   # f(text)
        self.on_leds = None    # f(frame bytes)
        self.sent = 0          # bytes written, bytes read (for the benchmarks)
        self.received = 0
        self.resent = 0
        self._seq = 0
        self._rx = bytearray()
        self._tail = b""       # the last bytes read, frames or not (at_prompt)
        self._blocks = []
        self.damaged = 0       # damaged blocks seen
        self._answered_sent = None  # when we sent the latest frame the board answered
        # What the board keeps of ONCE requests: None not known (a frame it has not answered
        # yet, or none sent), 0 nothing, else the seq of the ONCE request it keeps
        self._kept = None
        self._board_once = None  # the board keeps ONCE requests (HELLO once=1); None: not asked
        from cargoboard import virtual_ports
        stale = virtual_ports.stale_link(port)  # a killed sim's link: not its board's pty
        if stale:
            raise LinkError(stale)
        try:
            # exclusive: two host programs on one port would steal each other's replies; the
            # second one is told instead (cargoboard serve holds its boards' ports)
            self.ser = serial.Serial(port, baudrate=baudrate, timeout=0.02, write_timeout=2,
                                     exclusive=True)
        except _IO_ERRORS as e:
            busy = "lock" in str(e).lower()
            raise LinkError("cannot open %s: %s" % (port, BUSY if busy else
                                                    _open_error_text(e))) from None

    def close(self):
        try:
            self.ser.close()
        except _IO_ERRORS:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- frames -------------------------------------------------------------------------------
    def _next_seq(self):
        self._seq = self._seq % 255 + 1
        return self._seq

    def _in_session(self):
        """True while the board surely has Ctrl-C off (QUIET_S)."""
        return self._answered_sent is not None and \
            time.monotonic() - self._answered_sent < QUIET_S

    def _frame(self, typ, body, once=False):
        """Encode with a fresh seq; outside a session, pick a seq whose frame has no 0x03 byte
        (some seq always does unless the body has one: _exchange opens a session first). A
        ONCE frame has none in a session too (its repeats may come after the session), and
        not the seq of the ONCE request the board keeps."""
        in_session = self._in_session() and not once
        for _ in range(255):
            seq = self._next_seq()
            data = F.encode(typ, seq, body)
            if (in_session or 3 not in data) and not (once and seq == self._kept):
                return seq, data
        return seq, data

    def write_raw(self, data):
        """Write bytes as they are (a frame, or a host's own bytes once the board has left the
        protocol)."""
        try:
            self.ser.write(data)
            self.ser.flush()
        except _IO_ERRORS as e:
            raise LinkError("connection to %s lost: %s" % (self.port, e)) from None
        self.sent += len(data)

    def send(self, typ, body=b""):
        """Send a request once, without waiting for its reply; returns its seq. For a request
        after which the board leaves the protocol (REPL): a second copy would reach whatever
        runs next on the board."""
        seq, data = self._frame(typ, body)
        self._kept = None
        self.write_raw(data)
        return seq

    def read_raw(self) -> bytes:
        """The bytes the port has (waiting up to the serial timeout for some), frames or not:
        for a host that has handed the board over (deploy waiting for the REPL's prompt)."""
        try:
            chunk = self.ser.read(max(1, self.ser.in_waiting))
        except _IO_ERRORS as e:
            raise LinkError("connection to %s lost: %s" % (self.port, e)) from None
        self.received += len(chunk)
        return chunk

    def _next_frame(self):
        """The next decoded frame (type, seq, body) read from the port, None if nothing
        complete arrived within the serial timeout, (None, None, None) for a damaged one."""
        while True:
            if self._blocks:
                block = self._blocks.pop(0)
                r = F.decode(block)
                if isinstance(r, int):
                    if _is_console_text(block):
                        continue  # the text console's output between frames (evt lines, ...)
                    self.damaged += 1  # garbage or a damaged frame (maybe our reply)
                    return (None, None, None)
                return r
            chunk = self.read_raw()
            if not chunk:
                return None
            self._tail = (self._tail + chunk)[-TAIL:]
            self._rx += chunk
            parts = self._rx.split(b"\x00")
            self._rx = bytearray(parts[-1])
            if len(self._rx) > 4 * F.MAX_WIRE:  # text console chatter without zeros
                del self._rx[:-F.MAX_WIRE]
            self._blocks.extend(p for p in parts[:-1] if p)

    def _drain(self, quiet_reads=1):
        """Drop what the board is still sending until the line is quiet (quiet_reads serial
        timeouts in a row without a byte), and the blocks not yet read: the rest of a reply
        in many frames whose try has ended."""
        self._blocks.clear()
        self._rx.clear()
        quiet = 0
        deadline = time.monotonic() + max(1.0, self.timeout)
        try:
            while quiet < quiet_reads and time.monotonic() < deadline:
                quiet = 0 if self.read_raw() else quiet + 1
        except LinkError:
            pass  # the connection is gone: nothing is coming

    def _dispatch_unsolicited(self, typ, body):
        if typ == L.EVENT and self.on_event:
            self.on_event(body.decode(errors="replace"))
        elif typ == L.LEDS and self.on_leds:
            self.on_leds(body)

    def request(self, typ, body=b"", timeout=None):
        """Send a request, return the reply body. BoardError if the board refuses it,
        LinkError if no reply comes after `retries` tries."""
        return self._exchange(typ, body, timeout, bytes, any_try=True)

    def _exchange(self, typ, body, timeout, take, broken=None, resend=True, any_try=False,
                  once=False):
        """Send a request and give each frame of its reply to take(reply body), which returns
        the result, or None while the reply goes on in more frames (each one starts the
        timeout again). When a try ends early (a damaged frame, the timeout), broken() may
        return what came of the reply so far (None: send the request again). Events and LED
        frames that come meanwhile go to their callbacks. BoardError if the board refuses
        the request, LinkError if no reply comes after `retries` tries.
        once=True is for a request the board must not run twice (a console command such as
        `undo`, NEW, LOAD): every try is the same ONCE frame, sent again whenever the host
        cannot tell whether it ran (an ERROR 1, no reply, a damaged frame): the board runs
        it once and answers its repeats from the reply it kept. On a board that keeps none
        (older firmware, no once=1 in HELLO) resend says what to do instead: resend=False
        sends it once, and the further tries only wait longer for its reply.
        any_try=True takes a one-frame reply to any try of this request, so a board slower
        than the timeout is not asked again and again, each reply skipped as late."""
        timeout = self.timeout if timeout is None else timeout
        once = once and self._once_ready(body)
        send = True
        tries = []
        sent_at = {}  # seq -> when that try was sent
        damaged_before = self.damaged
        frames = 0  # frames of the protocol that came (any, a late reply or an event too)
        for attempt in range(self.retries):
            if send:
                if attempt:
                    self.resent += 1
                if not once:
                    seq, data = self._frame(typ, body)
                    if 3 in data and not self._in_session():
                        # the body itself has a 0x03 (a game number, a CRC): HELLO first,
                        # whose frame can avoid it, so that the board reads this one as data
                        self.request(L.HELLO, hello_body())
                        seq, data = self._frame(typ, body)
                elif not tries:
                    seq, data = self._frame(typ | L.ONCE, body, once=True)  # every try's
                tries.append(seq)
                # (a ONCE frame's first send: the board read that copy at least, no earlier)
                sent_at.setdefault(seq, time.monotonic())
                self._kept = None  # not known until the board answers
                self.write_raw(data)
            send = resend or once
            started = False  # a frame of this try's reply came (READ, FETCH: more follow)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                r = self._next_frame()
                if r is None:
                    continue
                rtyp, rseq, rbody = r
                if rtyp is None:
                    break  # a damaged frame, likely the reply: ask again now, not at the timeout
                frames += 1
                if rseq == 0 and rtyp in (L.EVENT, L.LEDS):
                    self._dispatch_unsolicited(rtyp, rbody)
                    continue
                if rseq == 0 and rtyp == L.ERROR and rbody[:1] == bytes((L.E_FRAME,)):
                    # a frame the board could not read, its seq unknown: this try's, or other
                    # noise while this one ran (no proof it did not run). Again at once if
                    # that is safe (idempotent, or the ONCE frame) and no reply has begun
                    if send and not started:
                        break
                    continue
                if rseq != seq and not (any_try and rseq in tries):
                    continue  # a late reply to an earlier try
                if sent_at[rseq] > (self._answered_sent or 0):
                    self._answered_sent = sent_at[rseq]  # the board read it: Ctrl-C is off
                # the board read this try after all before it: it keeps this ONCE request,
                # or (any other frame) none
                self._kept = seq if once else 0
                if rtyp == (typ | 0x80):
                    try:
                        out = take(rbody)
                    except _Broken:
                        break  # a frame of the reply was lost: broken() may keep what came
                    if out is not None:
                        return out
                    started = True
                    deadline = time.monotonic() + timeout  # the reply goes on
                elif rtyp == L.ERROR:
                    code = rbody[0] if rbody else 0
                    raise BoardError(code, rbody[1:].decode(errors="replace"))
            if broken is not None:
                out = broken()
                if out is not None:
                    return out
        junk = self.damaged - damaged_before
        if junk and not frames and resend and not once:
            # (a command, sent once or ONCE, must keep its warning below: a damaged frame may
            # have been the board's reply to it)
            # something answers, but never in the board's frames: another device (a modem, a
            # Pico running something else) or a line that garbles everything
            raise LinkError("%s answered with %d frame%s that are not the board's protocol "
                            "(docs/protocol.md), none of them a reply, after %d tries: is this "
                            "port the Cargoboard?" % (self.port, junk, "" if junk == 1 else "s",
                                                       self.retries))
        if once:
            raise LinkError("no answer from the board on %s after %d tries (the command may "
                            "have run, once at most; check the board before sending it again)"
                            % (self.port, self.retries), tells_next=True)
        if not resend:
            raise LinkError("no answer from the board on %s in %.0f s (the command was sent once "
                            "and may have run; check the board before sending it again)"
                            % (self.port, timeout * self.retries), tells_next=True)
        if self.at_prompt():
            raise LinkError(AT_PROMPT % self.port, tells_next=True)
        raise LinkError("no answer from the board on %s after %d tries" % (self.port, self.retries))

    def at_prompt(self) -> bool:
        """Whether the last bytes the board sent show MicroPython's REPL (its prompt, the raw
        REPL's banner, paste mode's, a soft reboot's) rather than the firmware: where a deploy
        cut short, or mpremote, leaves a board. The REPL echoes a frame sent to it as typed
        text, with no zero byte: without this the host saw nothing and said "no answer"."""
        return any(m in self._tail for m in PROMPT_MARKS)

    def poll(self, seconds, until=None):
        """Read unsolicited frames (events, LEDs) for a while, or until `until()` is true after
        one (a follower that wants each event at once: `until=lambda: queue`)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            r = self._next_frame()
            if r is not None and r[1] == 0 and r[0] is not None:
                self._dispatch_unsolicited(r[0], r[2])
                if until is not None and until():
                    return

    def _hello(self) -> dict:
        """HELLO's text, parsed; notes whether the board keeps ONCE requests."""
        info = parse_info(self.request(L.HELLO, hello_body()).decode(errors="replace"))
        self._board_once = info.get("once") == "1"
        return info

    def _once_ready(self, body):
        """Whether to send a request as ONCE: if the board keeps ONCE requests (HELLO's
        once=1, asked once a Link) and the body has no 0x03 (the board refuses such a console
        line unrun; its frame could not avoid the byte outside a session). First a HELLO
        whenever the host does not know what the board keeps (the Link's first request, a
        frame the board has not answered): the board forgets its ONCE request at any other
        frame, so that this one cannot be taken for the repeat of another host's or of one
        of ours that got no answer."""
        if 3 in body or self._board_once is False:
            return False
        if self._board_once is None or self._kept is None:
            self._hello()
        return self._board_once

    # --- requests -----------------------------------------------------------------------------
    def hello(self) -> dict:
        info = self._hello()
        if "proto" not in info:
            raise LinkError("%s does not answer like a Cargoboard" % self.port)
        if info["proto"] != str(F.PROTOCOL_VERSION):
            newer = info["proto"].isdigit() and int(info["proto"]) > F.PROTOCOL_VERSION
            raise LinkError("the board speaks protocol %s, this program %d: %s" % (
                info["proto"], F.PROTOCOL_VERSION,
                "update this program (the host tools, cargoboard)"
                if newer else "update the board's firmware (cargoboard deploy)"))
        return info

    def games(self):
        """Every game on the board: list of (game_no, size, crc32, flags)."""
        out = []
        start = 0
        while True:
            body = self.request(L.LIST, _u32(start))
            n, more = body[0], body[1]
            for i in range(n):
                o = 2 + LL.LIST_ENTRY * i
                out.append((F.u32(body, o), F.u32(body, o + 4), F.u32(body, o + 8), body[o + 12]))
            if not more or not n:
                return out
            start = out[-1][0] + 1

    def read(self, game_no, offset, n=LL.READ_MAX):
        """(total size, bytes) of a game log from offset: up to n bytes (at most READ_MAX),
        which the board sends in frames of READ_FRAME bytes after one request. Fewer bytes
        than asked (the end of the log aside) if the stream broke off after its first frame:
        the caller reads on from there."""
        n = min(n, LL.READ_MAX)
        request = _u32(game_no) + _u32(offset) + bytes(((n >> 8) & 0xFF, n & 0xFF))
        got = bytearray()
        total = [None]

        def take(rbody):
            if len(rbody) < 12 or F.u32(rbody, 0) != game_no or \
                    F.u32(rbody, 4) != offset + len(got):
                raise LinkError("the board answered a READ with the wrong game or offset")
            total[0] = F.u32(rbody, 8)
            got.extend(rbody[12:])
            if len(got) >= min(n, max(0, total[0] - offset)) or len(rbody) == 12:
                return total[0], bytes(got)
            return None

        def broken():
            # keep what came in order (the caller reads on from there), else ask again
            if total[0] is not None and got:
                return total[0], bytes(got)
            got[:] = b""
            return None

        return self._exchange(L.READ, request, None, take, broken)

    def fetch(self, first=0, resumed=0, offset=0, piece=0):
        """Whole logs of the games from number `first` on, streamed after one FETCH request
        (game `resumed` from `offset`, the others from 0), in frames of up to `piece` bytes
        (0: as many as a frame holds). Returns (games, more, cut):
        games: [(game_no, size, crc32, flags, bytes)] in order, each whole from its offset (a
        game being played: flags FLAG_PLAYING, no bytes; the resumed game None if its log is
        shorter than the offset: the part kept is not of this log);
        more: true if the board stopped at its limit (ask again from the last game + 1) or
        the stream broke off;
        cut: None, or (game_no, size, offset, bytes) of the game whose stream broke off after
        some of it arrived in order (the caller keeps it and resumes it)."""
        games = []
        got = bytearray()
        part = [None, 0, 0]  # the game whose pieces are coming: number, size, offset of got

        def start_of(game_no):
            return offset if game_no == resumed else 0

        def take(rbody):
            tag = rbody[0] if rbody else -1
            if tag == LL.FETCH_PIECE and len(rbody) > 13:
                game_no, off, total = F.u32(rbody, 1), F.u32(rbody, 5), F.u32(rbody, 9)
                if part[0] != game_no:
                    if got or game_no < first or (games and game_no <= games[-1][0]):
                        raise _Broken  # a game's end was lost
                    part[:] = [game_no, total, start_of(game_no)]
                if off != part[2] + len(got) or total != part[1]:
                    raise _Broken  # a piece was lost
                got.extend(rbody[13:])
                return None
            if tag == LL.FETCH_GAME and len(rbody) == 1 + LL.LIST_ENTRY:
                game_no, size, crc, flags = (F.u32(rbody, 1), F.u32(rbody, 5),
                                             F.u32(rbody, 9), rbody[13])
                if games and game_no <= games[-1][0] or got and part[0] != game_no:
                    raise _Broken
                start = start_of(game_no)
                if flags & LL.FLAG_PLAYING:
                    data = b""
                elif start + len(got) == size:
                    data = bytes(got)
                elif not got and start > size:
                    data = None
                else:
                    raise _Broken
                games.append((game_no, size, crc, flags, data))
                got[:] = b""
                part[:] = [None, 0, 0]
                return None
            if tag == LL.FETCH_END and len(rbody) == 2:
                return games, rbody[1], None
            raise LinkError("the board answered a FETCH with a frame this program does not "
                            "know (tag 0x%02x)" % max(0, tag))

        def broken():
            # what came whole is kept, and the game cut short so far: the caller asks on.
            # The rest of this reply is still coming: a damaged frame in it would end the
            # next try at once, so it is let pass first.
            self._drain()
            if games or got:
                cut = (part[0], part[1], part[2], bytes(got)) if got else None
                return games, 1, cut
            part[:] = [None, 0, 0]
            return None

        piece = min(max(0, piece), 0xFFFF)
        request = _u32(first) + _u32(resumed) + _u32(offset) + bytes((piece >> 8, piece & 0xFF))
        try:
            return self._exchange(L.FETCH, request, None, take, broken)
        except BoardError:
            raise
        except LinkError:
            # the connection is lost: what came is the caller's to keep before it asks again
            out = broken()
            if out is None:
                raise
            return out

    def confirm_all(self, pairs):
        """CONFIRM: tell the board the host holds these games, pairs [(game_no, crc32)], at
        most CONFIRM_MAX; the board deletes them in order (BoardError at one it refuses: those
        before it are gone)."""
        return self.request(L.CONFIRM, b"".join(_u32(g) + _u32(c) for g, c in pairs))

    def text(self, command, timeout=None, resend=False) -> str:
        """A console command (docs/serial-protocol.md) through a frame; the reply text.
        A command can change the game (`undo`, `press next`), so it goes as ONCE (run once
        however often it is sent: _exchange) unless the caller says it only reads
        (resend=True: `status`, `pos`, ...)."""
        return self._exchange(L.TEXT, command.encode(), timeout, bytes, resend=resend,
                              any_try=True, once=not resend).decode(errors="replace")

    def new_game(self, words) -> str:
        """NEW (ONCE: run twice, it would abandon the game the first one started)."""
        return self._exchange(L.NEW, words.encode(), None, bytes, any_try=True,
                              once=True).decode(errors="replace")

    def configure(self, settings="") -> dict:
        return parse_info(self.request(L.CONFIG, settings.encode()).decode(errors="replace"))

    def load(self, position) -> str:
        """LOAD (ONCE: run twice, it would close the log the first one began, empty)."""
        return self._exchange(L.LOAD, position.encode(), None, bytes, any_try=True,
                              once=True).decode(errors="replace")

    def events(self, mask):
        return self.request(L.EVENTS, bytes((mask,)))


_TEXT_BYTES = frozenset(range(32, 127)) | {9, 10, 13}


# A port another host program holds (each opens its port exclusively): which ones may, and
# the way out for the one the user most likely left running.
BUSY = ("another program has the board's port open: a sync or deploy still running, or "
        "cargoboard serve following the board (its page has sync now; to deploy, stop it)")


# How many of the last bytes read the link keeps to tell MicroPython's REPL (at_prompt), and
# what shows it: the friendly REPL's prompt, the raw REPL's banner, paste mode's, the lines a
# soft reboot prints, and the REPL's echo of a HELLO's body (`time=...`: the REPL echoes typed
# bytes, and a frame has no newline to end the line, so no prompt follows; the firmware never
# sends that text outside a frame). A frame typed at the REPL may hold Ctrl-A, Ctrl-E or
# Ctrl-D, which move it between these.
TAIL = 512
REPL_PROMPT = b">>> "                         # the friendly REPL's prompt
RAW_REPL_BANNER = b"raw REPL; CTRL-B to exit"  # then "\r\n>", the raw REPL's prompt
REPL_BANNER = b"MicroPython v"                 # the friendly REPL's first line: version, ...
PROMPT_MARKS = (REPL_PROMPT, RAW_REPL_BANNER, b"paste mode; Ctrl-C to cancel",
                b"MPY: soft reboot", REPL_BANNER, b"time=")
AT_PROMPT = ("the board on %s is at MicroPython's prompt, not running the Cargoboard firmware: "
             "run `cargoboard deploy` (a deploy cut short, or mpremote, leaves it so), or "
             "unplug it and plug it in again")


def _is_console_text(block):
    """Text lines of the console (docs/serial-protocol.md) that came between two frames: a
    COBS block ends in CRC bytes, almost never in a newline after printable text."""
    return block.endswith(b"\n") and all(b in _TEXT_BYTES for b in block)


def _u32(v):
    return bytes(((v >> 24) & 0xFF, (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF))
