# perft, the same for every rules core: the number of distinct sequences of `depth` legal
# actions from a position (anything with legal_actions(), push() and pop()); the last ply is
# counted in bulk. Each core defines what one action is (docs/rules/<game>.md, "Perft").


def perft(pos, depth):
    """Number of distinct sequences of depth legal actions from pos."""
    if depth <= 0:
        return 1
    actions = pos.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        pos.push(a)
        total += perft(pos, depth - 1)
        pos.pop()
    return total
