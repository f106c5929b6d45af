# «Формула 99»: playing cards as small ints and the seeded deck (docs/rules/formula99.md §2.2).
#
# Code = suit * 13 + rank index + 1: suits c d h s (0..3), ranks 2..A (0..12); 53 the red
# joker Xr, 54 the black joker Xb. 0 is "no card".

RED_JOKER = 53
BLACK_JOKER = 54
RANKS = "23456789TJQKA"
SUITS = "cdhs"
CLUBS = 0
DIAMONDS = 1
HEARTS = 2
SPADES = 3


def suit(code):
    """0..3, or -1 for a joker."""
    return (code - 1) // 13 if code <= 52 else -1


def rank(code):
    """2..14 (J 11, Q 12, K 13, A 14), 0 for a joker."""
    return (code - 1) % 13 + 2 if code <= 52 else 0


def value(code):
    """The ram's value: the rank, 15 for a joker."""
    return (code - 1) % 13 + 2 if code <= 52 else 15


def is_red(code):
    if code > 52:
        return code == RED_JOKER
    s = (code - 1) // 13
    return s == DIAMONDS or s == HEARTS


def name(code):
    if code == RED_JOKER:
        return "Xr"
    if code == BLACK_JOKER:
        return "Xb"
    return RANKS[(code - 1) % 13] + SUITS[(code - 1) // 13]


def parse(text):
    """Code of '7h', 'Ts', 'Xr'; 0 if the text is no card."""
    if len(text) != 2:
        return 0
    if text == "Xr":
        return RED_JOKER
    if text == "Xb":
        return BLACK_JOKER
    r = RANKS.find(text[0])
    s = SUITS.find(text[1])
    if r < 0 or s < 0:
        return 0
    return s * 13 + r + 1


def parse_list(text):
    """Codes of concatenated card names ('7c2dAs'); raise ValueError naming a bad one."""
    if len(text) % 2:
        raise ValueError("cards %r: each card is two characters (e.g. 7c, Ts, Xr)" % text)
    out = []
    for i in range(0, len(text), 2):
        c = parse(text[i:i + 2])
        if not c:
            raise ValueError("%r is no card (ranks 23456789TJQKA, suits cdhs, jokers Xr Xb)"
                             % text[i:i + 2])
        out.append(c)
    return out


def shuffle(cards, seed):
    """Shuffle the list in place with the rules' generator (§2.4): x = (1103515245 x + 12345)
    mod 2^31 from x = seed, output x >> 16, Fisher-Yates from the end."""
    x = seed & 0x7FFFFFFF
    for i in range(len(cards) - 1, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = (x >> 16) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def reshuffle_seed(seed, r):
    return (seed + 7919 * r) & 0x7FFFFFFF
