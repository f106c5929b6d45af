"""The game store's schema (SCHEMA, version SCHEMA_VERSION), the check that a file is a store
of a version this program knows (check_is_store), and the upgrade of an older one (upgrade),
with what it computes from a board's raw log (log_abandoned, log_damage: also how a store
too old for their columns is read)."""

from __future__ import annotations

import sqlite3

from cargoboard.store_sqlite import StoreError, write_transaction
from firmware.system import logdoubt, logformat, logwrite

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


def check_is_store(db, path) -> int:
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
    bytes; in a log of format version 2 a doubt record at most DOUBT_MAX + DOUBT_OVER) with the
    chain taken up from the CRC byte just before that place, which damage to the record's
    payload leaves as it was written. The place whose records read on furthest wins: an
    estimate, as the damaged record itself may have been anything."""
    best = (0, 0)
    longest = 14 if raw[4] < 2 else logdoubt.DOUBT_MAX + logdoubt.DOUBT_OVER
    for start in range(bad + 2, min(len(raw), bad + longest + 1)):
        rd = logformat.Reader(raw, start, raw[start - 1], raw[4])
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
    rd = logformat.Reader(raw, hl, header.seed(), header.version)
    for _ in rd:
        pass
    if rd.problem is None:
        return None
    standing = rd.actions - rd.undos
    more, _ = _records_after(raw, rd.good)
    of = " of ~%d" % (standing + more) if more > 0 else ""
    return "log replays to action %d%s (%s)" % (standing, of, rd.problem)


def upgrade(db, path):
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
        with write_transaction(db, path):
            # read again under the write lock: another program may have upgraded it meanwhile
            schema = check_is_store(db, path)
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
