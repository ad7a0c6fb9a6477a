"""The list, create, edit and delete pages of a rule system's campaign rows, written once.

Two kinds of rows look the same in every rule system:

- a campaign's **library** (`Library`: D&D 5e creatures, GURPS element types, 3e troop types):
  every member reads the list, the GM adds rows on it, edits and deletes them;
- a faction's **forces** (`Forces`: D&D 5e armies, GURPS forces): members see those of the
  factions they know of, grouped by faction; the GM creates, edits and deletes them.

A rule system describes its rows once, with its own access checks, forms, services and
messages, and takes the views from that description. The names follow one convention, so
`Library("gurps4e", "element_type", ...)` serves `gurps4e/element_type_list.html` and
`gurps4e/element_type_form.html`, the URL `gurps4e:element-types`, the context name
`element_types` and the services' keyword `element_type_id`; `Forces("dnd5e", "army", ...)`
serves `dnd5e/army_list.html`, `dnd5e/army_form.html` and `dnd5e:army-list`.

Each view stays thin: it authorises on the server (a non-member or a campaign of another rule
system is a 404 from `access`, a player on a GM page a 403), calls one service (one
transaction) and answers through `pages.form_page`. The smaller pages of a row's parts use
`add_part` and `remove_part`.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_http_methods, require_POST

from .access import access_campaign_row, sees_faction_in_full
from .pages import add_errors, edit_page, form_page, member_page

get_and_post = require_http_methods(["GET", "POST"])


def refused(request: HttpRequest, error: ValidationError) -> None:
    """Show a service's refusal as error messages (the page it redirects to shows them)."""
    for message in error.messages:
        messages.error(request, message)


def remove_part(request: HttpRequest, remove: Callable[[], Any], success: str, done):
    """A POST that deletes a row: `remove()` calls the service; a refusal becomes error
    messages, either way the answer is a redirect to `done` (a row or a URL)."""
    try:
        remove()
    except ValidationError as error:
        refused(request, error)
    else:
        messages.success(request, success)
    return redirect(done)


def delete_row(request: HttpRequest, delete: Callable[[], Any], success: str, done, page):
    """A POST that deletes a row with a page of its own (a force, a character): `delete()`
    calls the service; deleted, a redirect to `done` (a URL) with `success`; refused, the
    row's page again, `page()` (a 400), with the refusal as error messages."""
    try:
        delete()
    except ValidationError as error:
        refused(request, error)
        return page()
    messages.success(request, success)
    return redirect(done)


def add_part(request: HttpRequest, form, save, success: str, done, page) -> HttpResponse:
    """A POST of a form on a row's page that adds a part of it (a unit, an element row, a
    reputation entry): saved, a redirect to `done`; refused by the form or by the service
    (`save(cleaned_data)`), the row's page again with the errors, `page(form)` (a 400)."""
    if form.is_valid():
        try:
            save(form.cleaned_data)
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, success)
            return redirect(done)
    return page(form)


@dataclass(frozen=True, kw_only=True)
class _Rows:
    app: str  # the rule system's URL namespace and template folder, e.g. "gurps4e"
    noun: str  # the row in templates, contexts and the services' keywords, e.g. "force"
    form: type  # a ModelForm with a `campaign` keyword and `model_data()`
    access: Callable[..., Any]  # (user, campaign_id, gm=...) -> the membership, or 404/403
    create: Callable[..., Any]  # the services, called with keywords
    update: Callable[..., Any]
    delete: Callable[..., Any]
    saved: str  # the messages of a saved edit and of a deletion
    deleted: str

    def template(self, page: str) -> str:
        return f"{self.app}/{self.noun}_{page}.html"

    def _edit(self, request, membership, row, *, ids: dict, done=None) -> HttpResponse:
        """The edit page of `row`; `ids` name it to the update service."""
        campaign = membership.campaign
        return edit_page(
            request,
            self.template("form"),
            {"campaign": campaign},
            noun=self.noun,
            row=row,
            form=lambda data, instance: self.form(data, instance=instance, campaign=campaign),
            update=lambda **fields: self.update(
                user=request.user, campaign_id=campaign.pk, **ids, **fields
            ),
            success=self.saved,
            done=done,
        )


@dataclass(frozen=True, kw_only=True)
class Library(_Rows):
    """A campaign's library of one kind of row: the list (with the GM's form to add one, and
    the message `added`), the edit page and the delete POST, served at `urls(prefix)`.
    `rows(campaign)` is what the list shows (default: the campaign's rows of the form's
    model)."""

    added: str
    rows: Callable[[Any], Any] | None = None

    @property
    def plural(self) -> str:
        return f"{self.noun}s"

    def urls(self, prefix: str) -> list[URLPattern]:
        """`prefix` the list, `prefix<id>/edit/` and `prefix<id>/delete/`; named
        `<app>:<nouns>`, `<app>:<noun>-edit`, `<app>:<noun>-delete` (hyphens for `_`)."""
        name, row = self.noun.replace("_", "-"), f"<int:{self.noun}_id>/"
        return [
            path(prefix, self.list_view(), name=f"{name}s"),
            path(f"{prefix}{row}edit/", self.edit_view(), name=f"{name}-edit"),
            path(f"{prefix}{row}delete/", self.delete_view(), name=f"{name}-delete"),
        ]

    def list_url(self, campaign_id: int) -> str:
        return reverse(f"{self.app}:{self.plural.replace('_', '-')}", args=[campaign_id])

    def _rows(self, campaign):
        if self.rows is not None:
            return self.rows(campaign)
        return self.form._meta.model.objects.filter(campaign=campaign)

    def list_view(self):
        @login_required
        @get_and_post
        def view(request: HttpRequest, campaign_id: int) -> HttpResponse:
            membership = self.access(request.user, campaign_id)
            campaign = membership.campaign
            form = None
            if membership.is_gm:
                form = self.form(request.POST or None, campaign=campaign)
            elif request.method == "POST":
                self.access(request.user, campaign_id, gm=True)  # 403
            context = {"campaign": campaign, "membership": membership, "form": form,
                       self.plural: self._rows(campaign)}  # fmt: skip
            return form_page(
                request,
                self.template("list"),
                context,
                save=lambda f: self.create(
                    user=request.user, campaign_id=campaign_id, **f.model_data()
                ),
                success=self.added,
                done=lambda _row: self.list_url(campaign_id),
            )

        return view

    def edit_view(self):
        @login_required
        @get_and_post
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            membership = self.access(request.user, campaign_id, gm=True)
            rows = self.form._meta.model.objects
            row = access_campaign_row(membership, rows, ids[f"{self.noun}_id"])
            done = self.list_url(campaign_id)
            return self._edit(request, membership, row, ids=ids, done=lambda _row: done)

        return view

    def delete_view(self):
        @login_required
        @require_POST
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            return remove_part(
                request,
                lambda: self.delete(user=request.user, campaign_id=campaign_id, **ids),
                self.deleted,
                self.list_url(campaign_id),
            )

        return view


@dataclass(frozen=True, kw_only=True)
class Forces(_Rows):
    """A rule system's forces (armies): the list by faction, the create page (its message
    `created`), the row's page, its edit page and its delete POST, served at `urls(prefix)`;
    and the POSTs on the row's page that add, change or remove its parts (units, solos,
    element rows).

    `access_row(user, campaign_id, pk, gm=...)` is (membership, row) for a row of a faction
    the member knows of (others: 404); `overview(membership=...)` the list's groups
    (`kingdoms.access.by_faction`); `sheet` and `part_forms` fill the row's own page (`page`),
    which also answers a refused deletion or part. The URL names the row
    `url_id`, the services `<noun>_id`; a part's form takes the row as the keyword `<noun>`."""

    access_row: Callable[..., Any]
    overview: Callable[..., Any]
    sheet: Callable[..., dict]
    url_id: str
    created: str
    part_forms: tuple[type, ...] = ()

    def page(self, request, membership, row, *, status: int = 200, **forms) -> HttpResponse:
        """The row's page (`<app>/<noun>_detail.html`): its name to everyone who knows of its
        faction; `sheet(request, membership, row)` (a dict for the context) to those who see
        the faction in full, and to the GM the forms of `part_forms` (`<prefix>_form`, or
        the bound one of `forms` a refused POST left)."""
        full = sees_faction_in_full(membership, row.faction)
        context = {"campaign": membership.campaign, "membership": membership, self.noun: row,
                   "full": full}  # fmt: skip
        if full:
            context.update(self.sheet(request, membership, row))
            if membership.is_gm:
                for form in self.part_forms:
                    name = f"{form.prefix}_form"
                    context[name] = forms.get(name) or form(**{self.noun: row})
        return render(request, self.template("detail"), context, status=status)

    def urls(self, prefix: str) -> list[URLPattern]:
        """`prefix` the list, `prefix` `new/`, `<id>/`, `<id>/edit/`, `<id>/delete/`; named
        `<app>:<noun>-list`, `-create`, `-detail`, `-edit`, `-delete`."""
        row = f"{prefix}<int:{self.url_id}>/"
        return [
            path(prefix, self.list_view(), name=f"{self.noun}-list"),
            path(f"{prefix}new/", self.create_view(), name=f"{self.noun}-create"),
            path(row, self.detail_view(), name=f"{self.noun}-detail"),
            path(f"{row}edit/", self.edit_view(), name=f"{self.noun}-edit"),
            path(f"{row}delete/", self.delete_view(), name=f"{self.noun}-delete"),
        ]

    def part_urls(self, prefix: str, part: str, *, add, remove, edit=None, segment="", name=""):
        """The URLs of a part's views under the row's (`prefix<id>/`): `<part>s/` (or
        `segment`) adds, `<part>s/<id>/edit/` changes, `<part>s/<id>/delete/` removes;
        named `<part>-add`, `-edit`, `-remove` (or `name-…`). The URL names the part
        `<part>_id`, as its services do."""
        base = f"{prefix}<int:{self.url_id}>/{segment or part + 's/'}"
        one, name = f"{base}<int:{part}_id>/", name or part
        patterns = [path(base, add, name=f"{name}-add")]
        if edit is not None:
            patterns.append(path(f"{one}edit/", edit, name=f"{name}-edit"))
        return [*patterns, path(f"{one}delete/", remove, name=f"{name}-remove")]

    def _gm_row(self, request: HttpRequest, campaign_id: int, ids: dict):
        """(membership, row) for the GM's pages of the row (others: 403, unknown: 404)."""
        return self.access_row(request.user, campaign_id, ids[self.url_id], gm=True)

    def _ids(self, url_ids: dict) -> dict:
        """The URL's keywords as the services name them: the row's `<noun>_id`, a part's
        as they are."""
        ids = dict(url_ids)
        return {f"{self.noun}_id": ids.pop(self.url_id), **ids}

    def list_view(self):
        @login_required
        def view(request: HttpRequest, campaign_id: int) -> HttpResponse:
            membership = self.access(request.user, campaign_id)
            return member_page(
                request,
                self.template("list"),
                membership,
                factions=self.overview(membership=membership),
                create_url=f"{self.app}:{self.noun}-create",
            )

        return view

    def create_view(self):
        @login_required
        @get_and_post
        def view(request: HttpRequest, campaign_id: int) -> HttpResponse:
            campaign = self.access(request.user, campaign_id, gm=True).campaign
            faction = request.GET.get("faction")
            form = self.form(request.POST or None, campaign=campaign,
                             initial={"faction": faction} if faction else None)  # fmt: skip
            return form_page(
                request,
                self.template("form"),
                {"campaign": campaign, "form": form},
                save=lambda f: self.create(
                    user=request.user, campaign_id=campaign_id, **f.model_data()
                ),
                success=self.created,
            )

        return view

    def detail_view(self):
        @login_required
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            membership, row = self.access_row(request.user, campaign_id, ids[self.url_id])
            return self.page(request, membership, row)

        return view

    def edit_view(self):
        @login_required
        @get_and_post
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            membership, row = self._gm_row(request, campaign_id, ids)
            return self._edit(request, membership, row, ids=self._ids(ids))

        return view

    def delete_view(self):
        @login_required
        @require_POST
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            def page():
                membership, row = self.access_row(request.user, campaign_id, ids[self.url_id])
                return self.page(request, membership, row, status=400)

            return delete_row(
                request,
                lambda: self.delete(user=request.user, campaign_id=campaign_id, **self._ids(ids)),
                self.deleted,
                reverse(f"{self.app}:{self.noun}-list", args=[campaign_id]),
                page,
            )

        return view

    def add_part_view(self, form: type, save: Callable[..., Any], success: str):
        """The GM's POST of `form` on the row's page: `save` (the service) adds the part;
        refused, the row's page shows the form with its errors (as `<form's prefix>_form`)."""

        @login_required
        @require_POST
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            membership, row = self._gm_row(request, campaign_id, ids)
            return add_part(
                request,
                form(request.POST, **{self.noun: row}),
                lambda data: save(
                    user=request.user, campaign_id=campaign_id, **self._ids(ids), **data
                ),
                success,
                row,
                lambda bound: self.page(
                    request, membership, row, status=400, **{f"{form.prefix}_form": bound}
                ),
            )

        return view

    def edit_part_view(self, form: type, update: Callable[..., Any], success: str):
        """The GM's page that changes a part of the row (`<app>/<part>_form.html`, the part
        named by the form's model); saved, back to the row's page."""
        part = form._meta.model._meta.model_name

        @login_required
        @get_and_post
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            membership, row = self._gm_row(request, campaign_id, ids)
            instance = get_object_or_404(form._meta.model, **{self.noun: row}, pk=ids[f"{part}_id"])
            bound = form(request.POST or None, instance=instance, **{self.noun: row})
            context = {"campaign": membership.campaign, self.noun: row, part: instance,
                       "form": bound}  # fmt: skip
            return form_page(
                request,
                f"{self.app}/{part}_form.html",
                context,
                save=lambda f: update(
                    user=request.user, campaign_id=campaign_id, **self._ids(ids),
                    **f.cleaned_data,
                ),
                success=success,
                done=lambda _part: row,
            )  # fmt: skip

        return view

    def remove_part_view(self, remove: Callable[..., Any], success: str):
        """The GM's POST that removes a part of the row (the service `remove`); a refusal
        becomes error messages; either way back to the row's page."""

        @login_required
        @require_POST
        def view(request: HttpRequest, campaign_id: int, **ids: int) -> HttpResponse:
            _membership, row = self._gm_row(request, campaign_id, ids)
            return remove_part(
                request,
                lambda: remove(user=request.user, campaign_id=campaign_id, **self._ids(ids)),
                success,
                row,
            )

        return view
