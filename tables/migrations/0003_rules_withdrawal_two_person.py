"""Withdrawing a Rules Submission in effect takes two compliance officers: who asked, why
and when, and who confirmed, on the version's row. Rows of versions withdrawn before this
migration get the fields from their events with ``manage.py rebuild_projections``."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0002_table_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulessubmission",
            name="withdrawal_requested_by",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.AddField(
            model_name="rulessubmission",
            name="withdrawal_reason",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="rulessubmission",
            name="withdrawal_requested_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="rulessubmission",
            name="withdrawn_by",
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.AddConstraint(
            model_name="rulessubmission",
            constraint=models.CheckConstraint(
                condition=models.Q(("withdrawal_requested_by", ""),
                                   ("state__in", ["in_effect", "withdrawn"]), _connector="OR"),
                name="rules_withdrawal_request_state"),
        ),
        migrations.AddConstraint(
            model_name="rulessubmission",
            constraint=models.CheckConstraint(
                condition=models.Q(("withdrawn_by", ""), ("state", "withdrawn"),
                                   _connector="OR"),
                name="rules_withdrawn_by_state"),
        ),
    ]
