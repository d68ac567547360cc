"""The row a recorded form acted on, so a key is "already recorded" only for the same
command, row and login (console.command_view)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("console", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="formsubmission",
            name="row",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
    ]
