"""Contests in the room, above the community (docs/architecture.md, "Inside web/"): the daily
deal (:mod:`.daily`, over :mod:`ginrummy.compete.daily`) and tournaments (:mod:`.tournaments`,
over :mod:`ginrummy.compete.tournament`)."""
