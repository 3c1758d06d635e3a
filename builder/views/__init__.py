"""The gang builder's views, by what they show: see ``common.py``; ``builder/urls.py`` names
each module's views."""
