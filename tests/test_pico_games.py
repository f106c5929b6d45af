"""Every game on the stock MicroPython image of an emulated RP2040 (rp2040js; the board's HAL,
its pin map, its flash with the game log): a seeded game of each, played by the script hand
through the sensors and buttons as on the board, its position checked against the rules' as
it goes. The unix-port tests play these games much longer; this shows the board's own image
runs each game's code (test_pico.py does Cephalopod's, with the sync)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "tests"))

from cargoboard.sim.script import Session, strip_comment  # noqa: E402
from picotarget import require_pico  # noqa: E402


def _cargocube(cards, players, teleport):
    from cargoboard.games.cargocube.scriptgen import game_script
    return game_script(seed=5, players=players, actions=24, check_every=6, cards=cards,
                       teleport=teleport)


def _kubitva():
    from cargoboard.games.kubitva.hand import pick_engine
    from cargoboard.games.kubitva.scriptgen import game_script
    return game_script(seed=8, actions=40, check_every=10, pick=pick_engine)


def _formula99():
    from cargoboard.games.formula99.scriptgen import game_script
    return game_script(5, players=3, level=2, plies=30)


GAMES = {
    "cargocube-base-cards": lambda: _cargocube("base", 2, False),
    "cargocube-4-both-teleport": lambda: _cargocube("both", 4, True),
    "kubitva": _kubitva,
    "formula99": _formula99,
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_on_the_emulated_pico(name, tmp_path):
    require_pico()
    text, _final = GAMES[name]()
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
