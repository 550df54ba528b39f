"""``/favicon.ico``: browsers ask for it whatever a page's icon link says; it answers a
permanent redirect to the icon the pages use (``/static/favicon.svg``), not a 404."""

from __future__ import annotations


def test_favicon_ico_redirects_to_the_svg_icon(client):
    r = client.get("/favicon.ico", follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (301, "/static/favicon.svg")
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.content == client.get("/static/favicon.svg").content
    assert 'href="/static/favicon.svg"' in client.get("/").text  # the icon the pages name
