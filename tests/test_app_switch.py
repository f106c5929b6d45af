"""A board that goes from one game to another, on the virtual board (the real firmware under
the MicroPython unix port at 192 KiB): the old game's code leaves the heap with it, and the
script's console and the host tools take turns on the pty."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT))

from cargoboard.games.cargocube.scriptgen import game_script  # noqa: E402
from cargoboard.link import Link  # noqa: E402
from cargoboard.sim.script import Session  # noqa: E402

def test_switching_games_drops_the_old_games_code(tmp_path):
    """Cephalopod set up after a Cargocube game uses the heap that Cephalopod set up on a fresh
    board uses (within 4 KB): Cargocube's modules (its rules, plug-in and tracker, tens of KB)
    are gone with its game. Before, both games' code stayed for good and a board switching
    between games ran out of heap."""
    fresh = Session(out=lambda line: None, flash=tmp_path / "a.img", board_paths=True)
    try:
        fresh.execute("new-game cephalopod 5x5")
        alone = fresh.heap_in_use()
    finally:
        fresh.close()
    s = Session(out=lambda line: None, flash=tmp_path / "b.img", board_paths=True)
    try:
        s.execute("new-game cargocube polygon SN")
        cargocube = s.heap_in_use()
        s.execute("new-game cephalopod 5x5")
        after = s.heap_in_use()
        assert after - alone < 4096, (alone, cargocube, after)
        assert "evt log abandoned game=1" in s.events
        # and back: Cargocube, its code loaded again, plays from its start
        script, final = game_script(seed=1, players=2, actions=3, check_every=0)
        for line in script.splitlines():
            s.execute(line)  # resolve after each action, expect at the end
        assert s.position() == final.notation()
    finally:
        s.close()


def test_host_tools_and_the_script_take_turns_on_the_pty(tmp_path):
    """Session.host_tools(): a Link on the board's pty (as `cargoboard sync` opens it) while
    the script's console is closed; after it, the script's queries get their own replies,
    not the ones the board gave the host tools."""
    s = Session(out=lambda line: None, flash=tmp_path / "f.img")
    try:
        s.execute("new-game cephalopod 3x3")
        before = s.position()
        with s.host_tools() as port:
            with Link(port, timeout=2.0) as link:
                assert link.hello()["fw"]
                assert link.text("pos") == "ok " + before
                assert link.text("mem").startswith("ok alloc=")
        # at once after: the console's first reply is the one to this query, not an earlier
        # one the board wrote before the host tools had the pty, and no event comes twice
        events = list(s.events)
        assert s.query("status")[1].startswith("ok state=play")
        assert s.events == events
        s.execute("drop e5")
        s.execute("wait 600")
        after = s.position()
        assert after == ".../.../w1.. b", after  # a1 of the 3x3 block is e5
        assert s.heap_in_use() > 0
    finally:
        s.close()
