"""Competition: daily duplicate deals (:mod:`.daily`), Swiss and arena tournaments
(:mod:`.swiss`, :mod:`.arena`, :mod:`.tournament`) and turn-based play over days
(:mod:`.correspondence`).  See ``docs/compete.md``.

Pure logic for the web to call: no I/O, no clock (dates and times are passed in), no global
random state.  Above the engine, below ``web`` and ``cli`` (``docs/architecture.md``).
"""

from .errors import CompeteError

__all__ = ["CompeteError"]
