"""A board's game log (docs/log-format.md) as a store record: parse, take the take-backs back,
replay through the rules core. Part of the host's core, beside the store it fills: sync reads
every log through it, and the exports (a layer above) find their games in the store.

    rec = record_from_log(raw, source)      # cargoboard.store.GameRecord, or LogError

The record's actions are the game as it stands (an undone action is not in it); the log
itself keeps everything that happened and goes into the record unchanged (`rec.log`), torn
tail and all, so a re-sync can be compared byte for byte. Besides the GameRecord fields the
record carries what the log said about itself:

    rec.status      'over' (finish record), 'abandoned', or 'open' (still being played, or cut)
    rec.problem     None, or what was wrong at the end of the log (a torn tail, a bad checksum)
                    (then rec.damage, cargoboard.store.log_damage's text, goes into the store)
    rec.dropped     bytes after the last good record (0 for a clean log)
    rec.undos       take-backs in the log
    rec.header      the parsed firmware.system.logformat.Header
"""

from __future__ import annotations

import datetime as _dt

from firmware.system import logformat as LF
from cargoboard.clikit import InputError
from cargoboard.rules import rules_for, UnknownGame
from cargoboard.store import GameRecord, log_damage

STATUS = {LF.FINISH: "over", LF.ABANDON: "abandoned"}


class LogError(InputError):
    """The log cannot become a game record (no header, unknown game, does not replay)."""


def played_text(header) -> str:
    if header.time:
        t = _dt.datetime.fromtimestamp(header.time, _dt.timezone.utc)
        return t.replace(tzinfo=None).isoformat() + "Z"
    return "board game %d" % header.game


def record_from_log(raw: bytes, source: str | None = None) -> GameRecord:
    """The game in a board's log as a GameRecord (source: the board id; default the one in the
    header). Raises LogError naming the game and what is wrong."""
    raw = bytes(raw)
    header, records, good, problem = LF.parse(raw)
    if header is None:
        raise LogError("not a usable game log: %s" % problem)
    name = "game %d of board %s" % (header.game, header.board or "?")
    try:
        rules = rules_for(header.kind)
    except UnknownGame as e:
        raise LogError("%s: %s" % (name, e)) from None
    version = getattr(rules, "RULES_VERSION", None)
    if version is not None and version != header.rules:
        # what to do, by which side is newer: the host replays with its one rules version
        raise LogError("%s was played with %s rules version %d; this program's are version %d: "
                       "%s" % (name, header.kind, header.rules, version,
                               "update this program (cargoboard) to read it"
                               if header.rules > version else
                               "the rules changed since (a firmware update); the cargoboard "
                               "of the board's firmware then reads it"))
    try:
        pos = rules.Position.parse(header.start)
    except Exception as e:
        raise LogError("%s: bad start position: %s" % (name, e)) from None
    actions = []
    undos = 0
    status = "open"
    doubt = None
    for i, (kind, payload) in enumerate(records, 1):
        if kind == LF.ACTION:
            try:
                a, end = rules.decode_action(pos, payload, 0)
                if end != len(payload):
                    raise ValueError("%d byte(s) left over" % (len(payload) - end))
            except Exception as e:
                raise LogError("%s: record %d (action %s) does not replay: %s" % (
                    name, i, payload.hex(), e)) from None
            actions.append(pos.format_action(a))
            pos.push(a)
            status = "open"
        elif kind == LF.UNDO:
            if not actions:
                raise LogError("%s: record %d takes back an action that is not there" % (name, i))
            pos.pop()
            actions.pop()
            undos += 1
            status = "open"
        elif kind == LF.DOUBT:
            # the board's readings of the moves it has taken for now (option wait=K): the
            # actions logged are its likeliest reading; the board, not the host, settles them
            doubt = payload[0] | payload[1] << 8 if len(payload) >= 2 else None
        else:
            status = STATUS[kind]
    rec = GameRecord(header.kind, header.variant, header.seats, header.start, actions,
                     source=source or header.board or "board", source_game=header.game,
                     played=played_text(header), log=raw, abandoned=status == "abandoned")
    rec.final = pos  # replayed: the store need not do it again
    rec.status = status
    rec.problem = problem
    rec.damage = log_damage(raw) if problem is not None else None
    rec.dropped = len(raw) - good
    rec.undos = undos
    rec.doubt_at = doubt  # the ply from which the board's moves were still in doubt, or None
    rec.header = header
    return rec
