"""The firmware's heap over whole games on the virtual board, on the unix port and on the
emulated Pico: what is in use, what is free and the largest free block, at the worst point.

    .venv/bin/python bench/heap.py [--target unix|pico|both] [--actions N] [--before DIR]
        [--players N] [--expansion pyramid|bastion|both] [--teleport]
        [--layout-only] [--link-only] [--switch] [--rev-b] [--rev a|b]

Each row plays a seeded Cargocube game (cargoboard.games.cargocube.scriptgen) on the real
firmware with its game log: under `micropython -X heapsize=192k` (the budget the project
tests against; 64-bit objects, so more than the Pico needs) or the stock RP2040 image under
rp2040js (the real thing's 32-bit objects; its heap is what MicroPython leaves of the 264 KB
SRAM, ~240 KB, and it boots into its boot game, 2 players). After the boot (a run of its
own), after `new` and after every action the board is asked `mem` (serial): bytes in use
and free after a collection, and `max`, the largest buffer that still fits in one piece
(fragmentation: a heap in pieces fails a few-KB allocation long before it is full). The
worst point is the sample with the most in use (and, apart, the smallest `max`). `+link`
rows load the host link first (one HELLO frame), as a PC following the board does. With
--players, --expansion or --teleport the table holds that one game (seed 5; with cards: base
cards unless --expansion), without and with the host link, instead of GAMES.

This replaces a bisection over `-X heapsize` for the smallest heap a game plays in: that
search assumed a game that runs in N KB also runs in every heap above N, which is false (the
allocator's layout changes with the heap size, so a game could fail at 190 KiB and pass at
186 KiB), and its answer moved by 4 KB steps. Printed, never asserted.

--switch prints only issue 13's figure on each target: bytes in use after `new` of a 2-player
base game on a fresh board and on a board that set up an 8-player game with both expansions
and the teleport before it (the expansions' code must not stay).

--link-only prints the host link's cost on each target: bytes in use booted, with the link
loaded (one HELLO) and after a ONCE request (what the board keeps of it until the next frame,
docs/protocol.md); with --before DIR, the link's cost against the firmware in DIR.

Last, issue 14's figure on each target: bytes in use at boot and after `new LAYOUT_GAME`
against the same before the per-game layout (c2dcabe), as recorded in BEFORE_LAYOUT, or
measured afresh with --before DIR: c2dcabe's firmware checked out in DIR (`git worktree add
/tmp/c2dcabe c2dcabe`) run by this checkout's virtual board and emulator.

On the unix port every firmware runs with the board's paths (main.py and the packages in a
folder of their own, `firmware/system/app.mpy` as on the Pico): the port interns the path of
every module it loads, so run from the checkout and the build cache the figures grew with
their paths (~1.1 KB at boot with the cache in /root/.cache; docs/firmware.md, "The layout's
cost"). Figures taken before that (main at e7ca7cf and earlier) are ~0.3-1.1 KB higher.
"""

import contextlib
import subprocess
import tempfile

import argparse
import os
import re
import sys
import time
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host")]

from cargoboard.games.cargocube.scriptgen import game_script  # noqa: E402
from cargoboard.sim import REVB_HEAP  # noqa: E402
from cargoboard.sim.script import Session  # noqa: E402

MEM = re.compile(r"ok alloc=(\d+) free=(\d+)(?: max=(\d+))?")  # older firmware: no max

# (name, game_script keywords, host link loaded first)
GAMES = [
    ("4p base cards", dict(seed=5, players=4, cards=True), False),
    ("4p base cards +link", dict(seed=5, players=4, cards=True), True),
    ("4p both + teleport", dict(seed=5, players=4, cards="both", teleport=True), False),
    ("4p both + teleport +link", dict(seed=5, players=4, cards="both", teleport=True), True),
    ("8p base", dict(seed=6, players=8, cards=False), False),
    ("8p both + teleport", dict(seed=6, players=8, cards="both", teleport=True), False),
    ("8p both + teleport +link", dict(seed=6, players=8, cards="both", teleport=True), True),
]


def one_game(players, expansion, teleport):
    """GAMES' rows for one game (the options --players, --expansion, --teleport): without and
    with the host link."""
    kw = dict(seed=5, players=players, cards=expansion or True, teleport=teleport)
    name = "%dp %s%s" % (players, expansion or "base cards", " + teleport" if teleport else "")
    return [(name, kw, False), (name + " +link", kw, True)]


def board(target, out=lambda line: None, rev="A", calibrate=False):
    """A virtual board on the target. On the unix port with the board's paths: the port interns
    the path of every module it loads (and main.py's, and its search path's), so run from the
    checkout and the build cache the heap in use grows with their paths (~1.1 KB at boot with
    the cache in /root/.cache, a few hundred bytes from one checkout's path to another's);
    from a folder laid out as the board's filesystem every firmware is measured alike
    (cargoboard.sim.runner.UnixRunner, board_paths)."""
    kw = {"board_paths": True} if target == "unix" else {}
    if rev == "B":  # as wired (the emulated Pico: revision B's analog front end)
        kw.update(revision="B", calibrate=calibrate)
        if target == "unix":
            kw["heapsize"] = REVB_HEAP
    return Session(out=out, target=target, **kw)


def mem(session):
    """(in use, free, largest free block) in bytes, after a collection; then 300 ms with the
    pieces still: on the emulated Pico a move made right after `mem` (its bisection holds the
    frame loop for a while) was misread (docs/firmware.md, "Heap figures")."""
    _, final = session.query("mem")
    m = MEM.match(final)
    if not m:
        raise SystemExit("bench/heap.py: unexpected reply to mem: %r" % final)
    session.wait(300)
    return tuple(int(x) if x is not None else -1 for x in m.groups())


def load_link(session):
    """The host link loaded as at a PC's first frame (Session.load_link)."""
    session.load_link()


def walk(target, kw, link, actions, rev="A"):
    """Play one game; returns dict of samples and the count of firmware errors. Revision B's
    board is calibrated first, as at its bring-up (Session)."""
    script, final = game_script(check_every=0, actions=actions, **kw)
    sink = []
    session = board(target, sink.append, rev=rev, calibrate=True)
    try:
        if link:
            load_link(session)
        samples = []
        setup = None
        for line in script.splitlines():
            session.execute(line)
            if line.startswith("new-game "):
                setup = mem(session)
            elif line.startswith("resolve "):
                samples.append(mem(session))
        errors = sum(1 for e in session.events if e.startswith("evt error"))
        log_lost = any(e.startswith("evt log stopped") for e in session.events)
        logged = any(e.startswith("evt log begin") for e in session.events)
    finally:
        session.close()
    every = [setup] + samples
    return dict(setup=setup, peak=max(every), tightest=min(every, key=lambda s: s[2]),
                ply=final.ply(), errors=errors, logged=logged and not log_lost)


def boot_mem(target, rev="A"):
    """(in use, free, largest free block) once the board has booted, in a run of its own: the
    games are played on boards not asked before (a `mem` loads its module and interns its
    names, and the biggest game sets up with a few hundred bytes to spare on the unix port)."""
    session = board(target, rev=rev)
    try:
        return mem(session)
    finally:
        session.close()


def setup_cost(words, target="unix", rev="A"):
    """(bytes in use at boot, bytes in use after `new WORDS`) on a board booted with no game
    (the unix port; the Pico boots into its boot game, which the new game replaces)."""
    session = board(target, rev=rev)
    try:
        before = mem(session)[0]
        _, final = session.query("new " + words)
        if not final.startswith("ok"):
            raise SystemExit("bench/heap.py: new %s: %s" % (words, final))
        return before, mem(session)[0]
    finally:
        session.close()


def _past_frame(session):
    """A reply frame's bytes end no line of the console: the next reply line would take them
    (and `mem`'s would not be read); `occ`'s takes them."""
    session.ser.write(b"occ\n")
    session.ser.flush()
    session.runner.wait_serial_input(2.0)
    session.step(50)
    session.replies.clear()


def link_cost(target, before_dir=None):
    """Bytes in use on a board booted, with the host link loaded (one HELLO, a PC's first
    frame) and, this firmware only, after a ONCE `status` frame (what the board keeps of a
    ONCE request until the next frame, docs/protocol.md); with before_dir, the first two for
    the firmware checked out there too (run as --before does)."""
    from firmware.drivers import frames as F
    from firmware.system import link as L

    def measure(once):
        session = board(target)
        try:
            out = [mem(session)[0]]
            load_link(session)
            _past_frame(session)
            out.append(mem(session)[0])
            if once:
                session.ser.write(F.encode(L.TEXT | L.ONCE, 2, b"status"))
                session.ser.flush()
                session.runner.wait_serial_input(2.0)
                session.step(20)
                _past_frame(session)
                out.append(mem(session)[0])
            return out
        finally:
            session.close()

    now = measure(True)
    line = ("The host link on %s, bytes in use: booted %d, link loaded %d (%+d), after a ONCE "
            "`status` %d (%+d)" % (target, now[0], now[1], now[1] - now[0], now[2],
                                   now[2] - now[1]))
    if before_dir:
        with firmware_of(before_dir):
            before = measure(False)
        line += "; the firmware in %s: booted %d, link loaded %d (%+d): the link %+d B" % (
            before_dir, before[0], before[1], before[1] - before[0],
            (now[1] - now[0]) - (before[1] - before[0]))
    print(line)


# Issue 14's budget: the boot and the 4-player game with cards set up may use at most 2 KB more
# than before the per-game layout (c2dcabe, the parent of the layout's merge), measured as
# below: c2dcabe's firmware run by this checkout's virtual board and emulator (--before DIR).
LAYOUT_GAME = "cargocube polygon SWNE cards=base"
BEFORE_LAYOUT = {"unix": (69632, 146080),   # bytes in use at boot, after `new LAYOUT_GAME`
                 "pico": (97088, 97184)}    # (the Pico's boot: its 2-player boot game set up)


@contextlib.contextmanager
def firmware_of(root):
    """This checkout's virtual board (unix port and emulated Pico) running the firmware of the
    checkout in root instead of its own: the unix port runs root's device build and main.py,
    the Pico's flash gets root's own deploy build (its deploy.stage, in a process of its own).
    The runners look up the firmware's folder by module globals: swapped here for the
    measurement and put back."""
    import cargoboard.build as build
    import cargoboard.sim.runner as runner
    import cargoboard.sim.pico.runner as pico
    root = Path(root).resolve()
    if not (root / "firmware" / "main.py").is_file():
        raise SystemExit("bench/heap.py: --before %s: no firmware/main.py there" % root)
    saved = build.REPO_ROOT, runner.REPO_ROOT, pico.firmware_files
    with tempfile.TemporaryDirectory(prefix="heap-before-") as stage_dir:
        code = ("import sys; sys.path[:0] = [%r, %r]\n"
                "from cargoboard.deploy import stage\n"
                "for board_path, _, _ in stage(%r, 'rp2', %%r): print(board_path)\n"
                % (str(root), str(root / "host"), stage_dir))

        def files(rev="A"):
            out = subprocess.run([sys.executable, "-c", code % rev], capture_output=True,
                                 text=True, check=True).stdout.split()
            return [(bp, (Path(stage_dir) / bp).read_bytes()) for bp in out]

        build.REPO_ROOT = runner.REPO_ROOT = root
        pico.firmware_files = files
        try:
            yield
        finally:
            build.REPO_ROOT, runner.REPO_ROOT, pico.firmware_files = saved


def layout_cost(target, before_dir=None):
    """Issue 14's line for a target: this firmware's (boot, after `new LAYOUT_GAME`) against
    c2dcabe's (BEFORE_LAYOUT, or measured in before_dir)."""
    boot, game = setup_cost(LAYOUT_GAME, target)
    if before_dir:
        with firmware_of(before_dir):
            before = setup_cost(LAYOUT_GAME, target)
        source = "the firmware in %s" % before_dir
    else:
        before = BEFORE_LAYOUT[target]
        source = "c2dcabe, recorded"
    # Against c2dcabe this is the layout's cost plus that of all the firmware since (issue 14's
    # budget is the layout's own, measured when it landed: docs/firmware.md)
    print("This firmware against the one before the layout on %s (issue 14: the layout itself "
          "< 2048 B; this includes all since), bytes in use: at "
          "boot%s %d (%+d), after `new %s` %d (%+d); before (%s): %d, %d" % (
              target, " (its boot game set up)" if target == "pico" else "", boot,
              boot - before[0], LAYOUT_GAME, game, game - before[1], source, before[0],
              before[1]))


def revb_cost():
    """Revision B's figures on the emulated Pico: (boot, after `new LAYOUT_GAME`) bytes in use
    with `cargoboard deploy --rev b`'s files on its flash (the boot reads their /board_rev), the
    chip wired as revision B (its sensors on the emulator's analog front end: an empty board)."""
    boot, game = setup_cost(LAYOUT_GAME, "pico", rev="B")
    print("Revision B on pico (deploy --rev b), bytes in use: at boot (its boot game set up) %d, "
          "after `new %s` %d" % (boot, LAYOUT_GAME, game))


SWITCH_BIG = "cargocube polygon 12345678 cards=both teleport=1"
SWITCH_BASE = "cargocube polygon SN"


def switch_cost(target):
    """Issue 13's "load expansion code only for games that use it" on one boot: bytes in use
    after `new SWITCH_BASE` on a board that had no other game set up (the Pico's boot game is
    the same 2-player base game) and after it on a board that played SWITCH_BIG first: what
    the expansions' and the 8-player variant's code left in the heap."""
    def new(session, words):
        _, final = session.query("new " + words)
        if not final.startswith("ok"):
            raise SystemExit("bench/heap.py: new %s: %s" % (words, final))
        return mem(session)[0]

    session = board(target)
    try:
        fresh = new(session, SWITCH_BASE)
    finally:
        session.close()
    session = board(target)
    try:
        big = new(session, SWITCH_BIG)
        after = new(session, SWITCH_BASE)
    finally:
        session.close()
    print("A base game after the expansions on %s, bytes in use after `new %s`: on a fresh "
          "board %d, after `new %s` (%d) %d (%+d)" % (
              target, SWITCH_BASE, fresh, SWITCH_BIG, big, after, after - fresh))


def kb(n):
    return "%.1f" % (n / 1024)


def table(target, actions, games=GAMES, rev="A"):
    print("--- %s%s ---" % (
        ("unix: micropython -X heapsize=%s, 64-bit" % ("192k" if rev == "A" else REVB_HEAP))
        if target == "unix" else
        "pico: the stock RPI_PICO v1.26.1 image on rp2040js, 32-bit, its whole heap (~240 KB)",
        "" if rev == "A" else "; revision B (deploy --rev b; the field model's sums, %s)"
        % ("G frames" if target == "unix" else "converted by the chip's ADC")))
    print("KB; in use / free / largest free block, after a collection (serial `mem`)")
    print("%-22s %5s %-20s %-20s %-8s %s" % ("game", "ply", "set up", "worst (most in use)",
                                             "min max", "log, errors, time"))
    boot = boot_mem(target, rev)
    print("%-22s %5s %-20s" % ("boot" if target == "unix" else "boot (its 2p game set up)",
                               "", "/".join(kb(x) for x in boot)))
    for name, kw, link in games:
        t0 = time.time()
        try:
            r = walk(target, kw, link, actions, rev)
        except Exception as e:  # a board that cannot set the game up is a figure too
            print("%-22s failed: %s" % (name, str(e).splitlines()[0] if str(e) else repr(e)))
            continue
        print("%-22s %5d %-20s %-20s %-8s %s, %d, %.0f s" % (
            name, r["ply"], "/".join(kb(x) for x in r["setup"]),
            "/".join(kb(x) for x in r["peak"]), kb(r["tightest"][2]),
            "kept" if r["logged"] else "LOST", r["errors"], time.time() - t0))
        print("%-22s       bytes: set up %s, worst %s" % (
            "", "/".join(map(str, r["setup"])),
            "/".join(map(str, r["peak"]))))
    print()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", choices=("unix", "pico", "both"), default="unix")
    ap.add_argument("--actions", type=int, default=60,
                    help="actions per game (default 60; each is one `mem` sample)")
    ap.add_argument("--before", metavar="DIR",
                    help="measure issue 14's 'before' figures from c2dcabe's firmware checked "
                         "out in DIR instead of taking the recorded ones")
    ap.add_argument("--layout-only", action="store_true",
                    help="print only issue 14's figures (no whole games)")
    ap.add_argument("--players", type=int, choices=(2, 3, 4, 8),
                    help="play only this game (4 players unless told), without and with the "
                         "host link")
    ap.add_argument("--expansion", choices=("pyramid", "bastion", "both"),
                    help="that game with the expansions' cards in their default places")
    ap.add_argument("--teleport", action="store_true", help="that game with the teleport")
    ap.add_argument("--link-only", action="store_true",
                    help="print only the host link's cost: bytes in use booted, with the link "
                         "loaded (one HELLO) and after a ONCE request (what the board keeps "
                         "of it); with --before, the link's against that firmware's")
    ap.add_argument("--switch", action="store_true",
                    help="print only the bytes in use after `new %s` on a fresh board and "
                         "after an 8-player game with both expansions (`new %s`) on the "
                         "same boot" % (SWITCH_BASE, SWITCH_BIG))
    ap.add_argument("--rev-b", action="store_true",
                    help="also the emulated Pico booting revision B's deploy build (`cargoboard "
                         "deploy --rev b`: its HAL, App and step tracker) on a chip wired as "
                         "revision B, its sensors on the emulator's analog front end (an empty "
                         "board): bytes in use at boot and after `new %s`" % LAYOUT_GAME)
    ap.add_argument("--rev", choices=("a", "b"), default="a",
                    help="the board revision the games are played on (default a); b: revision "
                         "B's build, calibrated at its bring-up, reading the field model's sums "
                         "(on the unix port at %s; on the emulated Pico converted by its ADC "
                         "through the emulator's analog front end)" % REVB_HEAP)
    a = ap.parse_args(argv)
    games = GAMES
    if a.players or a.expansion or a.teleport:
        games = one_game(a.players or 4, a.expansion, a.teleport)
    if a.rev_b:
        revb_cost()
    targets = ("unix", "pico") if a.target == "both" else (a.target,)
    for target in targets:
        if target == "pico":
            from cargoboard.sim.pico.images import PicoUnavailable, find_images
            try:
                find_images()
            except PicoUnavailable as e:
                print("bench/heap.py: pico skipped: %s" % e)
                continue
        if a.layout_only:
            layout_cost(target, a.before)
            continue
        if a.link_only:
            link_cost(target, a.before)
            continue
        if a.switch:
            switch_cost(target)
            continue
        table(target, a.actions, games, a.rev.upper())
        if games is not GAMES or a.rev == "b":
            continue
        if target == "unix":
            print("What setting a game up adds to the live heap (unix port; `mem` before and "
                  "after `new`, no game before):")
            for words in ("cargocube polygon SN", "cargocube polygon SWNE cards=both teleport=1",
                          "cephalopod 5x5"):
                before, after = setup_cost(words)
                print("  %-46s %7.1f KB" % (words, (after - before) / 1024))
        layout_cost(target, a.before)
        print()
    if a.layout_only or a.switch or a.link_only or a.rev == "b":
        return
    print("Goal (issue 11): >= 120 KB free at the worst point of a 4-player game with cards, "
          "log and host link, on the Pico (the pico table's '4p base cards +link' row).")


if __name__ == "__main__":
    import benchcli  # (bench/: one line, not a traceback, for a part this machine lacks)
    sys.exit(benchcli.run(main, None))
