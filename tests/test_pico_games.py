"""Every game on the stock MicroPython image of an emulated RP2040 (rp2040js; the board's HAL,
its pin map, its flash with the game log): a seeded game of each, played by the script hand
through the sensors and buttons as on the board, its position checked against the rules' as
it goes. The unix-port tests play these games much longer; this shows the board's own image
runs each game's code (test_pico.py plays Cephalopod's with the sync too). Each game's own folder
gives its cases (host/cargoboard/games/<game>/scriptgen.py, PICO_CASES): a new game adds its
there, not here."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests"))

from cargoboard import games  # noqa: E402
from cargoboard.sim.script import Session, strip_comment  # noqa: E402
from picotarget import require_pico  # noqa: E402


def pico_cases():
    """[(game, case name)]: every game of the host registry plays the games its own folder gives
    (PICO_CASES of its `scriptgen` part: name -> () -> (script text, final position))."""
    return [(kind, name) for kind in games.kinds()
            for name in getattr(games.part(kind, "scriptgen"), "PICO_CASES", {})]


def test_every_game_of_the_board_gives_the_emulated_pico_a_game():
    """A game the board plays (the firmware's registry) that gives no case here would have no
    test on the board's own image; it is an error, not a silent gap."""
    from firmware.games import REGISTRY
    board_games = sorted(kind for kind, _ in REGISTRY if kind in games.kinds())
    assert len(board_games) >= 4
    assert sorted({kind for kind, _ in pico_cases()}) == board_games


@pytest.mark.parametrize("game,case", pico_cases())
def test_a_game_on_the_emulated_pico(game, case, tmp_path):
    require_pico()
    text, _final = games.part(game, "scriptgen").PICO_CASES[case]()
    # the script checks the board's position as it goes (`expect`, or `resolve`: the board
    # must reach that position)
    assert text.count("\nexpect ") + text.count("\nresolve ") >= 5
    out = []
    s = Session(out=out.append, target="pico", flash=tmp_path / "flash.img")
    try:
        for raw in text.splitlines():
            line = strip_comment(raw).strip()
            if line:
                s.execute(line)  # a ScriptError if the board's position is not the rules'
        assert s.runner.target == "pico"
        events = "\n".join(out)
        assert "evt boot cargoboard" in events and "hal=rp2040" in events
        assert "evt log begin game=1" in events  # logged on the emulated flash
        assert "evt error" not in events, events[-3000:]
    finally:
        s.close()
