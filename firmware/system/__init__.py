"""The system layer: the app (frame loop, serial console), the link (binary protocol), the game
log. Here is what its modules share without importing each other (so that the app, the link
and the log's boot code form no import circle): the version, the app's states and settings,
and the loading of plug-ins by name (docs/firmware.md "Loading on demand"): the system knows
games only by name; `load(name)` imports the plug-in the registry (firmware/games/__init__.py)
names, when a game of it is set up. `register(name, module)` adds or replaces an entry at run
time (`main.py --plugin NAME=MODULE`, the tests' plug-ins).

(One module, not several: on the board every loaded module costs heap.)
"""

from firmware.games import REGISTRY

VERSION = "0.2"  # the firmware's version (HELLO, `hello`, the deploy stamp)
PROTO = 1  # the text console (docs/serial-protocol.md); frames: PROTOCOL_VERSION (docs/protocol.md)

# The app's states.
IDLE = 0
SETUP = 1
PLAY = 2
STATE_NAMES = ("idle", "setup", "play")

# Settings a host or the console may change: name, lowest, highest (bright: the LED brightness
# cap, budget: the LED current budget in mA, debounce: the scanner's stable time in ms).
SETTINGS = (("bright", 0, 255), ("budget", 0, 10000), ("debounce", 0, 1000))


def register(name, module):
    for e in REGISTRY:
        if e[0] == name:
            e[1] = module
            return
    REGISTRY.append([name, module])


def names():
    return [e[0] for e in REGISTRY]


def load(name):
    """The plug-in's Game class. Raises ValueError with a clear message on failure."""
    mod = None
    for e in REGISTRY:
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
