"""The host's reading of a board's game log (cargoboard.logrecord): into the store, with the
take-backs applied, a torn tail reported, logs that do not replay refused with a clear error."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from firmware.system import logformat as LF  # noqa: E402
from firmware.system import logread  # noqa: E402
from firmware.system.gamelog import GameLog  # noqa: E402
from shared_rules.cargocube import rules as cc  # noqa: E402
from cargoboard.logrecord import record_from_log, LogError  # noqa: E402
from cargoboard.store import Store  # noqa: E402
from test_logformat import build, random_steps, sample_header  # noqa: E402


def board_log(tmp_path, seed=2, n=80, finish=True):
    """A game logged by the board's store; (raw log, final position, standing actions)."""
    gl = GameLog(str(tmp_path), "e6614c31")
    pos = cc.start_position(2, cards=True)
    gl.begin("cargocube", "polygon+cards", "SN", pos.notation(), None, cc.RULES_VERSION,
             1767225600)
    steps, final = random_steps(seed, n)
    for s in steps:
        if s is None:
            gl.undo()
        else:
            gl.append(s)
    if finish:
        gl.finish()
    n = gl.current()
    return logread.read(gl, n, 0, logread.size(gl, n)), final


def test_record_replays_and_goes_into_the_store(tmp_path):
    raw, final = board_log(tmp_path)
    rec = record_from_log(raw)
    assert (rec.kind, rec.variant, rec.seats, rec.source, rec.source_game) == (
        "cargocube", "polygon+cards", "SN", "e6614c31", 1)
    assert rec.start == cc.start_position(2, cards=True).notation()
    assert rec.actions == [cc.format_action(a) for a in final.history()]
    assert rec.final_position().notation() == final.notation()
    assert rec.status == "over" and rec.problem is None and rec.dropped == 0
    assert rec.undos > 0 and rec.played == "2026-01-01T00:00:00Z" and rec.log == raw
    with Store(tmp_path / "games.sqlite") as st:
        gid = st.add(rec)
        back = st.get(gid)
        assert back.actions == rec.actions and bytes(back.log) == raw
        assert st.has("e6614c31", 1)
    assert record_from_log(raw, source="other").source == "other"


def test_torn_tail_and_open_games_are_reported(tmp_path):
    raw, final = board_log(tmp_path, finish=False)
    rec = record_from_log(raw + bytes([LF.TAGS[2], 0x01]))
    assert rec.status == "open" and rec.dropped == 2
    assert rec.problem.startswith("torn tail")
    assert rec.final_position().notation() == final.notation()
    assert len(rec.log) == len(raw) + 2  # kept as read
    a = cc.encode_action(cc.start_position(2).legal_actions()[0])
    ab = build([a, "x"], sample_header())
    assert record_from_log(ab).status == "abandoned"


def test_logs_that_do_not_replay_are_refused(tmp_path):
    start = cc.start_position(2).notation()
    with pytest.raises(LogError, match="not a usable game log: empty log"):
        record_from_log(b"")
    with pytest.raises(LogError, match="record 1 .*does not replay"):
        record_from_log(build([b"\x7f\x7f"], sample_header(start=start)))
    with pytest.raises(LogError, match="takes back an action that is not there"):
        record_from_log(build([None], sample_header(start=start)))
    with pytest.raises(LogError, match="unknown game 'chess'"):
        record_from_log(build([], sample_header(kind="chess")))
    # another rules version: what to do, by which side is newer (it said only the numbers)
    with pytest.raises(LogError, match="played with cargocube rules version 99; this "
                                       "program's are version 1: update this program"):
        record_from_log(build([], sample_header(rules=99)))
    with pytest.raises(LogError, match="version 0; this program's are version 1: the rules "
                                       "changed since .*the cargoboard of the board's firmware "
                                       "then reads it"):
        record_from_log(build([], sample_header(rules=0)))
    with pytest.raises(LogError, match="bad start position"):
        record_from_log(build([], sample_header(start="nonsense")))
    a = cc.encode_action(cc.start_position(2).legal_actions()[0])
    with pytest.raises(LogError, match="left over"):
        record_from_log(build([a + b"\x00"], sample_header(start=start)))


def test_a_waiting_boards_log_of_format_2_reads_as_the_board_showed_it(tmp_path, monkeypatch):
    """A wait=4 game (seed 6, purposeful) logged by the board's store as the app does it: the
    doubt records make the log format version 2. Read while a doubt is open, the record holds
    the moves the board showed and names the open doubt; read at the end, the whole game, its
    changes of reading counted with the take-backs, no doubt open; both go into the store."""
    from cargoboard.games.cargocube import play
    from firmware.games.cargocube.plugin import Game
    from shared_rules.cargocube.engine import best_action
    gl = GameLog(str(tmp_path), "e6614c31")
    seen = {}

    def factory(options):
        options["record"] = gl.append
        options["record_undo"] = gl.undo
        options["record_doubt"] = gl.doubt
        options["record_over"] = gl.finish
        game = Game(options)
        gl.begin("cargocube", game.variant, options["seats"], game.pos.notation(), None,
                 cc.RULES_VERSION, 1767225600, game.log_version)
        after0 = game._after

        def after(now_ms):
            after0(now_ms)
            t = game.tracker
            if t.readings and "open" not in seen:
                n = gl.current()
                seen["open"] = (logread.read(gl, n, 0, logread.size(gl, n)), t.doubt_at,
                                [cc.format_action(a) for a in t.pos.history()])
            seen["game"] = game
        game._after = after
        return game

    monkeypatch.setattr(play, "Game", factory)
    st = play.play_game(6, players=2, cards=True, wait=4,
                        pick=lambda pos, legal, rng: best_action(pos) if rng.random() < 0.8
                        else legal[rng.randrange(len(legal))])
    assert st.wrong == 0
    raw, doubt_at, shown = seen["open"]
    assert raw[4] == 2
    rec = record_from_log(raw)
    assert rec.variant == "polygon+cards+wait4" and rec.status == "open"
    assert rec.doubt_at == doubt_at and rec.actions == shown
    n = gl.current()
    raw = logread.read(gl, n, 0, logread.size(gl, n))
    rec = record_from_log(raw)
    game = seen["game"]
    assert rec.actions == [cc.format_action(a) for a in game.pos.history()]
    assert rec.doubt_at is None and rec.undos > 0 and rec.problem is None
    with Store(str(tmp_path / "games.db")) as store:
        assert store.add(rec) is not None
