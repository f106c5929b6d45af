"""How a «Формула 99» game record is shown (docs/export.md): hidden information only at the end.

A game played on the board is public throughout (the board never knows a hidden card): it is
shown as it is. A game played on the host (`cargoboard play formula99`) is stored in the full
view: its start holds every hand and the deck's order, and each charge laid names its card. Its
exports show the public game — the public start, the public actions (`lay:3y2` without its
card), public positions — and only after the last action the full final position and the
**reveal**: the full start (`deal`) and the card of each charge laid, by ply (`laid`), enough to
replay the full game exactly. Import puts the two back together and checks both against the
replay.
"""

from shared_rules.formula99 import cards as C
from shared_rules.formula99 import rules as R


def shown(rec, positions):
    """(start text, action texts, positions) as the record shows them, and the reveal dict
    (None for a public game): every position public but the last."""
    if not positions[0].full:
        return rec.start, list(rec.actions), positions, None
    start = positions[0].public().notation()
    texts = []
    laid = {}
    for i, text in enumerate(rec.actions):
        a = positions[i].parse_action(text)
        before = positions[i].public()
        texts.append(before.format_action(R.public_action(a)))
        if a >> 24 == R.K_LAY:
            laid[str(i + 1)] = C.name(a & 63)
    public = [p.public() for p in positions[:-1]] + [positions[-1]]
    return start, texts, public, {"deal": rec.start, "laid": laid}


def restore(start, actions, reveal):
    """(full start, full action texts) from the shown record and its reveal; ValueError naming
    the problem (the caller says where: the JSON's `reveal`, the text record's line)."""
    deal = reveal.get("deal")
    laid = reveal.get("laid", {})
    if not isinstance(deal, str) or not isinstance(laid, dict):
        raise ValueError("the reveal needs 'deal' (the full start) and 'laid' (ply: card)")
    full = list(actions)
    for ply, card in laid.items():
        try:
            i = int(ply) - 1
        except ValueError:
            raise ValueError("ply %r is not a number" % ply) from None
        if not 0 <= i < len(full) or not full[i].startswith("lay:") or "=" in full[i]:
            raise ValueError("action %s is no public charge laid" % ply)
        if not isinstance(card, str) or not C.parse(card):  # JSON may hold a number there
            raise ValueError("%r is no card" % card)
        full[i] = "%s=%s" % (full[i], card)
    return deal, full


def reveal_text(reveal):
    """The reveal as the text record's two tags' values: (deal, laid) with laid 'PLY=CARD ...'."""
    laid = " ".join("%s=%s" % kv for kv in sorted(reveal["laid"].items(),
                                                  key=lambda kv: int(kv[0])))
    return reveal["deal"], laid


def reveal_from_text(deal, laid):
    out = {}
    for item in laid.split():
        ply, _, card = item.partition("=")
        out[ply] = card
    return {"deal": deal, "laid": out}
