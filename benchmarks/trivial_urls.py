"""The site's URLs plus a trivial view, the yardstick the benchmarks compare against: the
same stack (middleware, session, user) answering a few bytes with no work."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import path

from gangfight_site.urls import urlpatterns as site_urlpatterns


@login_required
def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [path("bench/trivial/", trivial, name="bench_trivial"), *site_urlpatterns]
