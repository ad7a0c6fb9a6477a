from django.urls import path

from . import views

app_name = "gurps4e"

_C = "campaigns/<int:campaign_id>/forces/"

urlpatterns = [
    *views.ELEMENT_TYPES.urls(_C + "elements/"),
    *views.FORCES.urls(_C),
    path(_C + "<int:force_id>/rows/", views.force_row_add, name="force-row-add"),
    path(
        _C + "<int:force_id>/rows/<int:row_id>/delete/",
        views.force_row_remove,
        name="force-row-remove",
    ),
]
