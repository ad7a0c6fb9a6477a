"""How every form page of the site answers: one place for the statuses and messages.

GET draws the page; a POST that the form or the service refuses re-renders it with the
errors (400, nothing saved); a POST drawn from an older version of the row re-renders it with
the current values (409, nothing overwritten); a saved POST redirects with a message.
"""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from .services import StaleEdit


def add_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError on the form, field by field where it names fields."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def invalid(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    """Re-render a form with its errors: a 400, so nothing looks saved when it was not."""
    return render(request, template, context, status=400)


def stale(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    """Someone saved since the form was drawn: a 409 with the form showing the current values
    (its forms unbound, built from the fresh rows), so nothing is silently overwritten."""
    return render(request, template, {**context, "stale": True}, status=409)


def member_page(request: HttpRequest, template: str, membership, **context) -> HttpResponse:
    """A page of the member's campaign: `campaign` and `membership` are in its context."""
    context = {"campaign": membership.campaign, "membership": membership, **context}
    return render(request, template, context)


def form_page(
    request: HttpRequest,
    template: str,
    context: dict,
    *,
    save: Callable[[Any], Any],
    success: str,
    fresh: Callable[[Any], dict] | None = None,
    done: Callable[[Any], Any] | None = None,
) -> HttpResponse:
    """A create or edit page around `context["form"]`.

    `save(form)` calls the service (one transaction) and returns the saved row; the answer is
    a redirect to `done(row)` (default: the row itself, its `get_absolute_url`). A `StaleEdit`
    re-renders with `fresh(current row)` merged into the context (the form redrawn from it)."""
    if request.method != "POST":
        return render(request, template, context)
    form = context["form"]
    if form.is_valid():
        try:
            saved = save(form)
        except StaleEdit as error:
            if fresh is None:
                raise
            context.update(fresh(error.instance))
            return stale(request, template, context)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, success)
            return redirect(done(saved) if done else saved)
    return invalid(request, template, context)


def edit_fields(form) -> dict:
    """What an edit form sends its update service: the row's fields, and the version it was
    drawn from where the form carries one (`kingdoms.forms.VersionedFormMixin`)."""
    fields = form.model_data()
    if "version" in form.fields:
        fields["version"] = form.service_version()
    return fields


def edit_page(
    request: HttpRequest,
    template: str,
    context: dict,
    *,
    noun: str,
    row,
    form: Callable[[Any, Any], Any],
    update: Callable[..., Any],
    success: str,
    done: Callable[[Any], Any] | None = None,
) -> HttpResponse:
    """The edit page of `row` (`context[noun]`, with `context["form"]`): `form(data,
    instance)` draws the form, `update(**fields)` (the service, with `edit_fields`) saves it;
    a form drawn from an older version is redrawn from the row as it is now (409)."""
    context = {**context, noun: row, "form": form(request.POST or None, row)}
    return form_page(
        request,
        template,
        context,
        save=lambda f: update(**edit_fields(f)),
        success=success,
        fresh=lambda current: {"form": form(None, current), noun: current},
        done=done,
    )
