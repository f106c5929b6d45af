"""Issue 13: "load expansion code only for games that use it". The real firmware on the
MicroPython unix port (the device build, 192k heap) sets games up over its console, as `new`
from a host does, and lists the Cargocube modules it holds after each: a base game holds
neither the expansions' code (shared_rules/cargocube/expansions.py) nor the 8-player variant's
(eight.py), nor the notation reader and layouts the set-up used (docs/firmware.md, "The
expansions on the heap")."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r'''
import sys
from fwcases_app import FakeHal
from firmware.system.app import App

hal = FakeHal()
app = App(hal)
hal.app = app
for words in ("cargocube polygon SWNE cards=base", "cargocube polygon SN",
              "cargocube polygon 12345678", "cargocube polygon SWNE cards=both teleport=1"):
    hal.out = bytearray()
    hal.inp = ("new " + words + "\n").encode()
    app.step()
    reply = [x for x in bytes(hal.out).decode().splitlines() if not x.startswith("evt ")]
    mods = sorted([m for m in sys.modules if m.startswith("shared_rules.cargocube.")])
    print("%s | %s | %s" % (words, reply[0] if reply else "-", " ".join(mods)))
'''

CORE = {"shared_rules.cargocube.rules", "shared_rules.cargocube.orient"}


def test_a_base_game_loads_no_expansion_module(micropython):
    from cargoboard.build import cached_build
    out = micropython(SCRIPT, path=[str(cached_build()), str(ROOT / "tests")])
    rows = [line.split(" | ") for line in out.strip().splitlines()]
    assert [r[1].split()[0] for r in rows] == ["ok"] * 4, out
    held = {r[0]: set(r[2].split()) for r in rows}
    for base in ("cargocube polygon SWNE cards=base", "cargocube polygon SN"):
        assert held[base] <= CORE, out
    assert held["cargocube polygon 12345678"] <= CORE | {"shared_rules.cargocube.eight"}
    assert "shared_rules.cargocube.eight" in held["cargocube polygon 12345678"], out
    # the expansions' game loads them (the check above can see a module held)
    assert "shared_rules.cargocube.expansions" in held[
        "cargocube polygon SWNE cards=both teleport=1"], out
