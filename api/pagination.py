"""Pages of a list: ``?page=N`` and ``?page_size=N`` (1 to :data:`MAX_PAGE_SIZE`).

A page size that is not such a number is refused (400, naming the parameter) rather than silently
replaced by the default: a client that asked for 500 rows and got 50 would believe the list ends there.
The same holds for the page: ``?page=`` or ``?page=abc`` is a 400, not the first page (a client looping
over pages with a broken counter would otherwise read page 1 forever); a page past the end is a 404.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


class Pages(PageNumberPagination):
    page_size = PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    # The schema documents an integer: DRF's "last" would be an undocumented word.
    last_page_strings = ()

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        raw = request.query_params.getlist(self.page_query_param)
        if raw and (len(raw) > 1 or not raw[0].isascii() or not raw[0].isdigit()):
            raise ValidationError({self.page_query_param: ["A whole number from 1."]})
        return super().paginate_queryset(queryset, request, view)

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.getlist(self.page_size_query_param)
        if not raw:
            return self.page_size
        if len(raw) > 1 or not raw[0].isascii() or not raw[0].isdigit():
            raise ValidationError({self.page_size_query_param: ["A whole number from 1 to 200."]})
        size = int(raw[0])
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise ValidationError({self.page_size_query_param: ["A whole number from 1 to 200."]})
        return size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": MAX_PAGE_SIZE})
            if parameter["name"] == self.page_query_param:
                parameter["schema"].update({"minimum": 1})
        return parameters
