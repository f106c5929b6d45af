"""`cargoboard sync` end to end: games played on the virtual board (the firmware under the
MicroPython unix port, its flash a littlefs image), fetched over a real pseudo-terminal with
pyserial into a real SQLite file; also through a link that drops, flips, truncates and cuts."""

import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests"))

from cargoboard.link import BoardError, Link, LinkError  # noqa: E402
from cargoboard.logrecord import record_from_log  # noqa: E402
from cargoboard.games.cargocube.scriptgen import game_script  # noqa: E402
from cargoboard.sim.runner import UnixRunner  # noqa: E402
from cargoboard.sim.script import Session, strip_comment  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from cargoboard.sync import sync  # noqa: E402
from faultlink import FaultLink  # noqa: E402

GAMES = 3


def play_games(image, games=GAMES, actions=(9, 14, 6)):
    """Play `games` short games on the virtual board with that flash; the last one is left
    open (being played). Returns the final position of each as the board shows it: the true
    one, or, while the board (revision A's default, wait=2) holds its last moves in doubt, one
    of its readings, which the truth is another of."""
    finals = []
    s = Session(out=lambda line: None, flash=image)
    try:
        for k in range(games):
            text, final = game_script(seed=40 + k, actions=actions[k % len(actions)], check_every=0)
            for raw in text.splitlines():
                line = strip_comment(raw).strip()
                if line:
                    s.execute(line)
            shown = s.position()
            assert shown == final.notation() or final.notation() in s.readings()
            finals.append(shown)
    finally:
        s.close()
    return finals


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    d = tmp_path_factory.mktemp("played")
    image = d / "flash.img"
    finals = play_games(image)
    return image, finals


class Served:
    def __init__(self, image):
        self.runner = UnixRunner(flash=image).start()
        self._serving = self.runner.serving()
        self._serving.__enter__()

    def close(self):
        self._serving.__exit__(None, None, None)
        self.runner.stop()


def board_logs(port):
    """{game_no: (flags, bytes)} read straight from the board."""
    out = {}
    with Link(port) as link:
        for game_no, size, crc, flags in link.games():
            data = b""
            while len(data) < size:
                total, chunk = link.read(game_no, len(data))
                data += chunk
            assert len(data) == size
            if not flags & 2:
                assert zlib.crc32(data) == crc
            out[game_no] = (flags, data)
    return out


def dump(db):
    con = sqlite3.connect(str(db))
    try:
        return list(con.iterdump())
    finally:
        con.close()


def _flip_a_bit(micropython, image, back):
    """Flip one bit of game 1's log on the board's flash image, `back` bytes from its end (flash
    damage, by the board's own flash driver under MicroPython); the log's record as it was."""
    script = (
        "from firmware.drivers import flashdev\n"
        "dev = flashdev.FileBlockDev.open(%r)\n"
        "root = flashdev.mount(dev, '/flash')\n"
        "p = root + '/games/g00001.log'\n"
        "b = bytearray(open(p, 'rb').read())\n"
        "print(bytes(b).hex())\n"
        "b[len(b) - %d] ^= 0x10\n"
        "with open(p, 'wb') as f:\n"
        "    f.write(b)\n" % (str(image), back))
    return record_from_log(bytes.fromhex(micropython(script).split()[-1]))


def test_sync_stores_each_game_once_then_the_board_forgets_it(played, tmp_path):
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    finals = played[1]
    b = Served(image)
    try:
        before = board_logs(b.runner.port)
        assert len(before) == GAMES
        current = [n for n, (flags, _) in before.items() if flags & 2]
        assert len(current) == 1  # the last game is still being played
        db = tmp_path / "games.sqlite"
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert res.skipped == current
            assert len(res.stored) == GAMES - 1 and res.confirmed == [n for n, _ in res.stored]
            for game_no, gid in res.stored:
                rec = store.get(gid)
                assert rec.log == before[game_no][1]  # byte-identical
                assert rec.source_game == game_no
                assert rec.final_position().notation() == finals[game_no - 1]
        after = board_logs(b.runner.port)
        assert list(after) == current  # the stored games are gone from the board
        # a second run changes nothing
        snapshot = dump(db)
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert res.stored == [] and res.confirmed == []
        assert dump(db) == snapshot
        # the game in play ends (abandoned), and the next sync takes it
        with Link(b.runner.port) as link:
            assert link.text("abort") == "ok"
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert [n for n, _ in res.stored] == current
            assert len(store.list()) == GAMES
            # each game was dropped before its end (by the next new game, the last by abort)
            assert store.get(res.stored[0][1]).abandoned
            assert [r[11] for r in store.list()] == [1] * GAMES
        assert board_logs(b.runner.port) == {}
    finally:
        b.close()


def test_fetch_streams_whole_logs_and_confirm_takes_many(played, tmp_path):
    """FETCH (docs/protocol.md): every game from a number on after one request, in pieces of
    the size asked for, each with its size, CRC-32 and flags; one game resumed from an
    offset. CONFIRM of several games: done in order up to one it refuses; the confirmed
    games are gone for the host at once and from the flash in the frames after."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    b = Served(image)
    try:
        originals = board_logs(b.runner.port)
        with Link(b.runner.port) as link:
            # in pieces of 1 byte the stream is many times the logs (each piece a frame), all
            # written in one frame of the board: the whole of it arrives
            games, more, cut = link.fetch(0, 0, 0, 1)
            assert (more, cut, link.damaged) == (0, None, 0)
            assert [g[4] for g in games if not g[3] & 2] == [
                want for flags, want in (originals[g[0]] for g in games) if not flags & 2]
            games, more, cut = link.fetch(0, 0, 0, 64)
            assert (more, cut) == (0, None)
            assert [g[0] for g in games] == sorted(originals)
            for game_no, size, crc, flags, data in games:
                want_flags, want = originals[game_no]
                assert flags == want_flags
                if flags & 2:  # being played: its entry alone
                    assert (crc, data) == (0, b"")
                else:
                    assert data == want and size == len(want) and crc == zlib.crc32(want)
            closed = [g for g in games if not g[3] & 2]
            first, second = closed[0], closed[1]
            # from the second game on, the first one resumed: not sent (before the first)
            games, _, _ = link.fetch(second[0], first[0], 100)
            assert [g[0] for g in games] == [g[0] for g in closed[1:]] + [games[-1][0]]
            games, _, _ = link.fetch(0, first[0], 100)
            assert games[0][4] == originals[first[0]][1][100:] and games[0][2] == first[2]
            games, _, _ = link.fetch(0, first[0], first[1] + 1)  # past its end: not this log
            assert games[0][4] is None
            # a wrong checksum ends the CONFIRM there: the games before it are confirmed
            with pytest.raises(BoardError) as e:
                link.confirm_all([(first[0], first[2]), (second[0], second[2] ^ 1)])
            assert "game %d: checksum differs" % second[0] in str(e.value)
            assert first[0] not in [g[0] for g in link.games()]  # gone for the host at once
            assert link.confirm_all([(first[0], first[2]), (second[0], second[2])]) == b"\x00\x01"
            playing = [n for n, (flags, _) in originals.items() if flags & 2]
            with pytest.raises(BoardError) as e:
                link.confirm_all([(playing[0], 0)])
            assert "still being played" in str(e.value)
            assert [g[0] for g in link.fetch()[0]] == playing
            # the files go once the host is quiet (the console lists the flash's files)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                lines = link.text("games").splitlines()
                if len(lines) == 2:
                    break
                time.sleep(0.5)  # quiet: the board deletes while the host is
            assert lines[0].startswith("game %d " % playing[0]) and lines[1].startswith("ok 1 "), lines
    finally:
        b.close()


def test_a_game_that_does_not_replay_is_kept_aside_not_deleted(played, tmp_path, micropython):
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    # a log whose second action is illegal (the first action again), with valid checksums
    from shared_rules.cargocube import rules as cc
    pos = cc.start_position(2)
    a = pos.legal_actions()[0]
    enc = cc.encode_action(a)
    script = (
        "from firmware.drivers import flashdev\n"
        "from firmware.system.gamelog import GameLog\n"
        "dev = flashdev.FileBlockDev.open(%r)\n"
        "flashdev.mount(dev, '/flash')\n"
        "log = GameLog('/flash', 'sim-bad')\n"
        "n = log.begin('cargocube', 'polygon', 'SN', %r, None, 1, 0)\n"
        "log.append(%r)\n"
        "log.append(%r)\n"
        "log.close()\n"
        "print(n)\n" % (str(image), pos.notation(), enc, enc))
    bad_no = int(micropython(script).split()[-1])
    db = tmp_path / "games.sqlite"
    b = Served(image)
    try:
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert [n for n, _ in res.rejected] == [bad_no]
            assert "does not replay" in res.rejected[0][1]
            assert bad_no not in [n for n, _ in res.stored]
            assert [r[1] for r in store.rejected()] == [bad_no]
        assert bad_no in board_logs(b.runner.port)  # never silently dropped
        snapshot = dump(db)
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert [n for n, _ in res.rejected] == [bad_no] and res.stored == []
        assert dump(db) == snapshot
    finally:
        b.close()


def test_a_cut_transfer_resumes_where_it_stopped(played, tmp_path):
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    b = Served(image)
    try:
        originals = board_logs(b.runner.port)
        # cut once the first game's log is partly through
        first = min(originals)
        size = len(originals[first][1])
        assert size > 200
        # 64-byte pieces: the first log takes several; the cut comes after a few of them
        # (the host has read them: a pty's hang-up discards what was not read)
        fl = FaultLink(b.runner.port, seed=1, drop=0, flip=0, truncate=0, cut_after=600,
                       read_before_cut=True)
        with Store(db) as store:
            link = Link(fl.port, timeout=0.3, retries=3)
            with pytest.raises(LinkError):
                sync(link, store, chunk=64)
            link.close()
            rows = store.db.execute("SELECT source_game, length(data), total FROM transfers").fetchall()
            assert len(rows) == 1 and rows[0][0] == first and 0 < rows[0][1] < rows[0][2]
            resumed_from = rows[0][1]
        fl.close()
        with Store(db) as store, Link(b.runner.port) as link:
            fetches = []
            real_fetch = link.fetch
            link.fetch = lambda *a: fetches.append(a) or real_fetch(*a)
            res = sync(link, store, chunk=64)
            assert fetches[0][1:3] == (first, resumed_from)  # not from 0
            assert first in [n for n, _ in res.stored]
            assert store.db.execute("SELECT COUNT(*) FROM transfers").fetchone()[0] == 0
            rec = store.get_by_source(link.hello()["board"], first)
            assert rec.log == originals[first][1]
    finally:
        b.close()


def test_faulty_link_trials_every_game_arrives_once_byte_identical(played, tmp_path):
    """Seeded trials over a link that drops and flips bytes, truncates chunks and cuts the
    connection at a random point; sync is run again after every cut until it succeeds."""
    trials = 10
    attempts_total = 0
    cuts = 0
    faults = 0
    for trial in range(trials):
        rnd = random.Random(trial)
        image = tmp_path / ("flash-%d.img" % trial)
        shutil.copy(played[0], image)
        db = tmp_path / ("games-%d.sqlite" % trial)
        b = Served(image)
        try:
            with Link(b.runner.port) as link:
                link.text("abort")  # every game finished: all of them are to be synced
            originals = board_logs(b.runner.port)
            assert len(originals) == GAMES
            done = False
            # (up to 100: the waiting board's logs, revision A's default since stop 51, are
            # about twice as long, and at these fault rates a sync then gets through about one
            # time in 12 here, against one in 6: 125 attempts in the 10 trials against 59)
            for attempt in range(100):
                attempts_total += 1
                cut = rnd.randrange(200, 6000) if attempt < 4 else None
                fl = FaultLink(b.runner.port, seed=trial * 100 + attempt, drop=0.003,
                               flip=0.003, truncate=0.03, cut_after=cut)
                try:
                    with Store(db) as store:
                        link = Link(fl.port, timeout=0.25, retries=12)
                        try:
                            sync(link, store)
                            done = True
                        except LinkError:
                            cuts += fl.cut
                        finally:
                            link.close()
                finally:
                    faults += fl.faults
                    fl.close()
                if done:
                    break
            assert done, "trial %d: no sync got through in 100 attempts" % trial
            with Store(db) as store:
                rows = store.db.execute(
                    "SELECT source_game, COUNT(*) FROM games GROUP BY source, source_game").fetchall()
                assert sorted(rows) == [(n, 1) for n in sorted(originals)]  # exactly once
                for n, (_, data) in originals.items():
                    rec = store.get_by_source(store.list()[0][1], n)
                    assert rec.log == data  # byte-identical
                    assert rec.final_position().notation() == record_from_log(data).final_position().notation()
            assert board_logs(b.runner.port) == {}
        finally:
            b.close()
    print("fault trials: %d trials, %d sync attempts, %d cuts, %d byte faults"
          % (trials, attempts_total, cuts, faults))
    assert cuts > 0 and faults > 0


def test_cli_sync_from_sim_serving_a_script(tmp_path):
    """The user's path: `cargoboard sim --script FILE --pty PATH --flash DIR` plays and keeps
    serving; `cargoboard sync --port PATH` fetches; `cargoboard games` lists."""
    # (wait=0: the game is abandoned at once, and a waiting board could leave its last moves
    # in doubt, logged as the reading it showed: play_games above checks that case)
    text, final = game_script(seed=5, actions=10, check_every=0, wait=0)
    script = tmp_path / "game.txt"
    script.write_text(text + "send abort\n")
    pty = tmp_path / "board"
    flash = tmp_path / "flash"
    db = tmp_path / "games.sqlite"
    exe = str(Path(sys.executable).parent / "cargoboard")
    from clirun import serving_sim
    sim = serving_sim(pty, "--script", str(script), "--flash", str(flash))
    try:
        r = subprocess.run([exe, "sync", "--port", str(pty), "--db", str(db), "--progress"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert "1 new game stored" in r.stdout
        # --progress: tqdm's bar on stderr although it is no terminal, ending at 100%
        last = [line for line in r.stderr.splitlines() if line.strip()][-1]  # \r: lines here
        assert last.startswith("sync: 100%|") and ", game 1]" in last, r.stderr
        size = re.search(r" (\d+)/(\d+) \[", last)
        assert size and size.group(1) == size.group(2), r.stderr
        r = subprocess.run([exe, "games", "--db", str(db)], capture_output=True, text=True)
        assert r.returncode == 0 and "cargocube" in r.stdout and "polygon" in r.stdout
        r = subprocess.run([exe, "sync", "--port", str(pty), "--db", str(db)], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0 and "0 new games stored" in r.stdout
        assert r.stderr == ""  # no terminal, no --progress: no bar
    finally:
        sim.send_signal(signal.SIGTERM)
        out, err = sim.communicate(timeout=10)
    assert sim.returncode == 0, err
    assert not pty.exists() and not pty.is_symlink()  # the link is removed
    assert (flash / "flash.img").stat().st_size > 0
    with Store(db) as store:
        rec = store.get(1)
        assert rec.final_position().notation() == final.notation()


def test_progress_bar_on_a_terminal_only_unless_forced():
    """The bar (tqdm) draws on a terminal by itself, elsewhere only when forced (--progress),
    and tells the web page's callback of every step either way."""
    import io
    from cargoboard.sync import Progress
    seen = []
    master, slave = os.openpty()
    try:
        import fcntl
        import struct
        import termios
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        with os.fdopen(os.dup(slave), "w") as tty:
            bar = Progress(5, stream=tty)
            bar.add(3, "game 3")
            bar.add(2, "game 5")
            bar.close()
        # A pty hands written bytes to its master side asynchronously (a kernel work queue),
        # so one non-blocking read right after the write can see only part of the bar on a
        # loaded machine. Closing every slave end and reading until EIO takes all of it.
        os.close(slave)
        slave = None
        drawn = b""
        while True:
            try:
                part = os.read(master, 65536)
            except OSError:  # EIO: the slave side is closed and everything is read
                break
            if not part:
                break
            drawn += part
        drawn = drawn.decode()
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    assert "100%|" in drawn and "5/5" in drawn and "game 5" in drawn, drawn
    quiet = io.StringIO()
    bar = Progress(1000, stream=quiet, on_progress=lambda *a: seen.append(a))
    bar.add(1000, "game 4")
    bar.close()
    assert quiet.getvalue() == "" and seen == [(1000, 1000, "game 4")]
    forced = io.StringIO()
    bar = Progress(1000, enabled=True, stream=forced)
    bar.add(1000, "game 4")
    bar.close()
    assert forced.getvalue().rstrip("\n").split("\r")[-1].startswith("sync: 100%|")


def test_cli_sync_without_a_board_says_so(tmp_path):
    exe = str(Path(sys.executable).parent / "cargoboard")
    r = subprocess.run([exe, "sync", "--port", str(tmp_path / "nothing"), "--db",
                        str(tmp_path / "g.sqlite")], capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.startswith("cargoboard: error: cannot open") and "Traceback" not in r.stderr


def test_a_game_synced_while_shown_finished_keeps_its_log_when_taken_back(tmp_path):
    """A game that ended is synced while the board still shows it; then the players take the
    last action back and drop the game (a new one). The board must go on logging it (the
    take-back, the abandon) and the next sync must bring the store the whole log: the game
    with one action fewer, abandoned, under the same id, and then let the board delete it."""
    text, final = game_script(seed=22, actions=400, check_every=0)
    assert final.is_over()
    image = tmp_path / "flash.img"
    db = tmp_path / "games.sqlite"
    s = Session(out=lambda line: None, flash=image)
    try:
        for raw in text.splitlines():
            line = strip_comment(raw).strip()
            if line:
                s.execute(line)
        with s.host_tools() as port:
            with Store(db) as store, Link(port) as link:
                res = sync(link, store)
        assert len(res.stored) == 1 and res.conflicts == []
        # the board keeps the game it shows until it moves on: the summary says no "deleted"
        assert res.summary() == "1 new game stored, 1 confirmed to the board"
        game_no, gid = res.stored[0]
        with Store(db) as store:
            first = store.get(gid)
        assert len(first.actions) == len(final.history())
        s.press("undo")
        s.wait(500)
        s.query("abort")  # drops the reopened game: abandoned (as a new game would)
        with s.host_tools() as port:
            with Store(db) as store, Link(port) as link:
                res = sync(link, store)
                assert res.continued == [(game_no, gid)] and res.stored == []
                assert res.confirmed == [game_no] and res.conflicts == []
                again = store.get(gid)
                assert again.actions == first.actions[:-1] and again.abandoned
                assert bytes(again.log).startswith(bytes(first.log))
                assert store.count() == 1
        s.wait(500)  # the board deletes confirmed games once the host is quiet
        with s.host_tools() as port:
            assert game_no not in board_logs(port)
    finally:
        s.close()


def test_a_log_damaged_on_the_flash_is_stored_up_to_the_damage_and_reported(played, tmp_path,
                                                                            micropython):
    """A bit gone bad in a finished game's log on the flash: the board's CRC-32 is of the bytes
    as they are, so the transfer checks out; the replay stops at the damaged record. Sync must
    say so (and exit 1 from the command), store the game up to the damage with the whole log,
    never pass it off as a shorter clean game."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    clean = _flip_a_bit(micropython, image, 12)
    assert clean.problem is None
    db = tmp_path / "games.sqlite"
    said = []
    b = Served(image)
    try:
        raw = board_logs(b.runner.port)[1][1]
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store, say=said.append)
            assert [n for n, _ in res.damaged] == [1]
            assert "dropped" in res.damaged[0][1]
            assert "1 damaged" in res.summary()
            assert any(line.startswith("game 1: damaged log") for line in said)
            gid = dict(res.stored)[1]
            rec = store.get(gid)
            assert bytes(rec.log) == raw  # the whole log, the damage and what follows it
            assert 0 < len(rec.actions) < len(clean.actions)
            assert rec.actions == clean.actions[:len(rec.actions)]
    finally:
        b.close()


def _two_games_synced(image, db):
    """Two games played on the virtual board with that flash (the second left open), then one
    sync into db: (its result, the board's id)."""
    play_games(image, games=2)
    b = Served(image)
    try:
        with Store(db) as store, Link(b.runner.port) as link:
            board = link.hello()["board"]
            return sync(link, store), board
    finally:
        b.close()


def test_the_virtual_boards_id_outlives_its_erased_flash(tmp_path):
    """A real Pico's board id is its flash chip's unique id, which erasing the flash keeps;
    the virtual board's was made and kept inside its flash image, so a removed image (`sim
    --flash DIR` after `rm DIR/flash.img`) was another board and BOARD#2 could not be reached.
    Now the id is the virtual chip's (runner.sim_board_id: the image's path): the same after
    the image is gone, its games stored as BOARD#2's; another DIR is another board."""
    from cargoboard.sim.runner import sim_board_id
    image = tmp_path / "flash.img"
    db = tmp_path / "games.sqlite"
    first, board = _two_games_synced(image, db)
    assert [n for n, _ in first.stored] == [1]
    assert board == sim_board_id(image) and board.startswith("sim-") and len(board) == 12
    image.unlink()  # the whole flash erased: its games, its counter
    play_games(image, games=2, actions=(4, 3))
    b = Served(image)
    try:
        with Store(db) as store, Link(b.runner.port) as link:
            assert link.hello()["board"] == board
            res = sync(link, store)
            assert res.renumbered == [(1, board + "#2")] and res.conflicts == []
            assert store.count() == 2
    finally:
        b.close()
    other = tmp_path / "other" / "flash.img"
    other.parent.mkdir()
    b = Served(other)
    try:
        with Link(b.runner.port) as link:
            assert link.hello()["board"] == sim_board_id(other) != board
    finally:
        b.close()


def test_a_board_numbered_anew_keeps_its_new_games_together(tmp_path):
    """An erased board's games go to BOARD#2 all, also those whose numbers the store's games
    of BOARD never reached: the numbering was chosen game by game, so its game 1 (BOARD has a
    game 1) went to BOARD#2 and its game 2 (BOARD has none) to BOARD, among the games of the
    old numbering, one board's games split across two numberings. Then a later sync's games
    follow them into BOARD#2, the board's numbering now."""
    image = tmp_path / "flash.img"
    db = tmp_path / "games.sqlite"
    first, board = _two_games_synced(image, db)  # BOARD holds game 1 only
    assert [n for n, _ in first.stored] == [1]
    image.unlink()  # the whole flash erased: its games, its counter
    play_games(image, games=3, actions=(4, 3, 2))  # games 1 and 2 closed, 3 open
    b = Served(image)
    try:
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert [n for n, _ in res.stored] == [1, 2]
            assert res.renumbered == [(1, board + "#2")]
            assert sorted((r[1], r[2]) for r in store.list()) == [
                (board, 1), (board + "#2", 1), (board + "#2", 2)]
    finally:
        b.close()
    play_games(image, games=1, actions=(5,))  # game 3 abandoned for game 4, left open
    b = Served(image)
    try:
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert [n for n, _ in res.stored] == [3] and res.renumbered == []
            assert store.get_by_source(board + "#2", 3).abandoned
    finally:
        b.close()


def test_the_newest_numbering_of_a_board_is_its_highest(tmp_path):
    from cargoboard.store import numbering_source
    from exportgames import random_game
    with Store(tmp_path / "games.sqlite") as store:
        assert store.last_numbering("sim-1") == 1  # none yet: the board's own
        for n, source in enumerate(["sim-1", "sim-1#9", "sim-1#10", "sim-1#x", "sim-10#12",
                                    "sim-1x#11", "import"], 1):
            rec = random_game(n, actions=2)
            rec.source, rec.source_game = source, n
            store.add(rec)
        assert store.last_numbering("sim-1") == 10  # (not 9: numbers, not text)
        assert store.last_numbering("sim-10") == 12 and store.last_numbering("sim-2") == 1
    assert [numbering_source("sim-1", k) for k in (1, 2, 11)] == ["sim-1", "sim-1#2",
                                                                  "sim-1#11"]


def test_a_board_whose_numbering_began_again_is_stored_beside_not_refused(tmp_path,
                                                                         micropython):
    """A board's flash erased (its game log and counter gone, the chip's id the same) numbers
    its games from 1 again. Sync used to refuse each of them for good ("the store holds a
    different game under this number"), so they piled up on the board. Now each is stored as a
    game of BOARD#2, the board deletes it, and a second sync changes nothing."""
    image = tmp_path / "flash.img"
    db = tmp_path / "games.sqlite"
    first, board = _two_games_synced(image, db)
    assert [n for n, _ in first.stored] == [1]
    micropython(
        "import os\n"
        "from firmware.drivers import flashdev\n"
        "dev = flashdev.FileBlockDev.open(%r)\n"
        "root = flashdev.mount(dev, '/flash')\n"
        "for name in os.listdir(root + '/games'):\n"
        "    os.remove(root + '/games/' + name)\n" % str(image))
    play_games(image, games=2, actions=(4, 3))  # game 1 (closed) and 2 (open): other games
    b = Served(image)
    try:
        said = []
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store, say=said.append)
            assert res.renumbered == [(1, board + "#2")] and res.conflicts == []
            assert res.confirmed == [1]
            assert any("numbering began again" in line for line in said)
            again = store.get_by_source(board + "#2", 1)
            assert bytes(again.log) != bytes(store.get_by_source(board, 1).log)
            assert store.count() == 2
        assert 1 not in board_logs(b.runner.port)
        snapshot = dump(db)
        with Store(db) as store, Link(b.runner.port) as link:
            res = sync(link, store)
            assert res.stored == [] and res.renumbered == []
        assert dump(db) == snapshot
    finally:
        b.close()


def cli_run(capsys, argv):
    """(exit status, stdout, stderr) of `cargoboard ARGV` run in this process."""
    from cargoboard import cli
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_a_damaged_game_is_marked_and_its_whole_log_can_be_had(played, tmp_path, micropython,
                                                              capsys):
    """The audit's case: after a sync of a log damaged on the flash (the board's copy then
    deleted) `games` and the exports showed an ordinary shorter "not over" game, and the
    actions after the damage were in the store's raw `log` column only. Now `games`, the JSON,
    text, SVG and HTML exports say how far the log replays and how long it was, and
    `export N --format log` writes the whole log byte for byte (an imported game has none)."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    clean = _flip_a_bit(micropython, image, 30)
    db = tmp_path / "games.sqlite"
    b = Served(image)
    try:
        raw = board_logs(b.runner.port)[1][1]
        status, out, _ = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])
    finally:
        b.close()
    assert status == 1 and "1 damaged" in out
    with Store(db, readonly=True) as st:
        rec = st.get_by_source(st.list()[0][1], 1)
    n = len(rec.actions)
    assert 0 < n < len(clean.actions) and rec.actions == clean.actions[:n]
    mark = "log replays to action %d of ~%d (" % (n, len(clean.actions))
    assert rec.damage.startswith(mark), rec.damage
    status, out, _ = cli_run(capsys, ["games", "--db", str(db)])
    line = [x for x in out.splitlines() if x.startswith("%d " % rec.id)][0]
    assert ("not over; damaged: " + mark) in line
    assert "`cargoboard export %d --format log` writes the raw log" % rec.id in line
    other = [x for x in out.splitlines()[1:] if not x.startswith("%d " % rec.id)]
    assert other and not any("damaged" in x for x in other)
    gid = str(rec.id)
    assert json.loads(cli_run(capsys, ["export", gid, "--db", str(db)])[1])[
        "header"]["damage"] == rec.damage
    text = cli_run(capsys, ["export", gid, "--db", str(db), "-f", "text"])[1]
    assert '[Damage "%s"]' % rec.damage in text
    assert "damaged: " + mark in cli_run(capsys, ["export", gid, "--db", str(db), "-f", "svg"])[1]
    assert mark in cli_run(capsys, ["export", gid, "--db", str(db), "-f", "html"])[1]
    out_file = tmp_path / "g.log"
    status, _, err = cli_run(capsys, ["export", gid, "--db", str(db), "-o", str(out_file)])
    assert status == 0 and "as log" in err  # the format from the suffix
    assert out_file.read_bytes() == raw  # the damage and every record after it
    assert record_from_log(out_file.read_bytes()).damage == rec.damage
    # the text export (its Damage tag told, not checked) imports as the game up to the damage
    back = tmp_path / "g.txt"
    back.write_text(text)
    db2 = tmp_path / "back.sqlite"
    status, out, err = cli_run(capsys, ["import", str(back), "--db", str(db2)])
    assert status == 0, err
    status, _, err = cli_run(capsys, ["export", "1", "--db", str(db2), "-f", "log",
                                      "-o", str(tmp_path / "none.log")])
    assert status == 1 and "has no board log: it was imported" in err
    # and a raw log is no game file for import
    status, _, err = cli_run(capsys, ["import", str(out_file), "--db", str(db2)])
    assert status == 1 and "is a board's raw game log" in err and "Traceback" not in err
    # the web archive's replay offers the same whole log, an imported game none (docs/web.md)
    import urllib.error
    import urllib.request
    from cargoboard.web.server import WebServer
    with WebServer(db=db, discover=False) as ws:
        with urllib.request.urlopen(ws.url + "/games/" + gid, timeout=10) as r:
            assert 'href="/games/%s/export.log"' % gid in r.read().decode()
        with urllib.request.urlopen(ws.url + "/games/%s/export.log" % gid, timeout=10) as r:
            assert r.read() == raw
    with WebServer(db=db2, discover=False) as ws:
        with urllib.request.urlopen(ws.url + "/games/1", timeout=10) as r:
            assert "export.log" not in r.read().decode()
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(ws.url + "/games/1/export.log", timeout=10)
        assert e.value.code == 404 and "it was imported" in e.value.read().decode()


def test_sync_recognises_a_game_imported_from_its_export(tmp_path, capsys):
    """The audit's case: a board game's export imported into a store first, then the same
    board synced into it: the game was stored twice. Sync now finds it by the content import
    checks (kind, start, actions) and its `played`, says "already stored as #N", stores it
    not again and lets the board delete it. The same actions played at another time are
    another game, stored."""
    image = tmp_path / "flash.img"
    play_games(image, games=3)
    kept = tmp_path / "kept.img"
    shutil.copy(image, kept)
    db_a, db_b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    b = Served(image)
    try:
        status, out, _ = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db_a)])
    finally:
        b.close()
    assert status == 0 and "2 new games stored" in out
    g1, g2 = tmp_path / "g1.json", tmp_path / "g2.json"
    assert cli_run(capsys, ["export", "1", "--db", str(db_a), "-o", str(g1)])[0] == 0
    assert cli_run(capsys, ["export", "2", "--db", str(db_a), "-o", str(g2)])[0] == 0
    assert cli_run(capsys, ["import", str(g1), "--db", str(db_b)])[0] == 0
    doc = json.loads(g2.read_text())
    doc["header"]["played"] = "another evening"  # the same moves, another game
    g2.write_text(json.dumps(doc))
    assert cli_run(capsys, ["import", str(g2), "--db", str(db_b)])[0] == 0
    shutil.copy(kept, image)  # the same board, its games not yet deleted
    b = Served(image)
    try:
        with Store(db_b) as store, Link(b.runner.port) as link:
            said = []
            res = sync(link, store, say=said.append)
            assert res.duplicates == [(1, 1)] and [n for n, _ in res.stored] == [2]
            assert res.confirmed == [1, 2]
            assert "game 1: already stored as #1; not stored again" in said
            assert "1 already stored" in res.summary()
            assert store.count() == 3  # the import of game 1, the other import, game 2
            # the board's raw log of game 1 is kept with its import (the board deletes it)
            kept_log = store.get(1).log
            assert store.get(2).log is None  # the other import: no board game of its own
        with Store(db_a, readonly=True) as first:
            assert kept_log and bytes(kept_log) == bytes(first.get(1).log)
            # a board's game is never taken for a copy: one that merely looks the same (an
            # erased board's "board game 1" dropped before its first move) is another game
            g = first.get(1)
            assert first.find(g.kind, g.start, g.actions) == 1
            assert first.find(g.kind, g.start, g.actions, g.played, check_played=True) is None
        assert sorted(board_logs(b.runner.port)) == [3]  # only the game in play is left
    finally:
        b.close()


def _ctrl_c_at_confirm(monkeypatch):
    """Ctrl-C right after the sync's batch was stored, as it confirms it to the board."""
    def interrupted(self, games):
        raise KeyboardInterrupt
    monkeypatch.setattr(Link, "confirm_all", interrupted)


def test_ctrl_c_in_sync_says_what_was_stored(played, tmp_path, capsys, monkeypatch):
    """Ctrl-C during `cargoboard sync` exited 130 without a word although games were stored:
    now one line on stderr says how many are stored and that the rest stay on the board."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    _ctrl_c_at_confirm(monkeypatch)
    b = Served(image)
    try:
        status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])
        assert status == 130
        assert err == "interrupted: %d games stored, the rest stay on the board\n" % (GAMES - 1)
        with Store(db, readonly=True) as st:
            assert st.count() == GAMES - 1
        assert len(board_logs(b.runner.port)) == GAMES  # none confirmed: all still there
    finally:
        b.close()


def test_a_sync_broken_off_with_every_game_stored_does_not_say_the_rest_stay(tmp_path, capsys,
                                                                             monkeypatch):
    """"the rest stay on the board" was said also when none remained: Ctrl-C (or the link lost)
    as the sync confirmed the board's only game, stored. It now says none is left to fetch."""
    image = tmp_path / "flash.img"
    s = Session(out=lambda line: None, flash=image)
    try:
        s.execute("send new cephalopod 3x3")    # begun and dropped: one closed game
        s.execute("send abort")
    finally:
        s.close()
    db = tmp_path / "games.sqlite"
    _ctrl_c_at_confirm(monkeypatch)
    b = Served(image)
    try:
        status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])
        assert (status, err) == (130, "interrupted: 1 game stored, none left to fetch\n")

        def lost(self, games):
            raise LinkError("connection to %s lost: gone" % b.runner.port)
        monkeypatch.setattr(Link, "confirm_all", lost)
        status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db",
                                            str(tmp_path / "other.sqlite")])
        assert (status, err) == (1, "cargoboard: error: connection to %s lost: gone; 1 game "
                                    "stored, none left to fetch: run sync again (it resumes)\n"
                                 % b.runner.port)
    finally:
        b.close()


def test_ctrl_c_sent_to_a_waiting_sync_exits_130_with_its_line(tmp_path):
    """The real signal: SIGINT to `cargoboard sync` while it waits for a port that says
    nothing (sent once the request has arrived, so the command is inside sync)."""
    import select
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        exe = str(Path(sys.executable).parent / "cargoboard")
        p = subprocess.Popen([exe, "sync", "--port", port, "--db", str(tmp_path / "g.sqlite")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([master], [], [], 30)
        assert ready, "the sync sent nothing"
        os.read(master, 4096)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        os.close(master)
        os.close(slave)
    assert p.returncode == 130, (out, err)
    assert err == "interrupted: 0 games stored, the rest stay on the board\n"
    assert not (tmp_path / "g.sqlite").exists()


def test_a_port_that_babbles_is_named_as_not_the_board(tmp_path):
    """A port that answers with junk (frames of no protocol, as the audit's fakepty
    babble) used to be reported as "no answer from the board ... after 6 tries"."""
    import threading
    master, slave = os.openpty()
    stop = threading.Event()

    def babble():
        while not stop.is_set():
            os.write(master, b"\x00garbage\x00\x01\x02\x03\x00")
            time.sleep(0.01)

    t = threading.Thread(target=babble, daemon=True)
    t.start()
    try:
        with pytest.raises(LinkError) as e:
            with Link(os.ttyname(slave), timeout=0.3) as link:
                link.hello()
        # a command goes after a HELLO (does the board keep ONCE requests?), which finds
        # that the port is not the board: the command is not sent at all
        with pytest.raises(LinkError) as once:
            with Link(os.ttyname(slave), timeout=0.3) as link:
                link.text("undo")
    finally:
        stop.set()
        t.join()
        os.close(master)
        os.close(slave)
    assert "answered with" in str(e.value) and "not the board's protocol" in str(e.value)
    assert "no answer" not in str(e.value)
    assert "not the board's protocol" in str(once.value), once.value
    assert "may have run" not in str(once.value), once.value


def test_a_game_begun_and_closed_soon_after_a_sync_is_fetched_by_the_next(tmp_path):
    """The board's link keeps its listing of the flash for a sync's FETCHes while the game
    being written (glog.cur) stays; a game begun and closed in the 3 s after a sync (the link
    still loaded) left it at 0 as before, and the next sync found nothing to fetch. A FETCH
    from game 0 (a sync's first) lists the flash afresh."""
    from clirun import run
    from picotarget import SimProcess, one_game
    pty = tmp_path / "board"
    db = tmp_path / "games.sqlite"
    sim = SimProcess(pty, tmp_path / "flash", target="unix")
    try:
        one_game(pty)
        assert "1 new game stored" in run("sync", "--port", str(pty), "--db", str(db)).stdout
        one_game(pty)  # at once: the link is still loaded
        r = run("sync", "--port", str(pty), "--db", str(db))
        assert "1 new game stored" in r.stdout, r.stdout
    finally:
        sim.stop()
    with Store(db, readonly=True) as st:
        assert sorted(n for _, _, n, *_ in st.list()) == [1, 2]


def _two_boards_of_one_id(tmp_path, monkeypatch):
    """(the flash images of two virtual boards of the id sim-c10ed000, each with games 1 and
    2 closed and 3 open, other games on each; the path of a store)."""
    from cargoboard.sim import runner
    monkeypatch.setattr(runner, "sim_board_id", lambda image: "sim-c10ed000")
    images = [tmp_path / "a" / "flash.img", tmp_path / "b" / "flash.img"]
    for image, actions in zip(images, [(9, 14, 6), (4, 7, 5)]):
        image.parent.mkdir()
        play_games(image, games=3, actions=actions)  # games 1, 2 closed, 3 open: other games
    db = tmp_path / "games.sqlite"
    return images, db


def test_two_syncs_at_once_from_boards_of_one_id_store_every_game(tmp_path, monkeypatch):
    """The store audit's case: two boards with the same id (cloned flash; two `sim --target
    pico` without --flash) synced at once. Each sync looked at the store (stored_from, find)
    before its write transaction, so the other could store the same numbers meanwhile: "UNIQUE
    constraint failed: games.source, games.source_game", after "stored as ..." lines for games
    then not stored. The look and the write of a batch are one transaction now. Made
    deterministic: sync B runs while A is about to store its batch, and A goes on only when B
    is done or waits for the write lock A holds."""
    import threading
    images, db = _two_boards_of_one_id(tmp_path, monkeypatch)
    Store(db).close()
    boards = [Served(image) for image in images]
    b_state = {"begins": threading.Event(), "done": threading.Event()}
    said_b = []

    def sync_b():
        try:
            with Store(db) as store, Link(boards[1].runner.port) as link:
                store.db.set_trace_callback(
                    lambda sql: sql.startswith("BEGIN IMMEDIATE") and b_state["begins"].set())
                b_state["res"] = sync(link, store, say=said_b.append)
        except Exception as e:  # (said by the assertion below)
            b_state["error"] = e
        finally:
            b_state["done"].set()

    try:
        with Store(db) as store, Link(boards[0].runner.port) as link:
            real_add_all = store.add_all

            def add_all_with_b_meanwhile(recs):
                if "thread" not in b_state:
                    b_state["thread"] = threading.Thread(target=sync_b)
                    b_state["thread"].start()
                    while not (b_state["done"].wait(0.01) or (b_state["begins"].is_set()
                                                               and store.db.in_transaction)):
                        pass
                return real_add_all(recs)

            store.add_all = add_all_with_b_meanwhile
            res_a = sync(link, store)
        b_state["thread"].join(120)
        assert "error" not in b_state, b_state.get("error")
        res_b = b_state["res"]
        assert [n for n, _ in res_a.stored] == [1, 2] and res_a.renumbered == []
        assert res_b.renumbered == [(1, "sim-c10ed000#2"), (2, "sim-c10ed000#2")]
        assert [n for n, _ in res_b.stored] == [1, 2]
        assert said_b == ["game %d: the store has another game %d of this board (its numbering "
                          "began again); stored as a game of sim-c10ed000#2" % (n, n)
                          for n in (1, 2)]
        with Store(db, readonly=True) as store:
            for board, source in zip(boards, ["sim-c10ed000", "sim-c10ed000#2"]):
                logs = board_logs(board.runner.port)
                assert sorted(logs) == [3]  # the other two deleted, stored
                assert [r[1] for r in store.list()].count(source) == 2
    finally:
        for board in boards:
            board.close()


def test_two_syncs_of_one_id_each_keep_to_one_numbering_across_batches(tmp_path, monkeypatch):
    """The store audit: a board's batches interleaved with another's of the same id (a copied
    virtual board; no two real Picos share an id) split each board's games between BOARD and
    BOARD#2, the numbering being chosen game by game. Each sync run now keeps to one. The
    board's batches are made one game each here, and B syncs whole between A's two."""
    images, db = _two_boards_of_one_id(tmp_path, monkeypatch)
    boards = [Served(image) for image in images]
    try:
        logs = [board_logs(board.runner.port) for board in boards]
        with Store(db) as store, Link(boards[0].runner.port) as a, \
                Link(boards[1].runner.port) as b:
            fetch = Link.fetch
            fetched = []

            def one_game_a_batch(link, first=0, *args):
                if link is a and first > 0 and not fetched:
                    fetched.append(sync(b, store))  # B whole, between A's batches
                games, more, cut = fetch(link, first, *args)
                return games[:1], more or len(games) > 1, cut

            monkeypatch.setattr(Link, "fetch", one_game_a_batch)
            res_a = sync(a, store)
            res_b, = fetched
            assert [n for n, _ in res_a.stored] == [1, 2] and res_a.renumbered == []
            assert [n for n, _ in res_b.stored] == [1, 2]
            sources = {}
            for row in store.list():
                sources.setdefault(row[1], []).append(row[2])
            assert sources == {"sim-c10ed000": [1, 2], "sim-c10ed000#2": [1, 2]}
            for source, board_log in zip(sources, logs):  # A's games in one, B's in the other
                for n in (1, 2):
                    assert bytes(store.get_by_source(source, n).log) == board_log[n][1]
    finally:
        for board in boards:
            board.close()


def test_a_sync_into_a_store_another_program_is_writing_says_in_use(played, tmp_path, capsys):
    """The audit's case: another program in a write transaction, `sync` waited SQLite's 5 s,
    then said "database is locked". It says the store is in use (exit 1), as the docs do, and
    the board keeps every game."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    Store(db).close()
    b = Served(image)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # as another program's sync about to write
    try:
        status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])
        assert (status, err) == (1, "cargoboard: error: %s is in use: another program holds it "
                                    "locked (a sync, serve or import still writing?); try again "
                                    "when it has finished\n" % db)
        other.execute("ROLLBACK")
        assert len(board_logs(b.runner.port)) == GAMES
    finally:
        other.close()
        b.close()


# `cargoboard sync ARGV...` sent SIGTERM by itself as it is about to confirm its first batch
# (stored, not yet deleted on the board), as `kill` would.
SIGTERM_AT_CONFIRM = """
import os, signal, sys
from cargoboard.link import Link
def confirm_all(self, games):
    os.kill(os.getpid(), signal.SIGTERM)
Link.confirm_all = confirm_all
from cargoboard.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sigterm_in_sync_says_what_was_stored_and_exits_143(played, tmp_path):
    """The audit's case: SIGTERM (kill, a closed session) ended a sync with exit -15 and no
    word of what was stored. It is handled as Ctrl-C is: the line, then exit 143."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    b = Served(image)
    try:
        p = subprocess.run([sys.executable, "-c", SIGTERM_AT_CONFIRM, "sync", "--port",
                            b.runner.port, "--db", str(db)], capture_output=True, text=True,
                           timeout=300)
        assert (p.returncode, p.stderr) == (
            143, "interrupted: %d games stored, the rest stay on the board\n" % (GAMES - 1))
        with Store(db, readonly=True) as st:
            assert st.count() == GAMES - 1
        assert len(board_logs(b.runner.port)) == GAMES  # none confirmed: all still there
    finally:
        b.close()


def test_a_sync_after_one_killed_before_its_confirm_says_what_it_had_stored(
        played, tmp_path, capsys, monkeypatch):
    """The audit's case: a sync stopped between its commit and CONFIRM; the next said "0 new
    games stored, 2 deleted on the board" without a word of why: it says they were stored by
    an earlier sync."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    b = Served(image)
    try:
        with monkeypatch.context() as m:
            _ctrl_c_at_confirm(m)
            assert cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])[0] == 130
        status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])
        assert (status, err) == (0, "")
        assert out == "%s: 0 new games stored, %d stored by an earlier sync, %d confirmed to " \
                      "the board, game %d still being played (store: %s)\n" % (
                          b.runner.port, GAMES - 1, GAMES - 1, GAMES, db)
    finally:
        b.close()


def test_a_sync_broken_off_says_what_was_stored_and_to_sync_again(played, tmp_path, capsys,
                                                                   monkeypatch):
    """The board gone midway (its process killed, the cable pulled) ended a sync with only
    `connection to PORT lost: ...`: not a word of what was stored or what to do. The one line
    now says both; the next sync takes every game, once."""
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    b = Served(image)
    port = b.runner.port
    fetch = Link.fetch

    def board_gone(self, *args):  # the virtual board's link closed as its sync's FETCH goes
        b.close()
        return fetch(self, *args)
    try:
        with monkeypatch.context() as m:
            m.setattr(Link, "fetch", board_gone)
            status, out, err = cli_run(capsys, ["sync", "--port", port, "--db", str(db)])
    finally:
        b.close()
    assert (status, out) == (1, ""), err
    assert err.startswith("cargoboard: error: connection to %s lost: " % port), err
    assert err.endswith("; no game stored, all stay on the board: run sync again (it "
                        "resumes)\n"), err
    b = Served(image)
    try:
        status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db", str(db)])
    finally:
        b.close()
    assert (status, err) == (0, "")
    assert "%d new games stored" % (GAMES - 1) in out
    with Store(db, readonly=True) as st:
        assert st.count() == GAMES - 1


def test_a_store_that_cannot_grow_is_named_and_the_games_stay_on_the_board(played, tmp_path):
    """A store that cannot grow (a full disk; here the file size limit, whose EFBIG SQLite
    says as a disk I/O error) ended a sync with SQLite's bare `database or disk is full` (or
    `disk I/O error`), naming neither the store nor what became of the games. The line names
    the store and says the games stay on the board; the board deletes none of them."""
    import resource
    image = tmp_path / "flash.img"
    shutil.copy(played[0], image)
    db = tmp_path / "games.sqlite"
    Store(db).close()  # made beforehand: the batch's write is what fails

    def small_files():  # no file may grow past 1 KB: the write's journal cannot be written
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))
    b = Served(image)
    try:
        p = subprocess.run([sys.executable, "-m", "cargoboard", "sync", "--port",
                            b.runner.port, "--db", str(db)], capture_output=True, text=True,
                           timeout=300, preexec_fn=small_files)
        assert (p.returncode, p.stdout) == (1, ""), p
        assert p.stderr == ("cargoboard: error: cannot write the game store %s: disk I/O error; "
                            "no game stored, all stay on the board: run sync again (it "
                            "resumes)\n" % db), p.stderr
        assert len(board_logs(b.runner.port)) == GAMES  # none confirmed: all still there
        with Store(db, readonly=True) as st:
            assert st.count() == 0
    finally:
        b.close()


def test_a_port_another_sync_holds_is_said_so(played, tmp_path, capsys):
    """Two syncs (or a sync and a deploy) at once on one port: the second is told who may hold
    it, where it said `Resource temporarily unavailable` and asked only about `serve` and its
    "sync now" (no help to a deploy); the store is not made."""
    b = Served(_copy(played[0], tmp_path))
    db = tmp_path / "games.sqlite"
    try:
        with Link(b.runner.port):  # the first program, holding the port
            status, out, err = cli_run(capsys, ["sync", "--port", b.runner.port, "--db",
                                                str(db)])
    finally:
        b.close()
    assert (status, out) == (1, "")
    assert err == ("cargoboard: error: cannot open %s: another program has the board's port "
                   "open: a sync or deploy still running, or cargoboard serve following the "
                   "board (its page has sync now; to deploy, stop it)\n" % b.runner.port), err
    assert not db.exists()


def _copy(image, tmp_path):
    shutil.copy(image, tmp_path / "flash.img")
    return tmp_path / "flash.img"


def test_run_sync_again_is_added_by_the_error_not_by_a_word_in_its_text(tmp_path, capsys,
                                                                        monkeypatch):
    """A sync broken off adds "run sync again (it resumes)" unless the error's line already
    says what to do next. That was a search for the word "again" in the text: a store in a
    folder named `again` (or `try-again`, ...) lost the advice. It is the error's own say now
    (tells_next)."""
    from cargoboard import sync as sync_module
    from cargoboard import sync_cli
    from cargoboard.store import StoreError, StoreInUse

    class Board:
        def __init__(self, port):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def hello(self):
            pass
    monkeypatch.setattr(sync_cli, "Link", Board)
    db = tmp_path / "again" / "games.sqlite"
    db.parent.mkdir()
    for error, advice in ((lambda: StoreError("cannot write the game store %s: the disk is "
                                              "full" % db), True),
                          (lambda: LinkError("connection to again lost"), True),
                          (lambda: StoreInUse("%s is in use: ...; try again when it has "
                                              "finished" % db), False),
                          (lambda: LinkError("no answer (the command may have run)",
                                             tells_next=True), False)):
        def broken_off(link, store, res, error=error, **kwargs):
            res.stored.append(1)  # one game stored before it broke off
            raise error()
        monkeypatch.setattr(sync_module, "sync", broken_off)
        status, out, err = cli_run(capsys, ["sync", "--port", "/dev/null", "--db", str(db)])
        assert (status, out) == (1, ""), err
        assert err.endswith(": run sync again (it resumes)\n") == advice, err
