"""Setting a game up: the making of a new game for the App (App.new_game), the old game
dropped. Loaded for a `new` (a console line, the boot's game) with firmware/system/plugins.py
and dropped after with it: a board playing or idling keeps none of it in the heap, and the new
game's log begins once it is gone (the set-up's high point). It is given the App and uses only
its interface for the system's modules (docs/firmware.md "The app's interface"); it never
imports firmware/system/app.py.
"""

import gc
from firmware.hal import unload
from firmware.system.plugins import load, names, unload_game


def _make_game(cls, opts):
    """(the plug-in's Game made with opts, its setup mask). A ValueError (bad options) and a
    MemoryError pass through; any other failure becomes a ValueError naming it."""
    try:
        g = cls(opts)
        return g, g.setup_mask()
    except (ValueError, MemoryError):
        raise
    except Exception as e:
        raise ValueError("%s: %s" % (type(e).__name__, e))


def _drop_game(app, name):
    """The game being played goes (its log closed as by any new game) to make room for a new
    game `name`, with its code if it is another game."""
    old = app.game_name
    app.abort()
    if old and old != name:
        unload_game(old)
    gc.collect()


def make(app, name, options, dropped=None):
    """The game `name` made with a copy of `options` for the app, the old game gone (its code
    too if it is another game; its log is the app's to close): (game, options, setup mask,
    whether it is logged). `dropped`: a game the app dropped already to make room for this
    module (its code goes here). Raises ValueError (the message for `err`); a bad option
    leaves the old game playing."""
    if dropped and dropped != name:
        unload_game(dropped)
    glog = app.glog
    if glog is not None and glog.cur and not glog.closed:
        # The old game's log is closed once the new game is made (or the old game dropped to
        # make room): the heap is then at its fullest and in pieces, and a littlefs file open
        # takes ~1.2 KB in one block. So its file is opened now, before the new game's code
        # comes in, for the record that closes it (GameLog.closing); if the new game cannot
        # be made, it is closed again unwritten and the old game plays on.
        try:
            glog.closing = open(glog.path(glog.cur), "ab")
        except Exception:
            pass  # the close opens it then, as before
    try:
        return _make(app, name, options)
    except BaseException:
        f = glog.closing if glog is not None else None
        if f is not None:
            glog.closing = None
            f.close()
        raise


def _hold(app):
    """The heap blocks the board's native code would pin, taken before a game's code comes in
    (firmware/hal/heldblocks.py; a HAL of the benches and tests that is not a firmware.hal.Hal
    holds none)."""
    if getattr(app.hal, "holds_heap", False):
        from firmware.hal import heldblocks
        heldblocks.hold()
        heldblocks = None
        unload("firmware.hal.heldblocks")


def _make(app, name, options):
    # The code of a game neither played nor set up now goes first: one refused (a bad option)
    # or aborted stays loaded only until another game is set up (kept, two of them filled the
    # heap and no game could be set up any more). Dropped at once, the holes its code leaves
    # between the interned names it brought would split the heap for the next load.
    import sys
    dropped = False
    for other in names():
        if other != name and other != app.game_name and "firmware.games." + other in sys.modules:
            unload_game(other)
            dropped = True
    if dropped:
        gc.collect()
    _hold(app)
    try:
        cls = load(name)
    except MemoryError as e:
        # Another game's code fills the heap: it goes first (as below), then the new game's
        # code is loaded again (what of it came in before the error, too: a module cut off
        # halfway must not be taken as loaded).
        if app.game is None:
            unload_game(name)
            raise ValueError("%s: %s" % (type(e).__name__, e))
        _drop_game(app, name)
        unload_game(name)
        gc.collect()
        _hold(app)  # the dropped game may have left a word's block free
        try:
            cls = load(name)
        except MemoryError as e:
            unload_game(name)
            raise ValueError("%s: %s" % (type(e).__name__, e))
    known = getattr(cls, "OPTIONS", None)  # the key=value words the game takes (a plug-in
    if known is not None:                  # without the list takes any)
        for k in options:
            if k not in known:  # a mistyped `card=base` must not start a game without cards
                raise ValueError("unknown option '%s' (%s takes %s)" % (
                    k, name, " ".join([o + "=" for o in known])))
    logged = app.glog is not None and hasattr(cls, "log_header")
    if logged:
        # Refuse rather than ever drop an unsynced game to make room.
        try:
            app.glog.check_room()
        except Exception as e:
            app.check_flash()
            raise ValueError(str(e))
        app.check_flash()
    opts = {}
    for k in options:
        opts[k] = options[k]
    app.plugin_options(opts)
    opts["game"] = name
    if hasattr(cls, "buttons"):         # a plug-in that reads the buttons held (no new name:
        opts["buttons"] = app.buttons   # each interned one stays); .state, the bits held now
    gc.collect()  # setting a game up is the heap's high point: begin it from a clean heap
    try:
        g, m = _make_game(cls, opts)
    except MemoryError as e:
        if app.game is None:
            raise ValueError("%s: %s" % (type(e).__name__, e))
        # The game being replaced and the new one do not fit in the heap together: the old
        # one goes first (its log is closed as by any new game), then the new one is made
        # again.
        _drop_game(app, name)
        try:
            g, m = _make_game(cls, opts)
        except MemoryError as e:
            raise ValueError("%s: %s" % (type(e).__name__, e))
    # The new game is in the heap now: the old game is not needed for it, so its heap goes
    # (its code too, if the new game is another one) before its log is closed.
    if app.game is not None and app.game_name != name:
        app.game = None
        unload_game(app.game_name)
    app.game = None
    return g, opts, m, logged
