"""Django's formats as casino.domain.wall_clock writes them: ``Nov 25, 2026, 6:10 AM EST``
(the active zone's abbreviation), ``6:10 AM EST``, ``Nov 25, 2026``. The admin site and any
``{{ moment }}`` printed without a filter follow them (Django's defaults for English are
"Nov. 25, 2026, 6:10 a.m.", without the zone)."""

DATE_FORMAT = "M j, Y"
TIME_FORMAT = "g:i A T"
DATETIME_FORMAT = "M j, Y, g:i A T"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "M j, Y, g:i A T"
