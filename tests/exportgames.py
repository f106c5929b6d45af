"""Seeded random legal games for the export/import tests (tests/test_export*.py)."""

import random

from shared_rules import cargocube as cc
from cargoboard.store import GameRecord


def _pick(legal, rng):
    # Choose the kind of action first: with cards, booster uses outnumber everything else
    # a hundredfold and a uniform pick would play little else.
    kinds = sorted({a[0] for a in legal})
    kind = kinds[rng.randrange(len(kinds))]
    pool = [a for a in legal if a[0] == kind]
    return pool[rng.randrange(len(pool))]


def random_game(seed, players=2, cards=False, actions=60, start=None, variant="polygon"):
    """A GameRecord of a seeded game of legal actions (it stops early if the game ends)."""
    rng = random.Random(seed)
    pos = cc.Position.parse(start) if start else cc.start_position(players, "polygon", cards)
    first = pos.notation()
    played = []
    for _ in range(actions):
        legal = pos.legal_actions()
        if not legal:
            break
        a = _pick(legal, rng)
        played.append(cc.format_action(a))
        pos.push(a)
    seats = "".join("SWNE"[s] for s in pos.seats)
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
    games.append(GameRecord("cargocube", "custom", "SN", FINISHED_START, FINISHED_ACTIONS,
                            source="board-9", source_game=1,
                            played='club night, table "2" \\ back room\nrematch'))
    return games
