"""`cargoboard sync`: fetch the board's games into the store, then let the board delete them.

The board streams its games after one request (FETCH, docs/protocol.md): a batch of whole logs,
each with its size, CRC-32 and flags. For each game of a batch, in order:
- still being played: left alone;
- already stored (same board id and game number, same bytes): confirmed again, so a confirm
  whose reply was lost still frees the board; stored, and the board's log is the stored one
  and more (a take-back after the end reopened the game on the board, which then kept its
  log): replayed and stored in its place; stored with other bytes: the board counts its games
  afresh (its flash was erased), so it is stored as a game of `BOARD#2` (`#3`, ...), as
  are the board's later games of the run and of later runs (_numbering);
- kept aside earlier with the same bytes: reported, left on the board;
- the same game stored from elsewhere (an import of its export: the same kind, start, actions
  and `played`, as import's own check plus the time): not stored again, reported as "already
  stored as #N", and the board deletes it (a damaged log is never taken for such a copy);
- otherwise checked against the board's CRC-32 of the whole log and replayed through the rules
  core. A log that does not replay is kept aside in the store's `rejected` table, reported,
  and left on the board. A log damaged on the flash (a record's checksum fails, a torn tail)
  is stored with the game up to the damage and the whole log, and reported.
What the store holds is looked at and the batch's new games stored in one write transaction
(each game replayed before it), so another sync at once (a board of the same id) cannot store
the same numbers in between; what a batch did is said only once it is committed, and only then
does one CONFIRM name its games (the board deletes their files, but the one it still shows
keeps its file until the app moves on: docs/protocol.md). Then the next batch, until the board has no more. A stream cut short
keeps what came in the store (a half-done transfer), and the next run resumes from there.
A second run changes nothing: there is nothing left to fetch.
"""

from __future__ import annotations

import sys
import zlib

from cargoboard.link import Link, LinkError
from cargoboard.store import Store, numbering_source
from firmware.system.linklog import CONFIRM_MAX, FLAG_PLAYING


class SyncResult:
    def __init__(self):
        self.stored = []      # (game_no, store id)
        self.confirmed = []   # game numbers confirmed to the board this run
        self.rejected = []    # (game_no, reason)
        self.conflicts = []   # (game_no, reason)
        self.continued = []   # (game_no, store id): stored before, played on since (a take-back)
        self.damaged = []     # (game_no, problem): stored up to the damage, the raw log kept
        self.renumbered = []  # (game_no, source): another game under a number already stored
        self.duplicates = []  # (game_no, store id): the same game stored already (imported)
        self.skipped = []     # game numbers still being played
        self.stored_before = []  # game numbers stored by an earlier sync cut short: confirmed
        self.bytes = 0        # log bytes read this run
        self.on_board = None  # the games the board had (its HELLO's games=N); None: not heard

    def left_on_board(self):
        """How many of the board's games this run has not got into the store (stored now or
        before, played on, already there), or None before the board answered: what stays on
        the board for a later sync (a game still being played, one kept aside, one not reached
        when the run was broken off)."""
        if self.on_board is None:
            return None
        done = len(self.stored) + len(self.continued) + len(self.stored_before) + \
            len(self.duplicates)
        return max(0, self.on_board - done)

    def summary(self) -> str:
        parts = ["%d new game%s stored" % (len(self.stored), "" if len(self.stored) == 1 else "s")]
        if self.continued:
            parts.append("%d stored game%s played on since and updated" % (
                len(self.continued), "" if len(self.continued) == 1 else "s"))
        if self.stored_before:
            # (a sync stopped between storing them and the board's deleting them: a kill)
            parts.append("%d stored by an earlier sync" % len(self.stored_before))
        if self.duplicates:
            parts.append("%d already stored" % len(self.duplicates))
        if self.confirmed:
            # (not "deleted": the board deletes a confirmed game once nothing shows it, and
            # the game it still shows finished once it moves on, docs/protocol.md CONFIRM;
            # its reply does not tell the two apart)
            parts.append("%d confirmed to the board" % len(self.confirmed))
        if self.skipped:
            parts.append("game %s still being played" % ",".join(map(str, self.skipped)))
        if self.renumbered:
            parts.append("%d of the board's numbering begun again" % len(self.renumbered))
        if self.damaged:
            parts.append("%d damaged (stored up to the damage, the whole log kept)"
                         % len(self.damaged))
        if self.rejected:
            parts.append("%d kept aside (do not replay)" % len(self.rejected))
        if self.conflicts:
            parts.append("%d conflicts" % len(self.conflicts))
        return ", ".join(parts)


class Progress:
    """The sync's progress bar (tqdm) on stderr, in games: only when it is a terminal, or forced
    (enabled=True, `sync --progress`); on_progress(done, total, label) is told of every
    step as well (another view of the same bar: the web page's)."""

    def __init__(self, total, enabled=None, stream=None, on_progress=None):
        from tqdm import tqdm
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = max(1, total)
        self.done = 0
        self.on_progress = on_progress
        self.bar = tqdm(total=total, desc="sync", unit="game", file=self.stream,
                        disable=not self.enabled, dynamic_ncols=True)

    def add(self, n, label=""):
        self.done += n
        if self.on_progress:
            self.on_progress(self.done, self.total, label)
        if label:
            self.bar.set_postfix_str(label, refresh=False)
        self.bar.update(n)

    def close(self):
        self.bar.close()


def _replay(data, board):
    """The record of a board's log (record_from_log), or its LogError if it does not replay."""
    from cargoboard.logrecord import LogError, record_from_log
    try:
        return record_from_log(data, source=board)
    except LogError as e:
        return e


def _stored_alike(store, board, game_no, data) -> bool:
    """Whether the store holds this board game with these very bytes (nothing to replay)."""
    return any(k.log is not None and bytes(k.log) == data
               for k in store.stored_from(board, game_no))


def _numbering(store, board, game_no, numbering):
    """The numbering (`BOARD`, `BOARD#2`, ...) a new game of the board is stored in: the one
    this run stores in (numbering; None: the store's newest of the board, where its games go
    since its flash was last erased), unless that holds a game of this number already: then
    the board counts from 1 again, and a new numbering begins. Chosen for the run, not game by
    game: after an erase the board's games whose numbers BOARD had went to BOARD#2, the later
    ones to BOARD among the games of before; and two syncs at once from boards of one id split
    their games between the two so, batch by batch."""
    if numbering is None:
        numbering = numbering_source(board, store.last_numbering(board))
    if store.has(numbering, game_no):
        numbering = numbering_source(board, store.last_numbering(board) + 1)
    return numbering


def sync(link: Link, store: Store, progress=None, say=None, chunk=0,
         on_progress=None, res=None) -> SyncResult:
    """One sync run; raises LinkError if the board stops answering (run it again: it
    resumes). progress: the terminal bar (None: on a terminal); on_progress(done, total,
    label): called as games arrive (the web page's bar), in games. chunk: the bytes per frame
    the board streams (0: as many as a frame holds). res: the SyncResult to fill in (a caller
    that may be interrupted, by Ctrl-C, still knows what was stored)."""
    from cargoboard.logrecord import LogError

    say = say or (lambda text: None)
    res = SyncResult() if res is None else res
    info = link.hello()
    board = info.get("board", "-")
    try:
        on_board = int(info.get("games", "0"))
    except ValueError:
        on_board = 0
    res.on_board = on_board
    bar = Progress(on_board, enabled=progress, on_progress=on_progress)
    kept = store.first_transfer(board)
    resumed, prefix = (kept[0], kept[2]) if kept else (0, b"")  # a transfer cut short
    first = 0
    numbering = None  # where this run stores the board's new games (_numbering)
    try:
        while True:
            games, more, cut = link.fetch(first, resumed, len(prefix), chunk)
            new = []       # (game_no, crc, record) to store
            confirm = []   # (game_no, crc) to confirm once the new ones are stored
            told = []      # (a list of res, its entry, a line to say or None): once committed
            damaged = None
            arrived = []   # (game_no, size, crc, data) of the finished games, whole or not
            for game_no, size, crc, flags, data in games:
                bar.add(1, "game %d" % game_no)
                if flags & FLAG_PLAYING:
                    res.skipped.append(game_no)
                    continue
                if game_no == resumed and prefix:
                    data = None if data is None else prefix + data
                    resumed, prefix = 0, b""
                if data is not None:
                    res.bytes += len(data)
                arrived.append((game_no, size, crc, data))
            # Replayed before the write lock is taken (the longest part: another program's
            # sync or import waits the less), each game that is not stored with these bytes.
            replayed = {game_no: _replay(data, board) for game_no, _, crc, data in arrived
                        if data is not None and zlib.crc32(data) == crc
                        and not _stored_alike(store, board, game_no, data)}
            # What the store holds is read, and the batch written, in one transaction: another
            # sync at once (a board of the same id: cloned flash) can neither store a game
            # between the look and the write (UNIQUE constraint failed) nor see half a batch.
            with store.transaction():
                for game_no, size, crc, data in arrived:
                    if data is None:
                        # the part kept does not fit the log on the board: fetch it afresh
                        store.save_transfer(board, game_no, size, b"")
                        damaged = damaged or game_no
                        continue
                    continues = None
                    source = None  # the numbering it is stored in; None: the run's (below)
                    known = store.stored_from(board, game_no)
                    if known and zlib.crc32(data) == crc:  # (else a damaged transfer: below)
                        same = grown = None
                        for stored in known:
                            old = bytes(stored.log) if stored.log is not None else None
                            if old == data:
                                same = stored
                            elif old and len(data) > len(old) and data[:len(old)] == old:
                                grown = stored
                        if same is not None:
                            # stored by an earlier sync cut short before its CONFIRM
                            told.append((res.stored_before, game_no, None))
                            confirm.append((game_no, crc))
                            continue
                        if grown is not None:
                            # A log only grows: the board played on after a take-back once the
                            # game was stored (docs/protocol.md, CONFIRM). The whole log
                            # replaces the stored one.
                            continues, source = grown.id, grown.source
                        elif any(k.log is None for k in known):
                            told.append((res.conflicts,
                                         (game_no, "stored game has no log to compare"),
                                         "game %d: the store holds a game under this number "
                                         "without its log; left on the board" % game_no))
                            continue
                        else:
                            # Another game under a number the store has: the board counts its
                            # games from 1 again (its flash was erased). Kept as a game of the
                            # board's numbering begun again, never in place of the one stored
                            # (unsaid in a run that stores in BOARD itself: the other game is
                            # another board's of this id, in the BOARD#2 it began meanwhile).
                            numbering = source = _numbering(store, board, game_no, numbering)
                            if source != board:
                                told.append((res.renumbered, (game_no, source),
                                             "game %d: the store has another game %d of this "
                                             "board (its numbering began again); stored as a "
                                             "game of %s" % (game_no, game_no, source)))
                    old = store.rejected_log(board, game_no)
                    if old is not None and old == data and zlib.crc32(old) == crc:
                        told.append((res.rejected, (game_no, "kept aside earlier"),
                                     "game %d: kept aside earlier (does not replay); left on "
                                     "the board" % game_no))
                        continue
                    if zlib.crc32(data) != crc:
                        store.save_transfer(board, game_no, size, b"")  # start this one afresh
                        damaged = damaged or game_no
                        continue
                    rec = replayed.pop(game_no, None) or _replay(data, board)
                    if isinstance(rec, LogError):
                        store.reject(board, game_no, str(rec), data)
                        told.append((res.rejected, (game_no, str(rec)),
                                     "game %d kept aside: %s; left on the board"
                                     % (game_no, rec)))
                        continue
                    if source is None:
                        numbering = source = _numbering(store, board, game_no, numbering)
                    rec.source, rec.source_game = source, game_no
                    rec.continues = continues
                    if rec.problem is not None:
                        # The board's own CRC-32 matched: the log was damaged on the flash (a
                        # bit gone bad, a write cut short). The store keeps the whole log with
                        # the game that replays up to the damage; the user is told.
                        told.append((res.damaged, (game_no, rec.problem),
                                     "game %d: damaged log: %s; %d action%s stored, the whole "
                                     "log kept in the store" % (
                                         game_no, rec.damage, len(rec.actions),
                                         "" if len(rec.actions) == 1 else "s")))
                    elif continues is None:
                        # An import of this game's export came first: the store has the game.
                        same = store.find(rec.kind, rec.start, rec.actions, rec.played,
                                          check_played=True)
                        if same is not None:
                            store.keep_log(same, rec.log)  # (the board's bytes are not lost)
                            told.append((res.duplicates, (game_no, same),
                                         "game %d: already stored as #%d; not stored again"
                                         % (game_no, same)))
                            confirm.append((game_no, crc))
                            continue
                    new.append((game_no, crc, rec))
                # stored first (one transaction), then confirmed to the board (one
                # request), which lets their files go
                ids = store.add_all([r for _, _, r in new])
            # committed: only now is any of it so
            for where, entry, line in told:
                where.append(entry)
                if line:
                    say(line)
            for (game_no, crc, rec), gid in zip(new, ids):
                (res.stored if rec.continues is None else res.continued).append((game_no, gid))
                confirm.append((game_no, crc))
            confirm.sort()
            for i in range(0, len(confirm), CONFIRM_MAX):
                link.confirm_all(confirm[i:i + CONFIRM_MAX])
                res.confirmed.extend(g for g, _ in confirm[i:i + CONFIRM_MAX])
            if damaged is not None:
                raise LinkError("game %d arrived with a wrong checksum; run sync again" % damaged,
                                tells_next=True)
            if cut is not None:
                # the stream broke off inside a game: keep what came, ask on from there
                game_no, total, offset, part = cut
                data = (prefix if game_no == resumed else b"")[:offset] + part
                store.save_transfer(board, game_no, total, data)
                first, resumed, prefix = game_no, game_no, data
            elif more and games:
                first = games[-1][0] + 1
            else:
                break
        if prefix:  # the game of the transfer kept is no longer on the board
            store.save_transfer(board, resumed, 0, b"")
    finally:
        bar.close()
    return res
