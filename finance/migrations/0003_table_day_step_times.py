# The console's "waiting for me" says since when each slip, inventory or drop box waits.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('finance', '0002_table_day_frozen'),
    ]

    operations = [
        migrations.AddField(
            model_name='tableday',
            name='step_times',
            field=models.JSONField(default=dict),
        ),
    ]
