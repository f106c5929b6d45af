"""The game log's serial commands (docs/serial-protocol.md): `games`, `logread`, `logdel`.
App.command loads this module for a command and drops it after; it is given the App and uses only
its interface for the system's modules (firmware/system/app.py)."""

STATE_NAMES = ("open", "", "", "over", "abandoned")  # by the record kind that closed the log
LOGREAD_MAX = 256


def command(app, words):
    if app.glog is None:
        return "err no game log (no flash filesystem)"
    cmd = words[0].lower()
    if cmd == "games":
        return _games_lines(app.glog)
    try:
        if cmd == "logread":
            n, off, count = _numbers(words, 3, "logread GAME OFFSET COUNT (COUNT <= %d)"
                                     % LOGREAD_MAX)
            if count > LOGREAD_MAX:
                raise ValueError("COUNT at most %d" % LOGREAD_MAX)
            data = app.glog.read(n, off, count)
            return "ok " + "".join(["%02x" % b for b in data]) if data else "ok"
        app.glog.delete(_numbers(words, 1, "logdel GAME")[0])
    except ValueError as e:
        return "err %s" % (e,)
    app.check_flash()
    return "ok"


def _games_lines(glog):
    cur = glog.cur
    nums = glog.numbers()
    for n in nums:
        size = glog.size(n)
        yield "game %d %d %s%s" % (n, size, STATE_NAMES[glog.state(n, size)],
                                   " current" if n == cur else "")
    yield "ok %d free=%d low=%d current=%d board=%s" % (
        len(nums), glog.free_bytes(), 1 if glog.low() else 0, cur, glog.board or "-")


def _numbers(words, n_args, usage):
    vals = []
    try:
        for w in words[1:]:
            vals.append(int(w))
    except ValueError:
        vals = []
    if len(words) != n_args + 1 or len(vals) != n_args or min(vals) < 0:
        raise ValueError("usage: " + usage)
    return vals
