"""Encounters, the steps after them, and a campaign gang's page.

Thin views: read the request, check who is asking (``campaigns.access``), call
``services.record`` with one event, render. The rules engine (``rules.campaign``) says
whether an event is allowed; its refusal (:class:`CampaignError`) is shown beside the
field it names, with status 200. Every page is computed from the campaign's log, replayed
in one query, so it costs the same whatever the size of the gangs.

- ``base``: who is looking (``Seat``), the views' dice (``base.RNG``: tests set it),
  recording one event, refused forms;
- ``encounters``: beginning an encounter, its record, undoing the last one;
- ``detail``: an encounter's page and its steps (``encounter_detail.html#steps``);
- ``steps``: one function per step after an encounter, and the view that records it;
- ``gangs``: a campaign gang's page (``campaign_gang.html#gang``), its steps, riding to
  Mexico, recruits.

htmx: the encounter page's steps and the gang page's body are partials; every form also
works as a plain POST, redirected after success.
"""

from campaigns.encounter_views.detail import encounter_detail
from campaigns.encounter_views.encounters import encounter_begin, encounter_record, encounter_undo
from campaigns.encounter_views.gangs import campaign_gang, gang_recruit, gang_step
from campaigns.encounter_views.steps import encounter_step

__all__ = [
    "campaign_gang",
    "encounter_begin",
    "encounter_detail",
    "encounter_record",
    "encounter_step",
    "encounter_undo",
    "gang_recruit",
    "gang_step",
]
