"""`warfare.links.reversed_url`: Django's `reverse`, kept once worked out per URL
configuration, script prefix and arguments: the same URL every time, another where any of
those differ."""

from django.test import override_settings
from django.urls import reverse, set_script_prefix

from warfare.links import reversed_url


def test_the_url_is_djangos_and_follows_the_arguments():
    assert reversed_url("battles:board", 3, 7) == reverse("battles:board", args=[3, 7])
    assert reversed_url("battles:act", 3, 7) == reverse("battles:act", args=[3, 7])
    assert reversed_url("battles:board", 3, 8) == reverse("battles:board", args=[3, 8])


def test_the_script_prefix_and_the_url_configuration_are_followed():
    plain = reversed_url("battles:board", 3, 7)
    try:
        set_script_prefix("/warfare/")
        assert reversed_url("battles:board", 3, 7) == "/warfare" + plain
    finally:
        set_script_prefix("/")
    assert reversed_url("battles:board", 3, 7) == plain
    with override_settings(ROOT_URLCONF="bench.urls"):  # (the board mounted the same there)
        assert reversed_url("bench-bare") == reverse("bench-bare") == "/bench/bare/"
