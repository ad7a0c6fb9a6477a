import os

from django.core.wsgi import get_wsgi_application

from warfare import heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "warfare.settings.base")

application = get_wsgi_application()
heap.freeze()  # (what start-up made is not walked by every full collection)
