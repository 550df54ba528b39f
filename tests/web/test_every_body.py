"""Every HTTP body schema refuses a body that is not a JSON object, or not JSON, with one clear
error and never a server fault (the new-user trial of stop 39: eight newer POST endpoints
answered 500 with a ``KeyError`` traceback for ``[1,2]``, ``null``, an empty body or ``{"reason":``,
because their schema had no entry in the table of examples)."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import ginrummy.web.protocol as protocol
from ginrummy.web.errors import WebError
from ginrummy.web.protocol.bodies import _Body, parse_body

for _info in pkgutil.iter_modules(protocol.__path__):  # every body module, so that every schema is seen
    importlib.import_module(f"{protocol.__name__}.{_info.name}")


def _schemas(cls: type = _Body) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_schemas(sub)]
    return out


BODIES = _schemas()


def test_the_schemas_are_found():
    names = {b.__name__ for b in BODIES}
    assert {"CreateTableBody", "ReportBody", "RelationBody", "ModActionBody", "CreateTournamentBody"} <= names
    assert {"ChallengeBody", "MakeBotBody", "TokenBody"} <= names


@pytest.mark.parametrize("model", BODIES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("raw", [b"[1, 2]", b"null", b"", b"7", b'"text"', b'{"reason": ', b"{"])
def test_a_body_that_is_no_json_object_is_refused_in_words(model, raw):
    with pytest.raises(WebError) as info:
        parse_body(raw, model)
    assert info.value.code in ("bad_message", "bad_json")
    text = str(info.value)
    assert "KeyError" not in text and "Traceback" not in text and len(text) > 10


@pytest.mark.parametrize(
    "path",
    ["/api/reports", "/api/relations", "/api/moderation/actions", "/api/tournaments", "/api/challenges", "/api/bots"],
)
@pytest.mark.parametrize("raw", [b"[1,2]", b"null", b'{"reason": '])
def test_the_newer_endpoints_answer_400_not_500(client, path, raw):
    from .conftest import with_csrf

    c = with_csrf(client)
    assert c.post("/api/account", json={"name": "Tess", "password": "correct horse"}).status_code in (200, 201)
    r = c.post(path, content=raw, headers={"Content-Type": "application/json"})
    if path == "/api/moderation/actions":  # a player is refused before his body is read
        assert (r.status_code, r.json()["code"]) == (403, "forbidden"), r.text
        return
    assert r.status_code == 400, (path, raw, r.status_code, r.text)
    assert r.json()["code"] in ("bad_message", "bad_json"), r.text
