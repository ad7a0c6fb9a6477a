"""Page-number pagination for every API list: `?page=2`, `?page_size=` up to 200."""

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """`{"count", "next", "previous", "results"}`, 50 rows a page unless `page_size` says less."""

    page_size_query_param = "page_size"
    max_page_size = 200
