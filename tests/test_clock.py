"""The board's clock (docs/protocol.md HELLO `time=`, docs/log-format.md's start time): a board
knows the time only from a host's HELLO, keeps it in RAM and writes it into the header of each
game it begins after; `cargoboard sync` sends it and stores the game's `played` as that time.

The real parts: `cargoboard sim --pty` (the unix port's virtual board, and the emulated Pico)
in its own process, its text console and frames over the real pty, `cargoboard sync` and
`cargoboard games` as a user runs them, the store they write."""

import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from clirun import run  # noqa: E402
from picotarget import SimProcess, console, one_game, require  # noqa: E402
from cargoboard.link import Link, parse_info  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from firmware.system import link as FL  # noqa: E402


def played_seconds(played):
    """`2026-12-03T02:40:00Z` -> seconds since 1970."""
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", played), played
    return datetime.strptime(played, "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=timezone.utc).timestamp()


def stored(db, board):
    """{board game number: played} of the store."""
    with Store(db, readonly=True) as st:
        return {n: st.get_by_source(board, n).played
                for _, src, n, *_ in st.list() if src == board}


@pytest.mark.parametrize("target", ["unix", "pico"])
def test_a_game_begun_after_a_sync_has_its_start_time_one_before_any_hello_none(
        tmp_path, target):
    """The user's path: games begun on a board that never heard a host keep start time 0
    (`board game N`); a HELLO with a bad `time=` leaves it so; `cargoboard sync` tells the
    board the time, and a game begun after it is stored as played then (within the host's
    clock: the board's clock runs from the HELLO at most as fast as real time)."""
    require(target)
    pty = tmp_path / "board"
    db = tmp_path / "games.sqlite"
    sim = SimProcess(pty, tmp_path / "flash", target=target)
    try:
        one_game(pty)                                       # game 1: no host yet
        assert console(pty, "hello").endswith(" time=0")
        with Link(str(pty), timeout=10.0) as link:
            info = parse_info(link.request(FL.HELLO, b"time=1e9 time=-5 time=1000 "
                                           b"time=4294967296 time= \xff=\xfe x=1 time=" + b"9" * 900).decode())
            assert info["clock"] == "1" and info["proto"] == "2"
            board = info["board"]
            # plain TEXT frames: no ONCE, so the Link sends no HELLO of its own
            assert link.text("hello", resend=True).endswith(" time=0")
            assert link.text("new cephalopod 3x3", resend=True) == "ok started"  # game 2
            assert link.text("abort", resend=True) == "ok"
        before = int(time.time())
        r = run("sync", "--port", str(pty), "--db", str(db))
        assert "2 new games stored" in r.stdout, r.stdout
        shown = int(console(pty, "hello").rsplit(" time=", 1)[1])
        one_game(pty)                                       # game 3: after the sync's HELLO
        after = time.time()
        r = run("sync", "--port", str(pty), "--db", str(db))
        assert "1 new game stored" in r.stdout, r.stdout
    finally:
        sim.stop()
    assert before <= shown <= after
    played = stored(db, board)
    assert played[1] == "board game 1" and played[2] == "board game 2", played
    assert before <= played_seconds(played[3]) <= after, (before, played[3], after)
    # `cargoboard games` says when each was played: game 3's time, the others not known
    table = run("games", "--db", str(db)).stdout.splitlines()
    col = table[0].index("played")
    assert [row[col:col + 16].strip() for row in table[1:]] == [
        "-", "-", played[3][:16].replace("T", " ")], table


def test_the_virtual_boards_clock_keeps_real_time_while_requests_come_fast():
    """The unix target runs a frame at once for each request, 10 ms of its ticks each: a clock
    counted from those ticks ran ahead of real time (the review's 5 776 requests in 5 s: the
    board said 62 s). It is counted on by the process's clock after the HELLO."""
    from cargoboard.sim.runner import UnixRunner
    with UnixRunner() as r, r.serving(), Link(r.port, timeout=10.0) as link:
        link.request(FL.HELLO, b"time=%d" % int(time.time()))
        t0 = r.t
        for _ in range(600):
            link.request(FL.HELLO, b"")
        assert r.t - t0 >= 6000  # at least 6 s of the board's ticks went by
        shown = int(link.text("hello", resend=True).rsplit(" time=", 1)[1])
        assert shown <= time.time()
