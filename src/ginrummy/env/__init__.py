"""Research environments over the engine (``docs/env.md``; needs the ``env`` extra:
``pip install ginrummy[env]`` brings pettingzoo and gymnasium).

* :class:`GinRummyAEC`: PettingZoo AEC, every seat an agent (two- and three-hand).
* :class:`GinRummySingle`: Gymnasium, one seat against a computer level or any ``Player``.
* :class:`GinRummyParallel`: PettingZoo's parallel API (one action a step; module
  :mod:`ginrummy.env.parallel` is what ``max_cycles_test`` takes).

Importing this package registers ``ginrummy/GinRummy-v0`` with Gymnasium, so
``gymnasium.make("ginrummy/GinRummy-v0", opponent="novice")`` works after ``import ginrummy.env``
(or, without the import, ``gymnasium.make("ginrummy.env:ginrummy/GinRummy-v0")``: Gymnasium 1.x has
no plugin entry points).
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(f"ginrummy.env needs pettingzoo and gymnasium ({exc}): pip install 'ginrummy[research]'") from exc

from .aec import GinRummyAEC, action_space, env, observation_space, raw_env  # noqa: E402
from .core import CODE_ACTIONS, REWARDS, SCOPES, GameCore, make_env_rules, seed_bytes  # noqa: E402
from .duplicate import DuplicateResult, duplicate_eval  # noqa: E402
from .observation import OBS_SIZE, PLANES, SCALARS, encode_view, plane  # noqa: E402
from .parallel import GinRummyParallel, parallel_env  # noqa: E402
from .single import GinRummySingle  # noqa: E402
from .vector import GinRummyVector  # noqa: E402

__all__ = [
    "GinRummyAEC",
    "GinRummySingle",
    "GinRummyParallel",
    "GinRummyVector",
    "parallel_env",
    "duplicate_eval",
    "DuplicateResult",
    "GameCore",
    "env",
    "raw_env",
    "register_envs",
    "observation_space",
    "action_space",
    "OBS_SIZE",
    "PLANES",
    "SCALARS",
    "encode_view",
    "plane",
    "CODE_ACTIONS",
    "SCOPES",
    "REWARDS",
    "make_env_rules",
    "seed_bytes",
    "ENV_ID",
]

ENV_ID = "ginrummy/GinRummy-v0"


def register_envs() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; calling it again is harmless)."""
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="ginrummy.env.single:GinRummySingle", disable_env_checker=False)


register_envs()
