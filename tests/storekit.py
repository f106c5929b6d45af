"""Damage done to a real SQLite game store, for the tests of what the host tools say of it."""

import sqlite3


def damage_games_table(db):
    """Overwrite the first page of db's games table (its b-tree's root) with garbage: the file
    still opens as a Cargoboard store (its schema and meta are intact), and only reading the
    games fails, SQLite's "database disk image is malformed"."""
    con = sqlite3.connect(db)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name='games'").fetchone()[0]
    con.close()
    with open(db, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(bytes((i * 37 + 11) & 255 for i in range(page_size)))
