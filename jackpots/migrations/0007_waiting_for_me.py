# The console's "waiting for me": who began a display adjustment and when (its witness is
# another person, 637a.15(h)(1)), and a High Hand award's collect-by time (637a.16(b)(6)).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('jackpots', '0006_displaycheck'),
    ]

    operations = [
        migrations.AddField(
            model_name='fund',
            name='adjustment_started_by',
            field=models.CharField(blank=True, db_default='', default='', max_length=150),
        ),
        migrations.AddField(
            model_name='fund',
            name='adjustment_started_at',
            field=models.DateTimeField(null=True),
        ),
        migrations.AddField(
            model_name='highhandslip',
            name='collect_by',
            field=models.DateTimeField(null=True),
        ),
    ]
