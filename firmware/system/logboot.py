"""At boot: resume the newest game if its log is still open (docs/log-format.md "Boot").
firmware/system/boot.py loads this module for that and drops it after (with the log's codec,
firmware/system/logformat.py): a board playing or idling keeps none of it. It is given the App
and uses only its interface for the system's modules (firmware/system/app.py), and the
GameLog's state for the game being written (firmware/system/gamelog.py)."""

import gc
import os
from firmware.system import logformat as LF


def _aside(path):
    """A free name for a damaged log kept as found: gNNNNN.log.bad, .bad2, ... (not a game's
    name: the store's listing passes it over)."""
    name = path + ".bad"
    k = 1
    while True:
        try:
            os.stat(name)
        except OSError:
            return name
        k += 1
        name = "%s.bad%d" % (path, k)


def open_newest(glog):
    """The newest game in glog if it is still open, as (header, records, dropped), else None.
    records: a logformat.Reader over the log's good records, to iterate once: (kind, payload)
    in order (logformat.ACTION / UNDO ...), read from the log as they are replayed (no list of
    them in RAM: on the board's heap a long game's records as objects would fragment it);
    afterwards its .count, .actions and .undos are set. dropped: bytes of a bad tail cut off
    (the file is rewritten without them, so new records follow the last good one; the log as
    found is kept as gNNNNN.log.bad);
    records.expected_actions is the number of action records, known before the replay. The
    game becomes glog's current one. A log whose header is unreadable is left alone (the host
    gets it as it is)."""
    nums = glog.numbers()
    if not nums:
        return None
    n = nums[-1]
    path = glog.path(n)
    size = os.stat(path)[6]
    with open(path, "rb") as f:
        raw = f.read(size)  # one allocation of its size (read() grows a buffer by doubling)
    h, hl, problem = LF.decode_header(raw)
    if h is None:
        return None
    rd = LF.Reader(raw, hl, h.seed(), h.version)
    for rec in rd:
        pass
    if rd.last == LF.FINISH or rd.last == LF.ABANDON:
        return None
    dropped = rd.dropped()
    if dropped:
        # The log as found stays beside it (flash damage: its tail may hold moves the board can
        # no longer check, and nothing is lost). A power cut before the cut log is written
        # leaves the damaged one, and the next boot does both again.
        glog.write_atomic(_aside(path), raw)
        raw = raw[:rd.good]
        glog.write_atomic(path, raw)
    glog.cur = n
    glog.closed = 0
    glog._crc = rd.crc
    glog._size = rd.good
    records = LF.Reader(raw, hl, h.seed(), h.version)
    records.expected_actions = rd.actions  # known before the replay (to reserve room)
    return h, records, dropped


def resume(app, load=None):
    """_resume, then the doubt records' code that the codec loaded is let go (boot.py drops the
    codec itself and this module)."""
    try:
        return _resume(app, load)
    finally:
        from firmware.hal import unload
        unload("firmware.system.logdoubt")


def _resume(app, load=None):
    """Go on with the newest game in the app's log if it is still open (the pieces are still
    on the board): replay it into a new plug-in (its Game class from load(name), by default
    firmware/system/plugins.py's, imported only then) and put the app in play. True if a game
    was resumed."""
    app.check_flash()
    if app.glog is None:
        return False
    try:
        r = open_newest(app.glog)
    except Exception as e:
        app.report_error("log resume", e)
        return False
    if r is None:
        return False
    h, records, dropped = r
    opts = {"game": h.kind, "variant": h.variant, "seats": h.seats, "position": h.start}
    app.plugin_options(opts)
    try:
        if load is None:
            from firmware.system.plugins import load
        cls = load(h.kind)
        if not hasattr(cls, "log_header") or not hasattr(cls, "resume"):
            raise ValueError("game '%s' cannot resume a log" % h.kind)
        gc.collect()  # the game's set-up is the high point: begin it from a clean heap
        g = cls(opts)
        rules = getattr(g, "rules_version", None)
        if rules is None:
            rules = g.log_header()[3]
        if rules != h.rules:
            raise ValueError("log has rules version %d, this firmware %d" % (h.rules, rules))
        gc.collect()
        g.resume(records)
        m = g.setup_mask()
    except MemoryError as e:
        # Not the log's fault: leave it open (the next boot tries again; the host can
        # still fetch it), no game now.
        g = records = None
        app.glog.cur = 0
        gc.collect()
        app.report_error("log resume game=%d" % h.game, e)
        return False
    except Exception as e:
        g = records = None
        app.emit("log resume-failed game=%d: %s: %s" % (h.game, type(e).__name__, e))
        app.close_log()
        return False
    n_records = records.count
    standing = records.actions - records.undos
    records = None
    app.resume_play(g, h.kind, opts, m)
    app.emit("log resumed game=%d actions=%d records=%d dropped=%d" % (
        h.game, standing, n_records, dropped))
    return True
