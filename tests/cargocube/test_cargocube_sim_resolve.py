"""`resolve` when the board is a move behind: an activation onto a stack, then a move from
stack to stack (no trace at all), then `resolve` of the position after both. The player first
picks the earlier move, then the hidden one, with buttons only; the real firmware runs under
MicroPython on the virtual board."""

from shared_rules.cargocube import rules as cc
from cargoboard.sim.script import run_script


def test_resolve_two_moves_behind(tmp_path):
    pos = cc.start_position(2)
    pos.push(pos.parse_action("d4w"))  # onto c4: only d4 empties
    pos.push(pos.parse_action("c4n"))  # the cube on top of c4 onto c5: nothing changes
    script = "\n".join([
        "new-game cargocube polygon SN",
        "lift d4", "place c4",
        "lift c4", "place c5",
        "resolve " + pos.notation(),
        "expect " + pos.notation(),
    ]) + "\n"
    path = tmp_path / "behind.txt"
    path.write_text(script)
    lines = []
    assert run_script(str(path), out=lines.append) == 0, "\n".join(lines)
    text = "\n".join(lines)
    assert "resolved the earlier d4w first" in text
    assert "resolved c4n" in text
