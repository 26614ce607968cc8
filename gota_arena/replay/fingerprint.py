"""The rules fingerprint: what this build's simulator does, as two state hashes.
A replay records it and the replayer compares it before playing (docs/replays.md)."""
from __future__ import annotations

import functools

from ..constants import SEATS
from ..contract import HEAD_SIZES
from ..sim import Match


def hex64(value: int) -> str:
    """A 64-bit hash as replay files write it: 0x and 16 hex digits."""
    return f"0x{int(value):016x}"


def _splitmix(state: int):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


@functools.lru_cache(maxsize=None)
def rules_fingerprint() -> dict:
    """What this build's simulator does, as two state hashes (computed once per
    process, about 0.15 s): ``sim``, a 720-tick match whose ten seats get fixed
    pseudo-random action heads and ability points through the contract; ``bots``,
    a 720-tick match of the six bundled bots. The simulator has no version
    number, so this is its identity: any change of rules, content, decoding or
    bots that shows within 720 ticks changes it."""
    with Match(seed=20260611) as m:
        state = 1
        for step in range(90):
            for seat in range(SEATS):
                if step % 12 == 0:
                    state, r = _splitmix(state)
                    m.level(seat, r % 4)
                heads = []
                for size in HEAD_SIZES:
                    state, r = _splitmix(state)
                    heads.append(r % size)
                m.act(seat, heads)
            m.step(8)
        sim = m.hash()
    bots = {seat: name for seat, name in enumerate(("idle", "random", "base", "rusher", "baseline",
                                                    "puller", "base", "rusher", "baseline", "puller"))}
    with Match(seed=20260612, bots=bots) as m:
        m.step(720)
        with_bots = m.hash()
    return {"sim": hex64(sim), "bots": hex64(with_bots)}
