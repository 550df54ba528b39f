"""Bridges to other Gin Rummy engines.  :mod:`ginrummy.interop.openspiel` lets our computer
players play inside OpenSpiel's ``gin_rummy`` game (needs ``pyspiel``, imported only there)."""

__all__ = ["openspiel"]
