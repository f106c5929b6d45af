"""`cargoboard sync`: fetch the board's games into the store, then let the board delete them.

For each game on the board (LIST), in order:
- still being played: left alone;
- already stored (same board id and game number, same bytes): confirmed again, so a confirm
  whose reply was lost still frees the board; stored with different bytes: reported, kept;
- otherwise read in chunks from where an earlier, broken sync stopped (the store keeps
  half-done transfers), checked against the board's CRC-32 of the whole log, replayed through
  the rules core and stored in one transaction; only then confirmed (deleted on the board).
  A log that does not replay is kept aside in the store's `rejected` table, reported, and
  left on the board.
A second run changes nothing: there is nothing left to fetch.
"""

from __future__ import annotations

import sys
import zlib

from cargoboard.link import Link, LinkError
from cargoboard.store import Store
from firmware.system.link import FLAG_PLAYING, READ_MAX


class SyncResult:
    def __init__(self):
        self.stored = []      # (game_no, store id)
        self.confirmed = []   # game numbers the board deleted this run
        self.rejected = []    # (game_no, reason)
        self.conflicts = []   # (game_no, reason)
        self.skipped = []     # game numbers still being played
        self.bytes = 0        # log bytes read this run

    def summary(self) -> str:
        parts = ["%d new game%s stored" % (len(self.stored), "" if len(self.stored) == 1 else "s")]
        if self.confirmed:
            parts.append("%d deleted on the board" % len(self.confirmed))
        if self.skipped:
            parts.append("game %s still being played" % ",".join(map(str, self.skipped)))
        if self.rejected:
            parts.append("%d kept aside (do not replay)" % len(self.rejected))
        if self.conflicts:
            parts.append("%d conflicts" % len(self.conflicts))
        return ", ".join(parts)


class Progress:
    """The transfer's progress bar (tqdm) on stderr: only when it is a terminal, or forced
    (enabled=True, `sync --progress`); on_progress(done, total, label) is told of every
    step as well (another view of the same bar: the web page's)."""

    def __init__(self, total_bytes, enabled=None, stream=None, on_progress=None):
        from tqdm import tqdm
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = max(1, total_bytes)
        self.done = 0
        self.on_progress = on_progress
        self.bar = tqdm(total=total_bytes, desc="sync", unit="B", unit_scale=True,
                        file=self.stream, disable=not self.enabled, dynamic_ncols=True)

    def add(self, n, label=""):
        self.done += n
        if self.on_progress:
            self.on_progress(self.done, self.total, label)
        if label:
            self.bar.set_postfix_str(label, refresh=False)
        self.bar.update(n)

    def close(self):
        self.bar.close()


def fetch_log(link: Link, store: Store, board: str, game_no: int, size: int, progress=None,
              chunk=READ_MAX):
    """The whole log of one game, resuming a transfer the store kept."""
    data = bytearray()
    kept = store.transfer(board, game_no)
    if kept and kept[0] == size:
        data += kept[1]
        if progress:
            progress.add(len(data))
    while len(data) < size:
        total, part = link.read(game_no, len(data), chunk)
        if total != size:
            raise LinkError("game %d changed size on the board during the sync" % game_no)
        if not part:
            raise LinkError("the board sent no data for game %d at offset %d" % (game_no, len(data)))
        data += part
        if progress:
            progress.add(len(part), "game %d" % game_no)
        if len(data) < size:
            store.save_transfer(board, game_no, size, data)  # a cut from here resumes here
    return bytes(data)


def sync(link: Link, store: Store, progress=None, say=None, chunk=READ_MAX,
         on_progress=None) -> SyncResult:
    """One sync run; raises LinkError if the board stops answering (run it again: it
    resumes). progress: the terminal bar (None: on a terminal); on_progress(done, total,
    label): called as bytes arrive (the web page's bar)."""
    from cargoboard.export.logfile import record_from_log, LogError

    say = say or (lambda text: None)
    res = SyncResult()
    info = link.hello()
    board = info.get("board", "-")
    games = link.games()
    todo = [g for g in games if not (g[3] & FLAG_PLAYING) and not store.has(board, g[0])
            and store.rejected_log(board, g[0]) is None]
    bar = Progress(sum(g[1] for g in todo), enabled=progress, on_progress=on_progress)
    try:
        for game_no, size, crc, flags in games:
            if flags & FLAG_PLAYING:
                res.skipped.append(game_no)
                continue
            if store.has(board, game_no):
                kept = store.get_by_source(board, game_no)
                if kept.log is not None and zlib.crc32(kept.log) == crc and len(kept.log) == size:
                    link.confirm(game_no, crc)
                    res.confirmed.append(game_no)
                else:
                    res.conflicts.append((game_no, "stored game differs from the board's"))
                    say("game %d: the store holds a different game under this number; "
                        "left on the board" % game_no)
                continue
            old = store.rejected_log(board, game_no)
            if old is not None and len(old) == size and zlib.crc32(old) == crc:
                res.rejected.append((game_no, "kept aside earlier"))
                say("game %d: kept aside earlier (does not replay); left on the board" % game_no)
                continue
            data = fetch_log(link, store, board, game_no, size, bar, chunk)
            res.bytes += len(data)
            if zlib.crc32(data) != crc:
                store.save_transfer(board, game_no, size, b"")  # start this one afresh
                raise LinkError("game %d arrived with a wrong checksum; run sync again" % game_no)
            try:
                rec = record_from_log(data, source=board)
            except LogError as e:
                store.reject(board, game_no, str(e), data)
                res.rejected.append((game_no, str(e)))
                say("game %d kept aside: %s" % (game_no, e))
                continue
            rec.source_game = game_no
            gid = store.add(rec)
            res.stored.append((game_no, gid))
            link.confirm(game_no, crc)
            res.confirmed.append(game_no)
    finally:
        bar.close()
    return res
