"""A chat line or a suggestion made only of invisible characters (zero-width spaces, direction
marks, control characters...) is refused with words that say so: those characters are left out
of every typed text (messages.plain_text), and nothing visible remained.  An empty text keeps
its own answer.  Said in the seat's language (el, fi, mt, es) over the WebSocket."""

from __future__ import annotations

import json

import pytest

from ginrummy.i18n import translate_error
from ginrummy.web.errors import WebError
from ginrummy.web.protocol.inbound import parse_inbound, parse_lobby
from ginrummy.web.texts import web_translator

from .conftest import new_table, next_message

CHAT = (
    'a chat message needs "text" with something visible: its invisible characters (such as zero-width spaces) '
    "were left out, and nothing visible remained"
)
SUGGEST = CHAT.replace("a chat message", "a suggest message")
EMPTY = 'a chat message needs "text": a non-empty string'

INVISIBLE = ["\u200b", "\u200b\u200b\u200b", "\u202e\u2066\u200b", "\u00ad", "\u0007\u0000", " \u200b\ufeff ", "\u2060"]


def _refusal(raw: str, lobby: bool = False) -> WebError:
    with pytest.raises(WebError) as exc:
        (parse_lobby if lobby else parse_inbound)(raw)
    assert exc.value.code == "bad_message"
    return exc.value


@pytest.mark.parametrize("text", INVISIBLE)
def test_a_text_of_invisible_characters_says_they_were_left_out(text):
    assert str(_refusal(json.dumps({"type": "chat", "text": text, "id": 4}))) == CHAT
    assert _refusal(json.dumps({"type": "chat", "text": text, "id": 4})).reply_to == 4
    assert str(_refusal(json.dumps({"type": "suggest", "text": text}))) == SUGGEST
    assert str(_refusal(json.dumps({"type": "chat", "name": "Ann", "text": text}), lobby=True)) == CHAT


def test_an_empty_text_and_a_bad_lobby_name_keep_their_own_answers():
    assert str(_refusal('{"type": "chat", "text": ""}')) == EMPTY
    assert str(_refusal('{"type": "chat", "name": "Ann", "text": ""}', lobby=True)) == EMPTY
    assert (
        str(_refusal('{"type": "chat", "name": "  ", "text": "\\u200b"}', lobby=True))
        == 'a lobby chat message needs "name": your name, 1 to 24 characters, not only spaces'
    )
    assert str(_refusal('{"type": "chat", "text": 7}')) == EMPTY  # not a string at all
    # something visible among the invisible characters is kept, and only that
    assert parse_inbound('{"type": "chat", "text": "\\u200bhi\\u200b"}').text == "hi"


WANT = {
    "el": 'ένα μήνυμα chat χρειάζεται "text" με κάτι ορατό: οι αόρατοι χαρακτήρες του (όπως τα κενά μηδενικού '
    "πλάτους) παραλείφθηκαν και δεν έμεινε τίποτα ορατό",
    "fi": 'chat-viesti tarvitsee kentän "text", jossa on jotain näkyvää: sen näkymättömät merkit (kuten nollalevyiset '
    "välilyönnit) jätettiin pois, eikä mitään näkyvää jäänyt",
    "mt": "messaġġ chat jeħtieġ \"text\" b'xi ħaġa li tidher: il-karattri inviżibbli tiegħu (bħall-ispazji ta' wisa' "
    "żero) tħallew barra, u ma baqa' xejn li jidher",
    "fr": 'un message chat demande un "text" avec quelque chose de visible : ses caractères invisibles (comme les '
    "espaces de largeur nulle) ont été retirés, et il ne restait rien de visible",
    "es": 'un mensaje chat necesita "text" con algo visible: se quitaron sus caracteres invisibles (como los espacios '
    "de anchura cero) y no quedó nada visible",
    "de": 'eine chat-Nachricht braucht "text" mit etwas Sichtbarem: ihre unsichtbaren Zeichen (etwa Leerzeichen ohne '
    "Breite) wurden entfernt, und nichts Sichtbares blieb übrig",
    "en": CHAT,
}


@pytest.mark.parametrize("lang", list(WANT))
def test_the_refusal_is_said_in_the_seat_language(client, lang):
    assert translate_error(_refusal('{"type": "chat", "text": "\\u200b"}'), web_translator(lang)) == WANT[lang]
    table = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    with client.websocket_connect(f"/ws/table/{table['id']}?seat={table['seats'][0]['token']}&lang={lang}") as ws:
        ws.send_json({"type": "chat", "text": "\u200b\u2066", "id": 9})
        err = next_message(ws, lambda m: m["type"] == "error")
        assert (err["code"], err["reply_to"], err["message"]) == ("bad_message", 9, WANT[lang])
        ws.send_json({"type": "chat", "text": "\u200bgood game", "id": 10})
        line = next_message(ws, lambda m: m["type"] == "chat")
        assert (line["from"], line["text"]) == ("Ann", "good game")
