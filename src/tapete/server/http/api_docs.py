"""/docs, the API explorer, served whole from the installed package (issue 28 point 9).

FastAPI's own /docs and /redoc pages load Swagger UI and ReDoc from a CDN, so on an air-gapped casino network they
were blank. The `swagger-ui-bundle` package ships Swagger UI's files: /docs is FastAPI's page pointed at them, under
/docs/assets; nothing is fetched at run time. /redoc (CDN-only) is not offered.
"""

from __future__ import annotations

from typing import Any

ASSETS = "/docs/assets"


def install(app: Any) -> None:
    """Replace FastAPI's CDN-backed /docs, its OAuth2 redirect and /redoc with pages that use the packaged assets."""
    import swagger_ui_bundle
    from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles

    openapi_url = app.openapi_url or "/openapi.json"
    redirect = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"
    cdn = {app.docs_url, app.redoc_url, redirect}
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) not in cdn]
    app.docs_url, app.redoc_url = "/docs", None

    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=openapi_url, title=f"{app.title} — API",
                                   oauth2_redirect_url=redirect,
                                   swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{ASSETS}/favicon-32x32.png")

    async def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    app.add_api_route("/docs", docs, methods=["GET"], include_in_schema=False)
    app.add_api_route(redirect, oauth2_redirect, methods=["GET"], include_in_schema=False)
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="api-docs-assets")
