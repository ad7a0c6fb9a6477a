"""The JSON API (Django REST Framework): thin views over the same access helpers, selectors and
services as the HTML pages. No game rules live here."""
