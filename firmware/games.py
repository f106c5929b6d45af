"""Game plug-in registry: name -> module path. The app knows games only through this table.

A plug-in module defines `Game(options)`; the interface is documented in docs/firmware.md.
Cargocube is the first entry (and the default boot game on the board); `cephalopod` plays
Cephalopod on a block in the middle of the grid (docs/board-cephalopod.md); `formula99` the race
«Формула 99» on the outer rings (docs/board-formula99.md); `selftest` is the bring-up test (docs/bringup.md). Extra plug-ins (e.g. the test plug-in) are added with
register().
"""

import sys

REGISTRY = [
    ["cargocube", "firmware.cargocube_game"],
    ["cephalopod", "firmware.cephalopod_game"],
    ["formula99", "firmware.formula99_game"],
    ["selftest", "firmware.selftest_game"],   # bring-up: LED and sensor test (docs/bringup.md)
]


def register(name, module):
    for e in REGISTRY:
        if e[0] == name:
            e[1] = module
            return
    REGISTRY.append([name, module])


def names():
    return [e[0] for e in REGISTRY]


def module_for(name):
    for e in REGISTRY:
        if e[0] == name:
            return e[1]
    return None


def unload(module):
    """Drop a loaded module (e.g. "firmware.logformat") on MicroPython, where its bytecode
    would otherwise stay in the heap: code needed only now and then is imported when needed
    and dropped after. Nothing on CPython."""
    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(module, None)
    i = module.rfind(".")
    if i > 0:
        pkg = sys.modules.get(module[:i])
        short = module[i + 1:]
        if pkg is not None and short in dir(pkg):
            delattr(pkg, short)


def load(name):
    """The plug-in's Game class. Raises ValueError with a clear message on failure."""
    mod = module_for(name)
    if mod is None:
        raise ValueError("unknown game '%s' (have: %s)" % (name, " ".join(names())))
    try:
        m = __import__(mod, None, None, ["Game"])
    except ImportError as e:
        raise ValueError("game '%s' not available (%s: %s)" % (name, mod, e))
    g = getattr(m, "Game", None)
    if g is None:
        raise ValueError("module %s has no Game class" % mod)
    return g
