"""The board's game store: one log file per game on the flash filesystem (docs/log-format.md).

    <root>/games/g00042.log   game 42: header + records (firmware/system/logformat.py)
    <root>/games/next         the next game number, ASCII (numbers are never reused, so a game
                              is known to the host by (board id, game number) for good)

On the Pico the root is "/" (MicroPython's littlefs); in the simulator a littlefs image mounted
at /flash (firmware/drivers/flashdev.py); on CPython any directory (the same code runs in the tests).

Durability: a record is appended with the file opened in append mode, written and closed at
once; littlefs commits a file's new contents atomically on close (or flush): after a power cut
the file has its old length or its new one, never half a record. The header is written to a
temporary file and renamed into place (also atomic), so a game file always has its whole header.
After a reboot `resume()` reopens the newest game if it is still open.

RAM: logs are not kept in memory; only `resume()` reads one whole log (to replay it).

Space: `low()` is true when fewer than `reserve` bytes are free (default RESERVE: 48 KiB =
12 littlefs blocks of the Pico). `begin()` then refuses a new game (FlashLow): unsynced games
are never dropped to make room; the host deletes games only after it has them (`delete`).
"""

import gc
import os
from firmware.system import logwrite as LF  # what appends need; firmware.system.logformat only for a moment
from firmware.hal import unload

DIR = "games"
RESERVE = 48 * 1024
SPARE = 1280  # bytes: opening a littlefs file takes its state and cache (1 KiB) in one block


class FlashLow(Exception):
    """Not enough free flash to start a new game."""


def _number(name):
    """Game number of a file name 'g00042.log', else -1."""
    if len(name) < 6 or name[0] != "g" or not name.endswith(".log"):
        return -1
    digits = name[1:-4]
    for ch in digits:
        if ch < "0" or ch > "9":
            return -1
    return int(digits)


class GameLog:
    def __init__(self, root, board="", reserve=RESERVE):
        self.dir = root.rstrip("/") + "/" + DIR
        try:
            os.mkdir(self.dir)
        except OSError:
            pass  # it exists
        self.board = board
        self.reserve = reserve
        self.cur = 0         # the game being written, 0 = none
        self.closed = 0      # 0 while the current game is open, else LF.FINISH or LF.ABANDON
        self._crc = 0        # CRC-8 register after the last record of the current game
        self._size = 0       # its length in bytes
        self.spare = None    # a block held for the next file open (keep_spare)
        for name in os.listdir(self.dir):
            if name.endswith(".tmp"):
                os.remove(self.dir + "/" + name)  # a header or rewrite cut short

    # --- names and numbers -------------------------------------------------------------------
    def path(self, n):
        return "%s/g%05d.log" % (self.dir, n)

    def numbers(self):
        """Game numbers on the flash, oldest first."""
        out = []
        for name in os.listdir(self.dir):
            n = _number(name)
            if n >= 0:
                out.append(n)
        out.sort()
        return out

    def _read_counter(self):
        try:
            with self._open(self.dir + "/next", "r") as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return 1

    def keep_spare(self):
        """Hold a block for a file open while the heap is still in one piece (the app calls
        this when it has made a game, before the setup's frames): with a big game set up, the
        heap's free space may lie in pieces smaller than a file open takes, and begin() opens
        two files. An open that runs out of memory gets the spare (released, then a
        collection); begin() lets it go (a game played holding it ran out of memory itself)."""
        if self.spare is None:
            try:
                self.spare = bytearray(SPARE)
            except MemoryError:
                pass

    def _open(self, path, mode):
        try:
            return open(path, mode)
        except MemoryError:
            if self.spare is None:
                raise
            self.spare = None
            gc.collect()
            return open(path, mode)

    def _write_atomic(self, path, data):
        tmp = path + ".tmp"
        with self._open(tmp, "wb") as f:
            f.write(data)
        os.rename(tmp, path)

    # --- space -------------------------------------------------------------------------------
    def free_bytes(self):
        st = os.statvfs(self.dir)
        free = st[4]
        if free < 0 or free > st[2]:
            # littlefs counts the blocks in use best-effort (a block can be counted twice), so
            # near full MicroPython's free count goes below zero and wraps around
            free = 0
        return st[1] * free

    def low(self):
        """True if a new game would be refused (fewer than `reserve` bytes free)."""
        return self.free_bytes() < self.reserve

    def check_room(self):
        """Raise FlashLow (with a message for the user) if a new game would be refused."""
        free = self.free_bytes()
        if free < self.reserve:
            raise FlashLow("flash low: %d KB free, a new game needs %d KB; sync the games to "
                           "the host to make room" % (free // 1024, self.reserve // 1024))

    # --- writing -------------------------------------------------------------------------------
    def begin(self, kind, variant, seats, start, board=None, rules=0, time=0):
        """Start the log of a new game; returns its number. An open current game is abandoned
        first. Raises FlashLow if space is low (nothing written), OSError if the flash fails."""
        self.close()
        self.check_room()
        nums = self.numbers()
        n = self._read_counter()
        if nums and nums[-1] >= n:
            n = nums[-1] + 1
        self._write_atomic(self.dir + "/next", b"%d\n" % (n + 1))
        path = self.path(n)
        from firmware.system import logformat
        try:
            # written in pieces, no buffer of the whole header (with 8 players and both
            # expansions its start position alone is ~0.6 KB: the heap of a game just set up
            # may hold no second block that size), to a temporary file renamed into place
            with self._open(path + ".tmp", "wb") as f:
                size, c = logformat.write_header(f, kind, variant, seats, start,
                                                 self.board if board is None else board, n,
                                                 rules, time)
            seed = logformat.seed_of(c)
        finally:
            logformat = None
            unload("firmware.system.logformat")
        os.rename(path + ".tmp", path)
        self.cur = n
        self.closed = 0
        self._crc = seed
        self._size = size
        self.spare = None  # the game's own heap needs it more than the appends do
        return n

    def _append(self, kind, payload=b""):
        if not self.cur:
            raise ValueError("no game is being logged")
        rec, crc = LF.encode_record(kind, payload, self._crc, self._size)
        path = self.path(self.cur)
        try:
            with self._open(path, "ab") as f:
                f.write(rec)
        except Exception:
            self._repair(path)
            raise
        self._crc = crc
        self._size += len(rec)

    def _repair(self, path):
        """After a failed append: if part of the record got into the file (a filesystem that
        does not commit atomically), cut it off, so the next record follows the last good one."""
        try:
            if os.stat(path)[6] != self._size:
                with open(path, "rb") as f:
                    good = f.read(self._size)
                self._write_atomic(path, good)
        except Exception:
            pass

    def append(self, payload):
        """Log a committed action (the rules core's encoding, 1..63 bytes)."""
        self._append(LF.ACTION, payload)
        self.closed = 0

    def undo(self):
        """Log a take-back of the last action still standing."""
        self._append(LF.UNDO)
        self.closed = 0

    def finish(self):
        """The game is over by its rules (no-op if already closed). It stays current: a
        take-back after the end reopens it."""
        if self.cur and not self.closed:
            self._append(LF.FINISH)
            self.closed = LF.FINISH

    def close(self):
        """The app is done with the current game: log it as abandoned if it is still open."""
        if self.cur and not self.closed:
            self._append(LF.ABANDON)
        self.cur = 0
        self.closed = 0

    def current(self):
        """The number of the game being logged, 0 if none."""
        return self.cur

    # --- boot ----------------------------------------------------------------------------------
    def resume(self):
        """At boot: the newest game if it is still open, as (header, records, dropped), else
        None. records: a logformat.Reader over the log's good records, to iterate once:
        (kind, payload) in order (logformat.ACTION / UNDO ...), read from the log as they are
        replayed (no list of them in RAM: on the board's heap a long game's records as
        objects would fragment it); afterwards its .count, .actions and .undos are set.
        dropped: bytes of a bad tail cut off (the file is rewritten without them, so new
        records follow the last good one); records.expected_actions is the number of action
        records, known before the replay. The game becomes the current one. A log whose
        header is unreadable is left alone (the host gets it as it is)."""
        nums = self.numbers()
        if not nums:
            return None
        n = nums[-1]
        path = self.path(n)
        size = os.stat(path)[6]
        with open(path, "rb") as f:
            raw = f.read(size)  # one allocation of its size (read() grows a buffer by doubling)
        from firmware.system import logformat as LR
        h, hl, problem = LR.decode_header(raw)
        if h is None:
            return None
        rd = LR.Reader(raw, hl, h.seed())
        for rec in rd:
            pass
        if rd.last == LF.FINISH or rd.last == LF.ABANDON:
            return None
        dropped = rd.dropped()
        if dropped:
            raw = raw[:rd.good]
            self._write_atomic(path, raw)
        self.cur = n
        self.closed = 0
        self._crc = rd.crc
        self._size = rd.good
        records = LR.Reader(raw, hl, h.seed())
        records.expected_actions = rd.actions  # known before the replay (to reserve room)
        return h, records, dropped

    # --- for the host ----------------------------------------------------------------------------
    def size(self, n):
        """Bytes in game n's log; ValueError if there is no such game."""
        try:
            return os.stat(self.path(n))[6]
        except OSError:
            raise ValueError("no game %d on the board" % n)

    def state(self, n, size=-1):
        """0 if game n's log is open, logformat.FINISH or ABANDON if closed (from its last 4
        bytes: a quick check; the full parse is the host's)."""
        if size < 0:
            size = self.size(n)
        if size < 4:
            return 0
        with open(self.path(n), "rb") as f:
            f.seek(size - 4)
            tail = f.read(4)
        return LF.closed_tail(tail, size)

    def sizes(self):
        """[(game number, size in bytes)] oldest first, from one walk of the directory where
        the filesystem tells sizes in it (MicroPython's littlefs: a stat of each file cost
        ~3 ms on the RP2040), else by stat."""
        ilistdir = getattr(os, "ilistdir", None)
        out = []
        if ilistdir is not None:
            for e in ilistdir(self.dir):
                n = _number(e[0])
                if n >= 0:
                    out.append((n, e[3] if len(e) > 3 and e[3] >= 0 else self.size(n)))
        else:
            for n in self.numbers():
                out.append((n, self.size(n)))
        out.sort()
        return out

    def games(self):
        """[(game number, size in bytes, state)] oldest first; state 0 = open (or being
        played), logformat.FINISH = over, logformat.ABANDON = dropped before the end."""
        out = []
        for n, size in self.sizes():
            out.append((n, size, self.state(n, size)))
        return out

    def open_log(self, n):
        """Game n's log opened for reading ("rb"); ValueError if there is no such game."""
        try:
            return open(self.path(n), "rb")
        except OSError:
            raise ValueError("no game %d on the board" % n)

    def read(self, n, offset, count):
        """Up to count bytes of game n's log from offset (b"" at or past the end)."""
        f = self.open_log(n)
        try:
            f.seek(offset)
            return f.read(count)
        finally:
            f.close()

    def scan(self, n, size, buf):
        """(CRC-32 of the first size bytes, state as state() tells it) of game n's log, read
        once in pieces into buf (a bytearray of at least 4 bytes)."""
        from binascii import crc32
        f = self.open_log(n)
        c = 0
        off = 0
        tail = b""
        try:
            while off < size:
                k = f.readinto(buf)
                if not k:
                    break
                if k > size - off:
                    k = size - off
                c = crc32(memoryview(buf)[:k], c)
                off += k
                if k >= 4:
                    tail = bytes(buf[k - 4:k])
                else:
                    tail = (tail + bytes(buf[:k]))[-4:]
        finally:
            f.close()
        state = LF.closed_tail(tail, size) if size >= 4 and off == size else 0
        return c & 0xFFFFFFFF, state

    def delete(self, n, force=False):
        """Remove game n's log (the host has it). The current game only with force."""
        if n == self.cur and not force:
            raise ValueError("game %d is being played (abort it first)" % n)
        try:
            os.remove(self.path(n))
        except OSError:
            raise ValueError("no game %d on the board" % n)
        if n == self.cur:
            self.cur = 0
            self.closed = 0
