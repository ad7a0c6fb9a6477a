import os

from django.core.asgi import get_asgi_application

from warfare import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "warfare.settings.base")

application = get_asgi_application()
heap.freeze()  # (what start-up made is not walked by every full collection)
