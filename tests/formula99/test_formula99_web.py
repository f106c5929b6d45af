"""«Формула 99» with digital cards on `cargoboard serve`: the virtual board (the real firmware
under the MicroPython unix port) holds the seeded deal (`deal=SEED`), a real headless Chromium
opens each seat's page, and the pieces move on the board while the test checks that a seat's
page (its source and its event stream) never holds another seat's hand or charge cards, that
the table's page holds nobody's, and that the seat to move lays a charge with a card it picks
on its own page."""

import json
import re
import urllib.error
import urllib.request

import pytest

from webkit import LiveBoard, browser_fixture, first_events, post_form as post
from cargoboard.games.formula99.scriptgen import Board
from cargoboard.web.server import WebServer
from firmware.games.formula99 import tracker as T
from shared_rules.formula99 import cards as C
from shared_rules.formula99 import rules as R

SEED = 11
STEPS = 6

browser = pytest.fixture(scope="module")(browser_fixture)


def secrets(pos, seat):
    """What only seat may see: its hand and its charges' cards (card names)."""
    out = [C.name(c) for c in pos.hand(seat)]
    out += [C.name(card) for _, card in pos.charges(seat) if card != R.BLOCKADE]
    return out


def next_action(pos, laid):
    """A deterministic action a person makes at the board: lay a charge once per seat (the card
    chosen on its page), else a plain move that triggers nothing, else end the turn."""
    acts = pos.legal_actions()
    seat = pos.to_move
    lays = [a for a in acts if a >> 24 == R.K_LAY]
    if lays and seat not in laid:
        return lays[len(lays) // 2]
    for a in acts:
        if a >> 24 == R.K_MOVE:
            pos.push(a)
            quiet = not pos.is_chance() and pos.to_move == seat
            pos.pop()
            if quiet:
                return a
    for a in acts:
        if a >> 24 in (R.K_END, R.K_PASS):
            return a
    raise AssertionError("no simple action in " + pos.notation())


def api(ws):
    with urllib.request.urlopen(ws.url + "/api/table/1", timeout=10) as r:
        return json.load(r)


def words(text):
    """The card-like words of a page (so that '0.4s' in a style is not the card 4s)."""
    return set(re.findall(r"(?<![\w.])(?:[2-9TJQKA][cdhs]|X[rb])(?![\w])", text))


def test_a_seat_page_never_shows_another_seats_cards(tmp_path, browser):
    truth = R.start_position(2, 2, seed=SEED, civs=[1, 5])
    letters = truth.SEAT_LETTERS
    board = LiveBoard(tmp_path / "board", setup=("new-game formula99 L2 15 deal=%d" % SEED,))
    pieces = Board(truth)
    laid = set()
    moves = []
    try:
        with WebServer(boards=[str(tmp_path / "board")], db=tmp_path / "games.sqlite") as ws:
            d = browser.driver
            browser.wait(lambda d: api(ws)["position"] == truth.public().notation(),
                         timeout=30, what="the board's game read")
            d.get(ws.host_link())
            links = browser.wait(lambda d: {a.text.split("/seat/")[1][0]: a.get_attribute("href")
                                            for a in d.find_elements("css selector",
                                                                     ".seat-links a")},
                                 what="seat links on the host page")
            assert sorted(links) == sorted(letters)
            for step in range(STEPS):
                mover = truth.to_move
                # every page as it is now
                d.get(ws.url + "/table/1")
                browser.wait(lambda d: d.find_elements("css selector", "[data-f=svg] svg"),
                             what="table page")
                table_words = words(d.page_source)
                every = set(secrets(truth, 0) + secrets(truth, 1))
                assert not table_words & every, (table_words & every)
                for s, letter in enumerate(letters):
                    d.get(links[letter])
                    browser.wait(lambda d: d.find_elements("css selector", ".private li"),
                                 what="seat %s's hand" % letter)
                    private = d.find_element("css selector", ".private").text
                    assert all(c in private for c in secrets(truth, s)), (private, truth)
                    others = set(secrets(truth, 1 - s))
                    assert not words(d.page_source) & others, (letter, others)
                    events = first_events(links[letter].replace("?", "/events?"))
                    assert not words(events) & others, (letter, others)
                    buttons = d.find_elements("css selector", "form.act button")
                    if s != mover:
                        assert not buttons  # not its turn: nothing to play
                a = next_action(truth, laid)
                before = truth.public()
                text = truth.format_action(a)
                if a >> 24 == R.K_LAY:
                    # the owner picks the card on its page, then lays the token
                    card = C.name(a & 63)
                    act = links[letters[mover]].replace("?", "/act?")
                    other_card = secrets(truth, 1 - mover)[0]
                    assert post(links[letters[1 - mover]].replace("?", "/act?"),
                                {"csrf": ws.keys.csrf, "command": "card " + other_card}) == 403
                    d.get(links[letters[mover]])
                    button = browser.wait(lambda d: [
                        b for b in d.find_elements("css selector", "form.act button")
                        if b.text.endswith(" " + card)], what="the button of " + card)
                    assert "lay under a charge" in button[0].text
                    button[0].click()
                    browser.wait(lambda d: "seat %s: card: ok" % letters[mover] in
                                 (api(ws)["notice"] or ""), timeout=15, what="card taken")
                    laid.add(mover)
                truth.push(a)
                after = truth.public()
                effect = T.diff(T.expected(after), T.expected(before))
                verbs = pieces.verbs(effect)
                for verb in verbs:
                    name, cell = verb.split()
                    board._hand(name, cell)
                if not verbs:
                    board.press("end")
                want = after.notation()
                browser.wait(lambda d: api(ws)["position"] == want, timeout=20,
                             what="%s on the page" % text)
                print("%d. seat %s: %s" % (step + 1, letters[mover], text))
                view = api(ws)
                assert view["moves"][-1] == before.format_action(R.public_action(a))
                # the whole list, though the page reads only from its last move on (_history)
                moves.append(view["moves"][-1])
                assert view["moves"] == moves
                if a >> 24 == R.K_LAY:
                    assert "=" not in view["moves"][-1]  # the table sees no card
            assert laid == {0, 1}
    finally:
        board.close()


def test_the_archive_opens_a_real_cards_game_at_once_and_a_digital_one_once_over(tmp_path):
    """A game played with real cards holds nothing hidden: its replay opens while it is open; a
    game with digital cards (the deal in its record) opens only once it is over."""
    from cargoboard.games.formula99.play import truth_steps
    from cargoboard.store import GameRecord, Store
    texts = [before.format_action(pa) for _, before, _, pa, _, _ in truth_steps(3, 2, 2,
                                                                               plies=12)]
    full = []
    for truth, _, _, _, _, _ in truth_steps(3, 2, 2, plies=12):
        a = truth.pop()
        full.append(truth.format_action(a))
        truth.push(a)
    public_start = R.start_position(2, 2).notation()
    deal = R.start_position(2, 2, seed=3).notation()
    db = tmp_path / "games.sqlite"
    with Store(db) as st:
        real = st.add(GameRecord("formula99", "L2", "15", public_start, texts))
        digital = st.add(GameRecord("formula99", "L2", "15", deal, full))
    with WebServer(db=db, discover=False) as ws:
        with urllib.request.urlopen(ws.url + "/games/%d" % real, timeout=10) as r:
            assert r.status == 200
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(ws.url + "/games/%d" % digital, timeout=10)
        assert e.value.code == 403


def test_the_option_picker_opened_at_rest_is_on_the_table_page(tmp_path):
    """`confirm` on a board at rest opens «Формула 99»'s option picker (here over `end`, the
    one action of the moment the sensors cannot see) with no change of the tracker's state;
    the table's page showed nothing of it, though web.md promises the candidates while the
    board waits for a button. `undo` leaves the picker, and the page follows."""
    import time

    def until(check, what, timeout=15):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = api(ws)
            if check(got):
                return got
            time.sleep(0.1)
        raise AssertionError("%s: %s" % (what, api(ws)))

    board = LiveBoard(tmp_path / "board", setup=("new-game formula99 L1 15",))
    try:
        with WebServer(boards=[str(tmp_path / "board")], db=tmp_path / "games.sqlite") as ws:
            until(lambda t: t["position"] and t["tracker"] == "idle", "the game read")
            board.lift("i3")
            board.place("j1")
            until(lambda t: t["moves"] == ["s1-1b1"], "the start move")
            board.press("confirm")
            got = until(lambda t: t["candidates"], "the picker's options")
            assert (got["candidates"], got["shown"], got["tracker"]) == (["end"], 0, "idle")
            board.press("undo")
            until(lambda t: t["candidates"] == [], "the picker left")
    finally:
        board.close()


def test_a_public_seat_page_links_nothing_its_player_may_not_open(tmp_path):
    """With --public a player's seat link opens that seat's page only: its links to the
    tables, the archive and the table's page all answered 403 for the player."""
    board = LiveBoard(tmp_path / "board", setup=("new-game formula99 L2 15 deal=%d" % SEED,))
    try:
        with WebServer(boards=[str(tmp_path / "board")], db=tmp_path / "games.sqlite",
                       public=True) as ws:
            url = ws.url + "/table/1/seat/1?token=" + ws.keys.seat("1", "1")
            with urllib.request.urlopen(url, timeout=10) as r:
                page = r.read().decode()
            hrefs = re.findall(r'href="([^"]+)"', page)
            assert "Table 1" in page and hrefs, page
            for href in hrefs:
                if href.startswith("/") and not href.startswith("/static/"):
                    raise AssertionError("a link the player may not open: %s" % href)
            # the host's own page still has them all
            with urllib.request.urlopen(ws.host_link(), timeout=10) as r:
                assert 'href="/games' in r.read().decode()
    finally:
        board.close()
