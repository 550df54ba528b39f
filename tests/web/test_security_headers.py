"""Every answer carries the security headers (ginrummy.web.security.SECURITY_HEADERS): no
referrer (a table's address holds a seat token), no framing, no MIME sniffing, and a content
security policy that runs only the server's own script files; and no page has an inline script
that the policy would block."""

from __future__ import annotations

import re

from ginrummy.web.app import STATIC_DIR


def test_every_page_and_api_answer_has_the_security_headers(client):
    for path in (
        "/",
        "/rules",
        "/tips",
        "/scorekeeper",
        "/fair",
        "/table/abc",
        "/api/options",
        "/static/common.js",
        "/no/such/page",
    ):
        r = client.get(path)
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY" and r.headers["x-content-type-options"] == "nosniff", path
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-eval" not in csp and "frame-ancestors 'none'" in csp, path


def test_pages_run_no_inline_script_and_no_inline_handler():
    for page in sorted(STATIC_DIR.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, f"{page.name}: inline script {tag}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"{page.name}: an inline event handler"
    for script in sorted(STATIC_DIR.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        assert "new Function" not in text and not re.search(r"\beval\(", text), script.name
