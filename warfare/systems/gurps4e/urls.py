from . import views

app_name = "gurps4e"

_C = "campaigns/<int:campaign_id>/forces/"

urlpatterns = [
    *views.ELEMENT_TYPES.urls(_C + "elements/"),
    *views.FORCES.urls(_C),
    *views.FORCES.part_urls(
        _C,
        "row",
        segment="rows/",
        name="force-row",
        add=views.force_row_add,
        remove=views.force_row_remove,
    ),  # fmt: skip
]
