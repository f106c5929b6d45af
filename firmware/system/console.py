"""The app's own console commands (docs/serial-protocol.md): hello, help, occ, mask, new, press,
events, bright, budget, abort, and games, logread, logdel (firmware/system/logcmd.py), and the
reply to an unknown command (and to `calibrate`, which only revision B's App takes). App.command loads this module for such a command and drops it
after: a board playing or idling keeps none of it in the heap. What a host asks often stays in
the app: a game's own commands (`pos` and the like), `status` (the web page asks it at every
change) and `mem` (the heap's own figures); loading this module holds the frame loop for ~45 ms
on the RP2040. It is given the App and uses only its interface for the system's modules
(firmware/system/app.py, docs/firmware.md "The app's interface").
"""

from firmware import hal as H
from firmware.hal import unload

PROTO = 1  # the text console (docs/serial-protocol.md); frames: PROTOCOL_VERSION (docs/protocol.md)

HELP = ("commands: hello help status mem occ mask new press events bright budget abort "
        "games logread logdel calibrate (revision B); game commands (e.g. pos candidates) go "
        "to the game")


def command(app, words):
    """The reply to an app command line (words), or for a well-formed `new` the request (GAME,
    options) that the app carries out once this module is gone (a game's set-up is the heap's
    high point). The registry's game names come from firmware/system/plugins.py, which the app
    drops with this module."""
    cmd = words[0].lower()
    if cmd == "hello":
        from firmware.system.plugins import names
        # time: the board's clock, as a host's HELLO set it (0: not known, docs/protocol.md)
        return "ok cargoboard fw=%s proto=%d hal=%s games=%s board=%s time=%d" % (
            app.VERSION, PROTO, app.hal.name, ",".join(names()),
            (app.glog.board if app.glog is not None else "") or "-", app.hal.wall_time())
    if cmd == "help":
        return "ok " + HELP
    if cmd == "occ":
        return "ok %d %s" % (H.bit_count(app.scanner.stable), _hex(app.scanner.stable))
    if cmd == "mask":
        if app.game is None:
            return "err no game (new GAME ...)"
        return "ok %d %s" % (H.bit_count(app.mask), _hex(app.mask))
    if cmd == "new":
        return _new(words)
    if cmd == "press":
        if len(words) != 2:
            return "err usage: press confirm|next|undo|hint|end"
        bit = H.button_bit(words[1].lower())
        if bit < 0:
            return "err unknown button '%s' (confirm next undo hint end)" % words[1]
        app.press(bit)
        return "ok"
    if cmd == "events":
        if len(words) != 2 or words[1] not in ("on", "off"):
            return "err usage: events on|off"
        app.events = words[1] == "on"
        return "ok"
    if cmd == "bright" or cmd == "budget":
        return _setting(app, words)
    if cmd == "abort":
        app.abort()
        return "ok"
    if cmd == "calibrate":  # revision B's App answers it (firmware/system/app_revb.py)
        return "err calibrate: revision B only (this board's Hall switches read no field)"
    if cmd == "games" or cmd == "logread" or cmd == "logdel":
        from firmware.system import logcmd  # loaded for the command, then dropped
        try:
            return logcmd.command(app, words)
        finally:
            logcmd = None
            unload("firmware.system.logcmd")
            unload("firmware.system.logread")
    if app.game is None:
        return "err unknown command '%s' (no game running; %s)" % (words[0], HELP)
    return "err unknown command '%s' (%s)" % (words[0], HELP)


def _hex(bitmap):
    return "".join(["%02x" % b for b in bitmap])


def _setting(app, words):
    name = words[0].lower()
    if len(words) == 1:
        return "ok %d" % app.setting(name)
    try:
        v = int(words[1])
    except ValueError:
        v = -1
    if len(words) != 2 or not app.change_setting(name, v):
        for key, lo, hi in app.settings():
            if key == name:
                return "err usage: %s %d..%d" % (words[0], lo, hi)
    return "ok %d" % v


def _new(words):
    if len(words) < 2:
        from firmware.system.plugins import names
        return "err usage: new GAME [LAYOUT [SEATS]] [key=value ...] (games: %s)" % " ".join(names())
    opts = {}
    pos = ("layout", "seats")
    k = 0
    for w in words[2:]:
        i = w.find("=")
        if i > 0 and w[:i] == "position":
            # a console word has no spaces, and every game's notation has them: written `_`
            # (no notation has one)
            opts["position"] = w[i + 1:].replace("_", " ")
        elif i > 0:
            opts[w[:i]] = w[i + 1:]
        elif k < len(pos):
            opts[pos[k]] = w
            k += 1
        else:
            return "err too many words: '%s'" % w
    return words[1].lower(), opts
