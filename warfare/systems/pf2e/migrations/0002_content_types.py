"""The moved models' content types follow them to the pf2e app (issue 12), so that their
permissions (and the groups and users holding them) and the admin's history still apply.

A content type is renamed in place (its id, and so every permission and admin log entry that
points at it, stays). If the pf2e one exists already (a `migrate` run created it while the old
one was still there), the old one's permissions and log entries are moved onto it first."""

from django.db import migrations

MOVED = (("warfare", "army"), ("warfare", "logentry"), ("warfare", "recruitment"),
         ("kingdoms", "kingdom"))  # fmt: skip


def _move(apps, pairs):
    content_types = apps.get_model("contenttypes", "ContentType")
    permissions = apps.get_model("auth", "Permission")
    admin_log = apps.get_model("admin", "LogEntry")
    for old_label, new_label, model in pairs:
        old = content_types.objects.filter(app_label=old_label, model=model).first()
        if old is None:
            continue
        new = content_types.objects.filter(app_label=new_label, model=model).first()
        if new is not None:
            have = set(permissions.objects.filter(content_type=new).values_list("codename", flat=True))
            permissions.objects.filter(content_type=old).exclude(codename__in=have).update(
                content_type=new
            )
            admin_log.objects.filter(content_type=old).update(content_type=new)
            old.delete()  # its remaining permissions duplicated the new one's
        else:
            old.app_label = new_label
            old.save(update_fields=["app_label"])


def forwards(apps, schema_editor):
    _move(apps, [(old, "pf2e", model) for old, model in MOVED])


def backwards(apps, schema_editor):
    _move(apps, [("pf2e", old, model) for old, model in MOVED])


class Migration(migrations.Migration):
    dependencies = [
        ("pf2e", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("admin", "0003_logentry_add_action_flag_choices"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
