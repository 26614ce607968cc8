"""GotA BASIC from Python (gota_arena.basic; docs/basic.md): compiling and its
errors, script seats in a Match, the plugin opponents, the arena paths."""
import numpy as np
import pytest

from gota_arena import BasicSyntaxError, Match, PluginError, plugins
from gota_arena.basic import ScriptOpponent, bundled_scripts, compile, compile_file
from gota_arena.learner_env import LearnerEnv
from gota_arena.evaluate.entrants import build
from gota_arena.evaluate.games import play, schedule

BASE_BAS = bundled_scripts()["base.bas"]
RUSHER_BAS = bundled_scripts()["rusher.bas"]


def test_compile_and_info():
    prog = compile("dim a(9)\nsub s(x)\n  a(x) = x\nend sub\ns(3)\nn = n + 1\n", name="tiny.bas")
    assert prog.name == "tiny.bas"
    assert prog.info["arrays"] == 1 and prog.info["elements"] == 10 and prog.info["subs"] == 1
    assert prog.info["globals"] == 1 and prog.info["instructions"] > 0
    assert "tiny.bas" in repr(prog)


@pytest.mark.parametrize("source, line, col, reason", [
    ("x = 1\nif x then\n  y = 2\n", 4, 1, "expected 'end if' to close the if at line 2"),
    ("x = (1 + 2\n", 1, 11, "expected ')'"),
    ("for i = 1 10\nnext\n", 1, 11, "expected 'to' in the for statement, found '10'"),
    ("selfX = 3\n", 1, 1, "cannot assign to 'selfx'"),
    ("x = 2 ^ 2\n", 1, 7, "'^' (power) is not supported"),
    ("\x00\x01binary", 1, 1, "binary data"),
    # the first error in source order, whichever part of the compiler finds it
    ("x = 1 +\nsub f()\n  y = nothere(1)\nend sub\n", 1, 8, "expected a value"),
    ("sub f()\n  y = nothere(1)\nend sub\nx = 1 +\n", 2, 7, "unknown array or function 'nothere'"),
    ("x = (1\ny$ = 2\n", 1, 7, "expected ')'"),
    ("DATA w = 1, 2\nw(1) = 3\n", 2, 1, "read-only DATA table"),
    ("read x\n", 1, 1, "'read' is not supported"),
    ("x = self.hp\n", 1, 5, "record fields are not supported"),
    # the original's neural-network calls, and the arrays they return
    ("state = blobCreate()\nres = nn_richard(\"w.bin\", state, 0)\n", 2, 7, "neural-network call"),
    ("sub choose()\n  best = scores(0)\nend sub\nscores = my_nn(1)\n", 2, 10, "holds the result of my_nn (line 4)"),
])
def test_syntax_errors_name_file_line_column(source, line, col, reason):
    with pytest.raises(BasicSyntaxError) as err:
        compile(source, name="bad.bas")
    e = err.value
    assert (e.filename, e.lineno, e.column) == ("bad.bas", line, col), str(e)
    assert reason in e.reason
    assert str(e).startswith(f"bad.bas:{line}:{col}: ")
    assert isinstance(e, SyntaxError)


def test_compile_file_names_its_path(tmp_path):
    path = tmp_path / "bot.bas"
    path.write_text("x = \n")
    with pytest.raises(BasicSyntaxError) as err:
        compile_file(path)
    assert err.value.filename == str(path) and err.value.lineno == 1
    with pytest.raises(Exception) as missing:
        compile_file(tmp_path / "none.bas")
    assert "cannot read" in str(missing.value)


def test_runtime_error_disables_only_that_seat():
    endless = compile("if drafting then end\nwhile 1\nwend\n", name="loop.bas")
    with Match(seed=3, max_ticks=240, scripts={0: endless, 6: BASE_BAS}) as m:
        m.run()
        status = m.script_status(0)
        assert status.active and status.disabled and status.error_kind == "instruction limit"
        assert status.error.startswith("loop.bas:2:1: runtime error: instruction limit")
        assert "disabled for the rest of the match" in m.script_log(0)
        assert m.seat_stats(0).script_errors == 1
        other = m.script_status(6)
        assert other.active and not other.disabled and other.decisions >= 240
        assert m.seat_stats(6).script_errors == 0
        assert not m.script_status(1).active
        assert m.info.tick == 240


def test_status_counts_the_commands_and_why_they_were_refused():
    caster = compile("ok = castPoint(1, selfX + 3, selfY)\n", name="caster.bas")   # W is never learned
    walker = compile("ok = walkTo(58, 58)\n", name="walker.bas")
    with Match(seed=8, scripts={1: caster, 6: walker}) as m:
        m.step(30)
        cast, walk = m.script_status(1), m.script_status(6)
        assert (cast.commands, cast.refused, cast.refused_by) == (30, 30, {"ActionAbilityLocked": 30})
        assert (walk.commands, walk.refused, walk.refused_by) == (30, 0, {})
        assert m.script_status(0).refused_by == {}   # no script: nothing counted
        m.reset()   # the counters start afresh with the match
        assert m.script_status(1).commands == 0
        m.step(5)
        cast = m.script_status(1)
        assert (cast.commands, cast.refused, cast.refused_by) == (5, 5, {"ActionAbilityLocked": 5})


def test_print_goes_to_the_private_log():
    prog = compile('if drafting then end\nn = n + 1\nif n <= 2 then print "tick "; worldTick; " hp "; selfHp > 0\n')
    with Match(seed=1, max_ticks=10, scripts={2: prog}) as m:
        m.run()
        assert m.script_log(2) == "tick 1 hp -1\ntick 2 hp -1\n"
        assert m.script_log(3) == ""


def test_scripts_draft_and_replay_deterministically():
    picker = compile("if drafting then\n  for c = 9 to 0 step -1\n    if heroAvailable(c) then\n"
                     "      ok = draftHero(c)\n      exit for\n    end if\n  next\n  end\nend if\n"
                     "n = n + 1\nif n mod 12 = 0 then w = attackMove(40 + n mod 30, 60)\n")
    hashes = []
    for _ in range(2):
        with Match(seed=9, max_ticks=600, scripts={"blue": picker}) as m:
            blue = sorted(m.hero(s).hero_class for s in range(5, 10))
            m.run()
            hashes.append(m.hash())
    assert hashes[0] == hashes[1]
    assert blue == sorted(blue) and len(set(blue)) == 5
    assert m.config.bot_5 == 7   # GOTA_BOT_SCRIPT
    with Match(seed=9, max_ticks=600, scripts={"blue": compile("n = n + 2\n")}) as other:
        other.run()
        assert other.hash() != hashes[0]


def test_bundled_base_plays_a_full_match():
    with Match(seed=2, scripts={"red": BASE_BAS}, bots={"blue": "idle"}) as m:
        m.run()
        assert m.info.result == "win" and m.info.winner == "red"
        for seat in range(5):
            status = m.script_status(seat)
            assert not status.disabled, status.error
            assert m.seat_stats(seat).commands > 20


def test_puller_port_plays_the_c_pullers_plan():
    """Before the first fights the port's heroes take the C puller's lanes and
    stand near where the C puller's do (lanes lie 30 tiles and more apart; the
    port reads its creeps at whole tiles, so it may follow another creep of the
    same wave), on both teams (Blue plays in a mirrored frame), and no seat
    comes near the instruction limit."""
    for team, other in (("red", "blue"), ("blue", "red")):
        seats = range(5) if team == "red" else range(5, 10)
        with Match(seed=1, bots={team: "puller", other: "base"}) as c, \
                Match(seed=1, scripts={team: "puller.bas"}, bots={other: "base"}) as bas:
            c.step(600)
            peak = 0
            for _ in range(600):
                bas.step(1)
                peak = max(peak, *(bas.script_status(s).last_instructions for s in seats))
            for s in seats:
                a, b = c.units[c.hero(s).unit_index], bas.units[bas.hero(s).unit_index]
                apart = max(abs(int(a["x"]) - int(b["x"])), abs(int(a["z"]) - int(b["z"]))) / 60000
                assert apart <= 6, (team, s, apart)
                assert not bas.script_status(s).disabled, bas.script_status(s).error
            assert 1000 < peak < 16000


def test_rusher_tracks_its_team_below_the_tile():
    """rusher.bas follows its heroes in world units from whole tiles and the
    heroes' last steps: once a hero has walked over a tile edge, the script's
    position is the simulator's to about one step (a decision sees the
    positions the match has when its tick begins)."""
    source = RUSHER_BAS.read_text().replace(
        "track()\nif (worldTick + seat) mod 6 <> 0 then end",
        "track()\nprint trk(25 + seat - 5 * selfTeam); \" \"; trk(30 + seat - 5 * selfTeam)\n"
        "if (worldTick + seat) mod 6 <> 0 then end")
    assert "print trk" in source
    program = compile(source, "rusher_probe.bas")
    for team, seat in (("red", 2), ("blue", 8)):
        with Match(seed=1, scripts={team: program}, bots={"blue" if team == "red" else "red": "base"}) as m:
            errors = []
            for _ in range(60):
                m.step(36)
                unit = m.units[m.hero(seat).unit_index].copy()
                m.step(1)
                x, y = (float(v) for v in m.script_log(seat).strip().split("\n")[-1].split())
                if unit["alive"]:
                    errors.append(max(abs(x - (int(unit["x"]) + 3_450_000) / 60_000),
                                      abs(y - (int(unit["z"]) + 3_450_000) / 60_000)))
            errors.sort()
            assert errors[len(errors) // 2] < 0.03 and errors[-1] < 0.5, (team, errors)


def test_scripts_by_registered_name():
    with Match(seed=4, max_ticks=30, scripts={"red": "base.bas", 9: "rusher.bas"}) as m:
        m.run()
        assert m.script_status(0).program.endswith("base.bas")
        assert m.script_status(9).program.endswith("rusher.bas")
        assert not m.script_status(5).active


def test_plugin_opponents_by_name_and_path(tmp_path):
    names = plugins.names("opponents")
    assert {"base.bas", "rusher.bas", "puller.bas"} <= set(names)
    opp = plugins.opponent("base.bas")
    assert isinstance(opp, ScriptOpponent) and opp.native and opp.bot is None
    assert opp.name == "base.bas"
    path = tmp_path / "mine.bas"
    path.write_text("x = 1\n")
    mine = plugins.opponent(str(path))
    assert isinstance(mine, ScriptOpponent) and mine.name == "mine.bas"
    with pytest.raises(PluginError) as err:
        plugins.opponent(str(tmp_path / "missing.bas"))
    assert "no such BASIC script file" in str(err.value)
    path.write_text("x = (\n")
    with pytest.raises(BasicSyntaxError):
        plugins.opponent(str(path))


def test_learner_env_lanes_against_scripts():
    with LearnerEnv(lanes=3, self_play_lanes=1, opponents=["base.bas", "base"], max_ticks=120) as env:
        env.reset(0)
        finished = []
        for _ in range(40):
            _, _, _, _, episodes = env.step(np.zeros((env.agents, 5), np.int32))
            finished += episodes
        assert {e["opponent"] for e in finished} >= {"base.bas", "base"}
        script_lanes = [lane for lane in range(1, 3) if env.opponent(lane) == "base.bas"]
        assert script_lanes and all(env.arena.lane(lane)["opponent"] == 7 for lane in script_lanes)


def test_evaluation_games_with_scripts_on_both_sides():
    entrants = {name: build(name).opponent for name in ("base.bas", "rusher.bas", "idle")}
    results = play(schedule(["base.bas", "rusher.bas", "idle"], 1, 0), entrants, lanes=3, max_ticks=2400)
    assert len(results) == 6
    for r in results:
        assert r["ticks"] == 2400 or r["winner"] is not None


# ---- the original's dialect and newest host calls (docs/basic.md, "The original's public scripts") ----
def test_original_dialect_data_tables_and_builtins():
    """Names the original does not reserve, typed DATA tables over continued lines,
    floor/sqrt/exp and the structured queries, in a match (our own small script)."""
    prog = compile(
        "dim data(2)\n"
        "DATA steps AS fixed32 = _\n"
        "  -0.5, 2, _\n"
        "  2.25\n"
        "DATA picks AS int32 = 3, 1\n"
        "if drafting then ok = draftHero(picks(0) + picks(1)): end\n"
        "restore = abilityRestore(0): data(0) = restore\n"
        "n = n + 1\n"
        "if n = 1 then\n"
        "  print floor(steps(2)); \" \"; floor(steps(0)); \" \"; sqrt(steps(1) * 8); \" \"; exp(0)\n"
        "  print matchInfo(5); \" \"; matchInfo(6); \" \"; selfInfo(0) + matchInfo(5) - 0.5 - selfX\n"
        "  print objectInfo(0, 3); \" \"; abilityInfo(1, 3); \" \"; blobCreate(); blobCreate()\n"
        "end if\n", name="dialect.bas")
    with Match(seed=2, max_ticks=5, scripts={1: prog}) as m:
        m.run()
        assert m.hero(1).hero_class == 4   # picked in the draft: picks(0) + picks(1)
        status = m.script_status(1)
        assert not status.disabled, status.error
        lines = m.script_log(1).splitlines()
        assert lines[0] == "2 -1 4.00000 1.00000"
        fields = lines[1].split()
        assert fields[:2] == ["58", "116"] and -1 < float(fields[2]) < 1   # the centre-based X back to the tile
        assert lines[2] == "0 0 12"   # the own god is not alive before it is exposed; W is a strike (0); two blobs


def test_a_script_that_cannot_draft_first_runs_with_its_hero():
    """No draftHero: not run in the draft, so selfMaxHp is never 0 (the original's
    players/neural.bas divides by it on its first line)."""
    prog = compile("n = n + 1\nf = selfHp * 10 / selfMaxHp\nif n = 1 then print worldTick; \" \"; selfMaxHp > 0\n",
                   name="early.bas")
    with Match(seed=4, max_ticks=6, scripts={"red": prog, "blue": prog}) as m:
        m.run()
        for seat in range(10):
            status = m.script_status(seat)
            assert not status.disabled and status.decisions == 6, status.error
            assert m.script_log(seat) == "1 -1\n"
