from django.apps import AppConfig


class ToySystemConfig(AppConfig):
    """The toy rule system: its engine and its board plugin register when the app is ready."""

    name = "tests.toysystem"
    label = "toysystem"
    verbose_name = "Toy rule system (tests only)"

    def ready(self) -> None:
        # The board plugin reads the battles app's models: imported once every app is loaded.
        from . import plugin  # noqa: F401  (registers the engine and the board plugin)
