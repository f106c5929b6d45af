"""Issue 13: "load expansion code only for games that use it". The real firmware on the
MicroPython unix port (the device build, 192k heap) sets games up over its console, as `new`
from a host does, and lists the Cargocube modules it holds after each: a base game holds
neither the expansions' code (shared_rules/cargocube/expansions.py) nor the 8-player variant's
(eight.py), nor the notation reader and layouts the set-up used (docs/firmware.md, "The
expansions on the heap")."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import sys
from fwcases_app import FakeHal
from firmware.system.app import App

hal = FakeHal()
app = App(hal)
hal.app = app
for words in ("cargocube polygon SWNE cards=base", "cargocube polygon SN",
              "cargocube polygon 12345678", "cargocube polygon SWNE cards=both teleport=1",
              "cargocube polygon 12345678 cards=both teleport=1", "cargocube polygon SN"):
    hal.out = bytearray()
    hal.inp = ("new " + words + "\n").encode()
    app.step()
    reply = [x for x in bytes(hal.out).decode().splitlines() if not x.startswith("evt ")]
    mods = sorted([m for m in sys.modules if m.startswith("shared_rules.cargocube.")])
    print("%s | %s | %s" % (words, reply[0] if reply else "-", " ".join(mods)))
'''

CORE = {"shared_rules.cargocube.rules", "shared_rules.cargocube.orient",
        "shared_rules.cargocube.board"}


def test_a_base_game_loads_no_expansion_module(micropython):
    from cargoboard.build import cached_build
    out = micropython(SCRIPT, path=[str(cached_build()), str(ROOT / "tests")])
    rows = [line.split(" | ") for line in out.strip().splitlines()]
    assert [r[1].split()[0] for r in rows] == ["ok"] * 6, out
    held = [set(r[2].split()) for r in rows]
    base4, base2, eight, both4, both8, base2_after = held
    assert base4 <= CORE and base2 <= CORE, out
    assert eight <= CORE | {"shared_rules.cargocube.eight"}
    assert "shared_rules.cargocube.eight" in eight, out
    # the expansions' games load them (the checks here can see a module held)
    assert "shared_rules.cargocube.expansions" in both4, out
    assert {"shared_rules.cargocube.expansions", "shared_rules.cargocube.eight"} <= both8, out
    # and a base game after them drops them again: "load expansion code only for games that
    # use it" holds on one boot too
    assert base2_after <= CORE, out


def test_a_base_game_after_the_expansions_uses_the_heap_of_a_fresh_one(tmp_path):
    """The same on the heap (the virtual board at 192 KiB with the board's module paths, as
    tests/test_app_switch.py measures): a 2-player base game set up after an 8-player game with
    both expansions and the teleport holds what it holds on a fresh board, within 2 KB; before,
    the expansions' and the 8-player variant's code stayed (+9.4 KB; now +1.1-1.2 KB: the
    names their code interned, ~0.5 KB of MicroPython's qstr pool, which is never freed, and
    tables such as sys.modules' that do not shrink; a second such switch adds nothing)."""
    import sys
    sys.path.insert(0, str(ROOT / "host"))
    from cargoboard.sim.script import Session
    fresh = Session(out=lambda line: None, flash=tmp_path / "a.img", board_paths=True)
    try:
        fresh.execute("new-game cargocube polygon SN")
        alone = fresh.heap_in_use()
    finally:
        fresh.close()
    s = Session(out=lambda line: None, flash=tmp_path / "b.img", board_paths=True)
    try:
        s.execute("new-game cargocube polygon 12345678 both teleport")
        big = s.heap_in_use()
        s.execute("new-game cargocube polygon SN")
        after = s.heap_in_use()
    finally:
        s.close()
    assert after - alone < 2048, (alone, big, after)
