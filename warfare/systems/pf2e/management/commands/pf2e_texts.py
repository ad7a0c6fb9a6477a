from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from warfare.systems.pf2e.labels import pf2e_texts

TARGET = Path(__file__).resolve().parents[2] / "texts.py"


def _literal(text: str) -> str:
    """`text` as ruff format writes a string literal (double quotes unless single avoid an
    escape)."""
    if '"' in text and "'" not in text:
        return "'" + text.replace("\\", "\\\\") + "'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def module_source() -> str:
    lines = [
        '"""The English texts of the Pathfinder 2e rules data, marked for makemessages (see',
        "`warfare.systems.pf2e.labels`). Written by `python manage.py pf2e_texts`: do not edit.",
        '"""',
        "",
        "# ruff: noqa: E501",
        "from django.utils.translation import pgettext_lazy",
        "",
        "TEXTS = (",
    ]
    for context, text in pf2e_texts():
        lines += ["    pgettext_lazy(", f"        {_literal(context)},",
                  f"        {_literal(text)},", "    ),"]  # fmt: skip
    lines += [")", ""]
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Write warfare/systems/pf2e/texts.py, the gettext markers of the Pathfinder rules data's "
        "English texts (make messages runs it before makemessages); --check only compares."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Fail if it is out of date.")

    def handle(self, *args, check=False, **options):
        source = module_source()
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if check:
            if current != source:
                raise CommandError(f"{TARGET.name} is out of date: run make messages.")
            return
        if current != source:
            TARGET.write_text(source, encoding="utf-8")
            self.stdout.write(f"Wrote {TARGET}.")
