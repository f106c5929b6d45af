"""Where the game store is and its file: the default place and `--db` (default_path,
add_db_option), what a writing command may make or write (check_writable, folders_may_be_made),
making a new store whole or not at all (create_store, and remove_stale_temporaries for what a
killed one left), and opening an existing one after checking that it is a store
(open_existing)."""

from __future__ import annotations

import os
import re
import secrets
import socket
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from cargoboard.clikit import process_runs, sigterm_unwinds, why_not_writable
from cargoboard.store_schema import SCHEMA, SCHEMA_VERSION, check_is_store
from cargoboard.store_sqlite import StoreError, store_error


# `--db FILE`'s help in every command that takes it (sync, games, export, import, replay, serve)
DB_HELP = ("the game store (default $CARGOBOARD_DB, else $XDG_DATA_HOME/cargoboard/games.sqlite, "
           "~/.local/share/cargoboard/games.sqlite without $XDG_DATA_HOME)")


def add_db_option(parser, note=""):
    """The `--db FILE` option of a command that uses the store; note: what the command does
    with it, after the default places."""
    parser.add_argument("--db", metavar="FILE", default=None,
                        help=DB_HELP + ("; " + note if note else ""))


def standard_path() -> Path:
    """The store's standard place, $XDG_DATA_HOME/cargoboard/games.sqlite
    (~/.local/share/cargoboard/games.sqlite without $XDG_DATA_HOME), whatever $CARGOBOARD_DB
    says: the one place whose missing folders a writing command makes (folders_may_be_made)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cargoboard" / "games.sqlite"


def default_path() -> Path:
    """The store a command uses without --db: $CARGOBOARD_DB, else standard_path()."""
    env = os.environ.get("CARGOBOARD_DB")
    if env:
        return Path(env)
    return standard_path()


def folders_may_be_made(path) -> bool:
    """Whether a writing command may make the missing folders of the store at path (None: the
    default): only of the standard place (standard_path), implied or written out with --db or
    $CARGOBOARD_DB, compared after resolving. A store anywhere else, $CARGOBOARD_DB's as
    --db's, must be in an existing folder: a mistyped name makes no folders (no command makes
    a user's folders by surprise)."""
    path = default_path() if path is None else Path(path)
    return path.resolve() == standard_path().resolve()


def _named_by(path) -> str:
    """' ($CARGOBOARD_DB)' when the store is the default (path None) and $CARGOBOARD_DB
    names it, for a message that names the store: the user sees where the name came from."""
    return " ($CARGOBOARD_DB)" if path is None and os.environ.get("CARGOBOARD_DB") else ""


def file_in_the_way(path):
    """The first of path's folders that exists, if it is no folder (a file: $XDG_DATA_HOME
    naming a file), else None: then no store can be made at path."""
    folder = Path(path).absolute().parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    return None if folder.is_dir() else folder


def _mend(path) -> str:
    """What to mend when a file stands where the store at path needs a folder: the variable
    that named it ($CARGOBOARD_DB, $XDG_DATA_HOME), or the name given."""
    if os.environ.get("CARGOBOARD_DB") and Path(path) == Path(os.environ["CARGOBOARD_DB"]):
        return "mend $CARGOBOARD_DB, or give --db"
    if os.environ.get("XDG_DATA_HOME") and Path(path) == standard_path():
        return "mend $XDG_DATA_HOME, or give --db"
    return "mend the name"


def missing_text(path) -> str:
    """What is said of a store that is not there: which command makes one, unless its folder
    is missing where no command makes folders (folders_may_be_made)."""
    path = Path(path)
    blocking = file_in_the_way(path)
    if blocking is not None:
        return ("no game store at %s: %s is a file, not a folder, so no command can make one "
                "there (%s)" % (path, blocking, _mend(path)))
    if not path.parent.is_dir() and not folders_may_be_made(path):
        return ("no game store at %s: its folder %s does not exist (no command makes it: make "
                "it first, or mend the name; or give --db)" % (path, path.parent))
    return ("no game store at %s (`cargoboard sync` or `cargoboard import` makes one; "
            "or give --db)" % path)


def check_not_special(path):
    """StoreError if path is a folder or a special file (a device, a pipe): never a store, for
    any command that takes --db (`serve` too, which starts without a store)."""
    path = Path(path)
    if path.is_dir():
        raise StoreError("%s is a folder, not a game store" % path)
    if path.exists() and not path.is_file():
        raise StoreError("%s is not a game store (a device or another special file, not "
                         "a regular file); not changing it" % path)


def check_writable(path):
    """StoreError unless a writing command may use path (None: the default store): an existing
    Cargoboard store it may write, in a folder it may write (SQLite keeps its journal beside
    the store), or a new file in an existing folder it may write (or, for the standard place
    only, in folders that may be made: folders_may_be_made). Creates nothing: a command
    checks this before it talks to a board."""
    make_folders = folders_may_be_made(path)
    named = _named_by(path)
    path = Path(path) if path is not None else default_path()
    if path.exists():
        open_existing(path, readonly=True)[0].close()
        why = why_not_writable(path)
        if why:
            raise StoreError("cannot write the game store %s: %s" % (path, why))
        why = why_not_writable(path.absolute().parent)
        if why:
            raise StoreError("cannot write the game store %s: its folder %s, where SQLite "
                             "keeps its journal, cannot be written (%s)"
                             % (path, path.absolute().parent, why))
        return
    blocking = file_in_the_way(path)
    if blocking is not None:
        raise StoreError("cannot make a game store at %s%s: %s is a file, not a folder (%s)"
                         % (path, named, blocking, _mend(path)))
    if not make_folders and not path.parent.is_dir():
        raise StoreError("cannot make a game store at %s%s: the folder %s does not exist "
                         "(make it first, or mend the name)"
                         % (path, named, path.parent))
    folder = path.absolute().parent
    while not folder.exists():  # the default location: its first folder that exists
        folder = folder.parent
    why = why_not_writable(folder)
    if why:
        raise StoreError("cannot make a game store at %s: the folder %s cannot be written (%s)"
                         % (path, folder, why))


# SQLite's error for a read-only connection that finds a hot journal it may not roll back.
SQLITE_READONLY_ROLLBACK = 776


def _roll_back_hot_journal(path):
    """Undo the write that a power cut or a killed program left half done in the store at
    path: SQLite keeps the pages it was changing in path-journal (a "hot journal") and puts
    them back when the store is next opened for writing; read only, it cannot, and every read
    says "attempt to write a readonly database". The first read of a connection that may
    write rolls the journal back; the store is then as before that write (nothing is lost
    that had been committed)."""
    db = sqlite3.connect(str(path))
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    finally:
        db.close()


# This machine's name as a new store's temporary file gives it ([A-Za-z0-9_-] only: the name
# splits at its dots): a leftover of this machine's is told from another's in a shared folder.
_HOST = re.sub(r"[^A-Za-z0-9_-]", "_", socket.gethostname())[:64] or "host"


def _temporary_name(path):
    """The hidden file beside path that a new store is built in: `.NAME.HOST.PID-XXXXXXXX.new`
    (this machine, this process, 8 random hex digits; SQLite's journal beside it is that and
    `-journal`)."""
    return path.absolute().parent / (".%s.%s.%d-%s.new" % (path.name, _HOST, os.getpid(),
                                                            secrets.token_hex(4)))


def _running(pid):
    """Whether a process of this id runs on this machine, any user's: a store's folder may be
    shared, and another user's process may be making a store there now."""
    return process_runs(pid, others_count=True)


# How long a temporary file of a process that runs no more is kept all the same. Making a store
# takes milliseconds, and SQLite writes the file all along: one untouched this long is no one's
# work in progress. It keeps what another machine or container of the same name (containers of
# one image share a folder and a host name; their process ids mean nothing here) is making now.
STALE_AFTER_S = 60


def remove_stale_temporaries(path):
    """Remove what programs killed while making a store at path (SIGKILL, a power cut) left
    beside it: files named exactly as _temporary_name names them (and their journals), of this
    machine's name, whose process runs no more here and which nothing has written for
    STALE_AFTER_S. A running process's (it may be making the store now), one written lately
    (a process of another machine or container of the same name), another machine's (a shared
    folder: its processes cannot be seen from here) and any other file are left alone. Every
    opening of a store to write calls it."""
    if os.name != "posix":  # (os.kill(pid, 0) looks only on POSIX)
        return
    folder = path.absolute().parent
    ours = re.compile(r"\.%s\.%s\.([1-9][0-9]{0,9})-[0-9a-f]{8}\.new(-journal)?"
                      % (re.escape(path.name), re.escape(_HOST)))
    try:
        names = os.listdir(folder)
    except OSError:
        return  # no folder yet (the default store's), or not to be read: nothing to tidy
    now = time.time()
    for name in names:
        m = ours.fullmatch(name)
        if m and not _running(int(m.group(1))):
            try:
                if now - os.stat(folder / name).st_mtime >= STALE_AFTER_S:
                    os.unlink(folder / name)
            except FileNotFoundError:
                pass  # another program tidied it meanwhile


def create_store(path):
    """Make a new store at path, whole or not at all: it is built in a temporary file beside
    it (SQLite commits each CREATE on its own: a store made in place and killed midway was
    left half made, and every later command refused it as not a store), then linked to path,
    which never replaces a file there: of two programs making the same store at once, the
    second finds the first's and uses it. The temporary file (_temporary_name) is removed on
    every way out: done, an error, Ctrl-C, SIGTERM (which ends the command as it would have,
    exit 143, once it is removed); one that a program killed outright leaves is removed by
    the next writing command (remove_stale_temporaries)."""
    tmp = _temporary_name(path)
    with sigterm_unwinds():
        try:
            db = sqlite3.connect(str(tmp))
            try:
                db.executescript(SCHEMA)
                db.execute("INSERT INTO meta VALUES('schema', ?)", (str(SCHEMA_VERSION),))
                db.commit()
            finally:
                db.close()
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass  # another program made it meanwhile: that one is the store
            except OSError:
                # a file system without hard links (FAT, some network ones): renamed, after
                # looking, which is atomic only between the look and the rename
                if not path.exists():
                    os.replace(tmp, path)
            _sync_folder(path.absolute().parent)
        finally:
            for name in (tmp, str(tmp) + "-journal"):
                try:
                    os.unlink(name)
                except FileNotFoundError:
                    pass


def _sync_folder(folder):
    """Make a new name in folder last through a power cut (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def open_existing(path, readonly):
    """(a connection to the store at path, its schema version), after checking (read
    only) that it is a store."""
    check_not_special(path)
    if not path.is_file():
        raise StoreError(missing_text(path))
    uri = "file:%s?mode=ro" % quote(str(path.resolve()))
    try:
        db = sqlite3.connect(uri, uri=True)
        try:
            try:
                schema = check_is_store(db, path)
            except sqlite3.OperationalError as e:
                if getattr(e, "sqlite_errorcode", None) != SQLITE_READONLY_ROLLBACK:
                    raise
                db.close()
                _roll_back_hot_journal(path)
                db = sqlite3.connect(uri, uri=True)
                schema = check_is_store(db, path)
        except BaseException:
            db.close()
            raise
        if readonly:
            return db, schema
        db.close()
        # autocommit: every write is in a transaction of its own making (write_transaction)
        return sqlite3.connect(str(path), isolation_level=None), schema
    except sqlite3.DatabaseError as e:
        raise store_error(path, e) from None
