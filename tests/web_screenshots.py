"""The screenshots of docs/web.md and the README: every page of `cargoboard serve` at 1280x800
in headless Chromium, against virtual boards and a small store.

    .venv/bin/python tests/web_screenshots.py [OUT_DIR]     # default docs/img

Writes web-tables.png (three tables side by side, each with its "sync now"; the Cephalopod
board shows a mistake: its cell marked red and said in words), web-table.png (one table while
its board asks which move it was), web-seat.png (a «Формула 99» seat's page with its hidden hand), web-archive.png,
web-replay.png.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "host"), str(ROOT / "tests")]

from webkit import Browser, LiveBoard, browser_missing  # noqa: E402
from cargoboard import rules  # noqa: E402
from cargoboard import games  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.web.server import WebServer  # noqa: E402


def settle(b, seconds=1.0):
    time.sleep(seconds)  # let the LED mirror and the last events arrive


def main(out):
    why = browser_missing()
    if why:
        print("no browser: " + why)
        return 1
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="cb-shots-"))
    db = tmp / "games.sqlite"
    from test_web_archive import fill
    fill(db)
    boards = [LiveBoard(tmp / "b1", setup=("new-game cargocube polygon SN",)),
              # a mistake (the block's a1 is d4): white b3 c2, black d3 e5; white's die on c3,
              # b3 taken, then e5, which no capture from c3 takes: e5 red, and said
              LiveBoard(tmp / "b2", setup=("new-game cephalopod 5x5", "drop e6", "wait 600",
                                           "drop g6", "wait 600", "drop f5", "wait 600",
                                           "drop h8", "wait 600", "drop f6", "take e6",
                                           "take h8", "wait 700")),
              LiveBoard(tmp / "b3", setup=("new-game formula99 L2 15 deal=7",))]
    b = Browser()
    try:
        with WebServer(boards=[str(x.path) for x in boards], db=db, discover=False) as ws:
            d = b.driver
            d.get(ws.url + "/")
            settle(b, 2)
            b.screenshot(out / "web-tables.png")
            # table 1 asks: S activates d4 onto a neighbour, all four occupied (only d4 changes)
            boards[0].lift("d4")
            boards[0].place("d3")
            d.get(ws.url + "/table/1")
            b.wait(lambda d: d.find_elements("css selector", "#table-1 .candidates li"),
                   timeout=10, what="candidates")
            settle(b)
            b.screenshot(out / "web-table.png")
            d.get(ws.host_link())
            seat = d.find_elements("css selector", ".seat-links a")
            url = [a.get_attribute("href") for a in seat if "/table/3/seat/" in
                   a.get_attribute("href")][0]  # «Формула 99»'s first seat
            d.get(url)
            settle(b)
            b.screenshot(out / "web-seat.png")
            d.get(ws.url + "/games")
            settle(b, 0.3)
            b.screenshot(out / "web-archive.png")
            d.get(ws.url + "/games/4#102")
            settle(b, 0.5)
            b.screenshot(out / "web-replay.png")
    finally:
        b.quit()
        for x in boards:
            x.close()
    for name in ("web-tables", "web-table", "web-seat", "web-archive", "web-replay"):
        print(out / (name + ".png"), os.path.getsize(out / (name + ".png")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "img"))
