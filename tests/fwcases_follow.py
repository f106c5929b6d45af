"""What a host following a game on the board reads (cargoboard serve, docs/web.md): the `state`
events of the game plug-ins and the paged `history FROM COUNT`. MicroPython-compatible: run
by tests/test_firmware_cases.py under CPython and under the unix port with the Pico's heap."""

from fwcases import list_cases, run_cases
from firmware import hal as H
from firmware.games.cargocube import plugin as cargocube_game
from firmware.games.cephalopod import plugin as cephalopod_game


def _game(module, options):
    told = []
    opts = {"emit": told.append}
    for k in options:
        opts[k] = options[k]
    g = module.Game(opts)
    del told[:]  # what construction said is not the case's business
    return g, told


def _states(told):
    return [t[6:] for t in told if t.startswith("state ")]


def _play_firsts(g, n):
    """Push the first legal action n times; their texts, as `history` should give them."""
    done = []
    for i in range(n):
        a = g.pos.legal_actions()[0]
        done.append(g.pos.format_action(a))
        g.pos.push(a)
    return done


def case_cargocube_tells_its_state_changes_once():
    g, told = _game(cargocube_game, {"layout": "polygon", "seats": "SN", "wait": "0"})
    occ = g.setup_mask()
    g.start()
    g.on_change(occ, 0)
    a = g.pos.legal_actions()[0]
    lifted = bytearray(occ)
    H.bit_set(lifted, a[1], 0)
    g.on_change(lifted, 100)
    assert _states(told) == ["moving"], told
    g.tick(120)
    g.tick(140)  # no change: no event
    assert _states(told) == ["moving"], told
    g.on_change(occ, 200)  # put back where it was: nothing moved
    for t in range(220, 2000, 20):
        g.tick(t)
    assert _states(told) == ["moving", "idle"], told


def case_cargocube_history_pages():
    g, told = _game(cargocube_game, {"layout": "polygon", "seats": "SN", "wait": "0"})
    done = _play_firsts(g, 5)
    whole = g.command(["history"])
    assert whole.split()[1:] == done, (whole, done)
    assert g.command(["history", "1", "2"]).split()[1:] == done[1:3]
    assert g.command(["history", "3"]).split()[1:] == done[3:]
    assert g.command(["history", "5", "64"]) == "ok "
    assert g.command(["history", "9"]) == "ok "  # past the end: none (it was a usage error)
    assert g.command(["history", "9", "3"]) == "ok "
    assert g.command(["history", "0", "0"]) == "ok "
    try:
        g.command(["history", "x"])
    except ValueError as e:
        assert "history [FROM [COUNT]]" in str(e), e
    else:
        raise AssertionError("history x answered")


def case_cephalopod_history_pages_and_states():
    g, told = _game(cephalopod_game, {"layout": "3x3"})
    done = _play_firsts(g, 4)
    assert g.command(["history"]).split()[1:] == done
    assert g.command(["history", "2", "1"]).split()[1:] == done[2:3]
    g._rebuild()
    g._rebuild()
    assert len(_states(told)) <= 1, told  # a rebuild that shows the same state tells nothing


def case_kubitva_history_pages():
    """КУБитва's `history` pages as the others' (it answered the whole history, whatever the
    words: a long game's reply could pass the frame's 1 KB)."""
    from firmware.games.kubitva import plugin as kubitva_game
    g, told = _game(kubitva_game, {"layout": "board"})
    done = _play_firsts(g, 3)
    assert g.command(["history"]).split()[1:] == done
    assert g.command(["history", "1", "1"]).split()[1:] == done[1:2]
    assert g.command(["history", "3"]) == "ok "
    assert g.command(["history", "4"]) == "ok "


CASES = list_cases(globals())


def run_all():
    run_cases(globals())
