"""Hand-built positions for every ruling of Cargocube's expansions and variants, with what the
rulings page (/work/shared/rules/cargocube-rulings.md) and docs/rules/cargocube.md section 16 say
must happen there. Worked out by hand, never by printing what a program does.

One table for both implementations: tests/cargocube/test_ruleref_selfcheck.py checks the slow
reference against it, tests/cargocube/test_cargocube_expansions.py the rules core.

Each case: `pos` (notation), and any of
    legal  - the exact set of legal actions
    has    - actions that must be legal
    lacks  - actions that must not be legal
    play   - a list of (action, the position after it) applied in turn from `pos`
    scores - {seat letter: score} of `pos`

Orientations used (faces up/down/north/east/south/west):
    B1 = B O 3 4 1 2; rolled e -> 21, n -> 1O, s -> 3B, w -> 41; turned cw -> B4, acw -> B2
    21 = 2 4 3 B 1 O; turned cw -> 2B, acw -> 2O
Turning keeps up and down and moves the sides round clockwise (north face to east): 21 has 3 north,
B east, 1 south, O west; clockwise 3 goes east, B south, 1 west, O north: `2B`; anticlockwise 3 goes
west, B north, 1 east, O south: `2O`.
"""

GREY = [col + str(row) for row in range(2, 11) for col in "bcdefghij"]


def empty_grey(*occupied):
    """The grey cells a card may go to: no item, no card, not f6."""
    return [c for c in GREY if c not in occupied and c != "f6"]


CASES = [
    # --- umbrella -------------------------------------------------------------------------------
    dict(name="umbrella ride from the exit portal, then spent",
         pos="f1=KS,d5=*uS,f11=KN SN S 2",
         legal={"Kn", "Ke", "Kw", "K@d5", "end"},
         play=[("K@d5", "d5=*=S.KS,f11=KN SN S 1")]),
    dict(name="umbrella ride ignores the height",
         pos="f1=KS,d5=*uS.B1.B1.B1,f11=KN SN S 2",
         has={"K@d5", "d5n"},
         play=[("K@d5", "d5=*=S.B1.B1.B1.KS,f11=KN SN S 1")]),
    dict(name="no ride when the keeper is not the top of its exit portal",
         pos="f1=KS.B1,d5=*uS,f11=KN SN S 2",
         lacks={"K@d5"}),
    dict(name="no ride away from the exit portal",
         pos="f2=KS,d5=*uS,f11=KN SN S 2",
         lacks={"K@d5"}),
    dict(name="only the owner rides its umbrella",
         pos="f1=KS,d5=*uN,f11=KN SN S 2",
         lacks={"K@d5"}),
    dict(name="an umbrella in the terminal does nothing",
         pos="d1=*uS,f1=KS,f11=KN SN S 2",
         lacks={"K@d1"}),
    dict(name="a spent umbrella does nothing",
         pos="f1=KS,d5=*=S,f11=KN SN S 2",
         legal={"Kn", "Ke", "Kw", "end"}),
    dict(name="ride onto a controlling keeper takes its biohazard",
         pos="f1=KS,c4=B1.!N,d5=*uS.KN SN S 1",
         play=[("K@d5", "c4=B1.!S,d5=*=S.KN.KS SN N a")]),
    # --- catapult -------------------------------------------------------------------------------
    dict(name="catapult throws to the terminals in play of its row and column, then spent",
         pos="f1=KS,c5=B1.B1,d5=*cS,f11=KN SN S 2",
         has={"c5e^d11", "c5e^d1"},
         lacks={"c5e", "c5e^k5", "c5e^a5"},
         play=[("c5e^d11", "f1=KS,c5=B1,d5=*=S,d11=21,f11=KN SN S 1")]),
    dict(name="catapult targets with 4 players, onto stacks, order n e s w",
         pos="d1=B1,f1=KS,a5=KW,c5=B1.B1,d5=*cS,k5=B1.B1.B1,d11=KN SWNE S 2",
         has={"c5e^d11", "c5e^k5", "c5e^d1", "c5e^a5"},
         play=[("c5e^k5", "d1=B1,f1=KS,a5=KW,c5=B1,d5=*=S,k5=B1.B1.B1.21,d11=KN SWNE S 1")]),
    dict(name="catapult does not act during an activation",
         pos="f1=KS,c5=B1.B1,d5=*cS,f11=KN SN S a",
         has={"c5e"},
         play=[("c5e", "f1=KS,c5=B1,d5=*cS.21,f11=KN SN S 2")]),
    dict(name="catapult with no allowed target does nothing and is not spent",
         pos="d1=3B.!N,f1=KS,c5=B1.B1,d5=*cS,d11=3B.!N,f11=KN SN S 2",
         has={"c5e"},
         play=[("c5e", "d1=3B.!N,f1=KS,c5=B1,d5=*cS.21,d11=3B.!N,f11=KN SN S 1")]),
    dict(name="a hop onto a catapult throws",
         pos="f1=KS,c4=B1.B1,d4=*wS,d5=*cS,f11=KN SN S 2",
         has={"c4e/d5^d11", "c4e/d5^d1", "c4e/e5"}),
    dict(name="springboard until spent: a keeper leaves it upward",
         pos="d5=*cS.KS,d6=B1.B1.B1,f11=KN SN S 2",
         has={"Kn"}),
    dict(name="a spent catapult gives no springboard",
         pos="d5=*=S.KS,d6=B1.B1.B1,f11=KN SN S 2",
         lacks={"Kn"}),
    # --- spiral ---------------------------------------------------------------------------------
    dict(name="spiral turns the whole stack either way, keeper on top",
         pos="e5=*pN.B1.KS,f11=KN SN S 1",
         legal={"Kn", "Ke", "Ks", "Kw", "e5cw", "e5acw", "end"},
         play=[("e5cw", "e5=*pN.B4.KS,f11=KN SN N a")]),
    dict(name="spiral anticlockwise, every cube of the stack",
         pos="e5=*pS.B1.21,f1=KS,f11=KN SN S 2",
         has={"e5cw", "e5acw"},
         play=[("e5acw", "f1=KS,e5=*pS.B2.2O,f11=KN SN S 1")]),
    dict(name="spiral clockwise on 21",
         pos="e5=*pS.B1.21,f1=KS,f11=KN SN S 2",
         play=[("e5cw", "f1=KS,e5=*pS.B4.2B,f11=KN SN S 1")]),
    dict(name="no spiral turn without a cube",
         pos="e5=*pN.KS,f11=KN SN S 1",
         lacks={"e5cw", "e5acw"}),
    dict(name="no spiral turn with a biohazard",
         pos="e5=*pN.B1.!N,f1=KS,f11=KN SN S 1",
         lacks={"e5cw", "e5acw"}),
    # --- extra portal ---------------------------------------------------------------------------
    dict(name="extra portal sends a cube to the mover's exit portal",
         pos="f1=KS,d5=B1.B1,e5=*xN,f11=KN SN S 2",
         has={"d5e"},
         play=[("d5e", "f1=KS.21,d5=B1,e5=*xN,f11=KN SN S 1")]),
    dict(name="no activation onto an extra portal",
         pos="f1=KS,d5=B1.B1,e5=*xN,f11=KN SN S a",
         legal={"d5n", "d5s", "d5w"}),
    dict(name="extra portal is a springboard",
         pos="e5=*xN.KS,e6=B1.B1.B1,f11=KN SN S 1",
         has={"Kn"}),
    # --- biohazard ------------------------------------------------------------------------------
    dict(name="biohazard goes on a top cube within one cell of the own keeper",
         pos="f1=KS,i1=*hS,e2=B1,g2=B1.B1,f3=B1,f11=KN SN S 2",
         has={"i1@e2", "i1@g2"},
         lacks={"i1@f3", "i1@f1"},
         play=[("i1@e2", "f1=KS,e2=B1.!S,g2=B1.B1,f3=B1,f11=KN SN S 1b")]),
    dict(name="a controlling keeper cannot step; lift anywhere empty, move within one cell",
         pos="f1=KS,e2=B1.!S,g2=B1.B1,f3=B1,f11=KN SN S 1b",
         legal={"g2n", "g2e", "g2s", "g2w", "He2@g2", "end"}
         | {"He2@" + c for c in empty_grey("e2", "g2", "f3")}),
    dict(name="lifted biohazard is a spent card of the lifting seat",
         pos="f1=KS,e2=B1.!S,f11=KN SN S 1",
         play=[("He2@d5", "f1=KS,e2=B1,d5=*=S,f11=KN SN N a")]),
    dict(name="moved biohazard",
         pos="f1=KS,e2=B1.!S,g2=B1.B1,f11=KN SN S 2",
         play=[("He2@g2", "f1=KS,e2=B1,g2=B1.B1.!S,f11=KN SN S 1")]),
    dict(name="nothing may enter the covered cell",
         pos="f1=KS,d5=B1.B1,e5=B1.!N,f11=KN SN S 2",
         lacks={"d5e"}),
    dict(name="no keeper step onto a biohazard",
         pos="e4=KS,e5=B1.!N,f11=KN SN S 2",
         lacks={"Kn"}),
    dict(name="covered cube cannot be activated",
         pos="f1=KS,e5=B1.B1.!N,f11=KN SN S a",
         legal=set()),
    dict(name="a biohazard on the exit portal's top cube closes every portal to that seat",
         pos="f1=KS.3B.!N,e6=B1.B1,f11=KN SN S 2",
         has={"e6n", "e6s", "e6w"},
         lacks={"e6e"}),
    dict(name="... but not to the other seat",
         pos="f1=KS.3B.!N,e6=B1.B1,f11=KN SN N 2",
         has={"e6e"}),
    dict(name="covered cube still scores",
         pos="f1=KS,e1=4B.!N,f11=KN SN S 2",
         scores={"S": 4, "N": 0}),
    dict(name="control passes when a keeper steps onto the controlling keeper",
         pos="e4=KS,e5=KN,g3=B1.!N SN S 1",
         play=[("Kn", "g3=B1.!S,e5=KN.KS SN N a")]),
    dict(name="biohazard needs the owner's keeper alive",
         pos="f1=XS,i1=*hS,e2=B1,f11=KN SN S 2",
         lacks={"i1@e2"}),
    # --- sacrifice ------------------------------------------------------------------------------
    dict(name="sacrifice: the keeper dies, the card goes with it, an extra turn",
         pos="f1=KS,j1=*vS,e5=B1.B1,f11=KN SN S 2",
         has={"j1@f1"},
         play=[("j1@f1", "f1=XS,e5=B1.B1,f11=KN SN S 1bx"),
               ("end", "f1=XS,e5=B1.B1,f11=KN SN S a")]),
    dict(name="sacrifice as the last action: the same player moves again",
         pos="f1=KS,j1=*vS,e5=B1.B1,f11=KN SN S 1",
         play=[("j1@f1", "f1=XS,e5=B1.B1,f11=KN SN S a")]),
    dict(name="sacrifice on a card is fine; not at level 1; not while controlling",
         pos="e1=*sS.KS,j1=*vS,f11=KN SN S 2",
         has={"j1@e1"}),
    dict(name="no sacrifice at level 1",
         pos="e2=B1.KS,j1=*vS,f11=KN SN S 2",
         lacks={"j1@e2"}),
    dict(name="no sacrifice while controlling a biohazard",
         pos="f1=KS,j1=*vS,e2=B1.!S,f11=KN SN S 2",
         lacks={"j1@f1"}),
    dict(name="a dead keeper is a block anyone may roll onto; a cube on it is free",
         pos="f1=KS,d5=B1.B1,e5=XN,f11=B1 SN S 2",
         has={"d5e"},
         play=[("d5e", "f1=KS,d5=B1,e5=XN.21,f11=B1 SN S 1"),
               ("e5n", "f1=KS,d5=B1,e5=XN,e6=14,f11=B1 SN N a")]),
    # --- walking teleport -----------------------------------------------------------------------
    dict(name="the teleport's cell is an entry portal",
         pos="f1=KS,e5=B1.B1,f5=T,f11=KN SN S 2",
         has={"e5e", "Tn", "Te", "Ts"},
         lacks={"Tw"},
         play=[("e5e", "f1=KS.21,e5=B1,f5=T,f11=KN SN S 1")]),
    dict(name="no activation onto the teleport",
         pos="f1=KS,e5=B1.B1,f5=T,f11=KN SN S a",
         lacks={"e5e"}),
    dict(name="the teleport never steps onto a keeper; onto a dead keeper it may",
         pos="f5=T,f6=KN,e5=XW,f1=KS SWNE S 1",
         legal={"Ke", "Kw", "Kn", "Te", "Ts", "Tw", "end"}),
    dict(name="a keeper on the teleport blocks it; the cell stays a portal",
         pos="f1=KS,e5=B1.B1,f5=T.KN SN S 1",
         legal={"e5n", "e5e", "e5s", "e5w", "Kn", "Ke", "Kw", "end"},
         play=[("e5e", "f1=KS.21,e5=B1,f5=T.KN SN N a")]),
    dict(name="the teleport stays in the grey zone",
         pos="f1=KS,f2=T,f11=KN SN S 1",
         has={"Tn", "Te", "Tw"},
         lacks={"Ts"}),
    # --- 8 players ------------------------------------------------------------------------------
    dict(name="8 players: the shared exit portal is own terminal for both its seats",
         pos="e1=K2,f1=B1.B1,g1=K1 12345678 1 2",
         has={"f1n", "f1e"},
         lacks={"f1w"}),
    dict(name="8 players: a cube on the other half's keeper on the shared exit is frozen",
         pos="e1=K2,f1=K1.B1,g1=*s1 12345678 2 2",
         lacks={"f1n", "f1e", "f1w"}),
    dict(name="8 players: frozen for the others",
         pos="e1=K2,f1=B1.B1,g1=K1,e11=K5 12345678 5 2",
         lacks={"f1n", "f1e", "f1w"}),
    dict(name="8 players: a seat scores its 4 cells, the exit portal scores for no one",
         pos="b1=4B,e1=3B,f1=4B,g1=2B,j1=1B 12345678 1 a",
         scores={"1": 3, "2": 7, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0}),
    dict(name="8 players: the game ends at 16",
         pos="b1=4B,c1=4B,d1=4B,e1=4B,g3=B1 12345678 1 a",
         legal=set()),
    dict(name="8 players: a cube through the portal lands on the shared exit portal",
         pos="e6=B1.B1,g1=K1 12345678 1 2",
         play=[("e6e", "f1=21,g1=K1,e6=B1 12345678 1 1")]),
]

# Start positions with counts worked out by hand (docs/rules/cargocube.md section 15):
# depth 2 of the 2-player «Полигон» is 160 activations, each followed by 3 keeper steps and `end`,
# 4 rolls more after the 120 activations that land on a cube (1,120), plus the booster uses: a
# card onto one of the 40 empty grey cells after the 40 activations onto an empty cell and 41
# after the 120 onto a cube (6,520 per usable card). The teleport adds 4 moves after each of the
# 160 activations. «Бастион» adds the sacrifice after each activation (160) and a biohazard on the
# cube that e3, f3 or g3 rolled south next to the keeper (3).
HAND_PERFT = [
    # (players, layout, teleport, depth, count)
    (2, None, True, 2, 1120 + 160 * 4),
    (2, "pyramid", False, 2, 1120 + 8 * 6520),
    (2, "bastion", False, 2, 1120 + 6 * 6520 + 160 + 3),
    (4, "both", False, 2, 1120 + 6 * 6520 + 160 + 3),
    (8, None, False, 2, 1120),
    (8, "base", False, 2, 1120 + 6520),  # seat 1: the acceleration on h1 (g1's card is under K1)
]
