"""`cargoboard export`, `cargoboard import` and `cargoboard replay`: stored games as files and
pictures, files back into the store, and a game stepped through in the terminal.
Formats: docs/export.md."""

import os
import sys
from pathlib import Path

from cargoboard import store
from cargoboard.export import gamefile
from cargoboard.clikit import (MAX_INPUT_FILE, CommandError, UsageError, check_new_file,
                               is_stream, read_at_most, terminal_text, write_file)

FORMATS = ("json", "text", "svg", "html", "log")  # log: the board's raw log, as stored
SUFFIXES = {".json": "json", ".txt": "text", ".svg": "svg", ".html": "html", ".htm": "html",
            ".log": "log"}


def open_store(path, create=False):
    """The store at path (default: the user's). Export and replay only read: the store is
    opened read only and must exist. create: import, which writes; a file that is not a
    store is refused, never added to."""
    return store.Store(path, readonly=not create)


def replayed(rec):
    """rec.replay(): (positions, the rules' actions). A game that does not replay (its rules
    refuse its start or an action, or this program has no rules for its kind) is a
    CommandError: the export's and the terminal replay's one line, serve's 422 (web.app). Any
    other exception is a bug and goes on."""
    from cargoboard.rules import UnknownGame
    try:
        return rec.replay()
    except UnknownGame as e:
        raise CommandError("game %s does not replay: %s" % (rec.id, e)) from None
    except rec.rules.RulesError as e:
        raise CommandError("game %s does not replay: %s" % (rec.id, e)) from None


def render(rec, fmt, at=None, positions=None):
    """The export of rec in fmt as text; at picks the position of an SVG (default the last)."""
    actions = None  # the rules' actions, where they come with the positions
    if positions is None:
        positions, actions = replayed(rec)
    last = len(positions) - 1
    if at is not None and fmt != "svg":
        raise UsageError("--at applies to --format svg only")
    if fmt == "json":
        return gamefile.to_json(rec, positions)
    if fmt == "text":
        return gamefile.to_text(rec, positions)
    if fmt == "html":  # shown as the SVG (game_html takes gamefile.shown's view)
        from cargoboard.export.html import game_html
        return game_html(rec, positions, actions)
    if fmt == "svg":  # the game as it is shown (hidden cards at the end)
        from cargoboard.export import diagram
        rec, positions, _ = gamefile.shown(rec, positions)
        draw = diagram.for_kind(rec.kind)
        n = last if at is None else at
        _step_in_game("--at", n, rec, last)
        abandoned = rec.abandoned and n == last
        return diagram.step_svg(draw, positions, rec.actions, n, abandoned=rec.abandoned,
                                title="%s game %s (%s, %s), after %d of %d actions%s%s" % (
                                    diagram.title(rec.kind), rec.id, rec.variant, rec.seats, n,
                                    last, "; " + diagram.ABANDONED if abandoned else "",
                                    "; damaged: " + rec.damage if rec.damage else ""))
    raise CommandError("unknown format %r (choose from %s)" % (fmt, ", ".join(FORMATS)))


def _not_negative(option, n):
    """A step number an option names (--at, --from) below 0: out of range for any game, said
    before the store is read. A usage error (exit 2), as a step past the game's end is
    (_step_in_game): both are an option out of range (README, exit status)."""
    if n is not None and n < 0:
        raise UsageError("%s must be 0 or more, not %d (0 = the start)" % (option, n))


def _step_in_game(option, n, rec, last):
    """A step number an option names past the end of game rec (of `last` actions): a usage
    error (exit 2) naming the game's range, as one below 0 is (it was exit 1)."""
    if not 0 <= n <= last:
        raise UsageError("game %s has %d action%s: %s must be 0..%d"
                         % (rec.id, last, "" if last == 1 else "s", option, last))


def check_output(name, force=False, db=None):
    """CommandError unless -o FILE may be written, said in words before anything is read (not
    "[Errno 21] Is a directory"): a folder, or a file in a folder that does not exist; a file
    that exists unless force (an export never replaces a file unasked); and, even with force,
    the store being read (db, None: the default store), by any name or link to it, nor the
    files SQLite keeps beside it (its -journal, -wal, -shm: a file there would be taken for an
    unfinished write of the store's)."""
    path = Path(name)
    check_new_file(name, replace=True)
    source = Path(db) if db else store.default_path()
    beside = {os.path.realpath(str(source)) + end: end for end in ("-journal", "-wal", "-shm")}
    if os.path.realpath(name) in beside:
        raise CommandError("cannot write %s: SQLite keeps the game store's own %s file under "
                           "that name; give another file" % (name, beside[os.path.realpath(name)]))
    if not path.exists():
        return
    if source.exists() and os.path.samefile(path, source):
        raise CommandError("cannot write %s: it is the game store being read; give another "
                           "file" % name)
    if not force and not is_stream(name):  # (writing /dev/null is what was asked)
        raise CommandError("cannot write %s: it exists; give another file, or --force to "
                           "replace it" % name)


def cmd_export(args):
    _not_negative("--at", args.at)
    if args.force and args.output in (None, "-"):
        raise UsageError("--force applies to -o FILE only (it lets FILE be replaced)")
    if args.output and args.output != "-":
        check_output(args.output, args.force, args.db)
    fmt = args.format
    if fmt is None:
        fmt = SUFFIXES.get(Path(args.output).suffix.lower(), "json") if args.output else "json"
    with open_store(args.db) as st:
        rec = st.get(args.game)
    if fmt == "log":
        text = raw_log(rec, args.at, to_terminal=not args.output or args.output == "-")
    else:
        text = render(rec, fmt, args.at)
    if args.output and args.output != "-":
        write_file(args.output, text, args.force,
                   exists="it exists; give another file, or --force to replace it")
        print("wrote game %s as %s to %s" % (rec.id, fmt, args.output), file=sys.stderr)
    elif isinstance(text, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(text)
    else:
        sys.stdout.write(text)
    return 0


def raw_log(rec, at=None, to_terminal=False):
    """`--format log`: the board's log of rec, byte for byte as the store keeps it (the whole
    log, a damaged record and what follows it too; its format: docs/log-format.md).
    to_terminal: standard output is meant, refused when it is a terminal (binary)."""
    if at is not None:
        raise UsageError("--at applies to --format svg only")
    if rec.log is None:
        raise CommandError("game %s has no board log: it was imported (only `cargoboard sync` "
                           "stores a board's log)" % rec.id)
    if to_terminal and sys.stdout.isatty():
        raise CommandError("game %s's log is binary: give -o FILE, or redirect standard "
                           "output" % rec.id)
    return bytes(rec.log)


def read_input(name):
    """(text, name to tell it by) of the game file name, or of standard input for "-"."""
    if name == "-":
        name = "<stdin>"
        data = read_at_most(getattr(sys.stdin, "buffer", sys.stdin))
    else:
        try:
            with open(name, "rb") as f:
                data = read_at_most(f)
        except FileNotFoundError:
            raise CommandError("no such file: %s" % name) from None
        except IsADirectoryError:
            raise CommandError("%s is a directory, not a game file" % name) from None
    if data is None:
        raise CommandError("%s is longer than %d MiB: no game file (some KB) is that long"
                           % (name, MAX_INPUT_FILE >> 20))
    if isinstance(data, str):
        return data, name
    from firmware.system.logformat import MAGIC  # (a board log begins so)
    if data.startswith(MAGIC):
        raise CommandError("%s is a board's raw game log (`export --format log`), which cannot "
                           "be imported: import reads a game's JSON or text export (.json, "
                           ".txt); `cargoboard sync` brings a board's logs in" % name)
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError:
        raise CommandError("%s is not UTF-8 text (a game file is JSON or the text record)"
                           % name) from None


def import_game(st, text, name, fmt=None):
    """(id, new) after importing the game in text into st: new is False when the same game
    (same kind, start and actions, from any source) was already stored."""
    return store_game(st, gamefile.read_game(text, name, fmt))


def store_game(st, rec):
    """(id, new) after storing the GameRecord rec unless st holds the same game already: in
    one write transaction, so two imports of one file at once store it once."""
    with st.transaction():
        same = st.find(rec.kind, rec.start, rec.actions)
        if same is not None:
            return same, False
        return st.add(rec), True


def cmd_import(args):
    text, name = read_input(args.file)
    game = gamefile.read_game(text, name, args.format)  # a bad file leaves no store behind
    with open_store(args.db, create=True) as st:
        gid, new = store_game(st, game)
        rec = st.get(gid)
    what = "%s %s %s, %d actions" % (rec.kind, terminal_text(rec.variant),
                                     terminal_text(rec.seats), len(rec.actions))
    name = terminal_text(name)
    if new:
        print("imported %s as game %d (%s)" % (name, gid, what))
    else:
        print("%s: already stored as game %d (%s); not imported again" % (name, gid, what))
    return 0


def cmd_replay(args):
    from cargoboard.export import replay
    _not_negative("--from", args.start)
    with open_store(args.db) as st:
        rec = st.get(args.game)
    # worked out once: --from is checked against them and replay.run shows them (a game that
    # hides cards as its shown view, which has as many steps)
    positions = replayed(rec)[0]
    _step_in_game("--from", args.start, rec, len(positions) - 1)
    interactive = not args.all and sys.stdin.isatty()
    if args.color == "auto":
        color = sys.stdout.isatty() and os.environ.get("NO_COLOR") is None
    else:
        color = args.color == "always"
    return replay.run(rec, sys.stdout, sys.stdin, interactive=interactive, color=color,
                      start=args.start, clear=interactive and sys.stdout.isatty(),
                      positions=positions)


def add_parser(sub):
    p = sub.add_parser(
        "export", help="write a stored game as JSON, text, an SVG diagram or an HTML replay",
        description="Write stored game GAME (its id in the store) as JSON (header, every action, "
                    "the position and scores after each), the text record (tag pairs, one "
                    "action per line), an SVG diagram of one position, a self-contained "
                    "HTML page that replays it, or (log) the board's raw game log as synced, "
                    "byte for byte, all of a damaged one too (docs/log-format.md). "
                    "Formats: docs/export.md.",
        epilog="examples:\n"
               "  cargoboard export 3 > game3.json\n"
               "  cargoboard export 3 --format text\n"
               "  cargoboard export 3 --format svg --at 12 -o pos12.svg\n"
               "  cargoboard export 3 -o game3.html   # format from the suffix\n"
               "  cargoboard export 3 --format log -o game3.log   # the board's raw log")
    p.add_argument("game", metavar="GAME", help="the game's id in the store")
    p.add_argument("--format", "-f", choices=FORMATS, default=None,
                   help="default: from the -o suffix (.json .txt .svg .html .log), else json")
    p.add_argument("--at", type=int, metavar="N", default=None,
                   help="svg: the position after N actions (0 = the start; default the last)")
    p.add_argument("--output", "-o", metavar="FILE", default=None,
                   help="write to FILE instead of standard output (an existing FILE is refused "
                        "unless --force; the store being read never is written over)")
    p.add_argument("--force", action="store_true",
                   help="with -o: replace FILE if it exists")
    store.add_db_option(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "import", help="read a game file (JSON or text) into the store, checked by the rules",
        description="Read a game written by `cargoboard export` (the JSON or the text form, "
                    "told apart by the suffix .json or .txt, else by the first character) "
                    "and store it with source 'import', "
                    "after replaying it through the rules core: every action must be legal and "
                    "every position, score and result the file states must match. A game "
                    "already in the store (same kind, start and actions) is not stored twice: "
                    "the command names it and exits 0.",
        epilog="examples:\n"
               "  cargoboard import game3.json\n"
               "  cargoboard import game.txt --db /tmp/games.sqlite\n"
               "  cargoboard export 3 --db a.sqlite | cargoboard import - --db b.sqlite")
    p.add_argument("file", metavar="FILE", help="the game file, or - for standard input")
    p.add_argument("--format", "-f", choices=("json", "text"), default=None,
                   help="the file's form (default: by the suffix .json/.txt, else JSON if it "
                        "starts with '{', else text)")
    store.add_db_option(p)
    p.set_defaults(func=cmd_import)

    p = sub.add_parser(
        "replay", help="step through a stored game in the terminal",
        description="Show stored game GAME step by step: the board as text, the action played "
                    "and the scores. In a terminal: Enter or n next, p back, a number jumps to "
                    "that step, f first, l last, q quit. With --all, or when standard input "
                    "is not a terminal, every step is printed in turn.",
        epilog="examples:\n"
               "  cargoboard replay 3\n"
               "  cargoboard replay 3 --all --from 40 | less -R")
    p.add_argument("game", metavar="GAME", help="the game's id in the store")
    p.add_argument("--all", action="store_true", help="print every step, do not wait for keys")
    p.add_argument("--from", dest="start", type=int, metavar="N", default=0,
                   help="begin at the position after N actions (default 0, the start)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the board with ANSI codes (default: when writing to a terminal)")
    store.add_db_option(p)
    p.set_defaults(func=cmd_replay)
