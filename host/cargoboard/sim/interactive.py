"""Interactive terminal mode (`cargoboard sim --interactive`): the LED grid in 24-bit ANSI
colour with the stacks of the world, a prompt taking the script verbs (see
cargoboard.sim.script) plus `show`, `status`, `help`, `quit`. Time advances only through the
verbs (lockstep), so what is shown is the frame after the last verb."""

from __future__ import annotations

import sys

from cargoboard.sim.script import Session, ScriptError, VERBS, strip_comment
from cargoboard.sim.runner import FirmwareError
from cargoboard.sim.world import WorldError

COLS = "abcdefghijk"
SCORE_BASE = 121


def _boost(rgb):
    """LED values are dim (brightness cap); scale up for the screen, keep the hue."""
    m = max(rgb)
    if m == 0:
        return (30, 30, 30)
    k = 255 / m
    lvl = 0.35 + 0.65 * min(1.0, m / 96)
    return tuple(int(v * k * lvl) for v in rgb)


CELL_WIDTH = 5  # "B1:2 ": the top piece, the stack's height, a blank between cells


def _cell_text(world, c):
    """The top piece of c (a cube by its top and south faces, `B1`; a keeper `KS`; a card
    `csS`) and, for a stack, its height (`B1:2`), padded so that neighbours stay apart."""
    st = world.stacks[c]
    if not st:
        return " " * CELL_WIDTH
    t = world.item_name(st[-1])
    if t.startswith("card:"):
        t = "c" + t[5:]
    if len(st) > 1:
        t = "%s:%d" % (t, len(st))
    return (" " + t).ljust(CELL_WIDTH)[:CELL_WIDTH]


def _bg(rgb, text):
    r, g, b = _boost(rgb)
    fg = "30" if (r * 299 + g * 587 + b * 114) / 1000 > 110 else "97"
    return f"\x1b[48;2;{r};{g};{b}m\x1b[{fg}m{text}\x1b[0m"


def render(session) -> str:
    r = session.runner
    w = session.world
    out = []

    def bar(seat, reverse=False):
        """A seat's 9 score LEDs under (over) the columns b..j."""
        cells = [_bg(r.led(SCORE_BASE + 9 * seat + k), "  ") for k in range(9)]
        cells = reversed(cells) if reverse else cells
        return " " * (7 + CELL_WIDTH + 1) + (" " * (CELL_WIDTH - 2)).join(cells)

    out.append(bar(2, reverse=True) + "   N")
    west = [SCORE_BASE + 9 + k for k in range(9)]          # north -> south
    east = [SCORE_BASE + 27 + k for k in range(9)]         # south -> north
    for y in range(10, -1, -1):
        row = []
        for x in range(11):
            c = y * 11 + x
            row.append(_bg(r.led(c), _cell_text(w, c)))
        wl = _bg(r.led(west[9 - y]), "  ") if 1 <= y <= 9 else "  "
        el = _bg(r.led(east[y - 1]), "  ") if 1 <= y <= 9 else "  "
        out.append(f"{y + 1:>3} {wl} " + "".join(row) + f" {el}")
    out.append("       " + "".join(f" {ch}".ljust(CELL_WIDTH) for ch in COLS))
    out.append(bar(0) + "   S")
    hand = " ".join(w.item_name(i) for i in w.hand) or "-"
    out.append(f"t={r.t / 1000:.2f}s  hand: {hand}  presses: {session.presses}")
    return "\n".join(out)


def run_interactive(inp=None, out=None, **runner_kwargs) -> int:
    inp = inp or sys.stdin
    write = (out or sys.stdout).write

    def say(text):
        write(text + "\n")

    try:
        s = Session(out=say, **runner_kwargs)
    except (FirmwareError, OSError) as e:
        say(f"cannot start the simulated board: {e}")
        return 2
    say("Cargoboard simulator. Verbs: %s; show status help quit." % " ".join(VERBS))
    if s.runner.revision == "B":
        say("Revision B: linear Hall sensors, the field of every cell from the field model.")
    if s.faults:
        say("Faults (docs/bringup.md): %s." % ", ".join(s.faults.specs))
    say(f"The board's USB serial is also on {s.runner.port} (pyserial/miniterm can open it).")
    try:
        while True:
            say(render(s))
            write("> ")
            (out or sys.stdout).flush()
            line = inp.readline()
            if not line:
                break
            line = strip_comment(line).strip()
            if not line:
                continue
            if line in ("quit", "exit"):
                break
            if line == "show":
                continue
            if line == "help":
                from cargoboard.sim import script
                say(script.__doc__)
                continue
            if line == "status":
                line = "send status"
            before = s.presses
            try:
                used = s.execute(line)
                if used:
                    say(f"  buttons used: {used}")
            except (ScriptError, WorldError) as e:
                used = s.presses - before  # a failed resolve may have pressed some
                say(f"error: {e}" + (f" (after {used} button press(es))" if used else ""))
            except FirmwareError as e:
                say(f"the firmware broke down: {e}")
                return 1
    finally:
        s.close()
    return 0
