"""The game store: one SQLite file of synced (and imported) games.

A stored game is its start position plus the actions played, in the action notation, as the
rules core replays them; games synced from a board also keep the board's raw log bytes, so a
re-sync can be checked byte for byte, and a log damaged on the board (marked in `damage`) is
kept whole (`cargoboard export ID --format log`). Each game is written in one transaction.

Default location: $CARGOBOARD_DB, else $XDG_DATA_HOME/cargoboard/games.sqlite
(~/.local/share/cargoboard/games.sqlite).

Its parts, each in a module of its own: the stored game and its words (store_record), the
schema and its upgrades (store_schema), where the store's file is and making and opening it
(store_files), SQLite's errors and transactions (store_sqlite). This module is the store's
games, written and read (Store), and the one place callers import the store's names from
(what only the parts use stays in them).
"""

from __future__ import annotations

import datetime as _dt
import sqlite3
from pathlib import Path

from cargoboard.clikit import shown
from cargoboard.store_files import (add_db_option, check_not_special,  # noqa: F401
                                    check_writable, create_store, default_path,
                                    folders_may_be_made, open_existing, remove_stale_temporaries)
from cargoboard.store_record import (SEATS, GameRecord, is_date_filter,  # noqa: F401
                                     is_result_filter, numbering_source, played_at, played_now,
                                     result_text, score_text, source_text, when_text,
                                     winners_text)
from cargoboard.store_schema import SCHEMA_VERSION, log_abandoned, log_damage, upgrade
from cargoboard.store_sqlite import (BadGameId, NoSuchGame, StoreError,  # noqa: F401
                                     StoreInUse, store_error, write_transaction)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


class Store:
    """The store at path (default: default_path()).

    Writable (the default): an existing file must be a Cargoboard store (a SQLite file that
    is not one, or an empty file, is refused and left as it is); a missing one is created,
    in an existing folder (only the standard place gets its folders made:
    folders_may_be_made). readonly=True opens an existing store for reading only: nothing is
    created or changed, and a missing file, a damaged one or one that is not a store is a
    StoreError."""

    def __init__(self, path=None, readonly=False):
        self.path = Path(path) if path else default_path()
        self.readonly = readonly
        self._abandoned = "abandoned"  # the column, or how to tell it in an older store
        self._damage = "damage"
        if readonly:
            self.db, schema = open_existing(self.path, readonly=True)
            if schema < 2:
                self.db.create_function("log_abandoned", 1, log_abandoned, deterministic=True)
                self._abandoned = "log_abandoned(log)"
            if schema < 3:
                self.db.create_function("log_damage", 1, log_damage, deterministic=True)
                self._damage = "log_damage(log)"
            return
        check_writable(path or None)
        remove_stale_temporaries(self.path)
        if not self.path.exists():
            if folders_may_be_made(self.path):  # check_writable: only its folders may be made
                self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                create_store(self.path)
            except sqlite3.DatabaseError as e:
                raise store_error(self.path, e) from None
        self.db, schema = open_existing(self.path, readonly=False)
        try:
            if schema < SCHEMA_VERSION:
                upgrade(self.db, self.path)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise StoreError("%s could not be upgraded: %s" % (self.path, e)) from None
        except BaseException:
            self.db.close()
            raise

    def close(self):
        self.db.close()

    def transaction(self):
        """A write transaction (write_transaction): the writes inside are stored all or none, and
        what is read inside still holds when they are (sync checks and stores a batch so)."""
        return write_transaction(self.db, self.path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- games -----------------------------------------------------------------------------
    def stored_from(self, board, source_game) -> list:
        """The games stored under this board game number: the board's own (`board`) and those
        of its numbering begun again (`board#2`, `board#3`, ...: a board whose flash was erased
        counts its games from 1 anew), oldest first."""
        rows = self.db.execute(
            "SELECT id FROM games WHERE source_game=? AND (source=? OR "
            "substr(source, 1, ?)=?) ORDER BY id", (source_game, board, len(board) + 1,
                                                    board + "#")).fetchall()
        return [self.get(r[0]) for r in rows]

    def last_numbering(self, board) -> int:
        """k of the board's newest numbering that the store has games of: 1 for `board` (also
        when it has none), k for `board#k` (its games numbered from 1 again after its flash
        was erased: numbering_source)."""
        # (by the index of UNIQUE(source, source_game): the sources from `board#` up to the
        # character after '#')
        rows = self.db.execute("SELECT DISTINCT source FROM games WHERE source>? AND source<?",
                               (board + "#", board + "$"))
        return max([int(r[0][len(board) + 1:]) for r in rows
                    if r[0][len(board) + 1:].isdecimal()], default=1)

    def has(self, source, source_game) -> bool:
        row = self.db.execute("SELECT 1 FROM games WHERE source=? AND source_game=?",
                              (source, source_game)).fetchone()
        return row is not None

    def add(self, rec: GameRecord) -> int:
        """Replay the record through the rules core and store it in one transaction.
        Returns the new id. The rules' error propagates if the game does not replay."""
        return self.add_all([rec])[0]

    def add_all(self, recs) -> list:
        """Store several records in one transaction (one commit, one wait for the disk:
        sync stores a board's batch so); their ids. Each is replayed through the rules
        core first, unless the caller did (rec.final, as record_from_log sets it); nothing is
        stored if one does not replay. A record with `continues` (a store id) replaces that
        game's actions, result and log, keeping its id: the board played on after a take-back
        once the game was stored, and its log is the stored one and more."""
        rows = []
        for rec in recs:
            final = rec.final if rec.final is not None else rec.final_position()
            rows.append((rec, final))
        ids = []
        # (the transaction takes the write lock first: the ids and import numbers below are read, then
        # written; another program's sync or import meanwhile would take the same ones)
        with self.transaction():
            for rec, final in rows:
                if rec.continues is not None:
                    cur = self.db.execute(
                        "UPDATE games SET actions=?, n_actions=?, final=?, scores=?, winners=?, "
                        "abandoned=?, log=?, damage=? WHERE id=?",
                        (" ".join(rec.actions), len(rec.actions), final.notation(),
                         score_text(final), winners_text(final), int(rec.abandoned), rec.log,
                         rec.damage, rec.continues))
                    if cur.rowcount == 1:
                        ids.append(rec.continues)
                        continue
                    # deleted meanwhile (the archive's delete): stored anew, the whole game
                    rec.continues = None
                if rec.source == "import" and not rec.source_game:
                    row = self.db.execute("SELECT COALESCE(MAX(source_game), 0) + 1 FROM games "
                                          "WHERE source='import'").fetchone()
                    rec.source_game = row[0]
                cur = self.db.execute(
                    "INSERT INTO games(id, source, source_game, kind, variant, seats, start, "
                    "actions, n_actions, final, scores, winners, abandoned, played, stored, log, "
                    "damage) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (self._next_id(), rec.source, rec.source_game, rec.kind, rec.variant,
                     rec.seats, rec.start,
                     " ".join(rec.actions), len(rec.actions), final.notation(),
                     score_text(final), winners_text(final), int(rec.abandoned), rec.played,
                     _now(), rec.log, rec.damage))
                self.db.execute("DELETE FROM transfers WHERE source=? AND source_game=?",
                                (rec.source, rec.source_game))
                ids.append(cur.lastrowid)
        for (rec, _), gid in zip(rows, ids):
            rec.id = gid
        return ids

    def get(self, ref) -> GameRecord:
        """A game by its store id (an int or a decimal string). StoreError if unknown."""
        if isinstance(ref, str) and ref.isascii() and ref.isdecimal() and len(ref) > 19:
            # a number past SQLite's integers (int() refuses one of 4300 digits)
            raise NoSuchGame("no game %s in %s (see `cargoboard games`)" % (shown(ref),
                                                                             self.path))
        try:
            gid = int(ref)
        except (TypeError, ValueError):
            raise BadGameId("game id must be a number, not '%s' (see `cargoboard games`)"
                            % shown(ref)) from None
        if not 0 < gid < 2 ** 63:  # no id beyond SQLite's integers (they overflow its binding)
            raise NoSuchGame("no game %d in %s (see `cargoboard games`)" % (gid, self.path))
        row = self.db.execute(
            "SELECT id, kind, variant, seats, start, actions, source, source_game, played, log, "
            "stored, %s, %s FROM games WHERE id=?" % (self._abandoned, self._damage),
            (gid,)).fetchone()
        if row is None:
            raise NoSuchGame("no game %d in %s (see `cargoboard games`)" % (gid, self.path))
        rec = GameRecord(row[1], row[2], row[3], row[4], row[5].split() if row[5] else [],
                         source=row[6], source_game=row[7], played=row[8], log=row[9],
                         id=row[0], stored=row[10], abandoned=row[11])
        rec.damage = row[12]
        return rec

    def get_by_source(self, source, source_game) -> GameRecord:
        row = self.db.execute("SELECT id FROM games WHERE source=? AND source_game=?",
                              (source, source_game)).fetchone()
        if row is None:
            raise NoSuchGame("no game %s#%s in %s" % (source, source_game, self.path))
        return self.get(row[0])

    def keep_log(self, gid, log):
        """Give stored game gid the board's raw log if it has none (an import of the game's
        export, found again by a sync: the board deletes its copy, and the store keeps the
        bytes it had)."""
        with self.transaction():
            self.db.execute("UPDATE games SET log=? WHERE id=? AND log IS NULL", (log, gid))

    def find(self, kind, start, actions, played=None, check_played=False):
        """The id of a stored game (any source) with this start and these actions, or None:
        how an import recognises a game it already holds. check_played: `played` must agree
        too (sync: two games played alike on a board, say both dropped before a first move,
        are still two games; an export of this very game keeps its `played`)."""
        sql = "SELECT id FROM games WHERE kind=? AND start=? AND n_actions=? AND actions=?"
        args = [kind, start, len(actions), " ".join(actions)]
        if check_played:
            # (and only a game with no board log, an import: a board game that merely looks
            # the same, e.g. dropped before its first move as "board game 1" on an erased
            # board, is another game)
            sql += " AND played IS ? AND log IS NULL"
            args.append(played)
        row = self.db.execute(sql + " ORDER BY id LIMIT 1", args).fetchone()
        return row[0] if row else None

    def list(self, kind=None, players=None, result=None, since=None, until=None, limit=None,
             offset=0, newest_first=False):
        """Rows (id, source, source_game, kind, variant, seats, n_actions, scores, winners,
        played, stored, abandoned, damage), oldest first (result_text(winners, abandoned) says
        how each ended; damage: log_damage's text, None for a whole log or none). Filters: kind; players (the number of seats); result ('over',
        'abandoned', 'open': neither, or a seat's letter or digit: won by that seat);
        since/until (dates YYYY-MM-DD, inclusive) on the day the game was played when the
        board knew it, else the day it was stored."""
        where, args = self._filters(kind, players, result, since, until)
        sql = ("SELECT id, source, source_game, kind, variant, seats, n_actions, scores, "
               "winners, played, stored, %s, %s FROM games%s ORDER BY id%s" % (
                   self._abandoned, self._damage, where, " DESC" if newest_first else ""))
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [int(limit), int(offset)]
        return self.db.execute(sql, args).fetchall()

    def count(self, kind=None, players=None, result=None, since=None, until=None):
        """How many games list() with these filters gives without a limit."""
        where, args = self._filters(kind, players, result, since, until)
        return self.db.execute("SELECT COUNT(*) FROM games" + where, args).fetchone()[0]

    def kinds(self):
        """The game kinds in the store, sorted."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT kind FROM games ORDER BY kind")]

    def _filters(self, kind, players, result, since, until):
        terms, args = [], []
        if kind:
            terms.append("kind = ?")
            args.append(kind)
        if players:
            terms.append("length(seats) = ?")
            args.append(int(players))
        if result == "over":
            terms.append("winners != ''")
        elif result == "abandoned":
            terms.append(self._abandoned)
        elif result == "open":
            terms.append("winners = '' AND NOT %s" % self._abandoned)
        elif result:
            terms.append("instr(winners, ?) > 0")
            args.append(result)
        day = ("substr(CASE WHEN played GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' "
               "THEN played ELSE stored END, 1, 10)")
        if since:
            terms.append(day + " >= ?")
            args.append(since)
        if until:
            terms.append(day + " <= ?")
            args.append(until)
        return (" WHERE " + " AND ".join(terms) if terms else ""), args

    def delete(self, ref):
        """Remove a stored game (by id); StoreError if unknown. Its board has deleted it
        already if it came from one: this is the only copy."""
        with self.transaction():
            rec = self.get(ref)
            # its id is not given to another game (a bookmark or a script's `export N` must not
            # come to mean another game): the highest id given is kept
            self.db.execute("INSERT OR REPLACE INTO meta VALUES('last_id', ?)",
                            (str(max(rec.id, self._last_id())),))
            self.db.execute("DELETE FROM games WHERE id=?", (rec.id,))
        return rec

    def _last_id(self):
        """The highest id a game of this store has had (a deleted one's too)."""
        row = self.db.execute("SELECT value FROM meta WHERE key='last_id'").fetchone()
        top = self.db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        return max(top, int(row[0]) if row else 0)

    def _next_id(self):
        return self._last_id() + 1

    # --- rejected games and half-done transfers -------------------------------------------
    def reject(self, source, source_game, reason, log):
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO rejected(source, source_game, reason, log, "
                            "stored) VALUES(?,?,?,?,?)", (source, source_game, reason, log, _now()))

    def rejected_log(self, source, source_game):
        """The log bytes of a game kept aside, or None."""
        row = self.db.execute("SELECT log FROM rejected WHERE source=? AND source_game=?",
                              (source, source_game)).fetchone()
        return bytes(row[0]) if row and row[0] is not None else None

    def rejected(self):
        return self.db.execute("SELECT source, source_game, reason, length(log), stored "
                               "FROM rejected ORDER BY id").fetchall()

    def first_transfer(self, source):
        """(game, total, bytes so far) of the lowest-numbered half-done read from a board that
        holds some bytes, or None: where the next sync resumes."""
        row = self.db.execute("SELECT source_game, total, data FROM transfers WHERE source=? "
                              "AND length(data) > 0 ORDER BY source_game LIMIT 1",
                              (source,)).fetchone()
        return (row[0], row[1], bytes(row[2])) if row else None

    def save_transfer(self, source, source_game, total, data):
        with self.transaction():
            self.db.execute("INSERT OR REPLACE INTO transfers VALUES(?,?,?,?)",
                            (source, source_game, total, bytes(data)))
