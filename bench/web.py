"""`cargoboard serve` in a real browser (headless Chromium): how fast a move reaches the live
page, and how fast the archive loads with 1,000 games in the store.

    .venv/bin/python bench/web.py [--moves N] [--games N]

Live: a virtual board (the real firmware under the unix port, on a pty) plays one-hand moves
(a lift and a place) while the table's page is open. For each move the board committed by
itself, three times: sensor change -> the board's event (the board waits until the pieces have
been still for its tracker's SETTLE_MS = 400 ms, counted in the virtual board's time, which
runs slower than the wall clock here), the board's event -> the page's update (what
`cargoboard serve` adds), and sensor change -> the page. Archive: the first page (100 rows) of
1,000 stored games, the 10th page, a filtered one, and the replay page of a 120-action game:
the browser's navigation timing (request to load event), median of 10 loads.
Printed, never asserted.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "host"), os.path.join(ROOT, "tests")]

from webkit import Browser, LiveBoard, browser_missing  # noqa: E402
from cargoboard.games.cargocube.hand import physical_steps  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.web.server import WebServer  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from shared_rules import geometry as g  # noqa: E402


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def row(name, values, unit="ms"):
    print("  %-34s %4d   %7.0f %7.0f %7.0f %s" % (name, len(values), pct(values, 50),
                                                  pct(values, 95), max(values), unit))


def page_position(b):
    return b.js("var s = document.querySelector('#table-1 [data-f=svg] svg');"
                "return s && s.getAttribute('data-position');")


def live(b, moves):
    """Activations from the start onto empty cells, each taken back with `undo` and the cube
    put back by hand, round and round: every activation is one lift and one place that the
    board commits by itself (no question), and every `undo` a button the page follows too."""
    tmp = tempfile.mkdtemp(prefix="cb-bench-web-")
    board = LiveBoard(os.path.join(tmp, "board"))
    start = cc.start_position(2)
    cycle = []
    for a in start.legal_actions():
        steps = physical_steps(start, a)
        # from the corners of the block of cubes: no other activation leaves the same trace
        if a[0] == cc.ACTIVATE and len(steps) == 1 and not start.stacks[steps[0][2]] and \
                g.cell_name(steps[0][1]) in ("c3", "i3", "c9", "i9"):
            cycle.append((start.format_action(a), g.cell_name(steps[0][1]),
                          g.cell_name(steps[0][2])))
    to_event, to_page, total, undo = [], [], [], []
    to_read, read_to_page, to_paint = [], [], []
    try:
        with WebServer(boards=[os.path.join(tmp, "board")], db=os.path.join(tmp, "g.sqlite"),
                       discover=False) as ws:
            b.driver.get(ws.url + "/table/1")
            b.wait(lambda d: page_position(b) == start.notation(), what="start")
            for i in range(moves):
                text, src, dst = cycle[i % len(cycle)]
                board.lift(src)
                t0 = board.place(dst)
                pos = start.copy()
                pos.push(pos.parse_action(text))
                want = pos.notation()
                hit = b.wait(lambda d: [u for u in b.updates() if u["position"] == want and
                                        u["t"] / 1000 >= t0 and u["painted"]],
                             timeout=5, what=text)
                told = board.told_at("auto %s -> " % text, t0)
                t_page = hit[0]["painted"] / 1000
                to_event.append(1000 * (told - t0))
                to_page.append(1000 * (t_page - told))
                to_read.append(1000 * (hit[0]["read"] - told))
                read_to_page.append(1000 * (hit[0]["t"] / 1000 - hit[0]["read"]))
                to_paint.append(1000 * (t_page - hit[0]["t"] / 1000))
                total.append(1000 * (t_page - t0))
                t1 = time.time()
                board.press("undo")
                hit = b.wait(lambda d: [u for u in b.updates() if u["position"] ==
                                        start.notation() and u["t"] / 1000 >= t1 and
                                        u["painted"]], timeout=5, what="undo " + text)
                told = board.told_at("undo %s -> " % text, t1)
                undo.append(1000 * (hit[0]["painted"] / 1000 - told))
                board.lift(dst)  # the cube back where it was, as the LEDs ask
                board.place(src)
                board.wait_board_ms(500)
    finally:
        board.close()
    print("Live: %d activations on the virtual board (%s, each taken back with undo), the "
          "table's page open" % (len(total), " ".join(t for t, _, _ in cycle)))
    print("  %-34s %4s   %7s %7s %7s" % ("", "n", "p50", "p95", "max"))
    row("sensor change -> board's event", to_event)
    row("board's event -> page painted", to_page)
    row("  board's event -> serve has read it", to_read)
    row("  serve has read it -> page updated", read_to_page)
    row("  page updated -> painted", to_paint)
    row("sensor change -> page painted", total)
    row("undo: board's event -> page painted", undo)


def fill(db, n):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from exportgames import random_game, random_cephalopod_game
    t = time.perf_counter()
    with Store(db) as st:
        for i in range(n):
            if i % 4 == 3:
                st.add(random_cephalopod_game(i, "3x3" if i % 8 == 3 else "5x5", actions=30))
            else:
                st.add(random_game(i, players=2 + i % 3, actions=40))
    return time.perf_counter() - t


def load_times(b, url, n=10):
    out = []
    for _ in range(n):
        b.driver.get(url)
        t = b.js("var e = performance.getEntriesByType('navigation')[0];"
                 "return [e.responseStart - e.startTime, e.loadEventEnd - e.startTime];")
        out.append(t)
    return [x[0] for x in out], [x[1] for x in out]


def archive(b, games):
    tmp = tempfile.mkdtemp(prefix="cb-bench-web-")
    db = os.path.join(tmp, "games.sqlite")
    took = fill(db, games)
    from cargoboard.export.cli import import_game
    with Store(db) as st:
        gid, _ = import_game(st, open(os.path.join(ROOT, "docs", "img",
                                                   "example-game.txt")).read(), "example")
    print("\nArchive: %d games in the store (filled in %.1f s), %.1f MB" % (
        games + 1, took, os.path.getsize(db) / 1e6))
    print("  %-34s %4s   %7s %7s %7s" % ("page (first byte / loaded)", "n", "p50", "p95", "max"))
    with WebServer(db=db, discover=False) as ws:
        for name, path in (("archive, first 100 rows", "/games"),
                           ("archive, page 10", "/games?page=10"),
                           ("archive, cephalopod 5x5 only", "/games?kind=cephalopod&players=2"),
                           ("replay of a 120-action game", "/games/%d" % gid)):
            first, loaded = load_times(b, ws.url + path)
            row(name + ": first byte", first)
            row(name + ": loaded", loaded)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    why = browser_missing()
    if why:
        print("bench/web.py: no browser: " + why)
        return 0
    b = Browser()
    try:
        live(b, args.moves)
        archive(b, args.games)
    finally:
        b.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
