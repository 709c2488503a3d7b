"""What the tournaments app's pages share: the floor-only check, the JSON
body of a request and the answer to a refusal."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from tables import schemas
from tables.access import is_floor
from tables.writepath import ServiceError

__all__ = ["json_body", "refused", "require_floor"]


def require_floor(request: HttpRequest) -> None:
    """``PermissionDenied`` (403) unless the user is of the floor or a manager."""
    if not is_floor(request.user):
        raise PermissionDenied


def json_body(request: HttpRequest) -> dict:
    """The request's JSON object; raises ``ServiceError('invalid')``."""
    try:
        body = schemas.load_json(request.body or b"{}")
    except schemas.MessageError as exc:  # not JSON, too deep or long, a non-finite number
        raise ServiceError("invalid", _("the body is not JSON") + f" ({exc.message})") from None
    if not isinstance(body, dict):
        raise ServiceError("invalid", _("the body is not a JSON object"))
    return body


def refused(exc: ServiceError) -> JsonResponse:
    """A refusal as ``{"ok": false, "code", "message"}``: 404 for ``not_found``, else 400."""
    return JsonResponse({"ok": False, **exc.as_dict()}, status=404 if exc.code == "not_found" else 400)
