"""Sizes that keep the code readable at once (issue 29, item 4; docs/architecture.md, "How to
check each goal"), checked by reading the source (``ast``):

- no function or method in ``src/`` longer than :data:`MAX_FUNCTION_LINES` lines (from its
  ``def`` to its last line, decorators excluded);
- no module of ``web/`` longer than :data:`MAX_WEB_MODULE_LINES` lines;
- no folder of ``src/ginrummy`` with more than :data:`MAX_FOLDER_MODULES` Python modules, but
  the one in :data:`FOLDERS_OVER` (recorded in docs/design-notes.md, "Habits"), which may not grow.
"""

from __future__ import annotations

import ast
import collections
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "ginrummy"

MAX_FUNCTION_LINES = 100
MAX_WEB_MODULE_LINES = 500
MAX_FOLDER_MODULES = 14

#: Folders over the limit, with the count they may not exceed: the engine's flat top level
#: (twelve engine modules beside __init__, __main__ and i18n) and the CLI's commands.
FOLDERS_OVER = {"ginrummy": 15}


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_long_function_is_found():
    tree = ast.parse("def f():\n" + "    x = 1\n" * 120)
    assert [(f.name, f.end_lineno - f.lineno + 1) for f in _functions(tree)] == [("f", 121)]


def test_no_function_longer_than_the_limit():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for f in _functions(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            lines = f.end_lineno - f.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                long.append(f"{path.relative_to(SRC)}:{f.lineno} {f.name}: {lines} lines")
    assert long == []


def test_no_web_module_longer_than_the_limit():
    long = [f"{p.relative_to(SRC)}: {n} lines" for p in sorted((PACKAGE / "web").rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_WEB_MODULE_LINES]
    assert long == []


def test_no_folder_with_more_modules_than_the_limit():
    counts = collections.Counter(p.parent.relative_to(SRC).as_posix() for p in PACKAGE.rglob("*.py"))
    over = {d: n for d, n in counts.items() if n > FOLDERS_OVER.get(d, MAX_FOLDER_MODULES)}
    assert over == {}
