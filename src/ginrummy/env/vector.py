"""``GinRummyVector``: many deals stepped at once in one process, Gymnasium's vector API
(``docs/env.md``).

Each of ``num_envs`` sub-environments is :class:`~ginrummy.env.GinRummySingle`'s game (one
seat against a computer level); ``step(actions)`` checks the codes, applies one per
sub-environment and plays the opponents.  Each sub-environment's encoder
(:class:`~ginrummy.env.observation.SeatEncoder`) updates its row of one batch array in place from
the events of the step, and its mask's bytes go into a batch of bytes (no dict or array a
sub-environment); the step ends with one copy of each batch into the two arrays it returns,
the same two every step.  A finished sub-environment is reset in the
same step (``AutoresetMode.SAME_STEP``): the returned row is the new episode's first
observation, and ``infos["final_obs"]`` / ``infos["_final_obs"]`` hold the last one.

``backend="batch"`` plays the same episodes with every deal in the batched numpy engine
(:mod:`ginrummy.env.batch`, :mod:`ginrummy.env.vector_batch`): one array operation a move for
the whole batch, for ``opponent="random"``, ``scope="deal"`` and the standard two-hand rules;
the default ``backend="auto"`` takes it from :data:`AUTO_BATCH_MIN` sub-environments on.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..errors import IllegalActionError, RuleSetError
from ..rules import RuleSet
from .batch import batch_rules_ok
from .core import MAX_CYCLES
from .observation import SeatEncoder
from .single import GinRummySingle
from .vector_batch import BatchRunner

#: the backends of :class:`GinRummyVector`
BACKENDS = ("auto", "scalar", "batch")
#: the fewest sub-environments for which ``backend="auto"`` takes the batched engine (below it
#: the scalar path is about as quick: at 32 the two are equal, at 64 the batch 1.5x)
AUTO_BATCH_MIN = 64

__all__ = ["GinRummyVector"]


class GinRummyVector(VectorEnv):
    """``num_envs`` games of one seat against ``opponent``, stepped together.

    Args:
        num_envs: how many sub-environments (an int >= 1).
        opponent, seat, rules, scope, reward, illegal, illegal_penalty, max_cycles: as for
            :class:`~ginrummy.env.GinRummySingle` (the same for every sub-environment; a
            ``Player`` object is shared by all of them).
        backend: ``"scalar"`` (one :class:`GinRummySingle` a sub-environment, in :attr:`envs`),
            ``"batch"`` (every deal in one batched NumPy engine, :mod:`ginrummy.env.batch`, one
            array operation a move; :attr:`envs` is empty) or ``"auto"`` (default: ``"batch"``
            when it can play the configuration and ``num_envs`` is at least
            :data:`AUTO_BATCH_MIN`, else ``"scalar"``; :attr:`backend` says which).  The batch
            backend plays exactly the scalar one's episodes (the same decks, dealers, random
            opponent's choices, observations, masks, rewards and ends for the same seeds:
            ``tests/test_env_batch.py``) and is for the standard two-hand rules only
            (:func:`~ginrummy.env.batch.batch_rules_ok`: ``layout="engine"``,
            ``stock_end="draw_at_two"``, no big gin), ``scope="deal"``, ``opponent="random"``;
            ``"batch"`` with anything else raises :class:`~ginrummy.errors.RuleSetError`
            naming what it needs.

    Observations: ``{"observation": float32[num_envs, 433], "action_mask": int8[num_envs, 161]}``,
    the same two arrays at every step (copy them to keep them).  ``reset(seed=k)`` seeds
    sub-environment ``i`` with ``k + i``, so its episodes are :class:`GinRummySingle`'s with the
    same seed; ``reset(options=...)`` gives every sub-environment the same deal options.
    Raises :class:`~ginrummy.errors.RuleSetError` (a ``ValueError``) for a bad option.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        opponent: Any = "random",
        seat: int = 0,
        rules: str | RuleSet | Mapping[str, Any] = "standard",
        scope: str = "deal",
        reward: str = "points",
        illegal: str = "penalty",
        illegal_penalty: float = 1.0,
        max_cycles: int | None = MAX_CYCLES,
        backend: str = "auto",
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise RuleSetError(f"num_envs must be an int >= 1, not {num_envs!r}")
        if backend not in BACKENDS:
            raise RuleSetError(f"backend={backend!r} is not allowed; allowed: {', '.join(map(repr, BACKENDS))}")
        self.num_envs = num_envs
        first = GinRummySingle(opponent, seat, rules, scope, reward, illegal, illegal_penalty, max_cycles=max_cycles)
        self._batch: BatchRunner | None = None
        refusal = _batch_refusal(first, opponent, scope)
        if backend == "auto":
            backend = "batch" if refusal is None and num_envs >= AUTO_BATCH_MIN else "scalar"
        if backend == "batch":
            if refusal is not None:
                raise RuleSetError(
                    'backend="batch" plays opponent="random", scope="deal" and the standard two-hand rules '
                    f'(layout="engine", stock_end="draw_at_two", no big gin); it needs {refusal}: use backend="scalar"'
                )
            c = first.core
            self._batch = BatchRunner(num_envs, seat, c.rules, c.reward, c.illegal, c.illegal_penalty, c.max_cycles)
            self.envs: list[GinRummySingle] = []
        else:
            self.envs = [first] + [
                GinRummySingle(opponent, seat, rules, scope, reward, illegal, illegal_penalty, max_cycles=max_cycles)
                for _ in range(num_envs - 1)
            ]
        #: the backend in use: ``"scalar"`` or ``"batch"``
        self.backend = backend
        self._illegal = first.core.illegal
        self._names = first.core.code_actions
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        core = first.core  # the spaces' sizes: observation (obs_size,), Discrete(num_codes)
        size, codes = core.obs_size, core.num_codes
        # the batch the encoders and masks are written into in place, row i for sub-environment i;
        # step() copies it into the two arrays it returns (so a caller writing into those cannot
        # upset the incremental encoders)
        self._state = np.zeros((num_envs, size), dtype=np.float32)
        self._encoders = [SeatEncoder(seat, core.scale, size, self._state[i]) for i in range(num_envs)]
        self._codes = codes
        self._mask_buf = bytearray(num_envs * codes)
        self._mask_state = np.frombuffer(self._mask_buf, dtype=np.int8).reshape(num_envs, codes)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._mask = np.zeros((num_envs, codes), dtype=np.int8)
        self._out: dict[str, np.ndarray] = {"observation": self._obs, "action_mask": self._mask}
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terms = np.zeros(num_envs, dtype=np.bool_)
        self._truncs = np.zeros(num_envs, dtype=np.bool_)
        self._seeder: random.Random | None = None

    def _write(self, i: int) -> None:
        """Write sub-environment ``i``'s observation and mask into row ``i`` of the batch."""
        env = self.envs[i]
        core = env.core
        seat = env.seat
        _, other, totals = core.obs_base[seat]
        encoder = self._encoders[i]
        if encoder.seat != 1 - other:  # the agent's deal seat (the same every deal, two-hand)
            encoder.seat = 1 - other
            encoder.reset()
        assert core.match is not None  # started by reset()
        encoder.observe_view(core.match.deal, core.odisc[other], totals)
        c = self._codes
        if core.player == seat and not core.done:
            self._mask_buf[i * c : i * c + c] = core.mask_bytes()
        else:
            self._mask_buf[i * c : i * c + c] = bytes(c)

    def _publish(self) -> dict[str, np.ndarray]:
        """Copy the batch into the arrays handed out (the same two arrays every step)."""
        np.copyto(self._obs, self._state)
        np.copyto(self._mask, self._mask_state)
        return self._out

    def _reset_one(self, i: int, seed: int | None, options: dict | None) -> None:
        self.envs[i].start(seed, options)
        self._write(i)

    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Reset every sub-environment (seeds ``seed + i``, or one seed each from a sequence);
        returns ``(observations, infos)``.  Raises ``ValueError`` for a bad seed list or option."""
        if seed is None:
            if self._seeder is None:
                self._seeder = random.Random(int.from_bytes(os.urandom(8), "big"))
            seeds = [self._seeder.getrandbits(63) for _ in range(self.num_envs)]
        elif isinstance(seed, bool):
            raise ValueError(f"reset(seed=...) takes one int or {self.num_envs} seeds, not {seed!r}")
        elif isinstance(seed, (int, np.integer)):
            self._seeder = random.Random(int(seed))
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset(seed=...) takes one int or {self.num_envs} seeds, not {len(seeds)}")
            self._seeder = None
        if self._batch is not None:
            self._batch.reset_rows(range(self.num_envs), seeds, options, write=False)
            self._revive_batch(np.arange(self.num_envs))
            self._batch.write()
            return self._publish_batch(), {}
        for i, s in enumerate(seeds):
            self._reset_one(i, s, options)
        self._revive(range(self.num_envs))
        return self._publish(), {}

    def _revive(self, rows: Sequence[int]) -> None:
        """Start the next episode (seed from the seeder, no options) in each sub-environment of
        ``rows`` whose new episode the opponent ended before the agent's first move (a knock on
        his first turn: the agent has no decision in it), in row order, until none is left:
        a returned row is always one where the agent is to act."""
        dead = [i for i in rows if self.envs[i].core.done]
        while dead:
            for i in dead:
                self._reset_one(i, self._next_seed(), None)
            dead = [i for i in dead if self.envs[i].core.done]

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Apply ``actions[i]`` (a code 0..160) in sub-environment ``i`` and play its opponent;
        returns ``(observations, rewards, terminations, truncations, infos)`` (arrays of
        ``num_envs``; the observation arrays are reused).  Raises ``ValueError`` for a batch that
        is not ``num_envs`` integer codes 0..160 (0..397 under ``layout="players"``) and, under
        ``illegal="raise"``, :class:`~ginrummy.errors.IllegalActionError` for an illegal code,
        naming it; no sub-environment moves then."""
        codes = self._check_actions(actions)
        if self._batch is not None:
            return self._step_batch(np.asarray(codes, dtype=np.int64))
        rewards = self._rewards
        terms = self._terms
        truncs = self._truncs
        infos: dict[str, Any] = {}
        final = None
        terms[:] = False
        truncs[:] = False
        encoders = self._encoders
        buf = self._mask_buf
        c = self._codes
        for i, env in enumerate(self.envs):
            core = env.core
            seat = env.seat
            r = core.step(codes[i])[seat]
            if not core.done and core.player != seat:
                r += env._play_opponent()
            rewards[i] = r
            if not core.done:  # row i: what _write does, inlined (the hot path)
                _, other, totals = core.obs_base[seat]
                encoder = encoders[i]
                if encoder.seat == 1 - other:
                    encoder.observe_view(core.match.deal, core.odisc[other], totals)  # type: ignore[union-attr]
                    buf[i * c : i * c + c] = core.mask_bytes()  # the agent is to act: the opponent has played
                else:
                    self._write(i)
            else:
                terms[i] = not core.truncated
                truncs[i] = core.truncated
                if final is None:
                    final = np.empty(self.num_envs, dtype=object)
                    infos["_final_obs"] = np.zeros(self.num_envs, dtype=np.bool_)
                final[i] = {"observation": core.observe(seat), "action_mask": core.mask(seat)}
                infos["_final_obs"][i] = True
                self._reset_one(i, self._next_seed(), None)
        if final is not None:
            infos["final_obs"] = final
            self._revive(np.flatnonzero(infos["_final_obs"]).tolist())
        return self._publish(), rewards.copy(), terms.copy(), truncs.copy(), infos

    def _check_actions(self, actions: Sequence[int] | np.ndarray) -> list[int]:
        """The actions as a list of ints, checked before any sub-environment moves (so a bad
        batch changes nothing): ``num_envs`` integer codes in range, and under ``illegal="raise"``
        each legal.  Raises ``ValueError`` (:class:`~ginrummy.errors.IllegalActionError` for an
        illegal code) naming the first bad one."""
        n = self.num_envs
        try:
            a = np.asarray(actions)
        except (TypeError, ValueError):
            a = np.asarray(None)
        if a.shape != (n,):
            got = len(actions) if hasattr(actions, "__len__") else repr(actions)
            raise ValueError(f"step takes {n} actions, not {got}")
        top = self._codes - 1
        if a.dtype.kind not in "iu" or a.min() < 0 or a.max() > top:
            items = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
            bad = next((x for x in items if not isinstance(x, (int, np.integer)) or not 0 <= x <= top), items[0])
            raise ValueError(f"an action is an int code 0..{top}, not {bad!r}")
        codes: list[int] = a.tolist()
        if self._illegal == "raise":
            masks = self._mask_state if self._batch is None else self._batch.mask
            legal = masks[np.arange(n), a]
            if not legal.all():
                i = int(np.argmin(legal))
                names = self._names
                ok = np.flatnonzero(masks[i]).tolist()
                raise IllegalActionError(
                    f"action code {codes[i]} ({names[codes[i]].text}) is not legal in sub-environment {i} "
                    f"now; legal codes: {ok}",
                    names[codes[i]].text,
                    [names[c].text for c in ok],
                )
        return codes

    def _step_batch(self, codes: np.ndarray) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """:meth:`step` on the batch backend: the same results, one array operation a move."""
        runner = self._batch
        assert runner is not None
        rewards, terms, truncs, final = runner.step(codes)
        infos: dict[str, Any] = {}
        if final is not None:
            rows = final["rows"].tolist()
            out = np.empty(self.num_envs, dtype=object)
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            zero = np.zeros(self._codes, dtype=np.int8)
            for j, i in enumerate(rows):
                out[i] = {"observation": final["obs"][j], "action_mask": zero.copy()}
                flags[i] = True
            infos["final_obs"] = out
            infos["_final_obs"] = flags
            runner.reset_rows(rows, [self._next_seed() for _ in rows], None, write=False)
            self._revive_batch(final["rows"])
        runner.write()
        return self._publish_batch(), rewards, terms, truncs, infos

    def _revive_batch(self, rows: np.ndarray) -> None:
        """:meth:`_revive` on the batch backend (the same seeds in the same order)."""
        runner = self._batch
        assert runner is not None
        dead = rows[runner.dead[rows]]
        while len(dead):
            runner.reset_rows(dead.tolist(), [self._next_seed() for _ in dead], None, write=False)
            dead = dead[runner.dead[dead]]

    def _publish_batch(self) -> dict[str, np.ndarray]:
        runner = self._batch
        assert runner is not None
        np.copyto(self._obs, runner.obs)
        np.copyto(self._mask, runner.mask)
        return self._out

    @property
    def moves(self) -> int:
        """Moves applied so far, both seats', in all sub-environments (a count for benchmarks)."""
        if self._batch is not None:
            return self._batch.moves
        return sum(e.core.moves for e in self.envs)

    def _next_seed(self) -> int:
        if self._seeder is None:
            self._seeder = random.Random(int.from_bytes(os.urandom(8), "big"))
        return self._seeder.getrandbits(63)

    def action_masks(self) -> np.ndarray:
        """The masks now, ``bool[num_envs, 161]``."""
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


def _batch_refusal(first: GinRummySingle, opponent: Any, scope: str) -> str | None:
    """``None`` when the batch backend plays the configuration of ``first`` (its ``opponent``
    and ``scope`` as given), else what it needs (a text naming the option and its value)."""
    if not (isinstance(opponent, str) and opponent == "random"):
        return f"opponent='random' (not {opponent!r})"
    if scope != "deal":
        return f"scope='deal' (not {scope!r})"
    return batch_rules_ok(first.core.rules)
