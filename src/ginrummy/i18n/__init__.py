"""The translation layer: every user-facing string of the terminal table, the CLI and the
engine's error messages goes through it, in English (the source), Greek (``el``), Finnish
(``fi``), Maltese (``mt``) or Spanish (``es``).

The catalogs are gettext catalogs managed with Babel (``scripts/i18n.sh``: extract ->
update -> compile); the compiled ``.mo`` files ship in the package under
``ginrummy/locale/<lang>/LC_MESSAGES/messages.mo``.  There is no global state: a
:class:`Translator` is made for one language and passed to whatever renders text.

Public API:

* :data:`LANGUAGES` - the supported language codes, the source language first.
* :class:`Translator` - ``Translator("el")``: ``gettext``/``ngettext``/``pgettext``, ``_``
  (translate and fill ``{placeholders}``), ``n_`` (plural form for a count), ``p_`` (with a
  context), and
  ``format_number`` (CLDR number format of the language, via ``babel.numbers``).
* :func:`translator` - the (cached) translator of a language code.
* :func:`translate_error` - an engine error (key + params, see :class:`ginrummy.errors.Msg`)
  in the translator's language; falls back to ``str(exc)``.
* :func:`normalize` - a language tag (``el_GR.UTF-8``, ``fi-FI``, ``C``) to a supported code
  or ``None``.
* :func:`lang_from_env` - the language of the ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``
  environment (the terminal), English when none is supported.
* :func:`lang_from_accept_language` - the language of an HTTP ``Accept-Language`` header
  (the browser), English when none is supported.
* :func:`catalog_json` - a language's catalog as a JSON-ready dict for the browser.

Message keys are the English source strings (gettext msgids) with ``{name}`` placeholders;
the engine's error keys are made with :func:`ginrummy.errors.N_`.  Extraction keywords (see
``babel.cfg`` and ``scripts/i18n.sh``): ``N_``, ``_``, ``n_:1,2``, ``p_:1c,2``, ``gettext``,
``ngettext:1,2``, ``pgettext:1c,2``.
"""

from __future__ import annotations

import os
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol
from babel.support import NullTranslations, Translations

from ..errors import GinRummyError, Msg

__all__ = [
    "LANGUAGES",
    "SOURCE",
    "LANGUAGE_NAMES",
    "Translator",
    "translator",
    "translate_error",
    "normalize",
    "lang_from_env",
    "lang_from_accept_language",
    "catalog_json",
    "placeholders",
    "level_name",
    "level_in_text",
    "NOUNS_CAPITALIZED",
]

SOURCE = "en"
"""The source language: the msgids are English."""

LANGUAGES: tuple[str, ...] = ("en", "el", "fi", "mt", "fr", "es", "de")
"""The supported languages, the source first."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "el": "Ελληνικά",
    "fi": "Suomi",
    "mt": "Malti",
    "fr": "Français",
    "es": "Español",
    "de": "Deutsch",
}
"""Each language's name in that language (for a language switcher)."""

DOMAIN = "messages"

# The source language formats numbers the way the engine prints them (no grouping), so the
# English terminal table and everything that parses it stay as they were; the translations
# follow their language's CLDR number format ("1.002" in Greek, "1 002" in Finnish).
_NUMBER_LOCALE = {"en": "en_US_POSIX"}


def _locale_dir() -> str:
    return str(resources.files("ginrummy") / "locale")


def normalize(tag: str | None) -> str | None:
    """The supported language code of a language tag or POSIX locale name, or ``None``.

    ``"el_GR.UTF-8"``, ``"el-GR"``, ``"EL"`` -> ``"el"``; ``"en_GB"`` -> ``"en"``; ``"C"``,
    ``"POSIX"`` -> ``"en"`` (the C locale speaks the source language); ``"de_DE"``, ``""``,
    ``"*"`` -> ``None``.
    """
    if not tag:
        return None
    tag = tag.strip()
    base = tag.split(".", 1)[0].split("@", 1)[0]
    if base in ("C", "POSIX"):
        return SOURCE
    primary = base.replace("-", "_").split("_", 1)[0].lower()
    return primary if primary in LANGUAGES else None


def lang_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: the first supported one of ``LANGUAGE`` (a colon-separated
    list of preferences, as GNU gettext reads it), then the locale in force for messages
    (the first set of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English when none is supported.

    ``environ`` defaults to ``os.environ``.
    """
    env = os.environ if environ is None else environ
    candidates = [c for c in env.get("LANGUAGE", "").split(":") if c]
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            candidates.append(env[var])
            break
    for c in candidates:
        code = normalize(c)
        if code is not None:
            return code
    return SOURCE


def lang_from_accept_language(header: str | None) -> str:
    """The best supported language of an HTTP ``Accept-Language`` header (RFC 9110 12.5.4):
    tags in order of their ``q`` weight (default 1, ties keep the header's order), ``q=0``
    and ``*`` ignored, a region ignored (``fi-FI`` is ``fi``).  English when none matches or
    the header is missing or malformed.

    ``"fi-FI,fi;q=0.9,en;q=0.8"`` -> ``"fi"``; ``"sv, el;q=0.5"`` -> ``"el"``.
    """
    if not header:
        return SOURCE
    prefs: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        fields = [f.strip() for f in part.split(";")]
        tag = fields[0]
        q = 1.0
        for f in fields[1:]:
            if f.lower().startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            prefs.append((-q, i, tag))
    for _, _, tag in sorted(prefs):
        code = normalize(tag) if tag not in ("C", "POSIX") else None
        if code is not None:
            return code
    return SOURCE


def placeholders(text: str) -> list[str]:
    """The ``{...}`` replacement fields of a message, sorted (``"{n!r} x {name}"`` ->
    ``["n!r", "name"]``); literal ``{{``/``}}`` are not fields.  Used to check that a
    translation has exactly its source's placeholders."""
    out = []
    for _, field, spec, conv in string.Formatter().parse(text):
        if field is not None:
            out.append(field + (f"!{conv}" if conv else "") + (f":{spec}" if spec else ""))
    return sorted(out)


class Translator:
    """The messages of one language.

    ``Translator("el")`` loads ``ginrummy/locale/el/LC_MESSAGES/messages.mo``; the source
    language (and a language whose catalog is missing) uses the msgids themselves.  Raises
    ``ValueError`` for a code that is not in :data:`LANGUAGES`.

    Attributes:
        lang: the language code.
        translations: the ``babel.support.Translations`` (or ``NullTranslations``) in use.
    """

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGUAGES)}")
        self.lang = lang
        if lang == SOURCE:
            self.translations: NullTranslations = NullTranslations()
        else:
            t = Translations.load(_locale_dir(), [lang], DOMAIN)
            self.translations = t if isinstance(t, Translations) else NullTranslations()
        self._number_locale = _NUMBER_LOCALE.get(lang, lang)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    # -- plain gettext ----------------------------------------------------------------------

    def gettext(self, message: str) -> str:
        """``message`` (a msgid) in this language."""
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for the count ``n``, by this language's plural
        rule (Maltese has five forms, Spanish three, Greek and Finnish two)."""
        return self.translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in the sense given by ``context`` (a msgctxt)."""
        said = self.translations.pgettext(context, message)  # babel annotates it ``str | object``
        return said if isinstance(said, str) else message

    # -- with placeholders -----------------------------------------------------------------

    def format_number(self, n: int | float) -> str:
        """``n`` in this language's number format (``babel.numbers.format_decimal``):
        ``1002`` is ``"1002"`` in English, ``"1.002"`` in Greek, ``"1\\xa0002"`` in Finnish;
        ``0.5`` is ``"0,5"`` in Greek and Finnish.  A number beyond babel's decimal precision
        (28 digits, e.g. a 50-digit score someone typed) is given in plain digits."""
        try:
            return format_decimal(n, locale=self._number_locale)
        except ArithmeticError:  # decimal.InvalidOperation: too many digits to round
            return str(n)

    def _fill(self, translated: str, source: str, params: dict[str, Any]) -> str:
        formatter = _NumberFormatter(self)
        try:
            return formatter.vformat(translated, (), params)
        except (KeyError, IndexError, ValueError, AttributeError):
            return formatter.vformat(source, (), params)

    def _(self, message: str, /, **params: Any) -> str:
        """``message`` translated, its ``{name}`` placeholders filled from ``params`` (numbers
        in this language's format; pass a number as ``str`` to keep it as typed, e.g. a seed).
        A translation with broken placeholders falls back to the English."""
        return self._fill(self.gettext(message), message, params)

    def n_(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The plural form of ``singular``/``plural`` for ``n``, filled from ``params`` and
        ``n`` itself (as ``{n}``)."""
        params.setdefault("n", n)
        return self._fill(self.ngettext(singular, plural, n), singular if n == 1 else plural, params)

    def p_(self, context: str, message: str, /, **params: Any) -> str:
        """:meth:`_` with a message context."""
        return self._fill(self.pgettext(context, message), message, params)


class _NumberFormatter(string.Formatter):
    """``str.format`` that writes a plain ``{n}`` number in the translator's number format
    (``{n!r}`` keeps the value's repr, as the engine's messages show it)."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion is None and isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.tr.format_number(value)
        return super().convert_field(value, conversion)


def translator(lang: str | None = None) -> Translator:
    """The shared (read-only) :class:`Translator` of ``lang`` (a code or tag; unsupported or
    ``None`` -> English): one per language, loaded once."""
    return _shared(normalize(lang) or SOURCE)


@cache
def _shared(code: str) -> Translator:
    return Translator(code)


def _param(value: Any, tr: Translator) -> Any:
    if isinstance(value, GinRummyError):
        return translate_error(value, tr)
    if isinstance(value, Msg):
        return tr._(value.key, **{k: _param(v, tr) for k, v in value.params.items()})
    return value


def translate_error(exc: BaseException | Msg | str, tr: Translator) -> str:
    """An error's message in ``tr``'s language.

    A :class:`~ginrummy.errors.GinRummyError` with a ``key`` (or a :class:`Msg`) is looked up
    and filled with its ``params`` (messages inside them translated too, numbers in the
    language's format); anything else, or a key with no usable translation, gives ``str(exc)``.
    """
    key = getattr(exc, "key", None)
    if not key:
        return str(exc)
    params = {k: _param(v, tr) for k, v in getattr(exc, "params", {}).items()}
    try:
        return tr._(key, **params)
    except (KeyError, IndexError, ValueError):
        return str(exc)


def catalog_json(lang: str) -> dict[str, Any]:
    """The catalog of ``lang`` as a JSON-ready dict, for the browser.

    Shape::

        {"lang": "el", "name": "Ελληνικά", "languages": {"en": "English", ...},
         "plural_forms": "nplurals=2; plural=(n != 1);",
         "number": {"decimal": ",", "group": "."},
         "messages": {msgid: translation, ...}}

    A plural message is stored under its singular msgid as ``[form0, form1, ...]`` (in the
    order of the ``plural`` expression); a message with a context under
    ``context + "\\u0004" + msgid`` (the gettext convention).  English (the source) has empty
    ``messages``: the msgids are the text.  Raises ``ValueError`` for an unsupported code.
    """
    tr = Translator(lang)
    messages: dict[str, Any] = {}
    plural_forms = "nplurals=2; plural=(n != 1);"
    t = tr.translations
    if isinstance(t, Translations):
        catalog = getattr(t, "_catalog", {})
        for key, value in catalog.items():
            if key == "":
                continue
            if isinstance(key, tuple):
                msgid, idx = key
                forms = messages.setdefault(msgid, [])
                while len(forms) <= idx:
                    forms.append("")
                forms[idx] = value
            else:
                messages[key] = value
        header = catalog.get("", "")
        for line in header.splitlines():
            if line.lower().startswith("plural-forms:"):
                plural_forms = line.split(":", 1)[1].strip()
    loc = tr._number_locale
    return {
        "lang": lang,
        "name": LANGUAGE_NAMES[lang],
        "languages": dict(LANGUAGE_NAMES),
        "plural_forms": plural_forms,
        "number": {"decimal": get_decimal_symbol(loc), "group": get_group_symbol(loc)},
        "messages": dict(sorted(messages.items())),
    }


def level_name(level: str, tr: Translator | None = None) -> str:
    """The computer player ``level``'s name in ``tr``'s language (``novice`` -> ``Novice``,
    Greek ``Αρχάριος``); an unknown level is capitalized."""
    tr = tr or translator("en")
    names = {
        "random": tr.p_("level", "Random"),
        "novice": tr.p_("level", "Novice"),
        "club": tr.p_("level", "Club"),
        "expert": tr.p_("level", "Expert"),
        "master": tr.p_("level", "Master"),
        "ismcts": tr.p_("level", "Information-set search"),
        "sage": tr.p_("level", "Sage"),
        "sage-fast": tr.p_("level", "Fast sage"),
        "openspiel-simple": tr.p_("level", "OpenSpiel simple bot"),
        "expert-fixed": tr.p_("level", "Expert (fixed samples)"),
        "master-fixed": tr.p_("level", "Master (fixed samples)"),
        "rlcard-rule": tr.p_("level", "RLCard rule agent"),
    }
    return names.get(level.lower(), level.capitalize())


NOUNS_CAPITALIZED: frozenset[str] = frozenset({"de"})
"""The languages that write every noun with a capital, in running text too (German
``Computer (Anfänger)``): :func:`level_in_text` keeps their level names as they are."""


def level_in_text(level: str, tr: Translator | None = None) -> str:
    """:func:`level_name` as it stands inside a sentence: lower case (``Computer (novice)``),
    unless the name holds a proper noun (``OpenSpiel simple bot`` keeps its capitals) or the
    language capitalizes its nouns (:data:`NOUNS_CAPITALIZED`: German ``Computer (Anfänger)``)."""
    name = level_name(level, tr)
    if tr is not None and tr.lang in NOUNS_CAPITALIZED:
        return name
    return name if any(ch.isupper() for ch in name[1:]) else name.lower()
