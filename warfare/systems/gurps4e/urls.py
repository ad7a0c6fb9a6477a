from django.urls import path

from . import views

app_name = "gurps4e"

_C = "campaigns/<int:campaign_id>/forces/"

urlpatterns = [
    path(_C, views.force_list, name="force-list"),
    path(_C + "new/", views.force_create, name="force-create"),
    path(_C + "elements/", views.element_type_list, name="element-types"),
    path(
        _C + "elements/<int:element_type_id>/edit/",
        views.element_type_edit,
        name="element-type-edit",
    ),
    path(
        _C + "elements/<int:element_type_id>/delete/",
        views.element_type_delete,
        name="element-type-delete",
    ),
    path(_C + "<int:force_id>/", views.force_detail, name="force-detail"),
    path(_C + "<int:force_id>/edit/", views.force_edit, name="force-edit"),
    path(_C + "<int:force_id>/delete/", views.force_delete, name="force-delete"),
    path(_C + "<int:force_id>/rows/", views.force_row_add, name="force-row-add"),
    path(
        _C + "<int:force_id>/rows/<int:row_id>/delete/",
        views.force_row_remove,
        name="force-row-remove",
    ),
]
