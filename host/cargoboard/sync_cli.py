"""`cargoboard ports`, `cargoboard sync`, `cargoboard games`."""

from __future__ import annotations

import argparse
import sys

from cargoboard.clikit import CommandError, terminal_text, terminated_as_interrupt
from cargoboard.link import NO_BOARD, Link, LinkError, candidate_ports, find_port
from cargoboard.store import (SEATS, Store, StoreError, StoreInUse, add_db_option, check_writable,
                              is_date_filter, is_result_filter, played_at, result_text)


def _add_port(p):
    p.add_argument("--port", metavar="PATH",
                   help="the board's serial port (default: the single board there is, on USB or a "
                        "running virtual board: cargoboard ports)")


def cmd_ports(args):
    found = candidate_ports()
    if not found:
        raise CommandError(NO_BOARD)  # find_port's words (sync, deploy) but for --port, not ours
    for dev, desc in found:
        print("%s\t%s" % (dev, desc))
    return 0


def cmd_sync(args):
    from cargoboard.sync import SyncResult, sync
    port = find_port(args.port)
    check_writable(args.db)  # before the board: nothing made yet
    res = SyncResult()
    store = None
    try:
        with terminated_as_interrupt(), Link(port) as link:
            link.hello()  # a board that does not answer leaves no store behind
            with Store(args.db) as store:
                progress = True if args.progress else None
                sync(link, store, progress=progress, say=print, res=res)
    except (LinkError, StoreError) as e:
        if store is None:
            raise  # before the sync began (no answer, another protocol, no store): nothing done
        # Broken off midway (the board gone, the link cut, the disk full): the one line says
        # what was stored (each batch whole, before the board deleted any of it), and what to do
        n = len(res.stored) + len(res.continued)
        if isinstance(e, StoreInUse) and not n:
            raise  # (its line says it all: nothing stored yet, try again)
        again = "" if e.tells_next else ": run sync again (it resumes)"
        raise CommandError("%s; %s%s" % (e, _stored_text(res, n, "no game stored, all stay "
                                                                 "on the board"), again)) from e
    except KeyboardInterrupt:
        # Ctrl-C (or SIGTERM: Terminated): each batch is stored in one transaction before the board deletes it, so
        # what was stored is whole and the rest is still on the board (the next sync takes it)
        n = len(res.stored) + len(res.continued)
        print("interrupted: %s" % _stored_text(res, n), file=sys.stderr)
        raise
    print("%s: %s (store: %s)" % (port, res.summary(), store.path))
    return 1 if res.rejected or res.conflicts or res.damaged else 0


def _stored_text(res, n, nothing="0 games stored, the rest stay on the board"):
    """What a sync broken off had done: `2 games stored, the rest stay on the board`, or, when
    the board has none left for a later sync to fetch (each game it listed is in the store:
    the run was broken off as it confirmed them, or the board had none), `2 games stored, none
    left to fetch`. nothing: the words when none was stored and some are left."""
    stored = "%d game%s stored" % (n, "" if n == 1 else "s")
    if res.left_on_board() == 0:
        return stored + ", none left to fetch"
    return stored + ", the rest stay on the board" if n else nothing


def cmd_games(args):
    filters = {"kind": args.game, "players": args.players, "result": args.result,
               "since": args.since, "until": args.until}
    with Store(args.db, readonly=True) as store:
        rows = store.list(**filters)
        if not rows:
            if any(v is not None for v in filters.values()):
                n = store.count()
                print("no games in %s match (%d game%s in all)" % (
                    store.path, n, "" if n == 1 else "s"))
                return 0
            print("no games in %s (cargoboard sync fetches them from the board)" % store.path)
            return 0
        # played: when the board's clock (or an import) says the game began, `-` if not known
        table = [("id", "stored", "played", "game", "layout", "seats", "actions", "scores",
                  "result")]
        for (gid, source, source_game, kind, variant, seats, n, scores, winners, played,
             stored, abandoned, damage) in rows:
            result = result_text(winners, abandoned)
            if damage:
                result += "; damaged: %s; `cargoboard export %d --format log` writes the " \
                          "raw log" % (damage, gid)
            at = played_at(played)
            table.append((str(gid), stored.replace("T", " ")[:19],
                          terminal_text(at[:16]) if at else "-") + tuple(
                terminal_text(t) for t in (kind, variant, seats)) + (str(n), scores, result))
        # columns as wide as their longest entry (a layout such as polygon+both+teleport)
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]) - 1)]
        right = table[0].index("actions")  # (a count: right-aligned)
        for row in table:
            print(" ".join((cell.rjust(w) if i == right else cell.ljust(w))
                           for i, (cell, w) in enumerate(zip(row, widths))) + " " + row[-1])
    return 0


def _game_kind(text):
    """--game's value: a game's identifier (the archive's `kind`)."""
    from cargoboard.rules import kinds
    if text not in kinds():
        raise argparse.ArgumentTypeError("invalid choice: %r (choose from %s)"
                                         % (text, ", ".join(kinds())))
    return text


def _players(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not SEATS[0] <= n <= SEATS[1]:
        raise argparse.ArgumentTypeError("a number of seats %d..%d, not %r" % (SEATS + (text,)))
    return n


def _result(text):
    """--result's value, as the archive's `result` filter takes it."""
    if is_result_filter(text):
        return text
    raise argparse.ArgumentTypeError("over, open, abandoned or a seat (its letter or digit), "
                                     "not %r" % text)


def _date(text):
    if is_date_filter(text):
        return text
    raise argparse.ArgumentTypeError("a date YYYY-MM-DD, not %r" % text)


def add_parser(sub):
    from cargoboard.rules import kinds as game_kinds
    p = sub.add_parser("ports", help="list connected boards and running virtual boards",
                       description="List the serial ports that look like a Cargoboard (a "
                                   "Raspberry Pi Pico running MicroPython, on USB) and the "
                                   "running virtual boards (cargoboard sim --pty PATH), one "
                                   "a line: the port, then which it is. sync, deploy and "
                                   "serve take the single one when no --port is given.",
                       epilog="example:\n  cargoboard ports")
    p.set_defaults(func=cmd_ports)

    p = sub.add_parser("sync", help="fetch the board's games into the store",
                       description="Fetch every game the store lacks from the board, check and "
                                   "replay it, store it, then let the board delete it. "
                                   "Safe to interrupt and to run again. Exit status 0; 1 "
                                   "if a game was kept aside, damaged or in conflict, or on "
                                   "an error; 130 on Ctrl-C, 143 on SIGTERM (the games "
                                   "stored so far stay stored, the rest on the board).",
                       epilog="examples:\n  cargoboard sync\n"
                              "  cargoboard sync --port /dev/ttyACM0 --db games.sqlite\n"
                              "  cargoboard demo --keep-script --out /tmp/demo-sync   # a "
                              "game, and its script\n"
                              "  cargoboard sim --script /tmp/demo-sync/demo-script.txt "
                              "--pty /tmp/board &\n"
                              "  cargoboard sync   # the sim, once it says \"serving the "
                              "virtual board on /tmp/board\"")
    _add_port(p)
    add_db_option(p)
    p.add_argument("--progress", action="store_true", help="show the progress bar even when not on a terminal")
    p.set_defaults(func=cmd_sync)

    p = sub.add_parser("games", help="list the stored games",
                       description="List the games in the store: id, when it was stored, "
                                   "game, layout, seats, length, scores, result. A game whose "
                                   "log was damaged on the board is marked: how far it "
                                   "replays, and that `export GAME --format log` writes "
                                   "its whole raw log. The filters are the archive's "
                                   "(cargoboard serve, docs/web.md); given together, a game "
                                   "must pass them all.",
                       epilog="examples:\n  cargoboard games --db games.sqlite\n"
                              "  cargoboard games --game kubitva --result abandoned\n"
                              "  cargoboard games --players 4 --since 2026-12-01")
    add_db_option(p)
    p.add_argument("--game", metavar="KIND", type=_game_kind,
                   help="only games of this game: %s" % ", ".join(game_kinds()))
    p.add_argument("--players", metavar="N", type=_players, help="only games of N seats")
    p.add_argument("--result", metavar="R", type=_result,
                   help="only games that are over (won), open (neither over nor abandoned), "
                        "abandoned, or won by a seat (its letter or digit: S, w, 3, ...)")
    p.add_argument("--since", metavar="DATE", type=_date,
                   help="only games played (or, the board not knowing the time, stored) on "
                        "DATE (YYYY-MM-DD, UTC) or later")
    p.add_argument("--until", metavar="DATE", type=_date,
                   help="only games played (or stored) on DATE or before")
    p.set_defaults(func=cmd_games)
