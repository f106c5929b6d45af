"""The board's game store: one log file per game on the flash filesystem (docs/log-format.md).

    <root>/games/g00042.log   game 42: header + records (firmware/system/logformat.py)
    <root>/games/next         the next game number, ASCII (never reused: the host files a game
                              by (the board id HELLO gives, game number), docs/log-format.md)

On the Pico the root is "/" (MicroPython's littlefs); in the simulator a littlefs image mounted
at /flash (firmware/drivers/flashdev.py); on CPython any directory (the same code runs in the tests).

Durability: a record is appended with the file opened in append mode, written and closed at
once; littlefs commits a file's new contents atomically on close (or flush): after a power cut
the file has its old length or its new one, never half a record. The header is written to a
temporary file and renamed into place (also atomic), so a game file always has its whole header.
After a reboot the boot's firmware/system/logboot.py reopens the newest game if it is still
open (it sets cur, closed, _crc and _size as begin() does).

RAM: logs are not kept in memory; only the boot's resume reads one whole log (to replay it).
What a host asks of the logs (list, read, check, delete) is firmware/system/logread.py, loaded
when a host reads logs.

Space: `low()` is true when fewer than `reserve` bytes are free (default RESERVE: 48 KiB =
12 littlefs blocks of the Pico). `begin()` then refuses a new game (FlashLow): unsynced games
are never dropped to make room; the host deletes games only after it has them (`delete`).
"""

import gc
import os
from firmware.system import logwrite as LW  # what appends need; firmware.system.logformat only for a moment
from firmware.hal import unload

DIR = "games"
RESERVE = 48 * 1024
SPARE = 1280  # bytes: opening a littlefs file takes its state and cache (1 KiB) in one block


class FlashLow(Exception):
    """Not enough free flash to start a new game."""


def game_number(name):
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
        self.closed = 0      # 0 while the current game is open, else LW.FINISH or LW.ABANDON
        self._crc = 0        # CRC-8 register after the last record of the current game
        self._size = 0       # its length in bytes
        self.spare = None    # a block held for the next file open (keep_spare)
        self.closing = None  # the current game's file, opened ahead for its next record
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
            n = game_number(name)
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

    def write_atomic(self, path, data):
        """data to path, power-loss safe: written to a temporary file renamed over it (littlefs
        renames atomically), so the path holds its old contents or the new, whole (the game
        log's headers, the revision-B board's zeros: firmware/system/calib.py)."""
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
    def begin(self, kind, variant, seats, start, board=None, rules=0, time=0, version=1):
        """Start the log of a new game; returns its number. An open current game is abandoned
        first. Raises FlashLow if space is low (nothing written), OSError if the flash fails.
        version: the log's format version (2 for a game that writes doubt records)."""
        self.close()
        self.check_room()
        nums = self.numbers()
        n = self._read_counter()
        if nums and nums[-1] >= n:
            n = nums[-1] + 1
        self.write_atomic(self.dir + "/next", b"%d\n" % (n + 1))
        path = self.path(n)
        from firmware.system import logformat
        try:
            # written in pieces, no buffer of the whole header (with 8 players and both
            # expansions its start position alone is ~0.6 KB: the heap of a game just set up
            # may hold no second block that size), to a temporary file renamed into place
            with self._open(path + ".tmp", "wb") as f:
                size, c = logformat.write_header(f, kind, variant, seats, start,
                                                 self.board if board is None else board, n,
                                                 rules, time, version)
            seed = logformat.seed_of(c)
        finally:
            logformat = None
            unload("firmware.system.logformat")
            unload("firmware.system.logdoubt")  # (loaded by it)
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
        rec, crc = LW.encode_record(kind, payload, self._crc, self._size)
        path = self.path(self.cur)
        f = self.closing  # opened while the heap was in one piece (a game switch)
        self.closing = None
        try:
            if f is None:
                f = self._open(path, "ab")
            with f:
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
                self.write_atomic(path, good)
        except Exception:
            pass

    def append(self, payload):
        """Log a committed action (the rules core's encoding, 1..12 bytes, logwrite.MAX_PAYLOAD)."""
        self._append(LW.ACTION, payload)
        self.closed = 0

    def undo(self):
        """Log a take-back of the last action still standing."""
        self._append(LW.UNDO)
        self.closed = 0

    def doubt(self, payload):
        """Log the moves the game keeps in doubt (a doubt record, format version 2; payload
        b"": none)."""
        self._append(LW.DOUBT, payload)
        self.closed = 0

    def finish(self):
        """The game is over by its rules (no-op if already closed). It stays current: a
        take-back after the end reopens it."""
        if self.cur and not self.closed:
            self._append(LW.FINISH)
            self.closed = LW.FINISH

    def close(self):
        """The app is done with the current game: log it as abandoned if it is still open."""
        if self.cur and not self.closed:
            self._append(LW.ABANDON)
        self.cur = 0
        self.closed = 0

    def current(self):
        """The number of the game being logged, 0 if none."""
        return self.cur

    def size(self):
        """Bytes in the current game's log (0 if none)."""
        return self._size if self.cur else 0
