"""`cargoboard demo`: a whole game on the virtual board, synced and exported.

1. The firmware runs as its own process under the MicroPython unix port with the simulated HAL
   and a fresh flash image. A modelled hand moves the pieces of a seeded game through the
   physical world; the players mostly play what the hint engine suggests (otherwise a random
   legal action, so seeds differ); the player presses buttons only when the board asks. The LED
   grid is drawn in the terminal as the game goes.
2. The board's game log is synced over the pseudo-terminal (the binary protocol, pyserial)
   into a fresh SQLite store, exactly as `cargoboard sync` does with a real board.
3. The stored game is exported as an HTML replay and an SVG of the final position.
Everything goes into --out (default ./demo-out, or the next free ./demo-out-N: an earlier
demo's files are never deleted or overwritten, nor anyone's store); nothing is left running.
"""

import itertools
import sys
import time
from pathlib import Path

from shared_rules.cargocube import rules as cc
from cargoboard.games.cargocube.scriptgen import game_script
from cargoboard.clikit import CommandError, UsageError, write_file
from cargoboard.store import score_text


EXPANSION_NAMES = {"pyramid": "«Пирамида»", "bastion": "«Бастион»",
                   "both": "«Пирамида» and «Бастион»"}


def _hinted(share):
    def pick(pos, legal, rng):
        from shared_rules.cargocube.engine import best_action
        if rng.random() < share:
            return best_action(pos)
        return legal[rng.randrange(len(legal))]
    return pick


class _Screen:
    """Draws the LED grid: in place on a terminal, every `every` actions otherwise."""

    def __init__(self, session, every, tty):
        self.session = session
        self.every = every
        self.tty = tty
        self.actions = 0
        self.lines = 0

    def action_done(self, text, last=False):
        from cargoboard.sim.interactive import render
        self.actions += 1
        if self.tty:
            grid = render(self.session) + "\n" + text
            if self.lines:
                sys.stdout.write("\x1b[%dA\x1b[J" % self.lines)
            sys.stdout.write(grid + "\n")
            sys.stdout.flush()
            self.lines = grid.count("\n") + 1
        elif last or self.actions % self.every == 0:
            print(render(self.session))
            print(text)


def play(script, flash, out=print, screen_every=20, tty=False, pace=0.0):
    """Run the script on a board with the given flash image; returns (status, session)
    with the board still running (the caller closes it)."""
    from cargoboard.sim.script import Session, ScriptError, strip_comment
    from cargoboard.sim.runner import FirmwareError

    events = []
    from cargoboard.sim import BOARD_HEAP
    # the Pico's heap as this 64-bit port needs it, as `cargoboard sim` gives a user's board
    # (the tests' 192k margin put the demo's sync at the edge of the port's fragmentation)
    session = Session(out=lambda line: events.append(line), flash=flash, heapsize=BOARD_HEAP)
    screen = _Screen(session, screen_every, tty)
    total = 0
    pending = ""
    lines = script.splitlines()
    try:
        for no, raw in enumerate(lines, 1):
            if raw.startswith("# ") and ". " in raw:
                pending = raw[2:]  # "12. S e4n"
            text = strip_comment(raw).strip()
            if not text:
                continue
            used = session.execute(text)
            if text.startswith("resolve"):
                total += used  # presses the board asked for (not `end`, which is a move)
                screen.action_done("%-28s presses the board asked for: %d" % (pending, total),
                                   last=no >= len(lines) - 2)
                if pace:
                    time.sleep(pace)
    except (ScriptError, FirmwareError) as e:
        out("demo: the board lost the game at line %d (%s): %s" % (no, text, e))
        return 1, session, total
    return 0, session, total


def sync_and_export(session, out_dir, final_over, out=print):
    """Sync the board's log into out_dir/games.sqlite, export the game; returns paths."""
    from cargoboard.link import Link
    from cargoboard.store import Store
    from cargoboard.sync import sync
    from cargoboard.export.cli import render

    session.ser.close()  # the script's console connection; the sync opens the pty afresh
    runner = session.runner
    db_path = out_dir / "games.sqlite"
    with runner.serving(), Store(db_path) as store, Link(runner.port) as link:
        if not final_over:
            # a game cut short is still open on the board: the players leave it (its log is
            # closed as abandoned), so that the sync takes it
            link.text("abort")
        t0 = time.monotonic()
        res = sync(link, store)
        took = time.monotonic() - t0
        out("synced over %s: %s in %.2f s (%d log bytes)"
            % (runner.port, res.summary(), took, res.bytes))
        if not res.stored:
            raise CommandError("the sync stored no game")
        rec = store.get(res.stored[-1][1])
    html = out_dir / ("game-%d.html" % rec.id)
    svg = out_dir / ("game-%d-final.svg" % rec.id)
    positions = rec.positions()
    for path, fmt in ((html, "html"), (svg, "svg")):
        write_file(path, render(rec, fmt, positions=positions))  # never over an existing file
    return rec, db_path, html, svg


DEFAULT_OUT = "demo-out"


def _taken(out_dir, keep_script):
    """The first file or folder of those a demo writes that is already in out_dir, or None
    (the store is fresh, so its game is number 1)."""
    names = ["games.sqlite", "flash", "game-1.html", "game-1-final.svg"]
    if keep_script:
        names.append("demo-script.txt")
    for name in names:
        path = out_dir / name
        if path.exists() or path.is_symlink():
            return path
    return None


def choose_out(out, keep_script):
    """The folder the demo writes into. It never deletes or overwrites anything there (a
    store or a flash image may hold a player's games): a --out that holds any of the demo's
    files is refused; without --out the first of ./demo-out, ./demo-out-2, ... that holds
    none of them is taken."""
    if out is not None:
        if not out.strip():
            raise UsageError("--out wants a folder name, not an empty one (it took the "
                             "current folder)")
        out_dir = Path(out).resolve()
        if out_dir.exists() and not out_dir.is_dir():
            raise CommandError("--out %s is a file, not a folder" % out_dir)
        if not out_dir.exists() and not out_dir.parent.is_dir():
            # a mistyped path must not grow a tree of folders (as sim's and deploy's --flash)
            raise CommandError("cannot make --out %s: the folder %s does not exist"
                               % (out_dir, out_dir.parent))
        taken = _taken(out_dir, keep_script)
        if taken:
            raise CommandError("%s already exists: the demo never touches an existing store, "
                               "flash or export; give --out a folder without them" % taken)
        return out_dir
    for n in itertools.count(1):
        out_dir = Path(DEFAULT_OUT if n == 1 else "%s-%d" % (DEFAULT_OUT, n)).resolve()
        if (out_dir.is_dir() or not out_dir.exists()) and not _taken(out_dir, keep_script):
            return out_dir


def check_options(args):
    """UsageError (exit 2) for a number out of range, before anything is made: --screen-every
    0 divided by zero after the flash was made, --actions 0 played no game at all."""
    if args.actions < 1:
        raise UsageError("--actions wants 1 or more, not %d" % args.actions)
    if args.screen_every < 1:
        raise UsageError("--screen-every wants 1 or more (draw every N actions), not %d"
                         % args.screen_every)
    if not 0 <= args.hint_share <= 1:  # nan too
        raise UsageError("--hint-share wants a share from 0 to 1, not %s" % args.hint_share)
    if not 0 <= args.pace < float("inf"):
        raise UsageError("--pace wants seconds, 0 or more, not %s" % args.pace)


def cmd_demo(args):
    check_options(args)
    out_dir = choose_out(args.out, args.keep_script)
    out_dir.mkdir(exist_ok=True)
    flash_dir = out_dir / "flash"
    flash_dir.mkdir()
    print("writing into %s" % out_dir)
    script, final = game_script(seed=args.seed, players=args.players, actions=args.actions,
                                check_every=0, pick=_hinted(args.hint_share),
                                cards=args.expansion or False, teleport=args.teleport)
    if args.keep_script:
        write_file(out_dir / "demo-script.txt", script)
    what = "".join((" with " + (EXPANSION_NAMES[args.expansion] if args.expansion else ""),
                    " and" if args.expansion and args.teleport else "",
                    " the walking teleport" if args.teleport else "")) \
        if args.expansion or args.teleport else ""
    print("Cargoboard demo: a %d-player game%s (seed %d) on the virtual board: the firmware runs "
          "under the MicroPython unix port," % (args.players, what, args.seed))
    print("a modelled hand moves the pieces; the players mostly follow the hint engine.")
    tty = sys.stdout.isatty() and not args.no_screen
    t0 = time.monotonic()
    status, session, presses = play(script, str(flash_dir / "flash.img"), tty=tty,
                                    screen_every=args.screen_every,
                                    pace=args.pace if tty else 0.0)
    try:
        if status:
            return status
        ends = sum(1 for a in final.history() if a[0] == cc.END)
        # A game cut short may end with its last moves in doubt (revision A's board waits for
        # the moves after a look-alike, docs/board-cargocube.md "The option wait=K"): the
        # board shows one reading, the truth is another, and the log keeps what it shows.
        shown = session.position()
        readings = session.readings() if shown != final.notation() else []
        if shown != final.notation() and final.notation() not in readings:
            print("demo FAILED: the board does not hold the true final position")
            return 1
        print("played %d actions (%d of them `end`, a button by the rules) in %.1f s; the board "
              "asked for %d button press(es); %s%s"
              % (final.ply(), ends, time.monotonic() - t0, presses,
                 "it reached the true final position" if not readings else
                 "it holds its last moves in doubt (%d readings, the true final position one of "
                 "them; it shows another, which its log keeps)" % len(readings),
                 "; game over" if final.is_over() else ""))
        print("scores: " + score_text(final))
        rec, db_path, html, svg = sync_and_export(session, out_dir, final.is_over())
        if rec.final_position().notation() != shown:
            print("demo FAILED: the synced game does not end in the position the board showed")
            return 1
    finally:
        session.close()
    print("store:       %s (game %d; `cargoboard games --db %s`)" % (db_path, rec.id, db_path))
    print("HTML replay: %s" % html)
    print("final SVG:   %s" % svg)
    print("demo ok")
    return 0


def add_parser(sub):
    p = sub.add_parser("demo", help="play, sync and export a game on the virtual board",
                       description=__doc__.strip().splitlines()[0],
                       epilog="examples:\n  cargoboard demo\n  cargoboard demo --players 3 --seed 4 --out /tmp/demo\n"
                              "  cargoboard demo --expansion both --teleport --out /tmp/demo-both")
    p.add_argument("--players", type=int, choices=(2, 3, 4, 8), default=2,
                   help="how many play: 2, 3, 4 or 8 (default 2)")
    p.add_argument("--expansion", choices=tuple(EXPANSION_NAMES),
                   help="play with the cards of «Пирамида», «Бастион» or both, in their default "
                        "places")
    p.add_argument("--teleport", action="store_true", help="play with the walking teleport")
    p.add_argument("--actions", type=int, default=400,
                   help="stop after this many actions (1 or more) if the game is not over "
                        "(default 400)")
    p.add_argument("--seed", type=int, default=0,
                   help="the players' choices follow this seed: the same seed, the same game "
                        "(default 0)")
    p.add_argument("--hint-share", type=float, default=0.8,
                   help="share of actions the players take from the hint engine, 0 to 1 "
                        "(default 0.8)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="the folder for the store, the flash and the exports, made if "
                        "missing; one that holds a store, a flash or an export of the demo's "
                        "names is refused, other files are left alone (default: ./demo-out, "
                        "or ./demo-out-2, ... when that holds an earlier demo's files); "
                        "nothing in it is deleted or overwritten")
    p.add_argument("--screen-every", type=int, default=20,
                   help="when not on a terminal, draw the LEDs every N actions (default 20)")
    p.add_argument("--pace", type=float, default=0.05,
                   help="on a terminal, pause this many seconds after each action (default 0.05)")
    p.add_argument("--no-screen", action="store_true", help="do not redraw the LEDs in place")
    p.add_argument("--keep-script", action="store_true", help="keep the generated sim script in --out")
    p.set_defaults(func=cmd_demo)
