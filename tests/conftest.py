"""Test-wide settings: the tests read English output unless they choose a language, so the
language environment of the machine running them is pinned to English here.

Hypothesis runs without a per-example deadline and without its "too slow" health check: the
tests run on loaded machines (CI shares two cores), and the house rule is that no test asserts
a timing (speed is measured in benchmarks/), so a slow example is no failure."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ginrummy", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ginrummy")


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
