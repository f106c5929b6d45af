"""A stored game (GameRecord) and how the store's games are said and asked for: their scores,
results, times and sources in words, and the archive's filters (RESULTS, SEATS,
is_result_filter, is_date_filter)."""

from __future__ import annotations

import datetime as _dt
import re

from cargoboard.rules import rules_for, seat_letters


class GameRecord:
    """A game: where it came from, how it started, what was played."""

    def __init__(self, kind, variant, seats, start, actions, source="import", source_game=0,
                 played=None, log=None, id=None, stored=None, abandoned=False):
        self.kind = kind
        self.variant = variant
        self.seats = seats
        self.start = start
        self.actions = list(actions)
        self.source = source
        self.source_game = source_game
        self.played = played
        self.log = log
        self.id = id
        self.stored = stored
        self.abandoned = bool(abandoned)  # dropped before its end (abort, a new game)
        self.final = None  # the position after the last action, where a replay already made it
        self.continues = None  # the store id of this game's shorter log it replaces (add_all)
        self.damage = None  # log_damage(log): the log was damaged, the actions stop there

    @property
    def rules(self):
        return rules_for(self.kind)

    def start_position(self):
        return self.rules.Position.parse(self.start)

    def positions(self):
        """The positions before the first action and after each (len = actions + 1).
        Raises the rules' error if an action is illegal."""
        return self.replay()[0]

    def replay(self):
        """(positions, actions): positions() and each action as the rules parsed it (what
        `Position.parse_action` of its text gives in the position before it), for a drawing
        of the game's steps that marks each action (diagram.step_svg), which need not parse
        it again."""
        pos = self.start_position()
        out = [pos.copy()]
        parsed = []
        for text in self.actions:
            action = pos.parse_action(text)
            pos.push(action)
            parsed.append(action)
            out.append(pos.copy())
        return out, parsed

    def final_position(self):
        pos = self.start_position()
        for text in self.actions:
            pos.push(pos.parse_action(text))
        return pos

    def __repr__(self):
        return "GameRecord(%s %s %s, %d actions, %s#%s)" % (
            self.kind, self.variant, self.seats, len(self.actions), self.source, self.source_game)


def score_text(pos) -> str:
    """'S=12 N=9' (Cephalopod 'w=13 b=12'): the scores column, and the result of exports."""
    sc = pos.scores()
    letters = seat_letters(pos)
    return " ".join("%s=%d" % (letters[s], sc[s]) for s in pos.seats)


def winners_text(pos) -> str:
    """The winners' seat letters ('N', 'SN'), '' while the game is not over."""
    letters = seat_letters(pos)
    return "".join(letters[s] for s in pos.winners()) if pos.is_over() else ""


def result_text(winners, abandoned) -> str:
    """How a stored game ended, for listings: 'won by N', 'abandoned' (dropped before its end:
    abort, a new game) or 'not over' (still open when it was stored)."""
    if winners:
        return "won by " + winners
    return "abandoned" if abandoned else "not over"


def when_text(played, stored) -> str:
    """When a game was played, for people (the archive, a replay): the time of the board's
    clock when it had one (`2026-11-04 10:20 UTC`); else it is not known, and when the game
    came into the store says the most (`not known; stored 2026-12-02 12:09 UTC`). A game begun
    before the board knew the time has its game number as `played` (`board game 3`), nothing of
    when (the source says it); an import's other free text is kept before the stored time.
    The archive's date filters take the same day (Store.list)."""
    at = played_at(played)
    if at:
        return at
    known = "not known" if not played or played.startswith("board game ") else played
    return "%s; stored %s" % (known, _utc(stored)) if stored else known


def played_now() -> str:
    """`played` for a game begun now on this machine (`cargoboard play`): the PC's clock, UTC,
    as a board's clock gives it (`2026-12-04T01:04:26Z`), so that `games` and the archive say
    when it was played rather than `-` (not known)."""
    import datetime as dt
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0, tzinfo=None)
    return now.isoformat() + "Z"


def played_at(played):
    """The time a game was played, `2026-11-04 10:20 UTC`, if `played` is one (a board's clock,
    ISO 8601; an import's may be): else None."""
    if played and len(played) >= 10 and played[:4].isdigit() and played[4:5] == "-":
        return _utc(played)
    return None


def _utc(t):
    return t[:16].replace("T", " ") + (" UTC" if len(t) >= 16 else "")


def numbering_source(board, k) -> str:
    """The source of a board's k-th numbering: `board` (k = 1), `board#2`, `board#3`, ..."""
    return board if k == 1 else "%s#%d" % (board, k)


def source_text(source, source_game) -> str:
    """Where a game came from: `board sim-5b6a, its game 3`, or `import #3`."""
    if source == "import":
        return "import #%s" % source_game
    return "board %s, its game %s" % (source, source_game)


# The archive's filters (Store.list): what a game's result may be asked as, and the numbers of
# seats a game may be asked by (`games --players N`, the web archive's `players=N`): no game
# seats more than 9 (a seat is named by one letter or digit).
RESULTS = ("over", "open", "abandoned")
SEATS = (1, 9)


def is_result_filter(text) -> bool:
    """Whether text is a result Store.list takes: one of RESULTS, or a seat, its letter or
    digit («Формула 99»'s civilisations, 8-player Cargocube): won by it."""
    return text in RESULTS or (len(text) == 1 and text.isascii() and text.isalnum())


def is_date_filter(text) -> bool:
    """Whether text is a date Store.list's since/until take: YYYY-MM-DD, a real day.
    (fromisoformat alone also takes 20261202 and 2026-W49, which the store's text comparison
    would misread.)"""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return False
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True
