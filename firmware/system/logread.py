"""What a host asks of the game logs (docs/log-format.md "The store's API"): list them, read
them, check them, delete one the host has. Apart from firmware/system/gamelog.py so that a
board that only plays keeps none of it: the link's log requests (firmware/system/linklog.py)
load it at a host's first request about the logs and keep it; the serial commands (logcmd.py)
load it for one command and drop it after. Functions of the app's GameLog (glog)."""

import os
# imported once here: an import of a built-in module inside a function looks for a file of its
# name on the flash first (MicroPython lets one extend it), ~4 ms on the RP2040 each time
from binascii import crc32
from firmware.system import logwrite as LW
from firmware.system.gamelog import game_number


def size(glog, n):
    """Bytes in game n's log; ValueError if there is no such game."""
    try:
        return os.stat(glog.path(n))[6]
    except OSError:
        raise ValueError("no game %d on the board" % n)


def state(glog, n, nbytes=-1):
    """0 if game n's log is open, logformat.FINISH or ABANDON if closed (from its last 4 bytes:
    a quick check; the full parse is the host's). nbytes: its size if known."""
    if nbytes < 0:
        nbytes = size(glog, n)
    if nbytes < 4:
        return 0
    with open(glog.path(n), "rb") as f:
        f.seek(nbytes - 4)
        tail = f.read(4)
    return LW.closed_tail(tail, nbytes)


def sizes(glog):
    """[(game number, size in bytes)] oldest first, from one walk of the directory where the
    filesystem tells sizes in it (MicroPython's littlefs: a stat of each file cost ~3 ms on the
    RP2040), else by stat."""
    ilistdir = getattr(os, "ilistdir", None)
    out = []
    if ilistdir is not None:
        for e in ilistdir(glog.dir):
            n = game_number(e[0])
            if n >= 0:
                out.append((n, e[3] if len(e) > 3 and e[3] >= 0 else size(glog, n)))
    else:
        for n in glog.numbers():
            out.append((n, size(glog, n)))
    out.sort()
    return out


_listed = None  # (glog.cur then, sizes(glog)) kept by listing()


def listing(glog):
    """sizes(glog), listed once and kept while glog.cur stays (a game begun while one is
    open changes it; one begun and closed between two calls does not, so a sync's first
    request lists afresh: forget_listing, linklog.games) and updated by delete(): a host's
    FETCHes in one sync list the flash once (~1 ms a file on the RP2040). The current game's
    size is looked up again each time."""
    global _listed
    cur = glog.cur
    if _listed is None or _listed[0] != cur:
        _listed = (cur, sizes(glog))
    out = _listed[1]
    i = len(out) - 1
    while i >= 0 and out[i][0] > cur:
        i -= 1
    if cur and i >= 0 and out[i][0] == cur:
        try:
            out[i] = (cur, size(glog, cur))
        except ValueError:
            del out[i]
    return out


def forget_listing():
    """The next listing() lists the flash afresh."""
    global _listed
    _listed = None


def games(glog):
    """[(game number, size in bytes, state)] oldest first; state 0 = open (or being played),
    logformat.FINISH = over, logformat.ABANDON = dropped before the end."""
    out = []
    for n, nbytes in sizes(glog):
        out.append((n, nbytes, state(glog, n, nbytes)))
    return out


def open_log(glog, n):
    """Game n's log opened for reading ("rb"); ValueError if there is no such game."""
    try:
        return open(glog.path(n), "rb")
    except OSError:
        raise ValueError("no game %d on the board" % n)


def read(glog, n, offset, count):
    """Up to count bytes of game n's log from offset (b"" at or past the end)."""
    f = open_log(glog, n)
    try:
        f.seek(offset)
        return f.read(count)
    finally:
        f.close()


def pieces(glog, n, start, end, buf):
    """Game n's log from byte start up to end, read into buf (a bytearray or memoryview) piece
    by piece, the file opened once: yields (offset, k) while the piece is in buf[:k]. A caller
    that may stop early closes it (close()), which closes the file."""
    f = open_log(glog, n)
    try:
        if start:
            f.seek(start)
        off = start
        while off < end:
            k = f.readinto(buf)
            if not k:
                break
            if k > end - off:
                k = end - off
            yield off, k
            off += k
    finally:
        f.close()


def scan(glog, n, nbytes, buf, each=None):
    """(CRC-32 of the first nbytes bytes, state as state() tells it) of game n's log, read once
    in pieces into buf (a bytearray or memoryview of at least 4 bytes; binascii.crc32 in C).
    each(offset, k): called with every piece while it is in buf[:k] (FETCH sends it on)."""
    c = 0
    off = 0
    tail = b""
    read = pieces(glog, n, 0, nbytes, buf)
    try:
        for at, k in read:
            piece = memoryview(buf)[:k]
            c = crc32(piece, c)
            if k >= 4:
                tail = bytes(piece[k - 4:])
            else:
                tail = (tail + bytes(piece))[-4:]
            if each is not None:
                each(at, k)  # may change buf
            off = at + k
    finally:
        read.close()  # the file, also when each() fails
    st = LW.closed_tail(tail, nbytes) if nbytes >= 4 and off == nbytes else 0
    return c & 0xFFFFFFFF, st


def delete(glog, n, force=False):
    """Remove game n's log (the host has it). The current game only with force."""
    if n == glog.cur and not force:
        raise ValueError("game %d is being played (abort it first)" % n)
    if _listed is not None:
        for i, e in enumerate(_listed[1]):
            if e[0] == n:
                del _listed[1][i]
                break
    try:
        os.remove(glog.path(n))
    except OSError:
        raise ValueError("no game %d on the board" % n)
    if n == glog.cur:
        glog.cur = 0
        glog.closed = 0
