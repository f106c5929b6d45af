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
    res = SyncResult() if res is None else res
    board, res.on_board = _greet(link)
    bar = Progress(res.on_board, enabled=progress, on_progress=on_progress)
    try:
        run = _Run(link, store, board, res, say or (lambda text: None))
        first = 0  # the board's first game number the next batch lists
        while True:
            games, more, cut = link.fetch(first, run.resumed, len(run.prefix), chunk)
            batch = run.receive(games, bar)
            run.store_batch(batch)
            run.tell_committed(batch)
            run.confirm_to_board(batch)
            if batch.damaged is not None:
                raise LinkError("game %d arrived with a wrong checksum; run sync again"
                                % batch.damaged, tells_next=True)
            if cut is not None:
                first = run.keep_cut_transfer(cut)
            elif more and games:
                first = games[-1][0] + 1
            else:
                break
        run.forget_stale_transfer()
    finally:
        bar.close()
    return res


def _greet(link):
    """The board's id and how many games it has (its HELLO; 0 when it says no number)."""
    info = link.hello()
    try:
        on_board = int(info.get("games", "0"))
    except ValueError:
        on_board = 0
    return info.get("board", "-"), on_board


class _Batch:
    """One batch of the board's games on its way to the store: what it comes to is said and
    confirmed only once it is committed."""

    def __init__(self):
        self.arrived = []   # (game_no, size, crc, data) of the finished games, whole or not
        self.replayed = {}  # game_no: record or LogError, replayed before the write lock
        self.new = []       # (game_no, crc, record) to store
        self.ids = []       # the store ids of new, once stored
        self.confirm = []   # (game_no, crc) to confirm once the new ones are stored
        self.told = []      # (a list of res, its entry, a line to say or None): once committed
        self.damaged = None  # the first game that arrived with a wrong checksum


class _Run:
    """The state of one sync run across its batches: the transfer cut short that it resumes
    (resumed: its game, prefix: the bytes kept) and the numbering it stores the board's new
    games in (_numbering; None until one is chosen)."""

    def __init__(self, link, store, board, res, say):
        self.link, self.store, self.board, self.res, self.say = link, store, board, res, say
        kept = store.first_transfer(board)
        self.resumed, self.prefix = (kept[0], kept[2]) if kept else (0, b"")
        self.numbering = None

    def receive(self, games, bar):
        """The batch of the finished games that came (a game still being played is left
        alone), the part of a transfer cut short put before its rest, and each game that is
        not stored with these bytes replayed."""
        batch = _Batch()
        for game_no, size, crc, flags, data in games:
            bar.add(1, "game %d" % game_no)
            if flags & FLAG_PLAYING:
                self.res.skipped.append(game_no)
                continue
            if game_no == self.resumed and self.prefix:
                data = None if data is None else self.prefix + data
                self.resumed, self.prefix = 0, b""
            if data is not None:
                self.res.bytes += len(data)
            batch.arrived.append((game_no, size, crc, data))
        # Replayed before the write lock is taken (the longest part: another program's
        # sync or import waits the less), each game that is not stored with these bytes.
        batch.replayed = {game_no: _replay(data, self.board)
                          for game_no, _, crc, data in batch.arrived
                          if data is not None and zlib.crc32(data) == crc
                          and not _stored_alike(self.store, self.board, game_no, data)}
        return batch

    def store_batch(self, batch):
        """Each game of the batch looked at and the new ones stored, in one transaction:
        another sync at once (a board of the same id: cloned flash) can neither store a game
        between the look and the write (UNIQUE constraint failed) nor see half a batch."""
        with self.store.transaction():
            for game_no, size, crc, data in batch.arrived:
                self._file_game(batch, game_no, size, crc, data)
            # stored first (one transaction), then confirmed to the board (one request),
            # which lets their files go
            batch.ids = self.store.add_all([r for _, _, r in batch.new])

    def _file_game(self, batch, game_no, size, crc, data):
        """Where one game of the batch goes: stored already (confirmed again), kept aside
        earlier, fetched afresh, kept aside now, stored from elsewhere, or new (batch.new)."""
        from cargoboard.logrecord import LogError
        if data is None:
            self._fetch_afresh(batch, game_no, size)  # the part kept does not fit the board's log
            return
        continues = None
        source = None  # the numbering it is stored in; None: the run's (below)
        known = self.store.stored_from(self.board, game_no)
        if known and zlib.crc32(data) == crc:  # (else a damaged transfer: below)
            place = self._place_among_stored(batch, known, game_no, crc, data)
            if place is None:
                return
            continues, source = place
        old = self.store.rejected_log(self.board, game_no)
        if old is not None and old == data and zlib.crc32(old) == crc:
            batch.told.append((self.res.rejected, (game_no, "kept aside earlier"),
                               "game %d: kept aside earlier (does not replay); left on "
                               "the board" % game_no))
            return
        if zlib.crc32(data) != crc:
            self._fetch_afresh(batch, game_no, size)
            return
        rec = batch.replayed.pop(game_no, None) or _replay(data, self.board)
        if isinstance(rec, LogError):
            self.store.reject(self.board, game_no, str(rec), data)
            batch.told.append((self.res.rejected, (game_no, str(rec)),
                               "game %d kept aside: %s; left on the board" % (game_no, rec)))
            return
        if source is None:
            self.numbering = source = _numbering(self.store, self.board, game_no,
                                                 self.numbering)
        rec.source, rec.source_game = source, game_no
        rec.continues = continues
        if rec.problem is not None:
            # The board's own CRC-32 matched: the log was damaged on the flash (a bit gone
            # bad, a write cut short). The store keeps the whole log with the game that
            # replays up to the damage; the user is told.
            batch.told.append((self.res.damaged, (game_no, rec.problem),
                               "game %d: damaged log: %s; %d action%s stored, the whole log "
                               "kept in the store" % (game_no, rec.damage, len(rec.actions),
                                                      "" if len(rec.actions) == 1 else "s")))
        elif continues is None and self._stored_from_elsewhere(batch, game_no, crc, rec):
            return
        batch.new.append((game_no, crc, rec))

    def _fetch_afresh(self, batch, game_no, size):
        """A game whose bytes arrived wrong: its transfer starts again from nothing."""
        self.store.save_transfer(self.board, game_no, size, b"")
        batch.damaged = batch.damaged or game_no

    def _place_among_stored(self, batch, known, game_no, crc, data):
        """A whole game under a number the store has (known: its games of this board and
        number): (the id of the stored game it continues or None, the numbering to store it
        in or None: the run's), or None when there is nothing to store (said or confirmed)."""
        same = grown = None
        for stored in known:
            old = bytes(stored.log) if stored.log is not None else None
            if old == data:
                same = stored
            elif old and len(data) > len(old) and data[:len(old)] == old:
                grown = stored
        if same is not None:
            # stored by an earlier sync cut short before its CONFIRM
            batch.told.append((self.res.stored_before, game_no, None))
            batch.confirm.append((game_no, crc))
            return None
        if grown is not None:
            # A log only grows: the board played on after a take-back once the game was
            # stored (docs/protocol.md, CONFIRM). The whole log replaces the stored one.
            return grown.id, grown.source
        if any(k.log is None for k in known):
            batch.told.append((self.res.conflicts,
                               (game_no, "stored game has no log to compare"),
                               "game %d: the store holds a game under this number without its "
                               "log; left on the board" % game_no))
            return None
        # Another game under a number the store has: the board counts its games from 1 again
        # (its flash was erased). Kept as a game of the board's numbering begun again, never
        # in place of the one stored (unsaid in a run that stores in BOARD itself: the other
        # game is another board's of this id, in the BOARD#2 it began meanwhile).
        self.numbering = source = _numbering(self.store, self.board, game_no, self.numbering)
        if source != self.board:
            batch.told.append((self.res.renumbered, (game_no, source),
                               "game %d: the store has another game %d of this board (its "
                               "numbering began again); stored as a game of %s"
                               % (game_no, game_no, source)))
        return None, source

    def _stored_from_elsewhere(self, batch, game_no, crc, rec) -> bool:
        """Whether an import of this game's export came first (the store has the game): then
        the board's bytes are kept with it, and the board may delete its log."""
        same = self.store.find(rec.kind, rec.start, rec.actions, rec.played,
                               check_played=True)
        if same is None:
            return False
        self.store.keep_log(same, rec.log)
        batch.told.append((self.res.duplicates, (game_no, same),
                           "game %d: already stored as #%d; not stored again" % (game_no, same)))
        batch.confirm.append((game_no, crc))
        return True

    def tell_committed(self, batch):
        """What the batch did, into res and said, now that it is committed (only now is any
        of it so)."""
        for where, entry, line in batch.told:
            where.append(entry)
            if line:
                self.say(line)
        for (game_no, crc, rec), gid in zip(batch.new, batch.ids):
            (self.res.stored if rec.continues is None else self.res.continued).append(
                (game_no, gid))
            batch.confirm.append((game_no, crc))

    def confirm_to_board(self, batch):
        """The batch's games the store has, confirmed to the board (which lets their files go),
        CONFIRM_MAX a request."""
        confirm = sorted(batch.confirm)
        for i in range(0, len(confirm), CONFIRM_MAX):
            self.link.confirm_all(confirm[i:i + CONFIRM_MAX])
            self.res.confirmed.extend(g for g, _ in confirm[i:i + CONFIRM_MAX])

    def keep_cut_transfer(self, cut):
        """The stream broke off inside a game: what came is kept, to ask on from there. The
        game number to fetch from."""
        game_no, total, offset, part = cut
        data = (self.prefix if game_no == self.resumed else b"")[:offset] + part
        self.store.save_transfer(self.board, game_no, total, data)
        self.resumed, self.prefix = game_no, data
        return game_no

    def forget_stale_transfer(self):
        """The game of the transfer kept is no longer on the board: its part is dropped."""
        if self.prefix:
            self.store.save_transfer(self.board, self.resumed, 0, b"")
