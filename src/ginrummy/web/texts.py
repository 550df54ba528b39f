"""The web table's translations: the ``web`` gettext domain, the pages in the player's language,
and the browser catalog.

The web's own strings (the pages, the front end's JavaScript, the server's web error messages)
live in the gettext domain ``web`` (``ginrummy/locale/web.pot``,
``ginrummy/locale/<lang>/LC_MESSAGES/web.po`` and the compiled ``web.mo``), kept apart from the
``messages`` domain of the terminal table and the engine (:mod:`ginrummy.i18n`).  Extraction,
update and compilation: ``scripts/i18n-web.sh`` (docs/i18n.md, "Web").

How strings are marked:

* Python (``web/*.py``): :func:`W_` for an error message (a :class:`~ginrummy.errors.Msg`, said
  later in the seat's language by :func:`ginrummy.i18n.translate_error`), ``tr.t``/``tr.nt``/
  ``tr.pt`` for text said at once.
* JavaScript (``static/*.js``): ``t("...", {params})``, ``nt("one", "many", n, {params})``,
  ``pt("context", "...")``; ``tm("...")`` looks up a string of the ``messages`` domain (card
  and level names the terminal table already has), so it is not extracted into ``web``.
* HTML (``static/*.html``): an element with a ``data-i18n`` attribute is translated whole: its
  inner HTML, whitespace collapsed and character references other than ``&amp; &lt; &gt;
  &quot; &nbsp;`` written as characters, is the msgid (:func:`html_key`), and the server sends the
  page with the translation in its place (:func:`translate_html`).  ``data-i18n-attr="title
  placeholder"`` translates those attributes (their values are the msgids).

Public API: :data:`WEB_DOMAIN`, :data:`COOKIE`, :func:`W_`, :class:`WebTranslator`,
:func:`web_translator`, :func:`request_lang`, :func:`web_catalog`, :func:`html_messages`,
:func:`translate_html`, :func:`extract_html` (the Babel extractor of the ``html`` method).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from functools import cache
from html.parser import HTMLParser
from typing import Any

from babel.support import NullTranslations, Translations

from .. import i18n
from ..errors import Msg
from ..i18n import LANGUAGES, SOURCE, Translator, catalog_json, lang_from_accept_language, normalize
from .levels import player_levels

__all__ = [
    "WEB_DOMAIN",
    "COOKIE",
    "W_",
    "WebTranslator",
    "web_translator",
    "request_lang",
    "web_catalog",
    "html_key",
    "html_messages",
    "translate_html",
    "extract_html",
    "seat_name_forms",
]

WEB_DOMAIN = "web"
"""The gettext domain of the web table's strings."""

COOKIE = "gin_lang"
"""The cookie that remembers the language chosen on the page (a code of :data:`LANGUAGES`)."""


def W_(key: str, /, **params: Any) -> Msg:
    """A web message ``key`` (English, ``{name}`` placeholders) with ``params``, as a
    :class:`~ginrummy.errors.Msg`: ``str()`` is the English text, and
    :func:`ginrummy.i18n.translate_error` says it in a seat's language.  Extraction keyword ``W_``
    of the ``web`` domain (the ``messages`` domain's ``N_`` is not used in web code)."""
    return Msg(key, params)


def _load(lang: str, domain: str) -> NullTranslations:
    t = Translations.load(i18n._locale_dir(), [lang], domain)
    return t if isinstance(t, Translations) else NullTranslations()


class WebTranslator(Translator):
    """A :class:`~ginrummy.i18n.Translator` that knows the ``web`` domain as well as the
    ``messages`` domain (a web msgid wins where both have one), so ``t``/``nt``/``pt`` and
    :func:`ginrummy.i18n.translate_error` work for the engine's errors and the web's own.

    Raises ``ValueError`` for a code not in :data:`ginrummy.i18n.LANGUAGES`.
    """

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        if lang == SOURCE:
            return
        web = _load(lang, WEB_DOMAIN)
        base = self.translations  # a fresh object of this instance: merging does not touch others
        if isinstance(base, Translations):
            if isinstance(web, Translations):
                base.merge(web)
        else:
            self.translations = web

    def __repr__(self) -> str:
        return f"WebTranslator({self.lang!r})"

    # The web's own spellings of the Translator's "_"/"n_"/"p_" (extraction keywords t, nt, pt of
    # the web domain, so the messages domain's extraction does not take the web's strings).

    def _base(self, *names: str) -> Callable[..., str]:
        for name in names:
            f = getattr(super(), name, None)
            if f is not None:
                return f
        raise AttributeError(names[0])  # pragma: no cover

    def t(self, message: str, /, **params: Any) -> str:
        """``message`` translated, ``{name}`` placeholders filled (numbers in the language's
        format)."""
        return self._base("_", "t")(message, **params)

    def nt(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The plural form for ``n`` (also put in as ``{n}``), filled from ``params``."""
        return self._base("n_", "nt")(singular, plural, n, **params)

    def pt(self, context: str, message: str, /, **params: Any) -> str:
        """:meth:`t` with a message context."""
        return self._base("p_", "pt")(context, message, **params)


@cache
def web_translator(lang: str | None = None) -> WebTranslator:
    """The shared (read-only) :class:`WebTranslator` of ``lang`` (a code or a tag; unsupported or
    ``None`` -> English)."""
    return WebTranslator(normalize(lang) or SOURCE)


def request_lang(conn: Any) -> str:
    """The language of an HTTP request or WebSocket handshake (a Starlette ``HTTPConnection``):
    the ``lang`` query parameter, else the :data:`COOKIE` cookie (the page's language switcher),
    else the ``Accept-Language`` header; English when none names a supported language."""
    for tag in (conn.query_params.get("lang"), conn.cookies.get(COOKIE)):
        code = normalize(tag) if tag and tag not in ("C", "POSIX") else None
        if code is not None:
            return code
    return lang_from_accept_language(conn.headers.get("accept-language"))


def _plural_forms(t: NullTranslations) -> str | None:
    header = getattr(t, "_catalog", {}).get("", "")
    for line in header.splitlines():
        if line.lower().startswith("plural-forms:"):
            return line.split(":", 1)[1].strip()
    return None


@cache
def web_catalog(lang: str) -> dict[str, Any]:
    """The browser catalog of ``lang``: :func:`ginrummy.i18n.catalog_json` (the ``messages``
    domain: card names, level names, engine texts) with the ``web`` domain's messages merged over
    it, in the same shape (``lang``, ``name``, ``languages``, ``plural_forms``, ``number``,
    ``messages``).  Plural messages are lists of forms in the order of ``plural_forms``; a message
    with a context is keyed ``context + "\\u0004" + msgid``.  English has empty ``messages``.

    Raises ``ValueError`` for a code not in :data:`ginrummy.i18n.LANGUAGES`.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGUAGES)}")
    out = catalog_json(lang)
    web = _load(lang, WEB_DOMAIN) if lang != SOURCE else NullTranslations()
    messages = dict(out["messages"])
    own: dict[str, Any] = {}
    for key, value in getattr(web, "_catalog", {}).items():
        if key == "":
            continue
        if isinstance(key, tuple):
            forms = own.setdefault(key[0], [])
            while len(forms) <= key[1]:
                forms.append("")
            forms[key[1]] = value
        else:
            own[key] = value
    messages.update(own)
    out["messages"] = dict(sorted(messages.items()))
    out["plural_forms"] = _plural_forms(web) or out["plural_forms"]
    out["seat_names"] = {code: seat_name_forms(code) for code in LANGUAGES}
    return out


@cache
def seat_name_forms(lang: str) -> dict[str, Any]:
    """The names a table gives a seat nobody named, in ``lang``: ``{"you": "You",
    "player": "Player {n}", "computer": {level: "Computer (novice)"}}``, exactly as the lobby
    (``You``) and :meth:`ginrummy.web.room.tables.TableManager.create` (the other two) make them.

    A table's names are fixed when it opens, in its opener's language; the browser gets these
    forms for every language (``web_catalog(...)["seat_names"]``) so that it can show such a
    name in the reader's language (``localSeatName`` in ``common.js``)."""
    tr = web_translator(lang)
    return {
        "you": tr.t("You"),
        "player": tr.t("Player {n}", n="{n}"),
        "computer": {
            lv: tr.t("Computer ({level})", level=tr.pgettext("level", lv.capitalize()).lower())
            for lv in player_levels()
        },
    }


# -- HTML ---------------------------------------------------------------------------------------

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_KEEP_REFS = {"amp", "lt", "gt", "quot", "nbsp", "#38", "#60", "#62", "#34", "#160"}
_REF_RE = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_WS_RE = re.compile(r"[ \t\r\n\f]+")


def html_key(inner: str) -> str:
    """The msgid of a ``data-i18n`` element's inner HTML source: whitespace runs collapsed to one
    space, the ends stripped, character references written as their characters except the ones
    HTML needs (``&amp; &lt; &gt; &quot; &nbsp;``).  ``"7&#9827;\\n  7&#9830;"`` ->
    ``"7♣ 7♦"``."""

    def ref(m: re.Match[str]) -> str:
        name = m.group(1)
        return m.group(0) if name.lower() in _KEEP_REFS else html.unescape(m.group(0))

    return _WS_RE.sub(" ", _REF_RE.sub(ref, inner)).strip()


class _Rewriter(HTMLParser):
    """Streams an HTML source back out, replacing each ``data-i18n`` element's inner HTML and each
    ``data-i18n-attr`` attribute by ``translate(msgid, lineno, attr)`` (``attr`` ``None`` for
    an element's content)."""

    def __init__(self, translate: Callable[[str, int, str | None], str]) -> None:
        super().__init__(convert_charrefs=False)
        self.translate = translate
        self.out: list[str] = []
        self.frame: list[Any] | None = None  # [tag, depth, start index in out, line]

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], end: str) -> str:
        d = dict(attrs)
        raw = self.get_starttag_text() or f"<{tag}>"
        names = (d.get("data-i18n-attr") or "").split()
        if names:
            line = self.getpos()[0]
            new = [(k, self.translate(v or "", line, k) if k in names and v else v) for k, v in attrs]
            parts = "".join(f" {k}" if v is None else f' {k}="{html.escape(v, quote=True)}"' for k, v in new)
            raw = f"<{tag}{parts}{end}>"
        return raw

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self._tag(tag, attrs, "")
        f = self.frame
        if f is not None and tag == f[0] and tag not in _VOID:
            f[1] += 1
        self.out.append(raw)
        if any(k == "data-i18n" for k, _ in attrs):
            if f is not None:
                raise ValueError(f"line {self.getpos()[0]}: a data-i18n element inside another one")
            if tag in _VOID:
                raise ValueError(f"line {self.getpos()[0]}: data-i18n on the empty element <{tag}>")
            self.frame = [tag, 1, len(self.out), self.getpos()[0]]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self._tag(tag, attrs, " /"))

    def handle_endtag(self, tag: str) -> None:
        f = self.frame
        if f is not None and tag == f[0]:
            f[1] -= 1
            if f[1] == 0:
                inner = "".join(self.out[f[2] :])
                del self.out[f[2] :]
                self.out.append(self.translate(html_key(inner), f[3], None))
                self.frame = None
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:  # pragma: no cover - not in our pages
        self.out.append(f"<?{data}>")

    def unknown_decl(self, data: str) -> None:  # pragma: no cover
        self.out.append(f"<![{data}]>")


def _rewrite(source: str, translate: Callable[[str, int, str | None], str]) -> str:
    p = _Rewriter(translate)
    p.feed(source)
    p.close()
    if p.frame is not None:
        raise ValueError(f"line {p.frame[3]}: the data-i18n <{p.frame[0]}> element is not closed")
    return "".join(p.out)


def html_messages(source: str) -> list[tuple[int, str, str | None]]:
    """The translatable messages of an HTML page: ``(line, msgid, attribute or None)`` in page
    order.  Raises ``ValueError`` for a ``data-i18n`` element inside another, on an empty
    element, or not closed."""
    found: list[tuple[int, str, str | None]] = []

    def note(key: str, line: int, attr: str | None) -> str:
        found.append((line, key, attr))
        return key

    _rewrite(source, note)
    return found


def translate_html(source: str, tr: Translator) -> str:
    """The HTML page ``source`` in ``tr``'s language: every ``data-i18n`` element's content and
    ``data-i18n-attr`` attribute replaced by its translation (the msgid itself where there is
    none), and ``<html lang="...">`` set to the language."""
    out = _rewrite(source, lambda key, line, attr: tr.gettext(key) if key else key)
    return re.sub(r'<html lang="[^"]*"', f'<html lang="{tr.lang}"', out, count=1)


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extractor (method ``html``, see ``scripts/i18n-web.cfg``): the messages of
    :func:`html_messages`, each with a translator comment saying where it is."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, key, attr in html_messages(source):
        if key:
            yield line, None, key, [f"HTML attribute {attr}" if attr else "HTML: keep the tags and entities"]
