"""The link's requests about the game logs (docs/protocol.md): LIST, READ, FETCH (a sync's
stream) and CONFIRM, and the deletes CONFIRM leaves to the frames. Apart from link.py so that a
host that only follows or drives a game (the live page, deploy, the demo's console) loads none
of it: the link imports it at a host's first request about the logs and keeps it. Functions of
the Link (firmware/system/link.py), which keeps their state: crc_cache, log_buf, confirmed."""

from firmware.drivers import frames as F
from firmware.system import logread as LR

LIST_PAGE = 64   # games per LIST reply
LIST_ENTRY = 13  # bytes per game in a LIST reply: game u32, size u32, crc32 u32, flags u8
FLAG_CLOSED = 1  # LIST flags: the log is finished (over or abandoned)
FLAG_PLAYING = 2 # the game is being played (its log still grows)
READ_FRAME = F.MAX_BODY - 12  # data bytes in one READ reply frame (after game, offset, size)
READ_MAX = 0xFFFF  # a READ asks for up to this many bytes: they come in READ_FRAME pieces
# FETCH reply frames start with a tag: a piece of a log (u32 game, u32 offset, u32 total, the
# bytes: up to FETCH_DATA), a game's end (its LIST entry), the reply's end (u8 more)
FETCH_PIECE = 0x44  # 'D'
FETCH_GAME = 0x47   # 'G'
FETCH_END = 0x45    # 'E'
FETCH_DATA = F.MAX_BODY - 13
FETCH_MS = 150     # a FETCH starts no further game after this long: the frame loop waits meanwhile
FETCH_GAMES = 32   # nor more games than this (a host confirms them in one CONFIRM)
CONFIRM_MAX = F.MAX_BODY // 8  # games one CONFIRM may name
DELETE_QUIET_MS = 250  # confirmed games are deleted once the host is this quiet,
DELETE_FRAME_MS = 6    # for up to this long in a frame (the frame's own work takes ~2 ms)


def tick(link, quiet):
    """A frame with games confirmed (link.confirmed): delete them while the host has been
    quiet for DELETE_QUIET_MS (quiet: ms since its last frame, -1 if it has left), for up to
    DELETE_FRAME_MS of this frame - a littlefs remove costs ~3 ms on the RP2040, ~90 ms when
    it compacts the directory: not in the time of the host's requests. The held game waits
    for the app to move on (_release)."""
    if 0 <= quiet < DELETE_QUIET_MS:
        return
    if link.held is not None:
        _release(link)
    hal = link.app.hal
    t0 = hal.ticks_ms()
    held = link.held[0] if link.held is not None else 0
    i = 0
    while i < len(link.confirmed) and ((hal.ticks_ms() - t0) & 0x3FFFFFFF) < DELETE_FRAME_MS:
        g = link.confirmed[i]
        if g == held:
            i += 1
            continue
        try:
            LR.delete(link.app.glog, g, True)
        except (ValueError, OSError):
            pass  # gone already (serial `logdel`)
        link.confirmed.pop(i)


def _release(link):
    """The held game (confirmed while the app showed it finished) is deleted once the app has
    moved on (a new game, abort) with its log as the host stored it. A take-back after the end
    reopens the game and writes on to its log: then the host has only part of it, so the game
    is back for the host (LIST, FETCH) and the next sync takes the whole log."""
    g, nbytes = link.held
    log = link.app.glog
    if log.current() == g:
        if log.size() == nbytes:
            return  # still shown as it was confirmed
    else:
        try:
            if LR.size(log, g) == nbytes:
                link.held = None  # moved on: deleted like the others
                return
        except ValueError:
            pass  # gone already
    link.held = None
    link.confirmed.remove(g)
    link.crc_cache.pop(g, None)


def size_of(link, log, game_no):
    """Bytes in a game's log, -1 if there is no such game (or it is confirmed)."""
    if game_no in link.confirmed:
        return -1
    try:
        return LR.size(log, game_no)
    except ValueError:
        return -1


def games(link, log, first):
    """[(game, size)] of the games on the flash, oldest first, less those confirmed. Listed
    afresh for a request from game 0 (a sync's first FETCH): the listing kept
    (logread.listing) goes by glog.cur, which a game begun and closed since the last sync
    leaves as it was (0), and that game was missing from the next sync while the link stayed
    loaded (a sync less than 3 s after the last frame)."""
    if first == 0:
        LR.forget_listing()
    out = LR.listing(log)
    if link.confirmed:
        out = [e for e in out if e[0] not in link.confirmed]
    return out


def log_of(link, seq):
    log = link.app.glog
    if log is None:
        link.failed(seq, "no game log on this board (flash not mounted)")
    return log


def buffer(link):
    """One reused buffer of a frame body's size: READ's pieces, LIST's scans, FETCH's
    frames (the log's bytes read straight into the frame)."""
    if link.log_buf is None:
        link.log_buf = bytearray(F.MAX_BODY)
    return link.log_buf


def scan(link, log, game_no, size):
    """(CRC-32, state) of a game's log of this size: read once (one open, the log in
    pieces into one buffer), then kept while its size stays."""
    c = link.crc_cache.get(game_no)
    if c is None or c[0] != size:
        crc, state = LR.scan(log, game_no, size, buffer(link))
        c = (size, crc, state)
        link.crc_cache[game_no] = c
    return c


def crc_of(link, log, game_no, size):
    return scan(link, log, game_no, size)[1]


def list_games(link, typ, seq, body):
    if len(body) != 0 and len(body) != 4:
        link.bad_request(seq, "LIST wants no body or a u32 first game")
        return
    log = log_of(link, seq)
    if log is None:
        return
    start = F.u32(body, 0) if len(body) >= 4 else 0
    out = bytearray(2)
    n = 0
    more = 0
    current = log.current()
    for game_no, size in games(link, log, start):
        if game_no < start:
            continue
        if n == LIST_PAGE:
            more = 1
            break
        if game_no == current and not LR.state(log, game_no, size):
            # a game still being written has no final checksum yet
            crc, flags = 0, FLAG_PLAYING
        else:
            _, crc, closed = scan(link, log, game_no, size)
            flags = FLAG_CLOSED if closed else 0
        F.put_u32(out, game_no)
        F.put_u32(out, size)
        F.put_u32(out, crc)
        out.append(flags)
        n += 1
    out[0] = n
    out[1] = more
    link.send(typ | 0x80, seq, out)


def game_request(link, seq, body, length, usage):
    """(log, game number, its log's size or -1) for a request about one game whose body
    starts with the game number; None (an error frame sent) if the body or the log is
    missing."""
    if len(body) != length:
        link.bad_request(seq, usage)
        return None
    log = log_of(link, seq)
    if log is None:
        return None
    game_no = F.u32(body, 0)
    return log, game_no, size_of(link, log, game_no)


def read(link, typ, seq, body):
    r = game_request(link, seq, body, 10, "READ wants game u32, offset u32, length u16")
    if r is None:
        return
    log, game_no, size = r
    if size < 0:
        link.failed(seq, "no game %d on the board" % game_no)
        return
    off = F.u32(body, 4)
    end = off + ((body[8] << 8) | body[9])
    if end > size:
        end = size
    if off >= end:
        read_reply(link, typ, seq, game_no, off, size, b"")
        return
    # the bytes asked for, in as many reply frames as it takes, the file opened once
    buf = memoryview(buffer(link))[:READ_FRAME]
    read = LR.pieces(log, game_no, off, end, buf)
    try:
        for at, k in read:
            read_reply(link, typ, seq, game_no, at, size, buf[:k])
    finally:
        read.close()


def read_reply(link, typ, seq, game_no, off, size, data):
    out = bytearray(12 + len(data))
    out[0:4] = game_no.to_bytes(4, "big")
    out[4:8] = off.to_bytes(4, "big")
    out[8:12] = size.to_bytes(4, "big")
    out[12:] = data
    link.send(typ | 0x80, seq, out)


def confirm(link, typ, seq, body):
    """CONFIRM of one or more (game, CRC-32) pairs, in order; a refused one (the CRC
    differs, the game is being played) ends it with an error naming that game. A game
    the app no longer writes is deleted by tick() once the host is quiet (gone for the
    host at once; a power cut before that leaves it, and the next sync confirms it
    again); the app's current one (finished, its board shows the end) once the app moves
    on, unless a take-back reopens it first (_release)."""
    n = len(body) // 8
    if n < 1 or n > CONFIRM_MAX or len(body) != 8 * n:
        link.bad_request(seq, "CONFIRM wants 1..%d pairs of game u32, crc32 u32"
                   % CONFIRM_MAX)
        return
    log = log_of(link, seq)
    if log is None:
        return
    done = bytearray(n)
    for i in range(n):
        game_no = F.u32(body, 8 * i)
        crc = F.u32(body, 8 * i + 4)
        current = game_no == log.current()
        known = link.crc_cache.get(game_no)
        if known is not None and not current and game_no not in link.confirmed:
            size = known[0]  # a log no longer written: as FETCH or LIST read it
        else:
            size = size_of(link, log, game_no)
            if size < 0:
                continue  # already deleted (a confirm whose reply was lost): done all the same
            if current and not LR.state(log, game_no, size):
                link.failed(seq, "game %d is still being played" % game_no)
                return
        if crc_of(link, log, game_no, size) != crc:
            link.failed(seq, "game %d: checksum differs, not deleted" % game_no)
            return
        link.crc_cache.pop(game_no, None)
        if current:
            link.held = (game_no, size)  # deleted once the app moves on (_release)
        link.confirmed.append(game_no)
        done[i] = 1
    link.send(typ | 0x80, seq, done)


def fetch(link, typ, seq, body):
    """FETCH: every game from a number on, whole logs streamed after one request in pieces
    of up to `piece` bytes (one game from an offset: a transfer cut short), each followed
    by its LIST entry (the CRC-32 computed as it is read); a game being played gets its
    entry alone. Stops starting games after FETCH_MS or FETCH_GAMES (more=1 in the end
    frame: ask again)."""
    if len(body) != 14:
        link.bad_request(seq, "FETCH wants first game u32, resumed game u32, "
                   "its offset u32, piece u16")
        return
    log = log_of(link, seq)
    if log is None:
        return
    first = F.u32(body, 0)
    resumed = F.u32(body, 4)
    skip = F.u32(body, 8)
    n = (body[12] << 8) | body[13]
    if n == 0 or n > FETCH_DATA:
        n = FETCH_DATA
    buf = buffer(link)
    head = memoryview(buf)[:13]
    data = memoryview(buf)[13:13 + n]
    current = log.current()
    listed = games(link, log, first)  # listed at a sync's first FETCH, then kept
    hal = link.app.hal
    t0 = hal.ticks_ms()
    more = 0
    game_no = size = 0
    start = 0

    def piece(off, k):
        # a piece of the log in data[:k]: sent from the offset asked for on
        if off + k <= start:
            return
        if off < start:  # the piece that holds that offset: its tail alone (rare)
            data[:k - (start - off)] = bytes(data[start - off:k])
            k -= start - off
            off = start
        buf[0] = FETCH_PIECE
        head[1:5] = game_no.to_bytes(4, "big")
        head[5:9] = off.to_bytes(4, "big")
        head[9:13] = size.to_bytes(4, "big")
        link.send(typ | 0x80, seq, memoryview(buf)[:13 + k])

    sent = 0
    for game_no, size in listed:
        if game_no < first:
            continue
        if sent == FETCH_GAMES or sent and ((hal.ticks_ms() - t0) & 0x3FFFFFFF) > FETCH_MS:
            more = 1
            break
        sent += 1
        if game_no == current and not LR.state(log, game_no, size):
            crc, flags = 0, FLAG_PLAYING
        else:
            start = skip if game_no == resumed else 0
            try:
                crc, closed = LR.scan(log, game_no, size, data, piece)
            except ValueError:
                continue  # deleted since the list was made (serial `logdel`)
            link.crc_cache[game_no] = (size, crc, closed)
            flags = FLAG_CLOSED if closed else 0
        out = bytearray((FETCH_GAME,))
        F.put_u32(out, game_no)
        F.put_u32(out, size)
        F.put_u32(out, crc)
        out.append(flags)
        link.send(typ | 0x80, seq, out)
    link.send(typ | 0x80, seq, bytes((FETCH_END, more)))
