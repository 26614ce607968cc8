"""The observation and action contract through Python: the layout and hash come
from C, observations respect fog and the team frame, masks and actions agree."""
import numpy as np
import pytest

from gota_arena import ActionError, ArgumentRangeError, ArgumentTypeError, Match
from gota_arena.contract import INFO, LAYOUT, MASK_FLAT_SIZE, MASK_SIZE, OBS_SIZE


def test_layout_comes_from_c_and_tiles_the_observation():
    assert (OBS_SIZE, INFO.heads, INFO.logits) == (1407, 5, 92)
    assert INFO.hash != 0 and MASK_SIZE == INFO.mask_size and MASK_FLAT_SIZE == INFO.mask_flat_size
    blocks = sorted((b for name, b in LAYOUT.items() if name.startswith("obs.")), key=lambda b: b.offset)
    assert blocks[0].offset == 0
    for a, b in zip(blocks, blocks[1:]):
        assert a.offset + a.size == b.offset, (a.name, b.name)
    assert blocks[-1].offset + blocks[-1].size == OBS_SIZE
    assert LAYOUT["obs.object"].count == 25 and len(LAYOUT["obs.self"].features) == LAYOUT["obs.self"].width


def test_observation_hides_unseen_enemies():
    with Match(seed=2) as m:
        m.step(1)
        obs = m.observe(0)
        assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
        objects = obs[LAYOUT["obs.object"].slice()].reshape(25, -1)
        assert objects[0, 0] == 1.0                      # slot 0: self, present
        assert not objects[5:10].any()                   # enemy heroes: in their base, unseen
        m.step(1)
        assert np.array_equal(m.observe(0), m.observe(0))   # observing changes nothing


def test_masks_and_actions_agree():
    with Match(seed=3, bots={"blue": "base"}) as m:
        m.step(24)
        mask = m.mask(0)
        assert mask[0] == 1                              # noop is always allowed
        flat = m.mask(0, flat=True)
        assert flat.shape == (MASK_FLAT_SIZE,)
        assert m.act(0, [0, 0, 0, 0, 0]) == ActionError.OK
        assert m.act(0, [3, 0, 0, 0, 0]) == ActionError.INVALID_DECODE    # attack slot 0: self
        command, invalid = m.decode(0, [1, 0, 5, 0, 0])                   # walk, ring 0, dir 4
        assert command["verb"] == 2 and not invalid
        assert m.seat_stats(0).invalid_actions == 1


def test_bad_contract_calls_raise():
    with Match(seed=1) as m:
        with pytest.raises(ArgumentRangeError, match="seats are"):
            m.observe(10)
        with pytest.raises(ArgumentTypeError, match="5 integers"):
            m.act(0, [1, 2, 3])
        with pytest.raises(ArgumentTypeError, match="float32"):
            m.observe(0, out=np.zeros(OBS_SIZE, dtype=np.float64))


def test_python_view_of_the_contract_numbers_is_cs():
    """Every number the Python side uses for heads, verbs, target rows, seats,
    signals and script error kinds is the C one (one source: gota.h)."""
    import re

    from gota_arena import arena, basic, constants, contract, masking
    from gota_arena._native import ffi, lib
    from gota_arena.evaluate import games
    from tests.conftest import NATIVE

    header = (NATIVE / "gota.h").read_text()

    def defines(prefix):
        return {name[len(prefix):]: int(value) for name, value in
                re.findall(rf"^#define\s+({prefix}\w+)\s+(-?\d+)", header, re.MULTILINE)}

    assert {h.name: int(h) for h in contract.Head} == defines("GOTA_CONTRACT_HEAD_")
    assert {v.name: int(v) for v in contract.ContractVerb} == defines("GOTA_CONTRACT_VERB_")
    assert {r.name: int(r) for r in contract.TargetRow} == defines("GOTA_CONTRACT_ROW_")
    assert {s.name: int(s) for s in constants.Signal} == defines("GOTA_SIGNAL_")
    assert contract.HEAD_NAMES == ("verb", "target", "point", "ability", "item")   # the readable order, checked
    assert contract.HEAD_SIZES == tuple(LAYOUT["head." + n].width for n in contract.HEAD_NAMES)
    assert contract.HEADS == INFO.heads == lib.GOTA_CONTRACT_HEADS == len(contract.HEAD_NAMES)
    assert contract.TARGET_ROWS == LAYOUT["mask.target_rows"].count == lib.GOTA_CONTRACT_ROWS
    # the verb table, as C hands it out
    for v in contract.ContractVerb:
        out = ffi.new("GotaContractVerb *")
        assert lib.gota_contract_verb(v, out) == lib.GOTA_OK
        assert contract.VERB_NAMES[v] == ffi.string(out.name).decode()
        assert contract.VERB_TARGET_ROW[v] == out.target_row
        assert [bool(out.heads >> h & 1) for h in contract.Head] == contract.VERB_USES[v].tolist()
    assert lib.gota_contract_verb(INFO.verbs, ffi.new("GotaContractVerb *")) == lib.GOTA_ERR_INDEX
    assert contract.VERB_NAMES == ("noop", "walk", "attackMove", "attackTarget", "castTarget", "castPoint",
                                   "useItem", "useItemAt")   # docs/contract.md's names
    # every user reads the same objects
    assert masking.USES is contract.VERB_USES and masking.HEAD_SIZES == contract.HEAD_SIZES
    assert (masking.NOOP, masking.CAST_TARGET, masking.USE_ITEM_AT) == (
        lib.GOTA_CONTRACT_VERB_NOOP, lib.GOTA_CONTRACT_VERB_CAST_TARGET, lib.GOTA_CONTRACT_VERB_USE_ITEM_AT)
    assert (masking.VERB, masking.TARGET, masking.POINT, masking.ABILITY, masking.ITEM) == tuple(range(INFO.heads))
    assert (masking.ROW_ATTACK, masking.ROW_CAST, masking.ROW_CAST_POINT, masking.ROW_ITEM_AT) == (
        lib.GOTA_CONTRACT_ROW_ATTACK, lib.GOTA_CONTRACT_ROW_CAST, lib.GOTA_CONTRACT_ROW_CAST_POINT,
        lib.GOTA_CONTRACT_ROW_ITEM_AT)
    assert arena.HEAD_NAMES == contract.HEAD_NAMES and tuple(arena.HEAD_SIZES) == contract.HEAD_SIZES
    # seats, signals, script errors, the learner team of a seed
    assert (constants.SEATS, constants.SEATS_PER_TEAM) == (lib.GOTA_SEATS, lib.GOTA_SEATS_PER_TEAM)
    assert list(constants.team_seats(constants.Team.BLUE)) == list(range(lib.GOTA_SEATS_PER_TEAM, lib.GOTA_SEATS))
    assert arena.SIGNAL_FIELDS == constants.SIGNAL_FIELDS and len(arena.SIGNAL_FIELDS) == lib.GOTA_SIGNALS
    assert all(arena.SIGNAL_INDEX[name] == getattr(lib, "GOTA_SIGNAL_" + name.upper()) for name in arena.SIGNAL_FIELDS)
    assert basic.ERROR_KINDS == {code: ffi.string(lib.gota_script_error_name(code)).decode()
                                 for code in range(lib.GOTA_SCRIPT_ERRORS)}
    assert lib.gota_script_error_name(lib.GOTA_SCRIPT_ERRORS) == ffi.NULL
    assert [arena.learner_team(s) for s in range(20)] == [int(lib.gota_batch_seed_team(s)) for s in range(20)]
    assert games.learner_team is arena.learner_team


def test_decoding_ignores_the_heads_a_verb_does_not_use():
    """VERB_USES (C's verb table) against the decoder, through Match.decode."""
    from gota_arena.contract import HEAD_SIZES, VERB_USES

    rng = np.random.default_rng(4)
    with Match(seed=5, bots={"blue": "base", "red": "base"}) as m:
        m.step(600)
        for _ in range(300):
            seat = int(rng.integers(10))
            heads = np.array([rng.integers(n) for n in HEAD_SIZES], dtype=np.int32)
            command, invalid = m.decode(seat, heads)
            other = heads.copy()
            for h in np.flatnonzero(~VERB_USES[heads[0]]):
                other[h] = (heads[h] + 1) % HEAD_SIZES[h]
            assert m.decode(seat, other) == (command, invalid), (seat, heads.tolist())
