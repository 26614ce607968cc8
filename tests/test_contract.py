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
