"""`cargoboard serve`'s replay page and export.html of a long game: how long a request takes,
made afresh and kept (web/app.py ReplayPages: one page a game, for both), over HTTP from a real
server.

    .venv/bin/python bench/web_replay.py [--game cargocube|kubitva] [--actions N] [--loads N]
                                         [--no-keep]

A seeded 2-player Cargocube game with cards of N actions (778 by default, the store audit's
long game), or with --game kubitva the КУБитва game `cargoboard play kubitva --engine SN`
plays (its engine on both sides, 486 actions to its end; at most N), is stored in a new store; `serve`'s app (WebServer) answers GET /games/1 LOADS
times: the first request makes the page, the others get the kept one; then GET
/games/1/export.html LOADS times (the same page kept, without the archive's links). Then the
game is changed (its last action taken back, stored over it as a sync stores a board's changed
log: `continues`) and export.html asked first (made anew), then the replay (kept). Last, a new
server's first request is export.html. --no-keep keeps no page (every request makes it, as
before the pages were kept). Last, the CPU time of the replay through the rules and the page
(game_html), LOADS times, each as a new process's first page (the drawing module's caches
of what it drew emptied first), and LOADS times again with them kept, as `serve` keeps them from
page to page (with how many drawings each page made again: what the caches did not hold), and
the memory those caches hold after a page.
Printed, never asserted.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from exportgames import _pick_cargocube  # noqa: E402
from cargoboard.store import GameRecord, Store  # noqa: E402
from cargoboard.web import app  # noqa: E402
from cargoboard.web.server import WebServer  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from shared_rules.kubitva import engine as kb_engine, rules as kb  # noqa: E402


def _lasts(pos, depth):
    """Whether the game goes on for depth more actions along some of (a sample of) the legal
    ones: a random game of Cargocube soon leaves no activation and ends (at 150-250
    actions), so the long game looks ahead."""
    if pos.is_over():
        return False
    if depth == 0:
        return True
    legal = pos.legal_actions()
    random.Random(depth).shuffle(legal)
    for a in legal[:6]:
        after = pos.copy()
        after.push(a)
        if _lasts(after, depth - 1):
            return True
    return False


def long_game(actions, seed=1):
    """A GameRecord of a seeded 2-player game with cards, up to `actions` legal actions long:
    each a random pick (exportgames') unless it would end the game soon or score 30."""
    rng = random.Random(seed)
    pos = cc.start_position(2, "polygon", True, False)
    start = pos.notation()
    played = []
    while len(played) < actions and not pos.is_over():
        legal = pos.legal_actions()
        pick = _pick_cargocube(pos, legal, rng)
        others = list(legal)
        rng.shuffle(others)
        for a in [pick] + others:
            after = pos.copy()
            after.push(a)
            if max(after.scores()) < 30 and _lasts(after, 6):
                pick = a
                break
        played.append(pos.format_action(pick))
        pos.push(pick)
    return GameRecord("cargocube", "polygon", "SN", start, played, source="bench-long",
                      source_game=1, played="2026-12-01T20:00:00")


def engine_game(actions):
    """A GameRecord of the КУБитва game its engine plays against itself on the board edition
    (`cargoboard play kubitva --engine SN`: 486 actions to its end, web43's long game), at most
    `actions` long."""
    pos = kb.Position.parse(kb.BOARD)
    played = []
    while len(played) < actions and not pos.is_over():
        a = kb_engine.best_action(pos)
        played.append(pos.format_action(a))
        pos.push(a)
    return GameRecord("kubitva", "board", "SN", kb.BOARD, played, source="bench-long",
                      source_game=1, played="2026-12-01T20:00:00")


def forget_drawn(kind):
    """Empty the drawing module's caches of what it drew (КУБитва's lands, cubes, buildings)."""
    from cargoboard.export import diagram
    for f in list(vars(diagram.for_kind(kind)).values()):
        if hasattr(f, "cache_clear"):
            f.cache_clear()


def drawings_missed(kind):
    """How many times the drawing module's caches have not had what was asked (drawn afresh)."""
    from cargoboard.export import diagram
    return sum(f.cache_info().misses for f in vars(diagram.for_kind(kind)).values()
               if hasattr(f, "cache_info"))


def make_page(rec):
    """The replay through the rules and the page (game_html)."""
    from cargoboard.export.html import game_html
    if hasattr(rec, "replay"):
        positions, actions = rec.replay()
        game_html(rec, positions, actions)
    else:
        game_html(rec, rec.positions())


def get_ms(url):
    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as r:
        size = len(r.read())
    return 1000 * (time.perf_counter() - t), size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", choices=("cargocube", "kubitva"), default="cargocube")
    ap.add_argument("--actions", type=int, default=778)
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--no-keep", action="store_true", help="keep no page: every request "
                    "makes it (the way before the pages were kept)")
    args = ap.parse_args()
    if args.loads < 1 or args.actions < 1:
        ap.error("--loads and --actions must be 1 or more")
    if args.no_keep:
        app.REPLAY_CACHE_BYTES = 0
    rec = long_game(args.actions) if args.game == "cargocube" else engine_game(args.actions)
    db = os.path.join(tempfile.mkdtemp(prefix="cb-bench-replay-"), "games.sqlite")
    with Store(db) as st:
        gid = st.add(rec)
    print("A %d-action %s in a new store; GET /games/%d, %s"
          % (len(rec.actions), "Cargocube game (2 players, cards)" if args.game == "cargocube"
             else "КУБитва game (its engine on both sides)", gid, "no page kept" if args.no_keep else
             "pages kept (at most %.0f MB)" % (app.REPLAY_CACHE_BYTES / 2 ** 20)))
    with WebServer(db=db, discover=False) as ws:
        url = "%s/games/%d" % (ws.url, gid)
        first, size = get_ms(url)
        again = [get_ms(url)[0] for _ in range(args.loads - 1)]
        exports = [get_ms(url + "/export.html") for _ in range(args.loads)]
        # the game changes as a sync's changed log changes it: its page is made anew
        changed_rec = GameRecord(rec.kind, rec.variant, rec.seats, rec.start, rec.actions[:-1],
                                 source=rec.source, source_game=rec.source_game,
                                 played=rec.played)
        changed_rec.continues = gid
        with Store(db) as st:
            st.add_all([changed_rec])
        changed, _ = get_ms(url + "/export.html")
        changed_again, _ = get_ms(url)
    with WebServer(db=db, discover=False) as ws:
        export_first, _ = get_ms("%s/games/%d/export.html" % (ws.url, gid))
    export_ms = [ms for ms, _ in exports]
    print("  page: %d KB, export.html %d KB" % (size // 1024, exports[0][1] // 1024))
    print("  first request (the page made)          %7.0f ms" % first)
    if again:  # none with --loads 1
        print("  next %2d requests: median / max          %7.0f / %.0f ms"
              % (len(again), statistics.median(again), max(again)))
    print("  export.html, %2d requests: median / max  %7.0f / %.0f ms"
          % (len(export_ms), statistics.median(export_ms), max(export_ms)))
    print("  after the game changed: export.html    %7.0f ms (made anew)" % changed)
    print("  then the replay                        %7.0f ms" % changed_again)
    print("  a new server's first: export.html      %7.0f ms (made)" % export_first)
    # the page's making apart from HTTP and the store: CPU time, steadier than the wall clock
    # on a shared machine (a checkout before GameRecord.replay, web43: positions() and a page
    # that parses each action again; run this file with that checkout's PYTHONPATH)
    cpu = []
    for _ in range(args.loads):
        forget_drawn(rec.kind)
        t = time.process_time()
        make_page(rec)
        cpu.append(1000 * (time.process_time() - t))
    print("  the replay and the page, CPU: median / min %5.0f / %.0f ms (%d runs)"
          % (statistics.median(cpu), min(cpu), len(cpu)))
    # made again with what was drawn kept, as `serve` makes a game's page again (the game
    # changed, the page dropped from those kept): what the drawing caches still hold of it
    warm = []
    for _ in range(args.loads):
        missed = drawings_missed(rec.kind)
        t = time.process_time()
        make_page(rec)
        warm.append(1000 * (time.process_time() - t))
        missed = drawings_missed(rec.kind) - missed
    print("  again, the drawings kept, CPU: median / min %5.0f / %.0f ms (%d runs), %d "
          "drawing%s made again a page" % (statistics.median(warm), min(warm), len(warm), missed,
                                            "" if missed == 1 else "s"))
    # what the drawing caches hold once the page is made: the memory they free when emptied
    import tracemalloc
    tracemalloc.start()
    forget_drawn(rec.kind)
    make_page(rec)
    held = tracemalloc.get_traced_memory()[0]
    forget_drawn(rec.kind)
    held -= tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print("  the drawing caches hold after the page   %7.2f MB" % (held / 2 ** 20))
    return 0


if __name__ == "__main__":
    sys.exit(main())
