"""The plug-ins by name: the registry (firmware/games/__init__.py) read, a game's Game class
loaded (load), its modules dropped (unload_game), names and register. Loaded for the moment it
is used (a new game: firmware/system/newgame.py; the boot's resume and --plugin; the console's
`hello`, `help`, `new`) and dropped after: a board playing or idling keeps none of it."""

from firmware.hal import unload


def _registry():
    """The registry's entries, imported at their first use (and kept: `register` adds to them):
    a board idling at boot needs none."""
    from firmware.games import REGISTRY
    return REGISTRY


def register(name, module):
    registry = _registry()
    for e in registry:
        if e[0] == name:
            e[1] = module
            return
    registry.append([name, module])


def names():
    return [e[0] for e in _registry()]


def load(name):
    """The plug-in's Game class. Raises ValueError with a clear message on failure."""
    mod = None
    for e in _registry():
        if e[0] == name:
            mod = e[1]
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


def unload_game(name):
    """Drop the modules of game `name` (its folders firmware/games/<name>/ and
    shared_rules/<name>/): a board that goes from one game to another would otherwise keep
    both games' code in the heap for good."""
    import sys
    for prefix in ("firmware.games.%s" % name, "shared_rules.%s" % name):
        for m in [k for k in sys.modules if k.startswith(prefix + ".")]:
            unload(m)
        unload(prefix)
