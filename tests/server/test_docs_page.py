"""/docs works under the Content-Security-Policy (issue 11 item 12): Swagger UI comes from the package, every
asset it references is same-origin and served, and no script is inline."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from hegemon.server.app import create_app


def test_docs_reference_only_same_origin_assets_that_are_served() -> None:
    with TestClient(create_app(None, 0.0)) as c:
        r = c.get("/docs")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "cdn" not in csp
        html = r.text
        refs = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert len(refs) >= 4, refs
        for ref in refs:
            assert ref.startswith("/") and not ref.startswith("//"), ref  # same origin, no CDN
            asset = c.get(ref)
            assert asset.status_code == 200 and len(asset.content) > 100, ref
            if ref.endswith(".js"):
                assert "javascript" in asset.headers["content-type"], ref
            if ref.endswith(".css"):
                assert asset.headers["content-type"].startswith("text/css"), ref
        # every script is a file (the CSP refuses inline scripts)
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        assert scripts and all('src="' in attrs and not body.strip() for attrs, body in scripts)
        assert "swagger-ui-bundle.js" in html and "/openapi.json" in c.get("/static/js/apidocs.js").text
        assert c.get("/redoc").status_code == 404  # ReDoc would need a CDN: not offered
