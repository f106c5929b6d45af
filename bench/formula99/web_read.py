"""How long `cargoboard serve`'s first read of a long «Формула 99» game holds the board up
(printed, never asserted).

    .venv/bin/python bench/formula99/web_read.py [PLIES [unix|pico ...]]    (default 400, both)

The web view (cargoboard.web.boards.Follower) reads a board's game once when it connects:
`status`, `pos`, `state`, the move list, the candidates if the board asks. The move list of a
game longer than a page comes from the game's log (LIST, READ: the board reads its flash) when
the board writes one, else in pages of HISTORY_PAGE (`history FROM COUNT`); «Формула 99»'s board
answers `history` by taking the game back to FROM and playing it on again (console.py: no list
of the whole game in its heap): each page costs about a replay of the whole game. A seeded 4-player level-3
game of PLIES actions with real cards (scriptgen, as bench/formula99/formula99_board.py's walk)
is played on the unix port's virtual board with its flash; its game log is then put on a board
booted from that flash (the unix port, or the emulated RP2040 with this checkout's deploy build,
which resumes the game from the log at boot), and the Follower's first read is timed over a
real pty and link: each request's wall time and, on the emulated chip, its emulated time (the
chip's clock, 125 MHz: what the real board would take, docs/virtual-board.md); then a seat's
command (`pos`, which changes nothing) and the read that follows it (the moves from the last
one known on).
"""

import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests"),
                os.path.join(ROOT, "bench")]

import boardcost  # noqa: E402
import benchcli  # noqa: E402


def played_flash(tmp, plies):
    """A unix-port flash image holding a seeded 4-player level-3 game of `plies` actions (its
    log still open: the game goes on); (image, the actions the board took)."""
    from cargoboard.games.formula99.scriptgen import game_script
    from cargoboard.sim.script import Session
    image = os.path.join(tmp, "unix.img")
    script, final = game_script(12, players=4, level=3, plies=plies, digital=False)
    s = Session(out=lambda line: None, flash=image)
    try:
        for line in script.splitlines():
            if line and not line.startswith("#"):
                s.execute(line)
        actions = int(s.query("state")[1].split("actions=")[1].split()[0])
    finally:
        s.close()
    return image, actions


def board(target, tmp, unix_image):
    """A runner of `target` booted from a flash holding unix_image's game logs."""
    from cargoboard.sim.pico import fsimage
    if target == "unix":
        from cargoboard.sim.runner import UnixRunner
        return UnixRunner(flash=unix_image).start()
    from cargoboard.sim.pico.runner import PicoRunner, firmware_files
    logs = [("/games/" + name, fsimage.read_file(unix_image, "/games/" + name))
            for name in fsimage.listdir(unix_image, "/games")]
    image = os.path.join(tmp, "pico.img")
    fsimage.write_files(image, firmware_files() + logs)
    return PicoRunner(flash=image, boot_from_flash=True).start()


def first_read(target, tmp, unix_image, actions):
    from cargoboard.link import Link
    from cargoboard.web.boards import Follower
    t0 = time.monotonic()
    r = board(target, tmp, unix_image)
    print("  %s: booted (resumed the %d-action game from its log) in %.1f s wall"
          % (target, actions, time.monotonic() - t0), flush=True)
    try:
        with r.serving(), Link(r.port, timeout=60.0, retries=1) as link:
            asked = []
            read = link.text

            def clock():  # the board's ms: the emulated chip's; the unix port's frames
                return r.emu_ns / 1e6 if hasattr(r, "emu_ns") else r.t

            def timed(command, **kwargs):
                w, e = time.monotonic(), clock()
                try:
                    return read(command, **kwargs)
                finally:
                    asked.append((command, time.monotonic() - w, clock() - e))
            link.text = timed
            list_games, read_log = link.games, link.read

            def timed_call(call, name):
                def wrapped(*args):
                    w, e = time.monotonic(), clock()
                    try:
                        return call(*args)
                    finally:
                        asked.append((name % args if "%" in name else name,
                                      time.monotonic() - w, clock() - e))
                return wrapped
            link.games = timed_call(list_games, "LIST")
            link.read = timed_call(read_log, "READ %d %d")
            f = Follower("bench", r.port)
            f._publish = lambda **changes: f._state.update(changes)
            w, e = time.monotonic(), clock()
            f._refresh(link)
            wall, emulated = time.monotonic() - w, clock() - e
            moves = f.snapshot()["moves"]
            first = list(asked)
            del asked[:]
            held = read("mem")  # the heap right after: what the read left loaded (e.g. the
            #                      link's log module, which the board drops 3 s after a host's
            #                      last frame)
            # a seat's command (one that changes nothing), then the game read again
            w, e = time.monotonic(), clock()
            f._command(link, "1", "pos")
            again = time.monotonic() - w, clock() - e
    finally:
        r.stop()
    print("  %s: first read %.1f s wall, %.1f s of the board's time; %d moves read "
          "(%s)" % (target, wall, emulated / 1000, len(moves),
                    "all" if len(moves) == actions else "not all: %d expected" % actions))
    for command, cw, ce in first:
        print("    %-16s %7.2f s wall %7.2f s board" % (command, cw, ce / 1000))
    print("  %s: the heap just after: %s" % (target, held))
    print("  %s: a seat's command and the read after it %.1f s wall, %.1f s of the board's "
          "time" % (target, again[0], again[1] / 1000))
    for command, cw, ce in asked:
        print("    %-16s %7.2f s wall %7.2f s board" % (command, cw, ce / 1000))


def main(argv):
    plies = benchcli.number(argv[0], "PLIES") if argv else 400
    targets = argv[1:] or ["unix", "pico"]
    for t in targets:
        if t not in ("unix", "pico"):
            raise benchcli.UsageError("a target is unix or pico, not %r" % t)
    with tempfile.TemporaryDirectory(prefix="bench-web-read-") as tmp:
        image, actions = played_flash(tmp, plies)
        print("«Формула 99», 4 players, level 3, real cards (seed 12), %d actions: the web "
              "view's first read (cargoboard.web.boards.Follower._refresh)" % actions)
        for target in targets:
            if target == "pico" and boardcost.pico_missing():
                continue
            first_read(target, tmp, image, actions)


if __name__ == "__main__":
    sys.exit(benchcli.run(main, __doc__, sys.argv[1:]))
