"""The text mode of the environments, ``observation_mode="text"`` (``docs/env.md``): for
language-model agents.

In this mode an agent's observation is ``{"observation": str, "action_mask": int8[161]}``, the
string being :func:`ginrummy.text_view.text_observation` of its view (English, for programs:
not translated), and its info is JSON-ready: ``{"view": PlayerView.to_json(agent=True)}`` (cards
as text, the legal actions with their integer codes, the match score, the rules), so
``json.dumps(info)`` takes it as it is.  Read a model's answer with :func:`reply_code`.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from ..actions import NUM_CODES, Action
from ..errors import RuleSetError
from ..text_view import parse_reply, text_observation
from ..views import PlayerView

__all__ = [
    "OBSERVATION_MODES",
    "TEXT_MAX_CHARS",
    "check_observation_mode",
    "text_observation_space",
    "text_obs",
    "json_info",
    "reply_code",
]

OBSERVATION_MODES = ("vector", "text")

#: The longest text observation the space allows (characters); a deal's text is far shorter.
TEXT_MAX_CHARS = 32768


def check_observation_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`OBSERVATION_MODES`; else raises :class:`RuleSetError`."""
    if mode not in OBSERVATION_MODES:
        raise RuleSetError(
            f"observation_mode={mode!r} is not allowed; allowed: {', '.join(map(repr, OBSERVATION_MODES))}"
        )
    return mode


def text_observation_space(num_codes: int = NUM_CODES) -> spaces.Dict:
    """``Dict(observation=Text(0..TEXT_MAX_CHARS, printable ASCII), action_mask=Box(0, 1, (161,), int8))``
    (``num_codes`` 398 under ``layout="players"``, R5.6)."""
    return spaces.Dict(
        {
            "observation": spaces.Text(TEXT_MAX_CHARS, min_length=0, charset=string.printable),
            "action_mask": spaces.Box(0, 1, (num_codes,), dtype=np.int8),
        }
    )


def text_obs(view: PlayerView, mask: np.ndarray) -> dict[str, Any]:
    """The text-mode observation: ``{"observation": text of view, "action_mask": mask}``."""
    return {"observation": text_observation(view), "action_mask": mask}


def json_info(view: PlayerView, **extra: Any) -> dict[str, Any]:
    """The text-mode info: ``{"view": view.to_json(agent=True), **extra}`` (JSON-ready)."""
    return {"view": view.to_json(agent=True), **extra}


def reply_code(reply: str, legal: Sequence[int | Action]) -> int:
    """The action code (0..160) that the free-text ``reply`` chooses among ``legal``: the legal
    codes (or actions) in the order of the numbered moves, which is
    ``info["view"]["legal_codes"]`` (not always ascending: big gin, code 4, comes after the
    discards and knocks).  Raises :class:`~ginrummy.errors.IllegalActionError` (a
    ``ValueError``) naming the legal moves when the reply chooses none
    (:func:`ginrummy.text_view.parse_reply`)."""
    return parse_reply(reply, [c if isinstance(c, Action) else int(c) for c in legal]).code
