"""The game store's dealings with SQLite: its errors said as StoreErrors, for the user (a store
another program holds locked, a full disk, a file that is no store), and one write transaction
(write_transaction), which every write of the store is made in."""

from __future__ import annotations

import contextlib
import sqlite3


class StoreError(Exception):
    """A store problem the user can act on (bad file, unknown game). tells_next: whether the
    line already says what to do next (try again), as LinkError's."""

    tells_next = False


class NoSuchGame(StoreError):
    """The store has no game of that id (or source and number)."""


class BadGameId(StoreError):
    """A game id that is no number."""


class StoreInUse(StoreError):
    """Another program holds the store locked (for longer than SQLite waits): try again."""

    tells_next = True  # "try again when it has finished"


@contextlib.contextmanager
def write_transaction(db, path):
    """One write transaction on db (a connection in autocommit mode, isolation_level=None:
    Python's sqlite3 otherwise opens none for DDL, and an ALTER TABLE was committed on its
    own): BEGIN IMMEDIATE takes the write lock first, so what is read inside still holds when
    it is written; committed at the end, rolled back on any exception (Ctrl-C too). Inside
    another transaction it is part of that one. A store another program holds locked past
    SQLite's wait (5 s) is StoreInUse, said as the docs say, not "database is locked"; a
    full disk, a read-only store or a disk error is a StoreError that names the store."""
    if db.in_transaction:
        yield
        return
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        raise store_error(path, e) from None
    try:
        yield
        db.execute("COMMIT")  # (waits for readers to finish: it may find the store in use)
    except BaseException as e:
        if db.in_transaction:
            db.execute("ROLLBACK")
        if _write_refused(e):  # said in words, with the store's name: not "database or disk
            raise store_error(path, e) from None  # is full"
        raise


# SQLite's primary result codes (the low byte of an extended one) for a lock it could not
# have within its wait: SQLITE_BUSY, SQLITE_LOCKED
_LOCK_CODES = (5, 6)


# SQLite's primary result codes for a write the disk refused: SQLITE_READONLY, SQLITE_IOERR,
# SQLITE_FULL
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL = 8, 10, 13


def store_error(path, e):
    """The StoreError of an SQLite error met opening, reading or writing the store at path."""
    code = (getattr(e, "sqlite_errorcode", 0) or 0) & 0xff
    if code in _LOCK_CODES or "locked" in str(e) or "busy" in str(e):
        return StoreInUse("%s is in use: another program holds it locked (a sync, serve or "
                          "import still writing?); try again when it has finished" % path)
    if code == _SQLITE_FULL:
        return StoreError("cannot write the game store %s: the disk is full (free some "
                          "space)" % path)
    if code in (_SQLITE_READONLY, _SQLITE_IOERR):
        return StoreError("cannot write the game store %s: %s" % (path, e))
    return StoreError("%s is not a usable game store: %s" % (path, e))


def _write_refused(e) -> bool:
    """Whether e is SQLite's word that the store could not be written: locked past the wait,
    a full disk, a read-only file or a disk error (store_error says them)."""
    code = (getattr(e, "sqlite_errorcode", 0) or 0) & 0xff
    return isinstance(e, sqlite3.OperationalError) and (
        code in _LOCK_CODES + (_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL)
        or isinstance(store_error("", e), StoreInUse))
