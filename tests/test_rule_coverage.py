"""Every rule that the rules define is cited by at least one test file.

The rules are the project's own ``docs/rules.md`` (the same numbers as the specification
``../shared/RULES.md``, checked by ``tests/test_rules_doc.py``), so this runs in any clone.  The
rules it defines are the numbered items ``- R6.3 ...`` and the
numbered sections ``## R13. ...`` that have no numbered items of their own (R13, R14).  A test
file under ``tests/`` cites a rule when its text contains the number not followed by another
digit or by ``.digit`` (so ``R1.1`` is not cited by ``R1.10`` and ``R13`` not by ``R13.2``).
"""

from __future__ import annotations

import re
from pathlib import Path

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
TESTS = Path(__file__).resolve().parent

_ITEM = re.compile(r"^\s*-\s+(R\d+\.\d+)\b", re.MULTILINE)
_SECTION = re.compile(r"^##\s+(R\d+)\.", re.MULTILINE)


def defined_rules(text: str) -> list[str]:
    """The rule numbers RULES.md defines, in document order."""
    items = _ITEM.findall(text)
    with_items = {r.split(".")[0] for r in items}
    sections = [s for s in _SECTION.findall(text) if s not in with_items]
    order = {r: i for i, r in enumerate(_ITEM.findall(text) + sections)}
    return sorted(set(items) | set(sections), key=lambda r: order[r])


def cites(text: str, rule: str) -> bool:
    return re.search(re.escape(rule) + r"(?!\d)(?!\.\d)", text) is not None


def test_defined_rules_parser():
    """The parser reads items and item-less sections."""
    sample = "## R1. Cards\n- R1.1 One deck.\n- R1.10 Ten.\n## R13. Presets\n| table |\n"
    assert defined_rules(sample) == ["R1.1", "R1.10", "R13"]
    assert cites("see R1.10", "R1.10") and not cites("see R1.10", "R1.1")
    assert cites("R13.", "R13") and not cites("R13.2", "R13")


def test_every_rule_is_cited_by_a_test():
    """Each rule number defined in docs/rules.md appears in at least one ``tests/*.py`` file."""
    rules = defined_rules(RULES_MD.read_text(encoding="utf-8"))
    assert len(rules) >= 40 and "R1.1" in rules and "R14" in rules
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("*.py"))
             if p.name != Path(__file__).name}
    missing = [r for r in rules if not any(cites(t, r) for t in texts.values())]
    assert not missing, f"rules cited by no test file: {', '.join(missing)}"
