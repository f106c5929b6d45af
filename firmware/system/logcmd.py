"""The game log's serial commands (docs/serial-protocol.md): `games`, `logread`, `logdel`.
App.command loads this module for a command and drops it after; it is given the App and uses only
its interface for the system's modules (firmware/system/app.py)."""

from firmware.system import logread as LR  # dropped with this module (console.py)

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
            data = LR.read(app.glog, n, off, count)
            return "ok " + "".join(["%02x" % b for b in data]) if data else "ok"
        _delete(app.glog, words)
    except ValueError as e:
        return "err %s" % (e,)
    app.check_flash()
    return "ok"


def _delete(glog, words):
    """`logdel GAME CRC32`: the log is deleted only if CRC32 (8 hex digits) is the CRC-32 of
    its bytes as they are now, which a host knows only once it has read them all (as CONFIRM
    asks of the frames). Without it a typed `logdel 1` deleted a game no PC had."""
    usage = "usage: logdel GAME CRC32 (the CRC-32 of the whole log as read, 8 hex digits)"
    if len(words) != 3 or len(words[2]) != 8:
        raise ValueError(usage)
    n = _numbers(words[:2], 1, usage[7:])[0]
    try:
        want = int(words[2], 16)
    except ValueError:
        raise ValueError(usage)
    if n == glog.cur:
        LR.delete(glog, n)  # (refuses the game being played, with its own message)
    nbytes = LR.size(glog, n)
    crc, _ = LR.scan(glog, n, nbytes, bytearray(256))
    if crc != want:
        raise ValueError("game %d's log has CRC-32 %08x, not %s: read it whole first "
                         "(logread), nothing deleted" % (n, crc, words[2].lower()))
    LR.delete(glog, n)


def _games_lines(glog):
    cur = glog.cur
    nums = glog.numbers()
    for n in nums:
        size = LR.size(glog, n)
        yield "game %d %d %s%s" % (n, size, STATE_NAMES[LR.state(glog, n, size)],
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
