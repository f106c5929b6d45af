"""The Cargocube plug-in's timers across the 30-bit tick wrap, and the end of the game told
once: the same script runs under CPython and the MicroPython unix port."""

SCRIPT = r'''
from firmware import hal as H
from firmware.games.cargocube import tracker as T
from firmware.games.cargocube.plugin import Game, HINT_MS
from shared_rules.cargocube import rules as cc

said = []
recorded = []

def game(position=None):
    opts = {"emit": said.append, "record": recorded.append,
            "record_undo": lambda: recorded.append("undo"),
            "record_over": lambda: recorded.append("over")}
    if position:
        opts["position"] = position
    g = Game(opts)
    g.start()
    return g

# a hint asked for 100 ms before the ticks wrap lasts HINT_MS, not forever
g = game()
before_wrap = H.TICKS_MASK - 100
g.on_button(H.HINT, before_wrap)
print("hint", g.hint is not None)
g.tick(50)                      # 150 ms later, after the wrap
print("after 150 ms", g.hint is not None)
g.tick((before_wrap + HINT_MS + 10) & H.TICKS_MASK)
print("after HINT_MS", g.hint is not None)

# a game that is over says so once, however many presses and changes follow
OVER = %r
g = game(OVER)
occ = bytearray(g.tracker.expected)
for now in (10, 20, 30):
    g.on_button(H.CONFIRM, now)
    g.on_change(occ, now)
print("over events", len([x for x in said if x.startswith("over ")]))
print("over records", recorded.count("over"))
'''


def _script():
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(root), str(root / "host")]
    from cargoboard.games.cargocube.scriptgen import game_script
    from shared_rules.cargocube.engine import best_action

    def pick(pos, legal, rng):
        return best_action(pos) if rng.random() < 0.8 else legal[rng.randrange(len(legal))]

    _, final = game_script(seed=0, players=2, actions=600, check_every=0, pick=pick)
    assert final.is_over()
    return SCRIPT % final.notation()


EXPECTED = ["hint True", "after 150 ms True", "after HINT_MS False", "over events 1",
            "over records 1"]


def test_timers_wrap_and_over_told_once_cpython(capsys):
    exec(compile(_script(), "plugin_time", "exec"), {"__name__": "plugin_time"})
    assert capsys.readouterr().out.splitlines() == EXPECTED


def test_timers_wrap_and_over_told_once_micropython(micropython, mpy_cross):
    # As deployed: the device build's .mpy files (compiling the sources on a 192k heap needs
    # RAM the board never spends).
    from cargoboard.build import cached_build
    assert micropython(_script(), path=[cached_build()]).splitlines() == EXPECTED
