"""The project's own numbered rules, ``docs/rules.md`` (R1..R14), shipped with the package.

Every rule number that the code and the tests cite (``R6.3``, ``R13``) is defined there; the
copy the web table serves (``/static/rules.md``, package data) is the same file; the README and
the web Rules page link it.  When the specification it paraphrases (``../shared/RULES.md``) is
beside the clone, both define exactly the same numbers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
SERVED = ROOT / "src" / "ginrummy" / "web" / "static" / "rules.md"
SHARED = ROOT.parent / "shared" / "RULES.md"
#: a rule number as cited: R6, R6.3 (never part of a longer word or number)
CITE = re.compile(r"(?<![\w.])R(\d+)(?:\.(\d+))?(?![\w])")
#: files whose rule numbers are samples, not citations (the parser's own test)
SAMPLES = {"test_rule_coverage.py"}
_ITEM = re.compile(r"^\s*-\s+(R\d+\.\d+)\b", re.MULTILINE)
_SECTION = re.compile(r"^##\s+(R\d+)\.", re.MULTILINE)


def defined_rules(text: str) -> list[str]:
    """The numbered items (``- R6.3 ...``) and sections (``## R13. ...``) of a rules text, in order."""
    return _ITEM.findall(text) + _SECTION.findall(text)


def cited_numbers() -> dict[str, str]:
    """Every rule number cited in src/ (Python, JavaScript, HTML) and tests/, with a file citing it."""
    out: dict[str, str] = {}
    files = [p for ext in ("py", "js", "html") for p in (ROOT / "src").rglob(f"*.{ext}")]
    files += [p for p in (ROOT / "tests").rglob("*.py") if p.name not in SAMPLES]
    for p in files:
        for m in CITE.finditer(p.read_text(encoding="utf-8")):
            number = f"R{m[1]}" + (f".{m[2]}" if m[2] else "")
            out.setdefault(number, str(p.relative_to(ROOT)))
    return out


def test_every_cited_rule_is_in_docs_rules_md():
    text = DOC.read_text(encoding="utf-8")
    items = set(_ITEM.findall(text))
    sections = set(_SECTION.findall(text))
    cited = cited_numbers()
    assert len(cited) > 50 and "R6.3" in cited and "R10.1" in cited
    missing = {n: f for n, f in cited.items() if n not in items and n not in sections}
    assert not missing, f"cited but not defined in docs/rules.md: {missing}"
    assert sorted(sections, key=lambda r: int(r[1:])) == [f"R{i}" for i in range(1, 15)]


def test_the_served_copy_is_docs_rules_md():
    assert SERVED.read_bytes() == DOC.read_bytes(), "copy docs/rules.md to src/ginrummy/web/static/rules.md"


#: Rules the project adds to the specification's numbering (docs/design-notes.md, "Rules added
#: to the specification"): OpenSpiel's options (issue 36), each a sub-rule at the end of its section.
ADDED_RULES = ("R5.6", "R7.4", "R7.5")


def test_same_numbers_as_the_specification():
    """Every number of the specification, in its order, and only the listed additions besides."""
    if not SHARED.is_file():
        pytest.skip("the specification is not beside the clone")
    ours = defined_rules(DOC.read_text(encoding="utf-8"))
    assert [r for r in ours if r not in ADDED_RULES] == defined_rules(SHARED.read_text(encoding="utf-8"))
    assert sorted(r for r in ours if r in ADDED_RULES) == sorted(ADDED_RULES)


def test_written_in_our_own_words():
    """No sentence of prose is taken over from the specification: no run of ten words in a row
    (tables of field names and values aside) appears in both."""
    if not SHARED.is_file():
        pytest.skip("the specification is not beside the clone")

    def grams(path: Path, n: int = 10) -> set[str]:
        prose = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("|"))
        words = re.findall(r"[a-z']+", prose.lower())
        return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}

    assert grams(DOC) & grams(SHARED) == set()


def test_readme_and_rules_page_link_it():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules.md" in readme and "../shared/RULES.md" not in readme
    page = (ROOT / "src" / "ginrummy" / "web" / "static" / "rules.html").read_text(encoding="utf-8")
    assert 'href="/static/rules.md"' in page


@pytest.mark.filterwarnings("ignore:.*httpx.*")
def test_the_web_table_serves_it(tmp_path):
    from starlette.testclient import TestClient

    from ginrummy.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0)) as client:
        r = client.get("/static/rules.md")
    assert r.status_code == 200
    assert r.text == DOC.read_text(encoding="utf-8")
    assert r.text.count("\n- R") == 51  # the numbered items R1.1..R12.6 (R5.6, R7.4, R7.5 included); R13 and R14 are tables
