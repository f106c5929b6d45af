"""`resolve` when the board is a move behind: an activation onto a stack, then a move from
stack to stack (no trace at all), then `resolve` of the position after both. The player first
picks the earlier move, then the hidden one, with buttons only; the real firmware runs under
MicroPython on the virtual board."""

from shared_rules.cargocube import rules as cc
from cargoboard.sim.script import run_script


def test_resolve_two_moves_behind(tmp_path):
    """The board that asks at once (wait=0) is two moves behind: the earlier one is picked
    first."""
    pos = cc.start_position(2)
    pos.push(pos.parse_action("d4w"))  # onto c4: only d4 empties
    pos.push(pos.parse_action("c4n"))  # the cube on top of c4 onto c5: nothing changes
    script = "\n".join([
        "new-game cargocube polygon SN wait=0",
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


def test_resolve_and_expect_follow_a_board_that_holds_moves_in_doubt(tmp_path):
    """Revision A's default board (wait=2) takes a look-alike for now and settles it by the
    moves after, or asks about it later: `resolve` plays on while the board holds the move in
    doubt (one of its `readings` leads to the position), answers a question about an earlier
    move (`candidates` ... at=PLY) with the move that led to the position resolved then, and
    `expect` takes a position the board holds as a reading. Seed 1's random game does all three
    (host/cargoboard/sim/script.py): `expect` is tried after each resolve that leaves the move
    in doubt."""
    from cargoboard.games.cargocube.scriptgen import game_script
    from cargoboard.sim.script import Session, strip_comment
    text, final = game_script(seed=1, players=2, actions=60, check_every=0)
    lines = []
    expected_in_doubt = 0
    s = Session(out=lines.append)
    try:
        for raw in text.splitlines():
            line = strip_comment(raw).strip()
            if not line:
                continue
            s.execute(line)
            if line.startswith("resolve ") and "holds it in doubt" in lines[-1]:
                s.execute("expect " + line[len("resolve "):])
                assert lines[-1] == "  expected position: a reading the board holds in doubt"
                expected_in_doubt += 1
    finally:
        s.close()
    out = "\n".join(lines)
    assert "resolved the earlier " in out and "(ply " in out
    assert expected_in_doubt > 0
    # the same script on the board that asks at once never holds a move in doubt
    path = tmp_path / "at-once.txt"
    path.write_text(text.replace("new-game cargocube polygon SN",
                                 "new-game cargocube polygon SN wait=0"))
    lines = []
    assert run_script(str(path), out=lines.append) == 0, "\n".join(lines[-80:])
    out = "\n".join(lines)
    assert "in doubt" not in out and "(ply " not in out
