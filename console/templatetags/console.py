"""Tags for the console's templates: the vendored files with their integrity hashes."""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from console.vendored import VENDORED

register = template.Library()


@register.simple_tag
def vendored_js(name: str) -> str:
    path, integrity = VENDORED[name]
    return format_html('<script src="{}" integrity="{}" defer></script>', static(path), integrity)


@register.simple_tag
def vendored_css(name: str) -> str:
    path, integrity = VENDORED[name]
    return format_html('<link rel="stylesheet" href="{}" integrity="{}">', static(path), integrity)
