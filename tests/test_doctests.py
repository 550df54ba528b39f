"""The examples in the docstrings of the engine's public API run, as doctests (issue 29): the
module list is below; ``docs/architecture.md`` says how to run them with pytest too."""

from __future__ import annotations

import doctest
import importlib

import pytest

#: The engine modules whose docstrings carry runnable examples, and the other modules with examples.
DOCTEST_MODULES = (
    "cards",
    "rules",
    "actions",
    "melds",
    "showdown",
    "deal",
    "scoring",
    "record",
    "text_view",
    "match",
    "players.base",
    "players.expert",
    "players.sage",
)


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(f"ginrummy.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_api_has_examples():
    """At least one example in each module of the list (so the list does not rot)."""
    finder = doctest.DocTestFinder()
    for name in DOCTEST_MODULES:
        module = importlib.import_module(f"ginrummy.{name}")
        assert sum(len(t.examples) for t in finder.find(module)) > 0, name
