"""Games as files: the JSON form and the plain-text record (PGN-like tag pairs, then one action
per line), written from a stored GameRecord and read back through the rules core.

Both forms are described in docs/export.md. Reading checks everything the file claims against a
replay by the rules core (the start parses, every action is legal where it is played, the
positions and scores written after each action, the final position and the result); the first
problem is raised as a GameFileError (a ValueError) naming the file and the line or action.
Nothing here knows Cargocube: the rules module comes from the record's kind.
"""

import json
import re

from cargoboard import games
from cargoboard.clikit import InputError
from cargoboard.rules import mover as mover_of, rules_for, seat_letters, turn_letter
from cargoboard.store import GameRecord, score_text, winners_text

FORMAT = "cargoboard-game"
VERSION = 1


class GameFileError(InputError):
    """A file that is no valid game; the message says where."""


# -- helpers shared by both forms ------------------------------------------------------------------

def seats_of(pos):
    return "".join(seat_letters(pos)[s] for s in pos.seats)


def scores_of(pos):
    sc = pos.scores()
    return {seat_letters(pos)[s]: sc[s] for s in pos.seats}


def record_view(kind):
    """The game's record part (cargoboard/games/<kind>/record.py), if it hides information
    until the end: shown(rec, positions), restore(start, actions, reveal), reveal_text(reveal),
    reveal_from_text(deal, laid)."""
    return games.part(kind, "record")


def shown(rec, positions=None):
    """(record, positions, reveal) as the files and pictures show rec: a game that hides
    information (its kind's record view) shows the public game and, after the last action, the
    full final position and the reveal; any other game is shown as it is (reveal None)."""
    if positions is None:
        positions = rec.positions()
    view = record_view(rec.kind)
    if view is None:
        return rec, positions, None
    start, texts, shown_positions, reveal = view.shown(rec, positions)
    if reveal is None:
        return rec, positions, None
    out = GameRecord(rec.kind, rec.variant, rec.seats, start, texts, source=rec.source,
                     source_game=rec.source_game, played=rec.played, id=rec.id,
                     stored=rec.stored, abandoned=rec.abandoned)
    out.damage = rec.damage
    return out, shown_positions, reveal


def _restored(name, where, kind, start, actions, reveal):
    """(full start, full actions) of a record read with a reveal."""
    view = record_view(kind)
    if view is None:
        raise GameFileError("%s %s: a reveal, but %s games hide nothing" % (name, where, kind))
    try:
        return view.restore(start, actions, reveal)
    except ValueError as e:
        raise GameFileError("%s %s: %s" % (name, where, e)) from None


def _check_shown(name, rec, shown_start, shown_actions, where_of):
    """A record read with a reveal must show what its replay shows."""
    shown_rec, positions, _ = shown(rec)
    if _canonical(positions[0], shown_start) != shown_rec.start:
        raise GameFileError("%s: the public start is %s by the deal, the file says %s"
                            % (name, shown_rec.start, shown_start))
    for i, text in enumerate(shown_actions):
        if text != shown_rec.actions[i]:
            raise GameFileError("%s %s: the public action is %s by the reveal"
                                % (name, where_of(i), shown_rec.actions[i]))
    return positions


# -- JSON ------------------------------------------------------------------------------------------

def to_dict(rec, positions=None):
    """The JSON form of a game as a dict: header, each action with the mover, the position
    after it and the scores, and the final state (then, for a game that hides information, the
    reveal)."""
    rec, positions, reveal = shown(rec, positions)
    final = positions[-1]
    actions = []
    for i, text in enumerate(rec.actions):
        after = positions[i + 1]
        actions.append({"ply": i + 1, "seat": mover_of(positions[i]),
                        "action": text, "position": after.notation(),
                        "scores": scores_of(after)})
    header = {"kind": rec.kind, "variant": rec.variant, "seats": rec.seats, "start": rec.start,
              "played": rec.played, "source": rec.source, "source_game": rec.source_game,
              "id": rec.id, "stored": rec.stored}
    if rec.damage:  # the board's log was damaged: the game goes on past these actions
        header["damage"] = rec.damage
    doc = {"format": FORMAT, "version": VERSION, "header": header,
           "start_scores": scores_of(positions[0]), "actions": actions,
           "final": {"position": final.notation(), "scores": scores_of(final),
                     "over": final.is_over(), "winners": winners_text(final),
                     "abandoned": rec.abandoned}}
    if reveal is not None:
        doc["reveal"] = reveal
    return doc


def to_json(rec, positions=None):
    """The JSON form as text: the header indented, one line per action."""
    doc = to_dict(rec, positions)
    parts = []
    for key, value in doc.items():
        if key == "actions":
            body = ",\n".join("  " + json.dumps(a, ensure_ascii=False) for a in value)
            text = "[\n%s\n ]" % body if value else "[]"
        elif key == "header":
            text = json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")
        else:
            text = json.dumps(value, ensure_ascii=False)
        parts.append(" %s: %s" % (json.dumps(key), text))
    return "{\n%s\n}\n" % ",\n".join(parts)


def _json_error(name, where, msg):
    return GameFileError("%s%s: %s" % (name, " " + where if where else "", msg))


def from_json(text, name="<json>"):
    """A GameRecord (source 'import', not stored) from the JSON form, checked by a replay."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise GameFileError("%s: not valid JSON (%s)" % (name, e)) from None
    except RecursionError:  # '[' * 100000: Python's decoder recurses once per level
        raise GameFileError("%s: not a game file (JSON nested too deeply)" % name) from None
    if not isinstance(doc, dict):
        raise _json_error(name, "", "expected a JSON object with 'header' and 'actions'")
    for key in doc:
        if key not in ("format", "version", "header", "start_scores", "actions", "final",
                       "reveal"):
            raise _json_error(name, "", "unknown field %r" % key)
    if doc.get("format", FORMAT) != FORMAT:
        raise _json_error(name, "", "format %r is not %r" % (doc.get("format"), FORMAT))
    if doc.get("version", VERSION) != VERSION:
        raise _json_error(name, "", "version %r not supported (this program reads %d)"
                          % (doc.get("version"), VERSION))
    header = doc.get("header")
    if not isinstance(header, dict):
        raise _json_error(name, "", "missing 'header' object")
    known = {"kind", "variant", "seats", "start", "played", "source", "source_game", "id",
             "stored", "damage"}
    for key in header:
        if key not in known:
            raise _json_error(name, "header", "unknown field %r" % key)
    for key in ("kind", "variant", "seats", "start"):
        if not isinstance(header.get(key), str) or not header[key]:
            raise _json_error(name, "header", "'%s' must be a non-empty string" % key)
    played = header.get("played")
    if played is not None and not isinstance(played, str):
        raise _json_error(name, "header", "'played' must be a string or null")
    items = doc.get("actions")
    if not isinstance(items, list):
        raise _json_error(name, "", "missing 'actions' list")
    actions = []
    claims = []
    for i, item in enumerate(items):
        where = "action %d" % (i + 1)
        if isinstance(item, str):
            actions.append(item)
            claims.append({})
            continue
        if not isinstance(item, dict) or not isinstance(item.get("action"), str):
            raise _json_error(name, where, "expected an action string or an object with "
                                           "an 'action' string")
        for key in item:
            if key not in ("ply", "seat", "action", "position", "scores"):
                raise _json_error(name, where, "unknown field %r" % key)
        if "ply" in item and item["ply"] != i + 1:
            raise _json_error(name, where, "'ply' is %r" % (item["ply"],))
        actions.append(item["action"])
        claims.append(item)
    final = doc.get("final")
    if final is not None and not isinstance(final, dict):
        raise _json_error(name, "", "'final' must be an object")
    def where_of(i):
        return "action %d (%s)" % (i + 1, actions[i])

    if "reveal" in doc:
        if not isinstance(doc["reveal"], dict):
            raise _json_error(name, "", "'reveal' must be an object")
        start, full = _restored(name, "reveal", header["kind"], header["start"], actions,
                                doc["reveal"])
        rec = GameRecord(header["kind"], header["variant"], header["seats"], start, full,
                         source="import", played=played)
        _replay(rec, name, "reveal", where_of, [{}] * len(full), lambda w, p, c: None)
        positions = _check_shown(name, rec, header["start"], actions, where_of)
        for i, claim in enumerate(claims):
            if "position" in claim and \
                    _canonical(positions[i + 1], claim["position"]) != positions[i + 1].notation():
                raise _json_error(name, where_of(i), "the position is %s by the rules, the file "
                                  "says %s" % (positions[i + 1].notation(), claim["position"]))
        if final is not None and "position" in final and \
                _canonical(positions[-1], final["position"]) != positions[-1].notation():
            raise _json_error(name, "final", "the position is %s by the rules"
                              % positions[-1].notation())
        return rec
    rec = GameRecord(header["kind"], header["variant"], header["seats"], header["start"],
                     actions, source="import", played=played)

    def check(where, pos, claim):
        if "position" in claim and _canonical(pos, claim["position"]) != pos.notation():
            raise _json_error(name, where, "the position is %s by the rules, the file says %s"
                              % (pos.notation(), claim["position"]))
        if "scores" in claim and claim["scores"] != scores_of(pos):
            raise _json_error(name, where, "scores are %s by the rules, the file says %s"
                              % (score_text(pos), _scores_text(claim["scores"])))

    start_claim = {"scores": doc["start_scores"]} if "start_scores" in doc else {}
    pos = _replay(rec, name, "header", where_of, claims, check, start_claim)
    if final is not None:
        check("final", pos, final)
        if "over" in final and bool(final["over"]) != pos.is_over():
            raise _json_error(name, "final", "the game is %sover by the rules"
                              % ("" if pos.is_over() else "not "))
        if "winners" in final and final["winners"] != winners_text(pos):
            raise _json_error(name, "final", "winners are '%s' by the rules, the file says '%s'"
                              % (winners_text(pos), final["winners"]))
        if not isinstance(final.get("abandoned", False), bool):
            raise _json_error(name, "final", "'abandoned' must be true or false")
        try:
            rec.abandoned = _abandoned(pos, final.get("abandoned", False))
        except ValueError as e:
            raise _json_error(name, "final", str(e)) from None
    return rec


def _abandoned(pos, claim):
    """claim (the file says the game was abandoned), checked: a game over by the rules was
    not dropped before its end."""
    if claim and pos.is_over():
        raise ValueError("the game is over by the rules, so it was not abandoned")
    return bool(claim)


def _canonical(pos, text):
    """text in the canonical notation of pos's rules, or text itself if it does not parse."""
    try:
        return type(pos).parse(text).notation()
    except Exception:
        return text


def _scores_text(scores):
    if isinstance(scores, dict):
        return " ".join("%s=%s" % kv for kv in scores.items())
    return repr(scores)


def _replay(rec, name, start_where, where_of, claims, check, start_claim=None):
    """Replay rec through its rules; normalise rec.start to the canonical notation. Raises
    GameFileError at the first problem."""
    try:
        rules = rules_for(rec.kind)
    except ValueError as e:
        raise GameFileError("%s %s: %s" % (name, start_where, e)) from None
    try:
        pos = rules.Position.parse(rec.start)
    except rules.RulesError as e:
        raise GameFileError("%s %s: bad start position: %s" % (name, start_where, e)) from None
    if seats_of(pos) != rec.seats:
        raise GameFileError("%s %s: seats '%s' do not match the start position's '%s'"
                            % (name, start_where, rec.seats, seats_of(pos)))
    rec.start = pos.notation()
    if start_claim:
        check("start", pos, start_claim)
    for i, text in enumerate(rec.actions):
        claim = claims[i]
        seat = claim.get("seat")
        mover = mover_of(pos)
        if seat is not None and seat != mover:
            raise GameFileError("%s %s: played by %s, but %s is to move"
                                % (name, where_of(i), seat, mover))
        try:
            pos.push(pos.parse_action(text))
        except rules.RulesError as e:
            raise GameFileError("%s %s: %s" % (name, where_of(i), e)) from None
        check(where_of(i), pos, claim)
    return pos


# -- text --------------------------------------------------------------------------------------------

# Tag order on export; on import every tag is optional except Game, Variant, Seats and Start.
TAGS = ("Game", "Variant", "Seats", "Start", "Played", "Source", "SourceGame", "Id", "Stored",
        "Damage", "Actions", "Result", "Winners", "Termination", "Final")
REVEAL_TAGS = ("Deal", "Laid")  # after the actions, for a game that hides information
REQUIRED = ("Game", "Variant", "Seats", "Start")

_TAG_RE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')


def _quote(value):
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"%s"' % text


def _unquote(value):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), value)


def to_text(rec, positions=None):
    """The text record: tag pairs, a blank line, then one action per line; a comment line
    (';') opens each turn, naming the seat to move."""
    rec, positions, reveal = shown(rec, positions)
    final = positions[-1]
    tags = [("Game", rec.kind), ("Variant", rec.variant), ("Seats", rec.seats),
            ("Start", rec.start)]
    if rec.played is not None:
        tags.append(("Played", rec.played))
    tags += [("Source", rec.source), ("SourceGame", rec.source_game)]
    if rec.id is not None:
        tags.append(("Id", rec.id))
    if rec.stored is not None:
        tags.append(("Stored", rec.stored))
    if rec.damage:
        tags.append(("Damage", rec.damage))
    tags += [("Actions", len(rec.actions)), ("Result", score_text(final)),
             ("Winners", winners_text(final))]
    if rec.abandoned:
        tags.append(("Termination", "abandoned"))  # PGN's tag: dropped before its end
    tags.append(("Final", final.notation()))
    lines = ["[%s %s]" % (k, _quote(v)) for k, v in tags]
    lines.append("")
    mover = None
    turn = 0
    for i, text in enumerate(rec.actions):
        seat = turn_letter(positions[i])
        if seat != mover:
            turn += 1
            if mover is not None:
                lines.append("")
            lines.append("; turn %d: %s" % (turn, seat))
            mover = seat
        lines.append(text)
    if reveal is not None:
        deal, laid = record_view(rec.kind).reveal_text(reveal)
        lines += ["", "; the hidden cards, revealed at the end", "[Deal %s]" % _quote(deal),
                  "[Laid %s]" % _quote(laid)]
    return "\n".join(lines) + "\n"


def from_text(text, name="<text>"):
    """A GameRecord (source 'import', not stored) from the text record, checked by a replay."""
    tags = {}
    tag_lines = {}
    actions = []
    action_lines = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("["):
            m = _TAG_RE.match(line)
            if not m:
                raise GameFileError('%s line %d: malformed tag (write [Name "value"])'
                                    % (name, lineno))
            key, value = m.group(1), _unquote(m.group(2))
            if key not in TAGS and key not in REVEAL_TAGS:
                raise GameFileError("%s line %d: unknown tag [%s] (known: %s)"
                                    % (name, lineno, key, " ".join(TAGS + REVEAL_TAGS)))
            if key in REVEAL_TAGS:
                if key in tags:
                    raise GameFileError("%s line %d: tag [%s] given twice" % (name, lineno, key))
                tags[key] = value
                tag_lines[key] = lineno
                continue
            if actions:
                raise GameFileError("%s line %d: tag [%s] after the actions"
                                    % (name, lineno, key))
            if key in tags:
                raise GameFileError("%s line %d: tag [%s] given twice" % (name, lineno, key))
            tags[key] = value
            tag_lines[key] = lineno
            continue
        line = line.split(";", 1)[0].strip()
        for word in line.split():
            actions.append(word)
            action_lines.append(lineno)
    for key in REQUIRED:
        if key not in tags:
            raise GameFileError("%s: missing tag [%s] (required: %s)"
                                % (name, key, " ".join(REQUIRED)))
    def where_of(i):
        return "line %d" % action_lines[i]

    if "Deal" in tags or "Laid" in tags:
        view = record_view(tags["Game"])
        if view is None or "Deal" not in tags:
            raise GameFileError("%s: [Deal] and [Laid] go with a game that hides information, "
                                "together" % name)
        reveal = view.reveal_from_text(tags["Deal"], tags.get("Laid", ""))
        # (what the reveal's reader finds wrong is in the cards laid)
        laid_at = "line %d [Laid]" % tag_lines["Laid"] if "Laid" in tags else \
            "line %d [Deal]" % tag_lines["Deal"]
        start, full = _restored(name, laid_at, tags["Game"], tags["Start"], actions, reveal)
        rec = GameRecord(tags["Game"], tags["Variant"], tags["Seats"], start, full,
                         source="import", played=tags.get("Played"))
        pos = _replay(rec, name, "line %d" % tag_lines["Deal"], where_of, [{}] * len(full),
                      lambda where, p, claim: None)
        _check_shown(name, rec, tags["Start"], actions, where_of)
    else:
        rec = GameRecord(tags["Game"], tags["Variant"], tags["Seats"], tags["Start"], actions,
                         source="import", played=tags.get("Played"))
        pos = _replay(rec, name, "line %d" % tag_lines["Start"], where_of, [{}] * len(actions),
                      lambda where, p, claim: None)
    if "Actions" in tags and tags["Actions"] != str(len(actions)):
        raise GameFileError("%s line %d: [Actions] says %s, the file holds %d"
                            % (name, tag_lines["Actions"], tags["Actions"], len(actions)))
    for key, value in (("Result", score_text(pos)), ("Winners", winners_text(pos)),
                       ("Final", pos.notation())):
        claim = tags.get(key)
        if key == "Final" and claim is not None:
            claim = _canonical(pos, claim)
        if claim is not None and claim != value:
            raise GameFileError("%s line %d: [%s] says '%s', the replay gives '%s'"
                                % (name, tag_lines[key], key, tags[key], value))
    if "Termination" in tags:
        where = "%s line %d: [Termination]" % (name, tag_lines["Termination"])
        if tags["Termination"] != "abandoned":
            raise GameFileError("%s must be 'abandoned' (or left out), not '%s'"
                                % (where, tags["Termination"]))
        try:
            rec.abandoned = _abandoned(pos, True)
        except ValueError as e:
            raise GameFileError("%s: %s" % (where, e)) from None
    return rec


# -- either -----------------------------------------------------------------------------------------

def _picture(lower_name, text):
    """'an SVG diagram' or 'an HTML page' if the file is one of those exports (by its suffix,
    else its first character: '<'), else None."""
    if lower_name.endswith(".svg"):
        return "an SVG diagram"
    if lower_name.endswith((".html", ".htm")):
        return "an HTML page"
    if text.lstrip().startswith("<"):
        return "an HTML page" if "<html" in text[:2000].lower() else "an SVG or XML file"
    return None


# A game file's form by its name's suffix: how `import` tells them apart and how every game's
# `play GAME --save FILE` chooses what it writes, so that what one saves the other reads.
FORMS_BY_SUFFIX = {".json": "json", ".txt": "text"}


def form_by_suffix(name):
    """'json' or 'text' by the suffix of the file's name (any case), else None."""
    for suffix, form in FORMS_BY_SUFFIX.items():
        if name.lower().endswith(suffix):
            return form
    return None


def check_save_file(name):
    """`play GAME --save NAME`, checked before the game is played (a game played for an hour
    must not be lost at its end): a UsageError unless the suffix names a form (.json, .txt),
    a CommandError unless NAME may be written as a new file."""
    from cargoboard.clikit import UsageError, check_new_file
    if form_by_suffix(name) is None:
        raise UsageError("--save %s: the file's name must end in %s (the form it is written in)"
                         % (name, " or ".join(FORMS_BY_SUFFIX)))
    check_new_file(name)


def save_game(rec, name, positions=None):
    """Write the GameRecord rec (even unfinished) to the new file NAME (check_save_file'd) in
    the form its suffix names, whole or not at all (clikit.write_file)."""
    from cargoboard.clikit import write_file
    write_file(name, (to_json if form_by_suffix(name) == "json" else to_text)(rec, positions))


def read_game(text, name="<input>", fmt=None):
    """A checked GameRecord from either form; fmt 'json' or 'text', or None to tell by the
    name's suffix (.json, .txt), else by the first character ('{' is JSON)."""
    if fmt is None:
        lower = name.lower()
        picture = _picture(lower, text)
        if picture:
            raise GameFileError("%s is %s, which cannot be imported: import reads a game's "
                                "JSON or text export (.json, .txt; `cargoboard export GAME "
                                "--format json|text`)" % (name, picture))
        fmt = form_by_suffix(name) or ("json" if text.lstrip().startswith("{") else "text")
    if fmt == "json":
        return from_json(text, name)
    if fmt == "text":
        return from_text(text, name)
    raise ValueError("unknown game file format %r" % fmt)
