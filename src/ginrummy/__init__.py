"""ginrummy: an exact Gin Rummy rules engine, computer players, and tables to play at.

The rules implemented are those of RULES.md (numbered R1..R14).
"""

__version__ = "0.1.0"
