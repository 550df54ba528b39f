"""The layers of ``src/ginrummy`` (docs/architecture.md), checked by reading the imports (``ast``):

- a module imports only from its own layer or the layers below it (the ``LAYERS`` data below,
  top first); the packages of one layer that are written ``a | b`` are siblings that do not
  import each other;
- no import circle between modules (imports inside functions count too);
- no module outside the engine imports an engine module's private name (``from ginrummy.deal
  import _X``, or ``deal._X`` on an imported engine module).

Every import of ``ginrummy`` in the tree counts: at the top, inside functions, and under
``if TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "ginrummy"

#: The engine: pure (no I/O, clock or global random), the rules R1..R14 of docs/rules.md.
ENGINE = ("errors", "cards", "melds", "rules", "actions", "showdown", "deal", "scoring", "match",
          "views", "record", "text_view")

#: The layers, top first.  Each is a tuple of sibling groups; a group is a tuple of names under
#: ``ginrummy`` (a module, or a sub-package with everything in it).  A module may import its own
#: group and anything in a lower layer; never a higher layer, nor a sibling group of its layer.
LAYERS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("__main__",),),
    (("cli",),),
    (("web",),),
    (("analysis",), ("interop",), ("compete",), ("client",)),
    (("env",),),  # below interop: the pyspiel game observes through the env's encoder (issue 36)
    (("players",), ("i18n",)),
    (ENGINE,),
)

#: The layers inside ``web/`` (docs/architecture.md, "Inside web/"), top first, as ``LAYERS``:
#: names under ``ginrummy.web`` (a module, or a sub-package with everything in it); ``""`` is
#: the package's own ``__init__``.
WEB_LAYERS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("", "app"),),
    (("ws",),),
    (("http",),),
    (("contests",), ("learning",)),
    (("community",), ("ops",)),
    (("room",),),
    (("protocol",), ("db",)),
    (("security",), ("limits",), ("uploads",), ("review_budget",)),
    (("texts",),),
    (("errors",), ("levels",)),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


MODULES = _modules()


def _resolve(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(mod: str) -> list[tuple[str, str | None, int]]:
    """``(imported module, imported name or None, line)`` for each ``ginrummy`` import of ``mod``;
    ``from pkg import sub`` of a submodule counts as an import of ``pkg.sub``."""
    path = MODULES[mod]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_pkg = path.name == "__init__.py"
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == PACKAGE]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(mod, is_pkg, node)
            if target.split(".")[0] != PACKAGE:
                continue
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in MODULES:
                    out.append((sub, None, node.lineno))
                else:
                    out.append((target, a.name, node.lineno))
    return out


def _group_of(mod: str, layers: tuple[tuple[tuple[str, ...], ...], ...] = LAYERS, depth: int = 1) -> tuple[int, int]:
    """(layer index, top first; sibling group index) of module ``mod`` in ``layers``, by its
    name's part number ``depth`` (1: the part under ``ginrummy``, 2: under ``ginrummy.web``)."""
    rest = mod.split(".")[depth:]
    head = rest[0] if rest else ""
    for li, layer in enumerate(layers):
        for gi, group in enumerate(layer):
            if head in group:
                return li, gi
    raise AssertionError(f"{mod} is in no layer: add it to the data (and to docs/architecture.md)")


def _graph() -> dict[str, set[str]]:
    return {m: {t for t, _, _ in _imports(m) if t in MODULES and t != m} for m in MODULES}


def test_every_module_is_in_a_layer():
    for mod in MODULES:
        if mod != PACKAGE:
            _group_of(mod)


def test_no_lower_layer_imports_a_higher_one_nor_a_sibling():
    bad = []
    for mod in MODULES:
        if mod == PACKAGE:
            continue
        here = _group_of(mod)
        for target, _, line in _imports(mod):
            if target == PACKAGE:
                continue
            there = _group_of(target)
            if there[0] < here[0] or (there[0] == here[0] and there[1] != here[1]):
                bad.append(f"{mod}:{line} imports {target}")
    assert bad == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_cycles_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle():
    assert _cycles(_graph()) == []


WEB = f"{PACKAGE}.web"


def _in_web(mod: str) -> bool:
    return mod == WEB or mod.startswith(f"{WEB}.")


def test_every_web_module_is_in_a_web_layer():
    for mod in MODULES:
        if _in_web(mod):
            _group_of(mod, WEB_LAYERS, 2)


def test_inside_web_no_lower_layer_imports_a_higher_one_nor_a_sibling():
    """Issue 29, the web step: protocol and db at the bottom of web/, the room above them, the
    community above the room, HTTP and then the sockets at the top, ``app`` wiring them."""
    bad = []
    for mod in MODULES:
        if not _in_web(mod):
            continue
        here = _group_of(mod, WEB_LAYERS, 2)
        for target, _, line in _imports(mod):
            if not _in_web(target) or target == WEB:
                continue
            there = _group_of(target, WEB_LAYERS, 2)
            if there[0] < here[0] or (there[0] == here[0] and there[1] != here[1]):
                bad.append(f"{mod}:{line} imports {target}")
    assert bad == []


def test_no_private_engine_name_outside_the_engine():
    engine = {f"{PACKAGE}.{m}" for m in ENGINE}
    bad = []
    for mod in MODULES:
        if mod in engine:
            continue
        path = MODULES[mod]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        aliases: set[str] = set()  # local names bound to an engine module
        for target, name, line in _imports(mod):
            if target in engine and name is not None and name.startswith("_"):
                bad.append(f"{mod}:{line} imports {target}.{name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if f"{_resolve(mod, path.name == '__init__.py', node)}.{a.name}" in engine:
                        aliases.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in engine and a.asname:
                        aliases.add(a.asname)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                bad.append(f"{mod}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert bad == []


@pytest.mark.parametrize("package", ["players"])
def test_players_import_neither_interop_nor_deal(package):
    """Issue 29: the players see the engine through views and actions; the bridges are above."""
    bad = [f"{m} imports {t}" for m in MODULES if m.startswith(f"{PACKAGE}.{package}")
           for t, _, _ in _imports(m) if t.startswith((f"{PACKAGE}.interop", f"{PACKAGE}.deal"))]
    assert bad == []
