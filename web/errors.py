"""Every error a client can cause is a 4xx with a JSON {"error": "..."}; anything else is a
logged 500 that says nothing of the inside."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.errors import StoreError, StoreFull

# Messages for the HTTP errors Werkzeug raises by itself, in the table's words.
MESSAGES = {
    400: "bad request",
    404: "no such page",
    405: "this address does not take that method",
    413: "the request is too large",
    415: "send JSON (Content-Type: application/json)",
}


class ApiError(Exception):
    """A client mistake: raised anywhere in a view, answered as JSON with this status."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    response = jsonify(error=message)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def wants_page() -> bool:
    """A browser asking for a page (HTML before JSON), not a script or the API."""
    if request.path.startswith(("/api/", "/device/")):
        return False
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "text/html"


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(err: ApiError) -> Any:
        if wants_page() and not request.path.startswith(("/api/", "/device/")):
            return render_template("error.html", status=err.status, message=err.message), \
                err.status, err.headers or {}       # a page asked in a browser: a page back
        return error_response(err.status, err.message, err.headers)

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException) -> Any:
        status = err.code or 500
        message = MESSAGES.get(status, (err.name or "error").lower())
        headers = {"Allow": ", ".join(err.valid_methods)} \
            if isinstance(err, MethodNotAllowed) and err.valid_methods else {}
        if wants_page():
            return render_template("error.html", status=status, message=message), status, \
                headers
        return error_response(status, message, headers)

    @app.errorhandler(StoreError)
    def store_error(err: StoreError) -> Response:
        """A write the store could not make: nothing was changed, everything before is kept."""
        app.logger.error("%s %s: %s", request.method, request.path, err)
        if isinstance(err, StoreFull):
            return error_response(507, str(err))          # 507 Insufficient Storage
        return error_response(503, "the table cannot store this just now (it has been "
                                   "logged); try again")

    @app.errorhandler(Exception)
    def unexpected(err: Exception) -> Response:
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "something went wrong inside the table; it has been logged")
