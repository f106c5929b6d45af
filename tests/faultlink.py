"""A fault-injecting link: a pseudo-terminal for the host, joined to the board's pty through a
thread that copies bytes both ways and, seeded, drops bytes, flips bits, truncates chunks and
finally cuts the connection (closes the host's side: pyserial then fails on its next read or
write, as when a cable is pulled)."""

from __future__ import annotations

import os
import random
import select
import threading
import tty


def _write_all(fd, data, stop):
    view = memoryview(data)
    while view and not stop.is_set():
        try:
            n = os.write(fd, view)
            view = view[n:]
        except BlockingIOError:
            select.select([], [fd], [], 0.05)
        except OSError:
            return


class _Proxy:
    """A pseudo-terminal for the host (`port`) joined to the board's pty by a thread that reads
    each side and hands what came to _pass(fd, data); close() stops it and closes both."""

    def __init__(self, board_port):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.board)
        os.set_blocking(self.master, False)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                r, _, _ = select.select([self.master, self.board], [], [], 0.05)
            except (OSError, ValueError):
                return
            for fd in r:
                try:
                    data = os.read(fd, 4096)
                except (BlockingIOError, OSError):
                    continue
                if data and self._pass(fd, data):
                    return

    def _pass(self, fd, data):
        """Deliver data read from fd (the host's side: self.master) to the other side; True
        to stop the thread."""
        raise NotImplementedError

    def close(self):
        self._stop.set()
        self._thread.join(2)
        for fd in (self.master, self.slave, self.board):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.master = self.slave = self.board = -1


class FaultLink(_Proxy):
    def __init__(self, board_port, seed, drop=0.001, flip=0.001, truncate=0.01,
                 cut_after=None, read_before_cut=False):
        """Per byte: `drop` and `flip` probabilities; per chunk: `truncate` (the rest of
        the chunk is lost). `cut_after`: close the host side after that many bytes have
        passed in both directions together (None: never); `read_before_cut`: from there on
        nothing more passes, and the cut comes when the host next writes: by then it has read
        what was passed to it (a cut discards what the host has not read yet; neither a fixed
        wait nor the pty's count of unread bytes can tell: bytes written to a pty's master
        reach that count later, through the kernel's tty buffer)."""
        self.rnd = random.Random(seed)
        self.drop, self.flip, self.truncate = drop, flip, truncate
        self.cut_after = cut_after
        self.read_before_cut = read_before_cut
        self.passed = 0
        self.faults = 0
        self.cut = False
        self.cutting = False  # read_before_cut: past the cut point, waiting for the host
        _Proxy.__init__(self, board_port)

    def _mangle(self, data: bytes) -> bytes:
        out = bytearray()
        rnd = self.rnd
        for b in data:
            r = rnd.random()
            if r < self.drop:
                self.faults += 1
                continue
            if r < self.drop + self.flip:
                self.faults += 1
                b ^= 1 << rnd.randrange(8)
            out.append(b)
        if out and rnd.random() < self.truncate:
            self.faults += 1
            del out[rnd.randrange(len(out)):]
        return bytes(out)

    def _write_all(self, fd, data):
        _write_all(fd, data, self._stop)

    def _pass(self, fd, data):
        if self.cutting:
            if fd != self.master:
                return False  # the line is dead: the board's bytes go nowhere
            self._cut()  # the host writes again: it has read all it was given
            return True
        if self.cut_after is not None and self.passed + len(data) >= self.cut_after:
            keep = max(0, self.cut_after - self.passed)
            self._deliver(fd, data[:keep])
            if self.read_before_cut and fd != self.master:
                self.cutting = True
                return False
            self._cut()
            return True
        self.passed += len(data)
        self._deliver(fd, data)
        return False

    def _deliver(self, fd, data):
        data = self._mangle(data)
        if data:
            self._write_all(self.board if fd == self.master else self.master, data)

    def _cut(self):
        self.cut = True
        for fd in (self.master,):
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = -1


class FrameTamper(_Proxy):
    """A pseudo-terminal for the host joined to the board's pty, that passes every byte both
    ways but hands each block between two zeros (a frame, or console text) to a rule first:
    to_board(block) / to_host(block) returns the block to pass (the same, or damaged) or None
    to lose it (its delimiting zero still passes). One fault where a test wants it, not a
    random one: a request damaged on the wire, a reply lost."""

    def __init__(self, board_port, to_board=None, to_host=None):
        self.rules = {True: to_board or (lambda b: b), False: to_host or (lambda b: b)}
        self._held = {True: b"", False: b""}  # each direction's bytes since its last zero
        _Proxy.__init__(self, board_port)

    def _pass(self, fd, data):
        to_board = fd == self.master
        held = self._held[to_board] + data
        out = bytearray()
        while b"\x00" in held:
            block, held = held.split(b"\x00", 1)
            if block:
                block = self.rules[to_board](block)
                if block:
                    out += block
            out += b"\x00"
        self._held[to_board] = held
        if out:
            _write_all(self.board if to_board else self.master, out, self._stop)
        return False
