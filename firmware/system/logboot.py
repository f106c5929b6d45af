"""At boot: resume the newest game if its log is still open (App.resume loads this module for
that and drops it after; docs/log-format.md "Boot"). It is given the App and uses only its
interface for the system's modules (firmware/system/app.py)."""

import gc


def resume(app, load):
    """Replay the open game into a new plug-in (its Game class from load(name)) and put the app
    in play. True if resumed."""
    try:
        r = app.glog.resume()
    except Exception as e:
        app.report_error("log resume", e)
        return False
    if r is None:
        return False
    h, records, dropped = r
    opts = {"game": h.kind, "variant": h.variant, "seats": h.seats, "position": h.start}
    app.plugin_options(opts)
    try:
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
