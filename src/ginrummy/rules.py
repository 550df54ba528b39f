"""The rule set: every option of RULES.md as data (R13, R14).

A :class:`RuleSet` is frozen and keyword-only; it validates itself on creation and raises
:class:`~ginrummy.errors.RuleSetError` naming the field, the bad value and what is allowed.
Presets (R13) are named ``RuleSet`` values in :data:`PRESETS`.  Engine code reads fields;
nothing subclasses per variant.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import rank_of, suit_of, value_of
from .errors import N_, RuleSetError

__all__ = [
    "RuleSet",
    "PRESETS",
    "preset",
    "parse_overrides",
    "make_rules",
    "FIELD_RULES",
    "CHOICES",
    "BOUNDS",
    "MAX_TARGET",
    "MAX_NAME_CHARS",
]

#: The allowed values of each field that takes one of a few values (R14).
CHOICES: dict[str, tuple[Any, ...]] = {
    "variant": ("standard", "straight", "oklahoma"),
    "oklahoma_ace": ("gin", "one"),
    "stock_end": ("draw_at_two", "wall", "reshuffle"),
    "scoring": ("deal", "game", "hollywood"),
    "hollywood_late_entry": ("nowhere", "next_open"),
    "next_dealer": ("winner", "alternate"),
    "players": (2, 3),
    "tie": ("undercut", "nothing"),
    "layout": ("engine", "players"),
}

#: The longest game (R11.1): games are played to 100 or 250; 1,000 is four times the longest
#: usual game, for long research matches, and keeps the computer's game table
#: (:func:`ginrummy.players.expert.game_win_table`, 1,001 x 1,001 chances) small and quick.
MAX_TARGET = 1000

#: The allowed range (lowest, highest; both included) of each whole-number field (R14).
#: The books pay 10 to 50 points for gin, big gin, an undercut and a box: 250 (the longest
#: usual game) leaves room for any house rule; a game bonus is usually 100, and may be as
#: large as the longest game.  Each reshuffle (R7.3) lengthens a deal by about thirty
#: draws: ten is more than any table plays, and keeps every deal finite and short.
BOUNDS: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 10),
    "gin_bonus": (0, 250),
    "big_gin_bonus": (0, 250),
    "undercut_bonus": (0, 250),
    "max_reshuffles": (0, 10),
    "target": (1, MAX_TARGET),
    "game_bonus": (0, MAX_TARGET),
    "box_bonus": (0, 250),
    "max_pile_takes": (0, 100),
}

#: The longest rule set name (the presets' names and ``"<preset>+custom"`` are far shorter).
MAX_NAME_CHARS = 60

#: The rule number each field implements (R14).
FIELD_RULES: dict[str, str] = {
    "variant": "R5, R8, R9",
    "knock_limit": "R5.1",
    "oklahoma_ace": "R9.2",
    "spade_doubles": "R9.3",
    "gin_bonus": "R6.1",
    "big_gin_bonus": "R6.5",
    "undercut_bonus": "R6.3",
    "discard_taken_card": "R4.3",
    "stock_end": "R7",
    "max_reshuffles": "R7.3",
    "scoring": "R11.1",
    "target": "R11.1",
    "game_bonus": "R11.3",
    "shutout_doubles": "R11.3",
    "box_bonus": "R11.3",
    "hollywood_late_entry": "R12.3",
    "next_dealer": "R11.2",
    "players": "R10",
    "tie": "R6.3",
    "wall_forced_pass": "R7.2",
    "repeated_move_ends": "R7.4",
    "max_pile_takes": "R7.5",
    "layout": "R5.6",
}


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Every option of RULES.md (fields and defaults as in R14; the defaults are ``standard``).

    Points are whole game points.  ``knock_limit`` is a deadwood value in points (0..10) and is
    ignored by Straight gin (no knocking, R8) and Oklahoma gin (the upcard decides, R9).
    ``big_gin_bonus`` ``None`` means big gin is not played (R6.5).

    Raises :class:`RuleSetError` when a field has a value outside its range (every whole-number
    field is bounded: :data:`BOUNDS`; the name has at most :data:`MAX_NAME_CHARS` characters),
    or when three players are combined with Hollywood scoring (R10.6).
    """

    variant: str = "standard"
    knock_limit: int = 10
    oklahoma_ace: str = "gin"
    spade_doubles: bool = True
    gin_bonus: int = 25
    big_gin_bonus: int | None = None
    undercut_bonus: int = 25
    discard_taken_card: bool = False
    stock_end: str = "draw_at_two"
    max_reshuffles: int = 1
    scoring: str = "game"
    target: int = 100
    game_bonus: int = 100
    shutout_doubles: bool = True
    box_bonus: int = 25
    hollywood_late_entry: str = "nowhere"
    next_dealer: str = "winner"
    players: int = 2
    tie: str = "undercut"
    wall_forced_pass: bool = False
    repeated_move_ends: bool = False
    max_pile_takes: int = 0
    layout: str = "engine"
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        for key, allowed in CHOICES.items():
            value = getattr(self, key)
            # the type too: 2.0 == 2 and True == 1, but neither is a number of players (R14)
            if type(value) not in {type(a) for a in allowed} or value not in allowed:
                raise RuleSetError(
                    N_(
                        "rule {key}={value} is not allowed; allowed: {allowed}",
                        key=key,
                        value=shown(value),
                        allowed=", ".join(map(shown, allowed)),
                    )
                )
        for key in ("spade_doubles", "discard_taken_card", "shutout_doubles", "wall_forced_pass", "repeated_move_ends"):
            if not isinstance(getattr(self, key), bool):
                raise RuleSetError(
                    N_("rule {key}={value} must be true or false", key=key, value=shown(getattr(self, key)))
                )
        for key, (lo, hi) in BOUNDS.items():
            if key != "big_gin_bonus" or self.big_gin_bonus is not None:
                self._check_int(key, lo, hi)
        if self.players == 3 and self.scoring == "hollywood":
            raise RuleSetError(
                N_("rule scoring='hollywood' is for two players (R10.6); three-hand gin allows 'game' or 'deal'")
            )
        if not isinstance(self.name, str):
            raise RuleSetError(N_("rule set name must be a string"))
        if len(self.name) > MAX_NAME_CHARS:
            raise RuleSetError(
                N_(
                    "rule set name is {length} characters long; allowed: at most {limit}",
                    length=len(self.name),
                    limit=MAX_NAME_CHARS,
                )
            )

    def _check_int(self, key: str, lo: int, hi: int) -> None:
        """Raise :class:`RuleSetError` naming ``key`` and the range ``lo..hi`` unless the field
        is a whole number (an ``int``, not a bool) in that range (R14, :data:`BOUNDS`)."""
        value = getattr(self, key)
        if type(value) is not int:
            raise RuleSetError(
                N_(
                    "rule {key}={value} is not a whole number; allowed: {lo}..{hi}",
                    key=key,
                    value=shown(value),
                    lo=lo,
                    hi=hi,
                )
            )
        if not lo <= value <= hi:
            raise RuleSetError(
                N_("rule {key}={value} is out of range; allowed: {lo}..{hi}", key=key, value=shown(value), lo=lo, hi=hi)
            )

    # -- derived values -------------------------------------------------------------------

    def deal_knock_limit(self, upcard: int) -> int | None:
        """The knock limit of a deal whose first upcard is ``upcard`` (a card int).

        Returns the most deadwood (points) a knocker may have after his discard, or ``None``
        when knocking is not allowed (Straight gin, R8.1; Oklahoma ace under ``"gin"``, R9.2):
        then only gin ends the deal.  Standard gin: ``knock_limit`` (R5.1); Oklahoma: the
        upcard's value, face cards 10 (R9.1), an ace 1 under ``oklahoma_ace="one"`` (R9.2).
        """
        if self.variant == "straight":
            return None
        if self.variant == "oklahoma":
            if rank_of(upcard) == 0:
                return 1 if self.oklahoma_ace == "one" else None
            return value_of(upcard)
        return self.knock_limit

    def deal_multiplier(self, upcard: int) -> int:
        """The factor every score of the deal is multiplied by: 2 for an Oklahoma spade upcard
        with ``spade_doubles`` (R9.3), else 1."""
        if self.variant == "oklahoma" and self.spade_doubles and suit_of(upcard) == 3:
            return 2
        return 1

    @property
    def bonuses_on(self) -> bool:
        """Whether any end-of-game bonus is paid (R11.3)."""
        return bool(self.game_bonus or self.box_bonus)

    # -- conversion ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """All fields (R14) as a JSON-ready dict, the preset name under ``"name"``.  Every field
        is a scalar, so a flat copy is the same as ``dataclasses.asdict`` and many times cheaper
        (the web table sends it in every state)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for key, default in _LATE_DEFAULTS.items():  # written only when set: records and digests of
            if out[key] == default:  # rule sets without them stay byte-identical
                del out[key]
        return out

    def to_json(self) -> str:
        """The rule set as one line of JSON (used in game records)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """A rule set from a dict of fields; a ``"preset"`` key starts from that preset.

        Raises :class:`RuleSetError` for an unknown field or preset, or a bad value.
        """
        data = dict(data)
        base = preset(data.pop("preset")) if "preset" in data else RuleSet(name="standard")
        return base.replace(**data)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some fields changed; the name becomes ``"<name>+custom"`` unless given.

        Raises :class:`RuleSetError` for an unknown field or a bad value.
        """
        known = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in known:
                raise RuleSetError(
                    N_("unknown rule {key!r}; known rules: {known}", key=key, known=", ".join(sorted(known - {"name"})))
                )
        if "name" not in changes and changes:
            differs = any(getattr(self, k) != v for k, v in changes.items())
            if differs and not self.name.endswith("+custom"):
                changes["name"] = f"{self.name}+custom"
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as exc:  # pragma: no cover - guarded by the check above
            raise RuleSetError(str(exc)) from None


#: The fields added for OpenSpiel's rules (R5.6, R6.3, R7.2, R7.4, R7.5) and their defaults:
#: :meth:`RuleSet.to_dict` leaves them out while they have these values.
_LATE_DEFAULTS: dict[str, Any] = {
    "tie": "undercut",
    "wall_forced_pass": False,
    "repeated_move_ends": False,
    "max_pile_takes": 0,
    "layout": "engine",
}


PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(name="standard"),
    "classic": RuleSet(name="classic", undercut_bonus=10, game_bonus=0, box_bonus=0),
    "hollywood": RuleSet(name="hollywood", scoring="hollywood"),
    "single": RuleSet(name="single", stock_end="reshuffle", game_bonus=0, box_bonus=0, scoring="deal"),
    "oklahoma": RuleSet(name="oklahoma", variant="oklahoma"),
    "straight": RuleSet(name="straight", variant="straight"),
    "eaai": RuleSet(name="eaai", game_bonus=0, box_bonus=0, next_dealer="alternate"),
}
"""The presets of R13, by name."""


def preset(name: str) -> RuleSet:
    """The preset called ``name`` (R13).  Raises :class:`RuleSetError` for an unknown name.

    >>> r = preset("standard")
    >>> r.knock_limit, r.gin_bonus, r.target
    (10, 25, 100)
    """
    if not isinstance(name, str) or name.lower() not in PRESETS:
        raise RuleSetError(N_("unknown preset {name!r}; presets: {presets}", name=name, presets=", ".join(PRESETS)))
    return PRESETS[name.lower()]


def shown(value: Any) -> str:
    """A rule value as it is written on the command line and in JSON (``true``, ``null``,
    ``"wall"``, ``31``), so an error echoes ``gin_bonus=true`` the way it was typed, not Python's
    ``True``.  A value JSON cannot write (an object) is shown with ``repr``."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return text


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """Read ``KEY=VALUE`` overrides (the ``--set`` option): VALUE is JSON when it parses as
    JSON (``true``, ``31``, ``null``, ``"wall"``), else a plain string.

    Raises :class:`RuleSetError` for an item without ``=`` or with an empty key.
    """
    out: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, str) or "=" not in item:
            raise RuleSetError(N_("override {item!r} is not KEY=VALUE (for example target=250)", item=item))
        key, _, value = item.partition("=")
        key = key.strip()
        if not key:
            raise RuleSetError(N_("override {item!r} has no key (for example target=250)", item=item))
        out[key] = _parse_value(value.strip())
    return out


def make_rules(preset_name: str = "standard", overrides: Iterable[str] | Mapping[str, Any] = ()) -> RuleSet:
    """A preset with ``--set KEY=VALUE`` overrides (strings) or a dict of overrides applied.

    Raises :class:`RuleSetError` for an unknown preset, unknown key or bad value.

    >>> make_rules("standard", ["target=250"]).target
    250
    """
    base = preset(preset_name)
    changes = dict(overrides) if isinstance(overrides, Mapping) else parse_overrides(overrides)
    return base.replace(**changes) if changes else base
