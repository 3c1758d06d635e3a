"""Who may do what in a campaign (views call these; the engine checks the rules).

- Anyone who is neither the organiser nor a player gets a 404 for every campaign URL
  (``services.get_campaign_for_user``), except the join page reached by its invite link.
- Only the players of the two gangs in an encounter record, confirm or dispute it, roll
  their own death rolls, and answer their own showdowns.
- Only a gang's player spends its CCP or dollars, recruits, or rides to Mexico.
- Only the organiser starts, finishes, settles disputes, undoes the last encounter and
  changes the settings. The organiser may also play (join with a gang).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from campaigns.models import Campaign


def is_organiser(campaign: Campaign, user) -> bool:
    return user.is_authenticated and campaign.organiser_id == user.pk


def require_organiser(campaign: Campaign, user) -> None:
    if not is_organiser(campaign, user):
        raise PermissionDenied("Only the campaign's organiser can do that.")


def require_player(gang_ids: set[str], gang_id: str) -> None:
    """``gang_ids``: the user's gangs in the campaign (``services.user_gang_ids``)."""
    if str(gang_id) not in gang_ids:
        raise PermissionDenied("Only that gang's player can do that.")
