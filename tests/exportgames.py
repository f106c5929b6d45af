"""Shared by the export/import tests (tests/test_export*.py): seeded random legal games of each
kind, and readers for the HTML replay page."""

import random
from html.parser import HTMLParser

from shared_rules.cargocube import rules as cc
from shared_rules.cephalopod import rules as ce
from shared_rules import geometry as g
from shared_rules.cephalopod.engine import best_action
from cargoboard.store import GameRecord


def _play(pos, rng, pick, actions):
    """Play up to `actions` actions chosen by pick(pos, legal, rng) on pos (it stops early if
    the game ends); returns their texts."""
    played = []
    for _ in range(actions):
        legal = pos.legal_actions()
        if not legal:
            break
        a = pick(pos, legal, rng)
        played.append(pos.format_action(a))
        pos.push(a)
    return played


def _pick_cargocube(pos, legal, rng):
    # Choose the kind of action first: with cards, booster uses outnumber everything else
    # a hundredfold and a uniform pick would play little else.
    kinds = sorted({a[0] for a in legal})
    kind = kinds[rng.randrange(len(kinds))]
    pool = [a for a in legal if a[0] == kind]
    return pool[rng.randrange(len(pool))]


def random_game(seed, players=2, cards=False, actions=60, start=None, variant="polygon",
                teleport=False):
    """A GameRecord of a seeded game of legal actions (it stops early if the game ends);
    cards: False, True or a card layout (pyramid, bastion, both)."""
    rng = random.Random(seed)
    pos = cc.Position.parse(start) if start else cc.start_position(players, "polygon", cards,
                                                                   teleport)
    first = pos.notation()
    played = _play(pos, rng, _pick_cargocube, actions)
    seats = "".join(pos.SEAT_LETTERS[s] for s in pos.seats)
    return GameRecord("cargocube", variant, seats, first, played, source="board-%d" % players,
                      source_game=seed + 1, played="2025-03-%02d 20:%02d" % (1 + seed % 28,
                                                                            seed % 60))


# A game that ends: S activates e5 (4 actions), then rolls the free cube on f2 onto f1 showing
# 4, which brings the terminal to 36.
FINISHED_START = ("b1=41,c1=41,d1=41,e1=41,g1=41,h1=41,i1=41,j1=41,f2=B1.B2,e5=B1,f11=KN "
                  "SN S a")
FINISHED_ACTIONS = ["e5w", "f2s"]


def many_games():
    """Games of 2, 3 and 4 players, with and without cards, empty to long, and one that ends."""
    games = []
    seed = 0
    for players in (2, 3, 4):
        for cards in (False, True):
            for length in (0, 25, 140) if players == 2 else (60,):
                games.append(random_game(seed, players, cards, length))
                seed += 1
    # The expansions: every new piece and card, the teleport, 8 players.
    for players, cards, teleport in ((2, "pyramid", False), (4, "bastion", True),
                                     (8, "both", True)):
        games.append(random_game(seed, players, cards, 90, teleport=teleport,
                                 variant="polygon+%s%s" % (cards, "+teleport" * teleport)))
        seed += 1
    games.append(GameRecord("cargocube", "custom", "SN", FINISHED_START, FINISHED_ACTIONS,
                            source="board-9", source_game=1,
                            played='club night, table "2" \\ back room\nrematch'))
    return games


def _pick_cephalopod(pos, legal, rng):
    # the engine's choice, mixed with random ones
    return best_action(pos, 1) if rng.random() < 0.6 else rng.choice(legal)


def random_cephalopod_game(seed, size="5x5", actions=60):
    """A GameRecord of a seeded Cephalopod game (engine choices mixed with random ones); it
    stops early if the board fills."""
    rng = random.Random(seed)
    pos = ce.named_position(size)
    start = pos.notation()
    played = _play(pos, rng, _pick_cephalopod, actions)
    return GameRecord("cephalopod", size, "wb", start, played, source="board-x",
                      source_game=seed + 1, played="2026-11-%02d" % (1 + seed % 28))


# -- the HTML replay page --------------------------------------------------------------------------

VOID = {"meta", "input", "br", "img", "link", "hr", "source"}


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.ids = {}
        self.urls = []
        self.steps = []
        self.scripts = []
        self._script = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            assert a["id"] not in self.ids, "duplicate id %s" % a["id"]
            self.ids[a["id"]] = (tag, a)
        for k in ("src", "href", "xlink:href"):
            if k in a:
                self.urls.append(a[k])
        if a.get("style") and "url(" in a["style"]:
            self.urls.append(a["style"])
        if tag == "button" and "data-step" in a:
            self.steps.append(int(a["data-step"]))
        if tag == "script":
            self._script = (a, [])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
            return
        self.stack.pop()
        if tag == "script":
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1].append(data)


def parse_page(text):
    page = _Page()
    page.feed(text)
    page.close()
    assert page.errors == [] and page.stack == []
    return page


def pieces_of(frames, fragments, n):
    state = {}
    for f in frames[:n + 1]:
        for k, v in f:
            if v < 0:
                del state[k]
            else:
                state[k] = v
    return "".join(fragments[state[k]] for k in sorted(state))
