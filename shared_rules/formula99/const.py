# «Формула 99»: what the rules modules share: the layout of the position bytearray, agenda
# items, action kinds, card uses, events, and the one exception type. No logic, so that every
# rules module (the notation included) may import it without an import circle.


class RulesError(Exception):
    """Bad input to the rules: a malformed position, a malformed or illegal action."""


# -- the position bytearray ----------------------------------------------------------------------
O_LEVEL = 0
O_NSEATS = 1
O_FULL = 2
O_TURN = 3
O_PHASE = 4
O_FLAGS = 5
O_WINNER = 6  # seat, 255 none
O_RESH = 7  # reshuffles so far
O_SP = 8  # agenda items
O_DECKN = 9  # full view: cards in the deck
O_CIV = 10  # 9: civilisation (1..9) of each seat
O_SHIP = 19  # 18: place of ship slot seat * 2 + j
O_CHG = 37  # 18: cell of charge slot seat * 2 + j, 255 at home
O_CCARD = 55  # 18: its card: code, UNKNOWN (public), BLOCKADE
O_HANDN = 73  # 9: cards in each hand
O_LOC = 82  # 54: where card code c is, at O_LOC + c - 1
O_DECK = 136  # 54: full view: the deck, top card last
O_SEED = 190  # 4: full view: seed, big-endian
O_AG = 194  # agenda: MAX_AG items of 5 bytes
MAX_AG = 40
SIZE = O_AG + 5 * MAX_AG

HOME = 255
UNKNOWN = 254
BLOCKADE = 255
NONE = 255

L_DECK = 0  # full: in the deck; public: not known (deck, a hand or a charge)
L_DISCARD = 1
L_HAND = 2  # + seat
L_CHARGE = 20  # + charge slot

PH_START = 0
PH_MOVE = 1
PH_CHARGES = 2
PHASE_LETTERS = "amc"
F_DREW = 1
F_PLAYED = 2
F_LAID = 4
F_LIFTED = 8
FLAG_LETTERS = "dplr"

# Agenda item kinds: (kind, a, b, c, d)
A_MOVE = 1  # a seat, b moves left, c limit, d ship slot + 1 (0 any)
A_TRIG = 2  # a crosser slot, b the cell of a charge it crossed, to trigger
A_SHOW = 3  # chance: a crosser slot, b charge cell
A_FWD = 4  # a crosser slot, b steps
A_TOW = 5  # a crosser slot, b 7 or 8
A_BEAM = 6  # a owner seat, b beam ship slot
A_LASER = 7  # a owner seat, b beam ship slot
A_JOKER = 8  # a crosser slot, b owner seat, c charge cell
A_DASH = 9  # chance: the dash card
A_RAMDRAW = 10  # chance: a rammer slot, b target slot
A_ANSWER = 11  # a rammer slot, b target slot, c value drawn
A_CLEAR = 12  # chance: a cell of the cleared charge
CHANCE_ITEMS = (A_SHOW, A_DASH, A_RAMDRAW, A_CLEAR)

# -- actions: kind << 24 | fields ----------------------------------------------------------------
K_MOVE = 1  # src place << 7 | length << 3 | lane bits
K_PASS = 2
K_END = 3
K_DRAW = 4  # n
K_PLAY = 5  # card << 18 | use << 14 | p1 << 7 | p2
K_LAY = 6  # cell << 6 | card (0 in a public position)
LAY_FIRST = 255  # Position.lay_card: one lay per cell, with the hand's lowest card
K_BLOCK = 7  # cell
K_LIFT = 8  # cell
K_SHOW = 9  # card
K_GO = 10  # landing << 10 | lane bits << 7 | triggered cell (NOWHERE none)
K_JOKER = 11  # value 4..14
K_TOW = 12  # ship place
K_BEAM = 13  # ship place << 7 | cell
K_LASER = 14  # front place << 7 | back place (NOWHERE none)
K_DEF = 15
K_NODEF = 16

PASS = K_PASS << 24
END = K_END << 24
DEF = K_DEF << 24
NODEF = K_NODEF << 24

U_BRAKE = 1
U_DASH = 2
U_RAM = 3
U_SAC = 4
U_MAGNET = 5
U_JUMP4 = 6
U_JUMP3 = 7
U_KICK = 8
U_BLAST = 9
U_PULL = 10
U_CLEAR = 11
USE_NAMES = ("", "brake", "dash", "ram", "sac", "magnet", "jump", "jump", "kick", "blast", "pull",
             "clear")
MOVE_CARDS = (U_BRAKE, U_DASH, U_RAM, U_SAC, U_JUMP4, U_JUMP3)
FINISHED_BASE = 100  # a ship on the finish cell of civ k, as a target place: 100 + k

# Events of charges (§6.1)
EV_FWD6 = 1
EV_BACK5 = 2
EV_FWD10 = 3
EV_JUMP8 = 4
EV_TWO = 5
EV_TOW7 = 6
EV_TOW8 = 7
EV_BEAM = 8
EV_FREEZE = 9
EV_BACK9 = 10
EV_HOME = 11
EV_LASER = 12
EV_BLAST = 13
EV_JOKER = 14
VALUE_EVENTS = (EV_FWD10, EV_JUMP8, EV_TWO, EV_TOW7, EV_TOW8, EV_BEAM, EV_FREEZE, EV_BACK9,
                EV_HOME, EV_LASER, EV_BLAST)  # values 4..A
