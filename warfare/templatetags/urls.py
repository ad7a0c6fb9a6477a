"""`{% url %}` with each URL reversed once per process (`warfare.links`), a template builtin
(`settings.TEMPLATES`' `builtins`, after Django's own: it takes the tag's name).

Django's `{% url %}` runs `reverse` for every URL it draws, about ninety Python calls; a board
draws its URLs (its live stream, its undo and auto-play forms, its report link, its log's
"older entries") on every render. The same URL, the same escaping, the same errors
(`NoReverseMatch`; with `as`, an empty URL): keyword arguments and arguments that are not
hashable go Django's way."""

from django import template
from django.template import defaulttags
from django.urls import NoReverseMatch
from django.utils.html import conditional_escape

from warfare.links import reversed_url

register = template.Library()


class URLNode(defaulttags.URLNode):
    def render(self, context) -> str:
        if self.kwargs:
            return super().render(context)
        args = tuple(arg.resolve(context) for arg in self.args)
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        try:
            url = reversed_url(self.view_name.resolve(context), *args, current_app=current_app)
        except TypeError:  # (an argument not hashable)
            return super().render(context)
        except NoReverseMatch:
            if self.asvar is None:
                raise
            url = ""
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token) -> URLNode:
    node = defaulttags.url(parser, token)
    return URLNode(node.view_name, node.args, node.kwargs, node.asvar)
