"""The game store: one SQLite file of synced (and imported) games.

A stored game is its start position plus the actions played, in the action notation, as the
rules core replays them; games synced from a board also keep the board's raw log bytes, so a
re-sync can be checked byte for byte, and a log damaged on the board (marked in `damage`) is
kept whole (`cargoboard export ID --format log`). Each game is written in one transaction.

Default location: $CARGOBOARD_DB, else $XDG_DATA_HOME/cargoboard/games.sqlite
(~/.local/share/cargoboard/games.sqlite).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import re
import secrets
import socket
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from cargoboard.clikit import process_runs, shown, sigterm_unwinds, why_not_writable
from cargoboard.rules import rules_for, seat_letters
from firmware.system import logformat, logwrite

# 2: games.abandoned; 3: games.damage; 4: the indexes of INDEXES (an older store is upgraded
# when opened to write)
SCHEMA_VERSION = 4

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,          -- board id, or 'import'
    source_game INTEGER NOT NULL,  -- the board's game number (imports: a running number)
    kind TEXT NOT NULL,            -- 'cargocube', ...
    variant TEXT NOT NULL,         -- layout, e.g. 'polygon'
    seats TEXT NOT NULL,           -- e.g. 'SN' (Cephalopod: 'wb')
    start TEXT NOT NULL,           -- start position, rules notation
    actions TEXT NOT NULL,         -- actions in order, action notation, separated by one blank
    n_actions INTEGER NOT NULL,
    final TEXT NOT NULL,           -- position after the last action
    scores TEXT NOT NULL,          -- e.g. 'S=12 N=9' (Cephalopod: 'w=13 b=12')
    winners TEXT NOT NULL,         -- seat letters, '' while not over
    abandoned INTEGER NOT NULL DEFAULT 0,  -- 1: dropped before its end (abort, a new game)
    played TEXT,                   -- when the game began (board's counter or clock), free text
    stored TEXT NOT NULL,          -- when it entered this store (UTC ISO 8601)
    log BLOB,                      -- the board's raw log bytes (NULL for imports)
    damage TEXT,                   -- the log was damaged on the board: how far it replays (log_damage)
    UNIQUE(source, source_game)
);
CREATE TABLE IF NOT EXISTS rejected(
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    source_game INTEGER NOT NULL,
    reason TEXT NOT NULL,
    log BLOB,
    stored TEXT NOT NULL,
    UNIQUE(source, source_game)
);
CREATE TABLE IF NOT EXISTS transfers(  -- half-done reads, to resume
    source TEXT NOT NULL,
    source_game INTEGER NOT NULL,
    total INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY(source, source_game)
);
"""

# What sync asks of each game it fetches, found without reading every game: stored_from (a
# board's game number, under the board and its numberings begun again) and find (a game of
# this start and these actions stored from elsewhere, say an import).
INDEXES = (
    "CREATE INDEX IF NOT EXISTS games_by_number ON games(source_game)",
    "CREATE INDEX IF NOT EXISTS games_by_start ON games(kind, start, n_actions)",
)
SCHEMA += "".join(statement + ";\n" for statement in INDEXES)


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


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


class GameRecord:
    """A game: where it came from, how it started, what was played."""

    def __init__(self, kind, variant, seats, start, actions, source="import", source_game=0,
                 played=None, log=None, id=None, stored=None, abandoned=False):
        self.kind = kind
        self.variant = variant
        self.seats = seats
        self.start = start
        self.actions = list(actions)
        self.source = source
        self.source_game = source_game
        self.played = played
        self.log = log
        self.id = id
        self.stored = stored
        self.abandoned = bool(abandoned)  # dropped before its end (abort, a new game)
        self.final = None  # the position after the last action, where a replay already made it
        self.continues = None  # the store id of this game's shorter log it replaces (add_all)
        self.damage = None  # log_damage(log): the log was damaged, the actions stop there

    @property
    def rules(self):
        return rules_for(self.kind)

    def start_position(self):
        return self.rules.Position.parse(self.start)

    def positions(self):
        """The positions before the first action and after each (len = actions + 1).
        Raises the rules' error if an action is illegal."""
        return self.replay()[0]

    def replay(self):
        """(positions, actions): positions() and each action as the rules parsed it (what
        `Position.parse_action` of its text gives in the position before it), for a drawing
        of the game's steps that marks each action (diagram.step_svg), which need not parse
        it again."""
        pos = self.start_position()
        out = [pos.copy()]
        parsed = []
        for text in self.actions:
            action = pos.parse_action(text)
            pos.push(action)
            parsed.append(action)
            out.append(pos.copy())
        return out, parsed

    def final_position(self):
        pos = self.start_position()
        for text in self.actions:
            pos.push(pos.parse_action(text))
        return pos

    def __repr__(self):
        return "GameRecord(%s %s %s, %d actions, %s#%s)" % (
            self.kind, self.variant, self.seats, len(self.actions), self.source, self.source_game)


def score_text(pos) -> str:
    """'S=12 N=9' (Cephalopod 'w=13 b=12'): the scores column, and the result of exports."""
    sc = pos.scores()
    letters = seat_letters(pos)
    return " ".join("%s=%d" % (letters[s], sc[s]) for s in pos.seats)


def winners_text(pos) -> str:
    """The winners' seat letters ('N', 'SN'), '' while the game is not over."""
    letters = seat_letters(pos)
    return "".join(letters[s] for s in pos.winners()) if pos.is_over() else ""


def result_text(winners, abandoned) -> str:
    """How a stored game ended, for listings: 'won by N', 'abandoned' (dropped before its end:
    abort, a new game) or 'not over' (still open when it was stored)."""
    if winners:
        return "won by " + winners
    return "abandoned" if abandoned else "not over"


def when_text(played, stored) -> str:
    """When a game was played, for people (the archive, a replay): the time of the board's
    clock when it had one (`2026-11-04 10:20 UTC`); else it is not known, and when the game
    came into the store says the most (`not known; stored 2026-12-02 12:09 UTC`). A game begun
    before the board knew the time has its game number as `played` (`board game 3`), nothing of
    when (the source says it); an import's other free text is kept before the stored time.
    The archive's date filters take the same day (Store.list)."""
    at = played_at(played)
    if at:
        return at
    known = "not known" if not played or played.startswith("board game ") else played
    return "%s; stored %s" % (known, _utc(stored)) if stored else known


def played_now() -> str:
    """`played` for a game begun now on this machine (`cargoboard play`): the PC's clock, UTC,
    as a board's clock gives it (`2026-12-04T01:04:26Z`), so that `games` and the archive say
    when it was played rather than `-` (not known)."""
    import datetime as dt
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0, tzinfo=None)
    return now.isoformat() + "Z"


def played_at(played):
    """The time a game was played, `2026-11-04 10:20 UTC`, if `played` is one (a board's clock,
    ISO 8601; an import's may be): else None."""
    if played and len(played) >= 10 and played[:4].isdigit() and played[4:5] == "-":
        return _utc(played)
    return None


def _utc(t):
    return t[:16].replace("T", " ") + (" UTC" if len(t) >= 16 else "")


def numbering_source(board, k) -> str:
    """The source of a board's k-th numbering: `board` (k = 1), `board#2`, `board#3`, ..."""
    return board if k == 1 else "%s#%d" % (board, k)


def source_text(source, source_game) -> str:
    """Where a game came from: `board sim-5b6a, its game 3`, or `import #3`."""
    if source == "import":
        return "import #%s" % source_game
    return "board %s, its game %s" % (source, source_game)


# The archive's filters (Store.list): what a game's result may be asked as, and the numbers of
# seats a game may be asked by (`games --players N`, the web archive's `players=N`): no game
# seats more than 9 (a seat is named by one letter or digit).
RESULTS = ("over", "open", "abandoned")
SEATS = (1, 9)


def is_result_filter(text) -> bool:
    """Whether text is a result Store.list takes: one of RESULTS, or a seat, its letter or
    digit («Формула 99»'s civilisations, 8-player Cargocube): won by it."""
    return text in RESULTS or (len(text) == 1 and text.isascii() and text.isalnum())


def is_date_filter(text) -> bool:
    """Whether text is a date Store.list's since/until take: YYYY-MM-DD, a real day.
    (fromisoformat alone also takes 20261202 and 2026-W49, which the store's text comparison
    would misread.)"""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return False
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


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


def _check_is_store(db, path) -> int:
    """The schema version of the open SQLite file; StoreError unless it is a Cargoboard store
    (its schema version in meta, a games table) this program knows; a damaged file raises
    sqlite3.DatabaseError."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "meta" not in tables or "games" not in tables:
        what = ("it has tables %s" % ", ".join(sorted(tables))) if tables else (
            "it is empty: remove it, or give another file, for a new store to be made there")
        raise StoreError("%s is not a Cargoboard game store (%s); not changing it"
                         % (path, what))
    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
    if row is None:
        raise StoreError("%s is not a Cargoboard game store (no schema version); not "
                         "changing it" % path)
    if not str(row[0]).isdecimal() or not 1 <= int(row[0]) <= SCHEMA_VERSION:
        raise StoreError("%s is a game store of schema version %s, which this cargoboard "
                         "(version %d) does not know; not changing it"
                         % (path, row[0], SCHEMA_VERSION))
    return int(row[0])


def log_abandoned(log) -> int:
    """1 if a board's raw game log ends with its abandon record, else 0 (how a game stored
    before the store kept it is known to be abandoned)."""
    if log is None:
        return 0
    log = bytes(log)
    return int(logwrite.closed_tail(log[-4:], len(log)) == logwrite.ABANDON)


def _records_after(raw, bad):
    """(actions standing, records) read past a damaged record that begins at byte bad, or (0,
    0): the record after it is found by trying each place it may begin (a record is at most 14
    bytes) with the chain taken up from the CRC byte just before that place, which damage to
    the record's payload leaves as it was written. The place whose records read on furthest
    wins: an estimate, as the damaged record itself may have been anything."""
    best = (0, 0)
    for start in range(bad + 2, min(len(raw), bad + 15)):
        rd = logformat.Reader(raw, start, raw[start - 1])
        for _ in rd:
            pass
        if rd.count > best[1]:
            # the damaged record: an action if its tag (if still one) says so
            v = logformat.TAG_VALUE[raw[bad]]
            whole = v <= logformat.MAX_PAYLOAD and v + 2 == start - bad and v > 0
            best = (rd.actions - rd.undos + int(whole), rd.count)
    return best


def log_damage(log):
    """None for a whole log (or none); for a log damaged on the board's flash (a record that
    fails its check, a torn tail), how far it replays and what the records after the damage
    hold, e.g. 'log replays to action 51 of ~150 (bad checksum at byte 520 (record 52): 612
    byte(s) dropped)'. The store keeps the whole log (`export N --format log`)."""
    if log is None:
        return None
    raw = bytes(log)
    header, hl, _ = logformat.decode_header(raw)
    if header is None:
        return None  # no game at all: such a log is kept aside, never stored
    rd = logformat.Reader(raw, hl, header.seed())
    for _ in rd:
        pass
    if rd.problem is None:
        return None
    standing = rd.actions - rd.undos
    more, _ = _records_after(raw, rd.good)
    of = " of ~%d" % (standing + more) if more > 0 else ""
    return "log replays to action %d%s (%s)" % (standing, of, rd.problem)


@contextlib.contextmanager
def _transaction(db, path):
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


def _upgrade(db, path):
    """Bring the store on db to this schema version, if it is older, in one transaction: a
    program killed during it leaves the store as it was (SQLite's journal puts it back), and
    Ctrl-C rolls it back and is a KeyboardInterrupt (not "user-defined function raised
    exception", which is what SQLite makes of one raised in log_damage)."""
    interrupted = []

    def minding_ctrl_c(function):
        def call(log):
            try:
                return function(log)
            except KeyboardInterrupt:
                interrupted.append(True)
                raise
        return call

    db.create_function("log_abandoned", 1, minding_ctrl_c(log_abandoned), deterministic=True)
    db.create_function("log_damage", 1, minding_ctrl_c(log_damage), deterministic=True)
    try:
        with _transaction(db, path):
            # read again under the write lock: another program may have upgraded it meanwhile
            schema = _check_is_store(db, path)
            if schema >= SCHEMA_VERSION:
                return
            if schema < 2:
                db.execute("ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0")
                db.execute("UPDATE games SET abandoned = log_abandoned(log)")
            if schema < 3:
                db.execute("ALTER TABLE games ADD COLUMN damage TEXT")
                db.execute("UPDATE games SET damage = log_damage(log) WHERE log IS NOT NULL")
            if schema < 4:
                for statement in INDEXES:
                    db.execute(statement)
            db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
    except sqlite3.OperationalError:
        if interrupted:
            raise KeyboardInterrupt from None
        raise


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
        Store._open_existing(path, readonly=True)[0].close()
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


def _create(path):
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


class Store:
    """The store at path (default: default_path()).

    Writable (the default): an existing file must be a Cargoboard store (a SQLite file that
    is not one, or an empty file, is refused and left as it is); a missing one is created,
    in an existing folder (only the standard place gets its folders made:
    folders_may_be_made). readonly=True opens an existing store for reading only: nothing is created or changed, and a missing
    file, a damaged one or one that is not a store is a StoreError."""

    def __init__(self, path=None, readonly=False):
        self.path = Path(path) if path else default_path()
        self.readonly = readonly
        self._abandoned = "abandoned"  # the column, or how to tell it in an older store
        self._damage = "damage"
        if readonly:
            self.db, schema = self._open_existing(self.path, readonly=True)
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
                _create(self.path)
            except sqlite3.DatabaseError as e:
                raise store_error(self.path, e) from None
        self.db, schema = self._open_existing(self.path, readonly=False)
        try:
            if schema < SCHEMA_VERSION:
                _upgrade(self.db, self.path)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise StoreError("%s could not be upgraded: %s" % (self.path, e)) from None
        except BaseException:
            self.db.close()
            raise

    @staticmethod
    def _open_existing(path, readonly):
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
                    schema = _check_is_store(db, path)
                except sqlite3.OperationalError as e:
                    if getattr(e, "sqlite_errorcode", None) != SQLITE_READONLY_ROLLBACK:
                        raise
                    db.close()
                    _roll_back_hot_journal(path)
                    db = sqlite3.connect(uri, uri=True)
                    schema = _check_is_store(db, path)
            except BaseException:
                db.close()
                raise
            if readonly:
                return db, schema
            db.close()
            # autocommit: every write is in a transaction of its own making (_transaction)
            return sqlite3.connect(str(path), isolation_level=None), schema
        except sqlite3.DatabaseError as e:
            raise store_error(path, e) from None

    def close(self):
        self.db.close()

    def transaction(self):
        """A write transaction (_transaction): the writes inside are stored all or none, and
        what is read inside still holds when they are (sync checks and stores a batch so)."""
        return _transaction(self.db, self.path)

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
