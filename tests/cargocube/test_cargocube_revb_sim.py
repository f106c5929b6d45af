"""Revision B on the virtual board: the real firmware under MicroPython reads the scan's ADC sums
('G' frames) from the field model, through its HAL logic, level scanner and tracker. The moves
revision A cannot see (the test_cargocube_sim_resolve scenario: an activation onto a stack,
then a move from stack to stack) are taken with no button."""

from shared_rules.cargocube import rules as cc
from shared_rules.geometry import cell_name
from cargoboard.sim import REVB_HEAP
from cargoboard.games.cargocube.hallfield import Noise
from cargoboard.sim.script import run_script

SCENARIO = ("d4w", "c4n")  # onto c4 (only d4 empties), then c4's top onto c5 (nothing empties)


def _script(pos, expect_each):
    lines = ["new-game cargocube polygon SN"]
    for text in SCENARIO:
        a = pos.parse_action(text)
        lines += ["lift " + cell_name(a[1]), "place " + cell_name(a[3])]
        pos.push(a)
        if expect_each:
            lines.append("expect " + pos.notation())
    return "\n".join(lines) + "\n"


def test_moves_revision_a_cannot_see_are_taken_with_no_button(tmp_path):
    pos = cc.start_position(2)
    path = tmp_path / "revb.txt"
    path.write_text(_script(pos, True))
    lines = []
    status = run_script(str(path), out=lines.append, revision="B", noise=Noise(shift_mm=0.5),
                        heapsize=REVB_HEAP)
    text = "\n".join(lines)
    assert status == 0, text
    assert "ok; 0 button press(es); 0 firmware error event(s)" in text
    assert "auto d4w" in text and "auto c4n" in text


# «Пирамида» as test_cargocube_sim_expansions plays it, ending with a spiral turn: the script's
# `turn` turns the stack's magnets where it stands (nothing is lifted), and the board reads the
# turn from the cells around it. Then the turned cube is rolled on: the world's magnets and the
# board's tracked faces must still agree.
PYRAMID_TURN = ("d4w", "b1@e2", "K@e2", "end", "c9n", "end", "i3w", "i1@b4", "c4w^b1", "end",
                "d9n", "end", "g3w", "j1@h2", "h3s", "h2cw")


def test_a_scripted_spiral_turn_is_taken_with_no_button(tmp_path):
    from cargoboard.games.cargocube.scriptgen import action_lines
    pos = cc.start_position(2, cards="pyramid")
    lines = ["new-game cargocube polygon SN pyramid"]
    for text in PYRAMID_TURN + ("h2e",):
        a = pos.parse_action(text)
        lines += action_lines(pos, a)
        pos.push(a)
        lines.append("resolve " + pos.notation())
    lines.append("expect " + pos.notation())
    assert "turn h2 cw" in lines
    path = tmp_path / "spiral.txt"
    path.write_text("\n".join(lines) + "\n")
    out = []
    status = run_script(str(path), out=out.append, revision="B", noise=Noise(shift_mm=0.5),
                        heapsize=REVB_HEAP)
    text = "\n".join(out)
    assert status == 0, text[-3000:]
    assert "evt auto h2cw" in text and "evt auto h2e" in text, text[-3000:]
    assert "0 firmware error event(s)" in text
