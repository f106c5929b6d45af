# Starting layouts are data, not code: each is the <cells> field of the position notation for the
# cargo cubes alone. Keepers (on their exit portals) and cards are added by start_position().

# «Полигон» (reconstructed, see docs/rules/cargocube.md): the 40 cells at Chebyshev distance 2 or 3
# from the centre f6, every cube B1.
POLYGON = (
    "c3=B1,d3=B1,e3=B1,f3=B1,g3=B1,h3=B1,i3=B1,"
    "c4=B1,d4=B1,e4=B1,f4=B1,g4=B1,h4=B1,i4=B1,"
    "c5=B1,d5=B1,h5=B1,i5=B1,"
    "c6=B1,d6=B1,h6=B1,i6=B1,"
    "c7=B1,d7=B1,h7=B1,i7=B1,"
    "c8=B1,d8=B1,e8=B1,f8=B1,g8=B1,h8=B1,i8=B1,"
    "c9=B1,d9=B1,e9=B1,f9=B1,g9=B1,h9=B1,i9=B1"
)

LAYOUTS = {"polygon": POLYGON}

# The default places of the cards in seat S's terminal, one letter (a card kind, `-` none) for each
# of CARD_CELLS, left to right as S sees it; other seats get the same places turned with the
# board. Players may lay them elsewhere. With 8 players each card belongs to the seat whose half
# of the terminal it lies on.
CARD_CELLS = ("b1", "c1", "d1", "e1", "g1", "h1", "i1", "j1")
DEFAULT_CARDS = {
    "base": "sswssa--",
    "pyramid": "uswssacp",  # «Пирамида»: umbrella, catapult, spiral
    "bastion": "xswssahv",  # «Бастион»: extra portal, biohazard, sacrifice
    "both": "ucwpxahv",
}

# Seats in play by number of players.
SEATS_BY_PLAYERS = {2: "SN", 3: "SWN", 4: "SWNE", 8: "12345678"}
