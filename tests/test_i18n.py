"""Tests of the translation layer (ginrummy.i18n), the shipped catalogs, and ``gin play`` in
Greek, Finnish, Maltese, French, Spanish and German.

The catalogs must be complete (no untranslated or fuzzy entry), each translation must have
exactly the placeholders of its source, the compiled .mo files must say what the .po files
say, and the template must hold every message the sources mark.  Engine errors keep their
English ``str()`` and carry a key and parameters that translate (R1.4 card text stays as
typed; the rule numbers cited in messages stay as they are).
"""

from __future__ import annotations

import io
import pickle
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from ginrummy.actions import Action, parse_action
from ginrummy.cards import parse_card
from ginrummy.cli import render as R
from ginrummy.cli.main import main
from ginrummy.deal import new_deal
from ginrummy.errors import N_, CardParseError, GinRummyError, IllegalActionError, Msg, RuleSetError
from ginrummy.i18n import (
    LANGUAGES,
    Translator,
    catalog_json,
    lang_from_accept_language,
    lang_from_env,
    normalize,
    placeholders,
    translate_error,
    translator,
)
from ginrummy.rules import make_rules

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "ginrummy" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None, "gettext": None,
            "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def entries(cat):
    return [m for m in cat if m.id]


# -- the catalogs -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_complete_no_fuzzy(lang):
    cat = catalog(lang)
    msgs = entries(cat)
    assert len(msgs) > 200
    untranslated = [m.id for m in msgs if not (all(m.string) if m.pluralizable else m.string)]
    fuzzy = [m.id for m in msgs if m.fuzzy]
    assert untranslated == [] and fuzzy == []
    assert not cat.fuzzy  # the header is not fuzzy either


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_match_source(lang):
    bad = []
    for m in entries(catalog(lang)):
        if m.pluralizable:
            want = placeholders(m.id[1])
            assert placeholders(m.id[0]) == want or set(placeholders(m.id[0])) <= set(want)
            forms = list(m.string)
        else:
            want = placeholders(m.id)
            forms = [m.string]
        for form in forms:
            if placeholders(form) != want:
                bad.append((m.id, form))
    assert bad == []


def test_placeholders_helper():
    assert placeholders("{n!r} x {name} {{literal}} {v:>3}") == ["n!r", "name", "v:>3"]


@pytest.mark.parametrize(("lang", "nplurals"), [("el", 2), ("fi", 2), ("mt", 5), ("fr", 3), ("es", 3), ("de", 2)])
def test_plural_forms_header_and_form_count(lang, nplurals):
    cat = catalog(lang)
    assert cat.num_plurals == nplurals
    for m in entries(cat):
        if m.pluralizable:
            assert len(m.string) == nplurals, m.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_mo_says_what_the_po_says(lang):
    tr = Translator(lang)
    for m in entries(catalog(lang)):
        if m.pluralizable:
            continue
        got = tr.pgettext(m.context, m.id) if m.context else tr.gettext(m.id)
        assert got == m.string, m.id


def test_template_holds_every_marked_message():
    """The sources mark no message that the template (and so the catalogs) lacks."""
    found = set()
    for _fn, _line, msg, _comments, ctx in extract_from_dir(
            str(ROOT / "src" / "ginrummy"), method_map=[("**.py", "python")], keywords=KEYWORDS):
        found.add((ctx, msg if isinstance(msg, str) else tuple(msg)[0]))
    with open(LOCALE / "messages.pot", "rb") as f:
        pot = read_po(f)
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in entries(pot)}
    assert found - have == set()
    for lang in TRANSLATED:
        assert {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in entries(catalog(lang))} >= found


# -- choosing the language ------------------------------------------------------------------------


@pytest.mark.parametrize(("tag", "code"), [
    ("el_GR.UTF-8", "el"), ("el-GR", "el"), ("EL", "el"), ("fi_FI@euro", "fi"), ("mt_MT.UTF-8", "mt"),
    ("es_ES.UTF-8", "es"), ("es-419", "es"),
    ("en_GB", "en"), ("C", "en"), ("C.UTF-8", "en"), ("POSIX", "en"), ("de_DE.UTF-8", "de"), ("sv_SE", None), ("", None), (None, None),
])
def test_normalize(tag, code):
    assert normalize(tag) == code


@pytest.mark.parametrize(("env", "code"), [
    ({"LANG": "el_GR.UTF-8"}, "el"),
    ({"LANG": "fi_FI.UTF-8", "LC_ALL": "mt_MT.UTF-8"}, "mt"),      # LC_ALL wins over LANG
    ({"LANG": "el_GR.UTF-8", "LC_MESSAGES": "fi_FI"}, "fi"),        # LC_MESSAGES over LANG
    ({"LANGUAGE": "sv:fi", "LANG": "el_GR.UTF-8"}, "fi"),           # LANGUAGE list first
    ({"LANGUAGE": "sv", "LANG": "mt_MT"}, "mt"),                    # unsupported LANGUAGE entries skipped
    ({"LANG": "sv_SE.UTF-8"}, "en"),                                # unknown language: English
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
])
def test_lang_from_env(env, code):
    assert lang_from_env(env) == code


@pytest.mark.parametrize(("header", "code"), [
    ("el-GR,el;q=0.9,en;q=0.8", "el"),
    ("fi-FI,fi;q=0.9", "fi"),
    ("sv, mt;q=0.5, en;q=0.4", "mt"),
    ("es-MX,es;q=0.9,en;q=0.5", "es"),
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("en;q=0.5, el;q=0.9", "el"),        # by weight, not by order
    ("fi;q=0, el;q=0.1", "el"),          # q=0 means not acceptable
    ("*", "en"), ("sv-SE", "en"), ("", "en"), (None, "en"), ("el;q=bad, fi", "fi"),
])
def test_lang_from_accept_language(header, code):
    assert lang_from_accept_language(header) == code


def test_translator_rejects_unknown_code_and_shared_translators_fall_back():
    with pytest.raises(ValueError, match="unknown language 'sv'"):
        Translator("sv")
    assert translator("sv_SE").lang == "en"
    assert translator("el_GR.UTF-8") is translator("el")


# -- plural forms and numbers ---------------------------------------------------------------------


def test_maltese_plural_forms_follow_cldr():
    tr = Translator("mt")
    said = {n: tr.n_("{name} holds {n} card", "{name} holds {n} cards", n, name="X") for n in (1, 2, 3, 10, 11, 19, 20, 101, 111, 0)}
    assert said[1] == "X: 1 karta f'idejh"
    assert said[2] == "X: 2 karti f'idejh"
    assert said[3] == said[10].replace("10", "3") == "X: 3 karti f'idejh"
    assert said[0] == "X: 0 karti f'idejh"
    assert said[11] == "X: 11-il karta f'idejh" and said[19] == "X: 19-il karta f'idejh"
    assert said[111] == "X: 111-il karta f'idejh"
    assert said[20] == "X: 20 karta f'idejh" and said[101] == "X: 101 karta f'idejh"


def test_french_plural_forms_follow_cldr():
    """French (CLDR): 0 and 1 are singular; a whole million takes "de" ("many")."""
    tr = Translator("fr")
    said = {n: tr.n_("{name} holds {n} card", "{name} holds {n} cards", n, name="X") for n in (0, 1, 2, 10, 1000000)}
    assert said[0] == "X a 0 carte" and said[1] == "X a 1 carte"
    assert said[2] == "X a 2 cartes" and said[10] == "X a 10 cartes"
    assert said[1000000] == "X a 1\u202f000\u202f000 de cartes"
def test_spanish_plural_forms_follow_cldr():
    """CLDR's Spanish has three forms: one (1), many (a million, 2 million...: "de" before the
    noun) and other."""
    tr = Translator("es")
    said = {n: tr.n_("{name} holds {n} card", "{name} holds {n} cards", n, name="X") for n in (0, 1, 2, 10, 1000000)}
    assert said == {0: "X tiene 0 cartas", 1: "X tiene 1 carta", 2: "X tiene 2 cartas", 10: "X tiene 10 cartas",
                    1000000: "X tiene 1.000.000 de cartas"}
    assert tr.n_("Your hand: {n} card, deadwood {deadwood}", "Your hand: {n} cards, deadwood {deadwood}", 10,
                 deadwood=5) == "Tu mano: 10 cartas, sueltas 5"


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "Your hand: 1 card, deadwood 5", "Your hand: 10 cards, deadwood 5"),
    ("el", "Το χέρι σου: 1 φύλλο, ασυνδύαστα 5", "Το χέρι σου: 10 φύλλα, ασυνδύαστα 5"),
    ("fi", "Kätesi: 1 kortti, irtopisteet 5", "Kätesi: 10 korttia, irtopisteet 5"),
    ("fr", "Votre main : 1 carte, points morts 5", "Votre main : 10 cartes, points morts 5"),
    ("de", "Dein Blatt: 1 Karte, Restpunkte 5", "Dein Blatt: 10 Karten, Restpunkte 5"),
])
def test_two_form_plurals(lang, one, many):
    tr = Translator(lang)
    msg = ("Your hand: {n} card, deadwood {deadwood}", "Your hand: {n} cards, deadwood {deadwood}")
    assert tr.n_(*msg, 1, deadwood=5) == one
    assert tr.n_(*msg, 10, deadwood=5) == many


@pytest.mark.parametrize(("lang", "big", "half"), [
    ("en", "1002", "0.5"), ("el", "1.002", "0,5"), ("fi", "1\xa0002", "0,5"), ("mt", "1,002", "0.5"),
    ("fr", "1\u202f002", "0,5"),
    ("es", "1.002", "0,5"),
    ("de", "1.002", "0,5"),
])
def test_number_format_follows_language(lang, big, half):
    tr = Translator(lang)
    assert tr.format_number(1002) == big and tr.format_number(0.5) == half
    # numbers put into messages are formatted; a number given as str (a seed) stays as typed
    assert tr._("Deal {number}", number=1002).endswith(big)
    assert tr._("Seed {seed} (replay with --seed {seed}).", seed="123456789").count("123456789") == 2


def test_broken_translation_placeholders_fall_back_to_english():
    tr = Translator("el")
    assert tr._fill("{nope} σφάλμα", "Deal {number}", {"number": 3}) == "Deal 3"


# -- engine errors --------------------------------------------------------------------------------


def test_errors_keep_english_text_and_carry_key_and_params():
    with pytest.raises(CardParseError) as info:
        parse_card("zz")
    exc = info.value
    assert str(exc) == "not a card: 'zz' (write rank A 2-9 T/10 J Q K then suit C D H S, e.g. AS, TD, 10H)"
    assert exc.key == "not a card: {text!r} (write rank A 2-9 T/10 J Q K then suit C D H S, e.g. AS, TD, 10H)"
    assert exc.params == {"text": "zz"}
    assert exc.key.format(**exc.params) == str(exc)
    # an error without a key still works, and translate_error falls back to its text
    plain = GinRummyError("something odd")
    assert plain.key is None and plain.params == {}
    assert translate_error(plain, Translator("el")) == "something odd"
    assert translate_error(ValueError("x"), Translator("fi")) == "x"


def test_msg_and_errors_survive_pickling():
    m = N_("card {card} is given twice", card="7H")
    assert pickle.loads(pickle.dumps(m)) == m and pickle.loads(pickle.dumps(m)).key == m.key
    exc = IllegalActionError(N_("deadwood {deadwood} is above the knock limit {limit} (R5.1)", deadwood=12, limit=10),
                             "knock 7H", ["discard 7H"])
    back = pickle.loads(pickle.dumps(exc))
    assert str(back) == "deadwood 12 is above the knock limit 10 (R5.1)"
    assert back.action == "knock 7H" and back.legal == ["discard 7H"]


@pytest.mark.parametrize(("lang", "expect"), [
    ("en", "not a card: 'zz' (write rank A 2-9 T/10 J Q K then suit C D H S, e.g. AS, TD, 10H)"),
    ("el", "δεν είναι φύλλο: 'zz' (γράψε αξία A 2-9 T/10 J Q K και μετά χρώμα C D H S, π.χ. AS, TD, 10H)"),
    ("fi", "ei kortti: 'zz' (kirjoita arvo A 2-9 T/10 J Q K ja sitten maa C D H S, esim. AS, TD, 10H)"),
    ("mt", "mhix karta: 'zz' (ikteb il-valur A 2-9 T/10 J Q K u mbagħad is-seme C D H S, eż. AS, TD, 10H)"),
    ("fr", "pas une carte : 'zz' (écrivez la valeur A 2-9 T/10 J Q K puis la couleur C D H S, p. ex. AS, TD, 10H)"),
    ("es", "no es una carta: 'zz' (escribe el valor A 2-9 T/10 J Q K y luego el palo C D H S, p. ej. AS, TD, 10H)"),
    ("de", "keine Karte: 'zz' (Rang A 2-9 T/10 J Q K, dann Farbe C D H S, z. B. AS, TD, 10H)"),
])
def test_card_error_translated(lang, expect):
    with pytest.raises(CardParseError) as info:
        parse_card("zz")
    assert translate_error(info.value, Translator(lang)) == expect


def test_nested_error_is_translated_inside_the_outer_one():
    with pytest.raises(IllegalActionError) as info:
        parse_action("knock 7H 8H")
    assert str(info.value).startswith("bad action 'knock 7H 8H': name exactly one card; actions: ")
    with pytest.raises(IllegalActionError) as info:
        parse_action("discard zz")
    el = translate_error(info.value, Translator("el"))
    assert el.startswith("λάθος κίνηση 'discard zz': δεν είναι φύλλο: 'zz' (γράψε αξία")
    assert el.endswith("· κινήσεις: take upcard | pass | draw stock | take discard | discard CARD | knock CARD | gin CARD | big gin")


def test_deal_rejection_translated_with_its_reason():
    """A discard at the upcard offer (R4.2) is refused; the reason inside is translated too."""
    deal = new_deal(make_rules("standard"), 0, list(range(52)))
    with pytest.raises(IllegalActionError) as info:
        deal.apply(deal.to_act, Action("discard", parse_card("7H")))
    exc = info.value
    assert str(exc).startswith("discard 7H is not legal now (the upcard offer: take upcard or pass (R4.2)); legal: ")
    fi = translate_error(exc, Translator("fi"))
    assert fi.startswith("discard 7H ei ole nyt sallittu (avauskortin tarjous: ota avauskortti tai passaa (R4.2)); sallitut: ")


def test_rule_errors_keep_repr_of_values():
    with pytest.raises(RuleSetError) as info:
        make_rules("standard", ["knock_limit=11"])
    assert str(info.value) == "rule knock_limit=11 is out of range; allowed: 0..10"
    assert translate_error(info.value, Translator("mt")) == \
        "ir-regola knock_limit=11 hija barra mil-limiti; permess: 0..10"
    assert isinstance(info.value.args[0], Msg)


# -- the catalog for the browser ------------------------------------------------------------------


def test_catalog_json_shape():
    el = catalog_json("el")
    assert el["lang"] == "el" and el["name"] == "Ελληνικά"
    assert set(el["languages"]) == set(LANGUAGES)
    assert el["plural_forms"] == "nplurals=2; plural=(n != 1);"
    assert el["number"] == {"decimal": ",", "group": "."}
    assert el["messages"]["Knock limit {limit}"] == "Όριο χτυπήματος {limit}"
    assert el["messages"]["suit\x04hearts"] == "κούπα"
    assert el["messages"]["{name} holds {n} card"] == ["{name}: {n} φύλλο στο χέρι", "{name}: {n} φύλλα στο χέρι"]
    assert len(el["messages"]) == len(entries(catalog("el")))
    mt = catalog_json("mt")
    assert mt["plural_forms"].startswith("nplurals=5;")
    assert len(mt["messages"]["{name} holds {n} card"]) == 5
    es = catalog_json("es")
    assert es["name"] == "Español" and es["number"] == {"decimal": ",", "group": "."}
    assert es["plural_forms"] == "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);"
    assert es["messages"]["suit\x04hearts"] == "corazones"
    assert catalog_json("en")["messages"] == {}
    with pytest.raises(ValueError):
        catalog_json("xx")


# -- the terminal table ---------------------------------------------------------------------------


@pytest.fixture
def plain(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def run_play(monkeypatch, capsys, args, lines):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


# English words of the table that must not be left on a translated screen (the commands a
# person types, card codes like 7H and the rule numbers are the same in every language)
ENGLISH = re.compile(r"\b(Deal|Dealer|Stock|discard pile|Your hand|hand|deadwood|Legal|Knock limit|Score sheet|"
                     r"Points|Rules|Seed|knocked|scores|score|You|quit the match|the match|Type|Totals|wins|Game)\b")


def screen_lines(out: str) -> list[str]:
    """The lines the program wrote, without the echoed input and the hint player's reasons
    (they come from the computer players, which speak English)."""
    keep = []
    for line in out.splitlines():
        if re.match(r"^\S+> ", line) or line.startswith(("Αυτόματα:", "Automaattisesti:", "Awtomatiku:", "Auto :", "Auto:")):
            continue
        if line.startswith(("  s, draw", "  t, take", "  u, take", "  p, pass", "  k 7H", "  g 7H", "  big gin")):
            continue  # the help lists the typed commands first
        keep.append(line)
    return keep


@pytest.mark.parametrize(("lang", "you", "over"), [
    ("el", "Εσύ", "══ Ο αγώνας τελείωσε ══"),
    ("fi", "Sinä", "══ Ottelu on päättynyt ══"),
    ("mt", "Int", "══ Il-partita spiċċat ══"),
    ("fr", "Vous", "══ Le match est terminé ══"),
    ("es", "Tú", "══ Fin del encuentro ══"),
    ("de", "Du", "══ Das Match ist vorbei ══"),
])
def test_whole_match_in_a_language_leaves_no_english(monkeypatch, capsys, plain, lang, you, over):
    """A whole match (seed 18, standard rules: gin R6.1 and undercut R6.3 both occur) played
    with auto, plus help, a bad card, a bad command and the pile, in the language."""
    status, out, err = run_play(monkeypatch, capsys, ["--lang", lang, "--seed", "18"],
                                ["help", "zz", "1h", "pile", "sheet"] + ["auto"] * 400 + [""] * 20)
    assert status == 0 and err == ""
    assert over in out
    lines = screen_lines(out)
    same = {"fr": {"Points"}}.get(lang, set())  # the same word in the language ("Points" in French)
    leftovers = [line for line in lines if any(m.group() not in same for m in ENGLISH.finditer(line))]
    assert leftovers == []
    assert f"{you}> " in out


def test_final_line_and_numbers_in_greek(monkeypatch, capsys, plain):
    """Hollywood (R12), seed 14: Computer (novice) wins all three games, 1002 to 328; Greek groups
    thousands with a dot."""
    status, out, _ = run_play(monkeypatch, capsys, ["--lang", "el", "--preset", "hollywood", "--seed", "14"],
                              ["auto"] * 600 + [""] * 20)
    assert status == 0
    assert out.rstrip().splitlines()[-1] == \
        ("Τον αγώνα κερδίζει: Υπολογιστής (αρχάριος) (3 παρτίδες από 3). Σύνολα: Εσύ 328, "
         "Υπολογιστής (αρχάριος) 1.002.")


def test_language_from_environment_and_unknown_lang(monkeypatch, capsys, plain):
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert status == 0 and "Lopetit ottelun." in out and "── Jako 1 ──" in out
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")  # not supported: English
    status, out, _ = run_play(monkeypatch, capsys, ["--seed", "3"], ["quit"])
    assert status == 0 and "You quit the match." in out
    status, out, err = run_play(monkeypatch, capsys, ["--lang", "sv", "--seed", "3"], [])
    assert status == 2 and out == ""
    assert err == "gin: error: --lang sv is not a supported language; languages: en, el, fi, mt, fr, es, de\n"


def test_bad_options_are_said_in_the_language(monkeypatch, capsys, plain):
    status, out, err = run_play(monkeypatch, capsys, ["--lang", "el", "--set", "knock_limit=11"], [])
    assert status == 2 and out == ""
    assert err == "gin: error: ο κανόνας knock_limit=11 είναι εκτός ορίων· επιτρέπονται: 0..10\n"
    status, _, err = run_play(monkeypatch, capsys, ["--lang", "mt", "--players", "4"], [])
    assert status == 2 and err == "gin: error: --players 4 mhux permess; permess: 2, 3 (R10)\n"


def test_refused_move_explained_in_finnish(monkeypatch, capsys, plain):
    """A discard at the upcard offer (R4.2) and a knock before drawing (R4.1, R5.1)."""
    status, out, _ = run_play(monkeypatch, capsys, ["--lang", "fi", "--seed", "3"], ["discard 7H", "k", "quit"])
    assert status == 0
    assert "✗ discard 7H ei ole nyt sallittu (avauskortin tarjous: ota avauskortti tai passaa (R4.2))" in out
    assert "Nyt sallitut: ota avauskortti (u); passaa (p)" in out
    assert "✗ et voi koputtaa nyt: nosta ensin kortti (R4.1, R5.1)" in out


def test_card_and_suit_names():
    assert R.card_name(parse_card("7H")) == "7 of hearts"
    assert R.card_name(parse_card("QS"), Translator("el")) == "ντάμα μπαστούνι"
    assert R.card_name(parse_card("AC"), Translator("fi")) == "risti ässä"
    assert R.card_name(parse_card("KD"), Translator("mt")) == "re ta' dijamanti"
    assert R.card_name(parse_card("QS"), Translator("fr")) == "dame de pique"
    assert R.card_name(parse_card("QS"), Translator("es")) == "reina de picas"
    assert R.card_name(parse_card("QS"), Translator("de")) == "Pik-Dame"
    assert R.is_you("Εσύ", Translator("el")) and R.is_you("you") and not R.is_you("Ann", Translator("fi"))


def test_german_level_names_keep_their_capitals(monkeypatch, capsys, plain):
    """German writes every noun with a capital, in running text too: "Computer (Anfänger)",
    not "Computer (anfänger)" as the lower-casing for el/fi/mt would make it."""
    from ginrummy.i18n import NOUNS_CAPITALIZED, level_in_text

    assert NOUNS_CAPITALIZED == frozenset({"de"})
    assert level_in_text("novice", Translator("de")) == "Anfänger"
    assert level_in_text("novice", Translator("fi")) == "aloittelija"
    assert level_in_text("novice") == "novice"
    status, out, _ = run_play(monkeypatch, capsys, ["--lang", "de", "--seed", "3", "--opponent", "club"], ["quit"])
    assert status == 0
    assert out.splitlines()[0] == "Gin Rummy: Du gegen Computer (Clubspieler)"


def test_lang_options_name_every_language():
    """The --lang help of gin play and gin puzzles play lists LANGUAGES itself, German too."""
    import inspect

    from ginrummy.cli.play import play
    from ginrummy.cli.puzzles import play_command

    for command in (play, play_command):
        said = inspect.signature(command).parameters["lang"].default.help
        assert ", ".join(LANGUAGES) in said and re.search(r"\bde\b", said), said
