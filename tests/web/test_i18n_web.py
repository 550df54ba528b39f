"""The web table's translations (docs/i18n.md, "Web"): the ``web`` gettext domain is complete in
Greek, Finnish, Maltese and Spanish (no untranslated or fuzzy entry, placeholders as in the source),
every marked string of the pages and scripts is in the catalog, the language follows ``?lang``,
the ``gin_lang`` cookie and ``Accept-Language``, the browser catalog is served as JSON, and the
server says its errors in the seat's language (HTTP and WebSocket)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ginrummy.i18n import LANGUAGES, catalog_json, placeholders
from ginrummy.web.app import STATIC_DIR
from ginrummy.web.room.tables import player_levels
from ginrummy.web.texts import html_key, html_messages, translate_html, web_catalog, web_translator

from .conftest import new_table

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "ginrummy" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PAGES = ["lobby.html", "table.html", "rules.html", "tips.html", "scorekeeper.html", "fair.html"]
SCRIPTS = sorted(p.name for p in STATIC_DIR.glob("*.js"))  # every page script, however a page is split


def _po(lang: str, domain: str = "web"):
    with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
        return read_po(f)


def _pot(domain: str = "web"):
    with open(LOCALE / f"{domain}.pot", "rb") as f:
        return read_po(f)


def _ids(cat) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


# -- the catalogs ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_web_catalog_is_complete_with_the_source_placeholders(lang):
    pot, po = _pot(), _po(lang)
    assert _ids(po) == _ids(pot), "web.po is not updated from web.pot (scripts/i18n-web.sh)"
    problems = []
    for m in po:
        if not m.id:
            continue
        if m.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        if isinstance(m.id, tuple):
            assert len(forms) == po.num_plurals, m.id
        for i, form in enumerate(forms):
            if not form:
                problems.append(f"untranslated: {m.id!r}")
                continue
            source = ids[0] if isinstance(m.id, str) else ids[min(i, 1)]
            want, got = set(placeholders(source)), set(placeholders(form))
            # a plural form may say its number in words ("karta waħda"), so {n} may be left out
            if got != want and not (isinstance(m.id, tuple) and got == want - {"n"}):
                problems.append(f"placeholders {sorted(got)} != {sorted(want)} in {m.id!r} -> {form!r}")
            # an HTML message keeps its tags (the same elements, in any order)
            assert sorted(re.findall(r"</?[a-z]+", form)) == sorted(re.findall(r"</?[a-z]+", source)), (m.id, form)
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_web_and_messages_domains_share_the_plural_rule(lang):
    web, messages = _po(lang), _po(lang, "messages")
    assert web.plural_forms == messages.plural_forms
    assert web_catalog(lang)["plural_forms"] == catalog_json(lang)["plural_forms"]


def test_the_pot_is_what_the_sources_mark(tmp_path):
    """Re-extract with scripts/i18n-web.sh's settings: nothing marked is missing from web.pot."""
    out = tmp_path / "web.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [
            str(pybabel),
            "extract",
            "-F",
            "scripts/i18n-web.cfg",
            "--no-default-keywords",
            "-k",
            "W_",
            "-k",
            "t",
            "-k",
            "tEl",
            "-k",
            "nt:1,2",
            "-k",
            "pt:1c,2",
            "-o",
            str(out),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with open(out, "rb") as f:
        fresh = read_po(f)
    assert _ids(fresh) == _ids(_pot())
    assert len(_ids(fresh)) > 350


def test_messages_domain_strings_read_with_tm_exist_there():
    """tm() in the scripts reads the terminal table's catalog (card and level names, sheet labels)."""
    messages = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in _pot("messages") if m.id}
    used = set()
    for name in SCRIPTS:
        text = (STATIC_DIR / name).read_text(encoding="utf-8")
        used |= {(None, x) for x in re.findall(r'\btm\("((?:[^"\\]|\\.)*)"', text)}
        used |= set(re.findall(r'\bptm\("([^"]*)", "((?:[^"\\]|\\.)*)"', text))
    assert {
        ("card name", "{rank} of {suit}"),
        ("rank", "ace"),
        ("suit", "spades"),
        ("level", "Novice"),
        ("sheet", "Game {number}"),
        ("sheet", "Total"),
        (None, "Score sheet"),
    } <= used
    assert used - messages == set()


@pytest.mark.parametrize("page", PAGES)
def test_every_data_i18n_text_of_the_pages_is_translated(page):
    source = (STATIC_DIR / page).read_text(encoding="utf-8")
    found = [key for _, key, _ in html_messages(source) if key]
    assert len(found) >= 5
    pot = _ids(_pot())
    assert [k for k in found if k not in pot] == []
    same_word = {"fr": {"points", "Points"}}  # the translation is the English word itself
    for lang in TRANSLATED:
        tr = web_translator(lang)
        assert [
            k
            for k in found
            if tr.gettext(k) == k
            and not re.fullmatch(r"[\W\d]*|Hollywood|Oklahoma|Gin|lobby", k)
            and k not in same_word.get(lang, set())
        ] == [], lang


def test_html_key_and_page_translation():
    assert html_key("7&#9827;\n   7&#9830; &amp; <b>x</b>") == "7♣ 7♦ &amp; <b>x</b>"
    src = (
        '<html lang="en"><body><p data-i18n>The\n  basics</p>'
        '<input placeholder="Your hand" data-i18n-attr="placeholder"><p>Pass</p></body></html>'
    )
    assert html_messages(src) == [(1, "The basics", None), (2, "Your hand", "placeholder")]
    el = translate_html(src, web_translator("el"))
    assert el == (
        '<html lang="el"><body><p data-i18n>Τα βασικά</p>'
        '<input placeholder="Το χέρι σου" data-i18n-attr="placeholder"><p>Pass</p></body></html>'
    )
    with pytest.raises(ValueError, match="inside another"):
        html_messages("<p data-i18n><span data-i18n>x</span></p>")


def test_translator_plural_forms_and_numbers():
    mt = web_translator("mt")
    forms = [mt.nt("{n} card", "{n} cards", n) for n in (1, 2, 3, 11, 20)]
    assert forms == ["1 karta", "2 karti", "3 karti", "11 karta", "20 karta"]
    assert web_translator("el").nt("{n} card", "{n} cards", 1) == "1 φύλλο"
    assert web_translator("el").t("Stock: {n}", n=1002) == "Τράπουλα: 1.002"
    assert web_translator("fi").t("Stock: {n}", n=1002) == "Pakka: 1\xa0002"
    es = web_translator("es")
    assert [es.nt("{n} card", "{n} cards", n) for n in (1, 2, 1000000)] == [
        "1 carta",
        "2 cartas",
        "1.000.000 de cartas",
    ]
    assert es.t("Stock: {n}", n=1002) == "Mazo: 1.002"
    assert web_translator("de").t("Stock: {n}", n=1002) == "Stapel: 1.002"
    assert [web_translator("de").nt("{n} card", "{n} cards", n) for n in (1, 2)] == ["1 Karte", "2 Karten"]


# -- over HTTP -----------------------------------------------------------------------------------


def test_pages_follow_accept_language_then_cookie_then_query(client):
    r = client.get("/", headers={"Accept-Language": "sv-SE,el;q=0.8,en;q=0.5"})
    assert r.status_code == 200 and r.headers["content-language"] == "el"
    assert '<html lang="el">' in r.text and "<h1 data-i18n>Άνοιξε τραπέζι</h1>" in r.text
    assert 'src="/api/i18n.js?lang=el"' in r.text
    client.cookies.set("gin_lang", "fi")
    r = client.get("/rules", headers={"Accept-Language": "el"})
    assert r.headers["content-language"] == "fi" and "Näin gin rummya pelataan" in r.text
    r = client.get("/tips?lang=mt", headers={"Accept-Language": "el"})
    assert r.headers["content-language"] == "mt" and "Pariri tal-istrateġija" in r.text
    r = client.get("/rules?lang=es", headers={"Accept-Language": "el"})
    assert r.headers["content-language"] == "es" and "Cómo se juega al gin rummy" in r.text
    client.cookies.clear()
    r = client.get("/scorekeeper", headers={"Accept-Language": "ja, ko"})
    assert r.headers["content-language"] == "en" and "<h1 data-i18n>Scorekeeper</h1>" in r.text


def test_catalog_endpoints(client):
    r = client.get("/api/i18n", headers={"Accept-Language": "fi"})
    data = r.json()
    assert data["lang"] == "fi" and data["name"] == "Suomi" and set(data["languages"]) == set(LANGUAGES)
    assert data["messages"]["Knock"] == "Koputa"
    assert data["messages"]["{n} card"] == ["{n} kortti", "{n} korttia"]
    assert data["messages"]["outcome\u0004undercut"] == "alitus"
    # the messages domain's entries are there too (card names, engine texts) unless the web has its own
    for key in catalog_json("fi")["messages"]:
        assert key in data["messages"]
    mt = client.get("/api/i18n?lang=mt").json()
    assert mt["plural_forms"].startswith("nplurals=5;") and len(mt["messages"]["{n} card"]) == 5
    assert client.get("/api/i18n?lang=en").json()["messages"] == {}
    js = client.get("/api/i18n.js?lang=el")
    assert js.headers["content-type"].startswith("text/javascript")
    assert js.text.startswith("window.GIN_I18N = {") and '"Τράπουλα"' in js.text


def test_api_errors_and_default_names_in_the_request_language(client):
    r = client.post(
        "/api/tables",
        json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "grandmaster"}]},
        headers={"Accept-Language": "fi"},
    )
    assert r.status_code == 400
    levels = "random, novice, club, expert, master, ismcts" + (
        ", openspiel-simple" if "openspiel-simple" in player_levels() else ""
    )
    assert r.json()["error"] == f"paikka 2: tuntematon tietokoneen taso 'grandmaster'; tasot: {levels}"
    r = client.post("/api/sheet", json={"names": "Ann"}, headers={"Accept-Language": "el"})
    assert r.json()["error"] == "το names πρέπει να είναι λίστα 2 (ή 3) μη κενών ονομάτων"
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}, headers={"Accept-Language": "el"}
    )
    assert [s["name"] for s in r.json()["seats"]] == ["Παίκτης 1", "Παίκτης 2"]
    r = client.post(
        "/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "novice"}]}
    )
    assert r.json()["seats"][1]["name"] == "Computer (novice)"  # English stays as it was


# -- over the WebSocket --------------------------------------------------------------------------


def test_websocket_errors_in_the_seat_language_and_set_lang(client):
    table = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    tok = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/table/{table['id']}?seat={tok}&lang=el") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text("not json")
        err = ws.receive_json()
        assert err["code"] == "bad_json"
        assert err["message"] == (
            "το μήνυμα δεν είναι έγκυρο JSON· στείλε ένα αντικείμενο JSON όπως "
            '{"type": "action", "action": "draw stock"}'
        )
        ws.send_json({"type": "suggest", "text": "x", "id": 1})
        err = ws.receive_json()
        assert err["code"] == "not_allowed" and err["reply_to"] == 1
        assert err["message"] == "μόνο ο παίκτης που μένει εκτός συμβουλεύει τον αρχηγό (R10.2)"
        ws.send_json({"type": "set_lang", "lang": "mt", "id": 2})
        assert ws.receive_json() == {"type": "lang", "lang": "mt", "reply_to": 2}
        ws.send_json({"type": "next_deal", "id": 3})
        err = ws.receive_json()
        assert err["code"] == "illegal"
        assert err["message"] == web_translator("mt").gettext("the deal is not over yet")
        ws.send_json({"type": "set_lang", "lang": "sv"})
        err = ws.receive_json()
        assert err["message"] == 'messaġġ set_lang jeħtieġ "lang": wieħed minn en, el, fi, mt, fr, es, de'
    # a bad token is refused in the language of the handshake (cookie, then Accept-Language)
    with client.websocket_connect(f"/ws/table/{table['id']}?seat=nope", headers={"Accept-Language": "fi"}) as ws:
        err = ws.receive_json()
        assert err["code"] == "bad_token" and err["message"] == "tämän linkin paikkatunnus ei kelpaa tähän pöytään"


def test_out_of_turn_names_the_player_to_act_in_the_seat_language(client):
    """An out-of-turn action keeps the code not_your_turn and names who is to act (R4.1)."""
    table = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    tobj = client.app.state.manager.tables[table["id"]]
    waiting = 1 - tobj.match.player_to_act()
    to_act = tobj.names[1 - waiting]
    tok = table["seats"][waiting]["token"]
    want = {
        "en": f"it is {to_act}'s turn",
        "el": f"σειρά έχει {to_act}",  # no "ο/η" before a name (issue 34)
        "fi": f"on pelaajan {to_act} vuoro",
        "mt": f"imiss lil {to_act}",
        "es": f"le toca a {to_act}",
        "de": f"{to_act} ist am Zug",
    }
    for lang, text in want.items():
        with client.websocket_connect(f"/ws/table/{table['id']}?seat={tok}&lang={lang}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "action", "action": "pass", "id": 7})
            err = ws.receive_json()
            assert err == {"type": "error", "code": "not_your_turn", "message": text, "reply_to": 7}, lang
    assert tobj.seq == 3  # the two client seeds and the deal


def test_websocket_default_is_english(client):
    table = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    tok = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/table/{table['id']}?seat={tok}") as ws:
        ws.receive_json()
        ws.send_json({"type": "frobnicate"})
        assert ws.receive_json()["message"] == (
            "unknown message type 'frobnicate'; types: "
            "action, next_deal, client_seed, suggest, chat, rematch, resign, claim, hint, review, sync, ping, set_lang"
        )


@pytest.mark.parametrize("domain", ["web", "messages"])
def test_greek_names_a_player_without_a_gendered_slash(domain):
    """Issue 34: "Ο/Η Υπολογιστής" (and "του/της", "τον/την", "στον/στην") read badly before
    every name, the computer's too; the sentences are worded so that a name needs no article."""
    slashed = re.compile(r"\b(ο/η|του/της|τον/την|στον/στην|ο/η)\b", re.IGNORECASE)
    found = []
    for m in _po("el", domain):
        if not m.id:
            continue
        for s in m.string if isinstance(m.string, tuple) else (m.string,):
            if s and slashed.search(s):
                found.append(s)
    assert found == []
    cat = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in _po("el", "web") if m.id}
    if domain == "web":
        assert cat["{name} wins the match!"] == "{name} κερδίζει τον αγώνα!"
        assert cat["Undercut! {defender} beats {knocker}"] == "Ανατροπή! Κερδίζει {defender}, χάνει {knocker}"
