"""«Формула 99» games as files and pictures (docs/export.md): a game played on the host keeps
its hidden cards hidden until its end — public actions, public positions, pictures without hands
or charge cards — then the full final position and the reveal (the deal, the card of every charge
laid); store/import round trips in both forms; `cargoboard play formula99 --save`."""

import json
import re
import subprocess

import pytest

from cargoboard.export import cli as export_cli, gamefile
from cargoboard.games.formula99 import cli as f99cli
from cargoboard.games.formula99.hotseat import HotSeat
from cargoboard.export.html import replay_data
from cargoboard.store import GameRecord, Store
from shared_rules.formula99 import cards as C
from clirun import cargoboard_exe


@pytest.fixture(scope="module")
def engine_game():
    game = HotSeat(players=3, level=2, seed=9, engine="all", out=lambda *a: None)
    game.run()
    start, texts = game.record()
    return GameRecord("formula99", "L2", game.pos.SEAT_LETTERS, start, texts, source="play")


def test_the_json_hides_the_cards_until_the_end(engine_game):
    doc = gamefile.to_dict(engine_game)
    assert doc["header"]["start"].endswith("k:?")  # the public start
    for item in doc["actions"][:-1]:
        assert item["position"].endswith("k:?")  # public positions
        if item["action"].startswith("lay:"):
            assert "=" not in item["action"]
    assert doc["final"]["position"].endswith("/9/0")  # the full final position
    assert doc["reveal"]["deal"] == engine_game.start
    laid = [a for a in engine_game.actions if a.startswith("lay:")]
    assert len(doc["reveal"]["laid"]) == len(laid)
    assert list(doc)[-1] == "reveal"  # written after everything else


@pytest.mark.parametrize("form", ["json", "text"])
def test_files_round_trip_through_the_store(tmp_path, engine_game, form):
    text = gamefile.to_json(engine_game) if form == "json" else gamefile.to_text(engine_game)
    if form == "text":
        before = text.split("[Deal ")[0]
        assert "; the hidden cards, revealed at the end" in before
        assert not any(c in before.split("[Final ")[0] for c in ("Th ", "=Th"))
    rec = gamefile.read_game(text, "game." + ("json" if form == "json" else "txt"))
    assert rec.start == engine_game.start and rec.actions == engine_game.actions
    with Store(tmp_path / "games.sqlite") as st:
        gid = st.add(rec)
        back = st.get(gid)
    again = gamefile.to_json(back) if form == "json" else gamefile.to_text(back)
    marks = ('"id"', '"stored"', '"source', '[Id ', '[Stored ', '[Source')

    def strip(t):
        return [ln for ln in t.splitlines() if not any(k in ln for k in marks)]
    assert strip(again) == strip(text)


def test_a_wrong_reveal_is_named(engine_game):
    doc = gamefile.to_dict(engine_game)
    ply, card = sorted(doc["reveal"]["laid"].items())[0]
    others = [c for c in range(1, 55) if C.name(c) != card]
    doc["reveal"]["laid"][ply] = C.name(others[0])
    with pytest.raises(gamefile.GameFileError):
        gamefile.from_json(json.dumps(doc), "tampered.json")
    doc = gamefile.to_dict(engine_game)
    doc["reveal"]["laid"]["1"] = "Qh"  # action 1 is no charge laid
    with pytest.raises(gamefile.GameFileError, match="no public charge laid"):
        gamefile.from_json(json.dumps(doc), "tampered.json")


def test_import_refuses_a_card_that_is_no_text(tmp_path, engine_game):
    """A JSON reveal whose card is a number ("5": 7): one line naming it, exit 1, nothing
    stored; C.parse(7) was a TypeError traceback."""
    doc = gamefile.to_dict(engine_game)
    ply = sorted(doc["reveal"]["laid"], key=int)[0]
    doc["reveal"]["laid"][ply] = 7
    path = tmp_path / "number.json"
    path.write_text(json.dumps(doc))
    db = tmp_path / "games.sqlite"
    proc = subprocess.run([cargoboard_exe(), "import", str(path), "--db", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    # the reader's message once after where it is (it said "reveal: reveal: 7 is no card")
    assert proc.stderr == "cargoboard: error: %s reveal: 7 is no card\n" % path
    if db.exists():
        with Store(db) as st:
            assert st.list() == []


def test_a_text_record_names_the_line_of_a_bad_card_laid_once(engine_game):
    """The text record's [Laid] with a card that is no card: its line and the problem, said
    once (the reader's message carried its own "reveal: " prefix after the caller's place)."""
    text = gamefile.to_text(engine_game)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[Laid "))
    ply = lines[at].split('"')[1].split()[0].partition("=")[0]
    lines[at] = '[Laid "%s=7"]' % ply
    with pytest.raises(gamefile.GameFileError) as err:
        gamefile.from_text("\n".join(lines) + "\n", "g.txt")
    assert str(err.value) == "g.txt line %d [Laid]: '7' is no card" % (at + 1)


def test_pictures_show_hands_and_charge_cards_only_at_the_end(engine_game):
    last = len(engine_game.actions)
    middle = export_cli.render(engine_game, "svg", at=last // 2)
    assert 'data-kind="hand"' in middle and "data-cards=" not in middle.split(
        'data-kind="discard"')[0]
    end = export_cli.render(engine_game, "svg")
    assert 'data-cards="' in end.split('data-kind="discard"')[0]
    rec, positions, _ = gamefile.shown(engine_game)
    from cargoboard.games.formula99 import draw
    data = replay_data(rec, positions, draw)
    hidden = [f for f in data["fragments"] if 'data-kind="hand"' in f and "data-cards" in f]
    first_use = min(i for i, fr in enumerate(data["frames"])
                    if any(data["fragments"][v] in hidden for _, v in fr if v >= 0))
    assert first_use == last  # the hands appear in the last frame only


def test_a_board_game_is_public_throughout():
    import formula99_games as G
    pos = G.play_out(4, 2, 1, False, plies=40)
    rec = GameRecord("formula99", "L1", pos.SEAT_LETTERS, "L1 1:s,s:-:3 5:s,s:-:3 1a - d:- k:?",
                     [])
    p = rec.start_position()
    texts = []
    for a in pos.history():
        texts.append(p.format_action(a))
        p.push(a)
    rec.actions = texts
    doc = gamefile.to_dict(rec)
    assert "reveal" not in doc and doc["final"]["position"] == pos.notation()
    assert gamefile.from_json(json.dumps(doc)).actions == texts


def test_play_command_saves_and_import_takes_it(tmp_path):
    path = tmp_path / "g.json"
    proc = subprocess.run([cargoboard_exe(), "play", "formula99", "--players", "2", "--engine",
                           "all", "--seed", "3", "--samples", "2", "--save", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout and path.exists()
    db = tmp_path / "s.sqlite"
    proc = subprocess.run([cargoboard_exe(), "import", str(path), "--db", str(db)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "imported" in proc.stderr + proc.stdout
    proc = subprocess.run([cargoboard_exe(), "play", "formula99", "--engine", "all", "--save",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stderr.startswith("cargoboard: error: ")
    assert "exists" in proc.stderr
    # a folder that is not there is said before the game, not after it (the game was lost)
    proc = subprocess.run([cargoboard_exe(), "play", "formula99", "--engine", "all", "--save",
                           str(tmp_path / "nowhere" / "g.json")], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "the folder %s does not exist" % (tmp_path / "nowhere") in proc.stderr


def test_save_writes_an_unfinished_game(tmp_path):
    answers = iter(["", "s1-1b1", "quit"])
    game = HotSeat(players=2, level=1, seed=4, inp=lambda p: next(answers), out=lambda *a: None)
    with pytest.raises(Exception):
        game.run()
    f99cli.save(game, str(tmp_path / "g.txt"))
    rec = gamefile.read_game((tmp_path / "g.txt").read_text(), "g.txt")
    assert rec.actions == ["s1-1b1"]


def test_terminal_replay_shows_the_hands_where_the_pictures_do(engine_game, tmp_path, capsys):
    """`cargoboard replay` of a finished hot-seat game drew its last step without the hands
    while the notation under it listed them: as every picture, the hands at the end only."""
    from cargoboard import cli
    db = tmp_path / "s.sqlite"
    with Store(db) as st:
        gid = st.add(engine_game)
    assert cli.main(["replay", str(gid), "--db", str(db), "--all", "--color", "never"]) == 0
    steps = capsys.readouterr().out.split("\nstep ")[1:]
    last = engine_game.final_position()
    assert len(steps) == len(engine_game.actions) + 1
    for n, text in enumerate(steps):
        hands = re.findall(r" hand (.*?)\s+progress", text)
        assert len(hands) == len(last.seats)
        if n < len(steps) - 1:
            assert all(re.fullmatch(r"\d+ cards?", h) for h in hands), (n, hands)
        else:
            assert hands == [" ".join(C.name(c) for c in last.hand(s)) or "-"
                             for s in last.seats]
