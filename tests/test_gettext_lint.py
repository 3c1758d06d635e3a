"""No English built in Python reaches a player untranslated: every string a person may read
(a form's label, help text, empty choice or choices, a message, a refusal, a
``ValidationError``, a heading or a word put into a page, a card or a mail) is wrapped in
gettext where it is written, in every module outside ``rules/`` (the engine has its own
check, tests/test_french.py).

The lint reads the modules' syntax trees (no import, no catalogue): a string literal that
reads as words (two words, or a capitalised word: "In play", "Round", "— no type —") and is
not inside ``gettext``/``gettext_lazy``/``ngettext``/``pgettext``/``gettext_noop`` fails,
unless it is a docstring, a log line, an assertion, the message of an exception no player
sees (``ValueError``, ``TypeError``... raised for a programmer), inside HTML markup only, or
listed in ``NOT_FOR_PLAYERS`` with why. Operators' tools (settings, management commands,
the admin's app names) are not read. Any string given to a place only players read
(``label=``, ``help_text=``, ``empty_label=``, ``messages.*``, ``add_error``, a form's
``choices``, the app's refusals: ``LeagueError``, ``CampaignError``, ``AccountError``,
``ActionRefused``, ``PlayError``, ``ValidationError``) fails whatever it looks like.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "accounts",
    "builder",
    "campaigns",
    "common",
    "gangfight_site",
    "notifications",
    "play",
)
#: Not read: operators' tools and configuration (English for the person running the site).
SKIPPED = re.compile(
    r"(^|/)(migrations|management)/"
    r"|(^|/)(settings|mail_settings|checks|apps|admin|celery|wsgi|asgi)\.py$"
)

GETTEXT = {
    "_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
    "npgettext", "gettext_noop", "_lazy", "_noop", "ngettext_noop",
}  # fmt: skip
#: Exceptions a programmer or an operator reads, never a player.
INTERNAL_ERRORS = {
    "ValueError", "TypeError", "RuntimeError", "KeyError", "AssertionError", "LookupError",
    "NotImplementedError", "ImproperlyConfigured", "AppendOnly", "AttributeError",
    "TemplateSyntaxError", "CommandError", "EmailSettingsError", "OSError",
    # the 400, 403 and 404 pages never show their exception's message
    "Http404", "PermissionDenied", "SuspiciousOperation", "BadRequest",
}  # fmt: skip
#: Where what is passed is read by a player, whatever it looks like.
#: the functions of ``re``: their string is a pattern, matched against text, never shown
REGEX_CALLS = {"compile", "match", "fullmatch", "search", "sub", "subn", "split", "findall"}

PLAYER_CALLS = {
    "ValidationError", "LeagueError", "CampaignError", "AccountError", "ActionRefused",
    "PlayError", "PdfTooBig", "PackFileError", "add_error",
}  # fmt: skip
MESSAGE_LEVELS = {"info", "success", "warning", "error", "debug", "add_message"}
PLAYER_KEYWORDS = {
    "label", "help_text", "empty_label", "placeholder", "verbose_name", "title", "error_messages",
}  # fmt: skip
#: Keys and keywords whose value no player reads: where shipped content comes from.
PROVENANCE = {"source"}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical", "log"}

#: Literals that read as words but no player reads: (module, how the text starts) → why.
NOT_FOR_PLAYERS: dict[tuple[str, str], str] = {
    ("campaigns/charts.py", "DejaVu Sans, sans-serif"): "a font family in the SVG's style",
    ("builder/packs.py", "Gangfight pack file"): "the pack file's JSON Schema, for programs",
    ("builder/packs.py", "A content pack of one game system"): "the same JSON Schema",
    (
        "builder/editors/bwg2/__init__.py",
        "Gangfight sample card (not from the book)",
    ): "an entry's source",
    (
        "campaigns/leagues/views/leagues.py",
        "not reported",
    ): "a CSV value (docs/csv.md: CSV files never translate)",
    ("campaigns/leagues/board.py", "Victory"): "compared with a tiebreaker's English key",
    ("common/throttle.py", "Lax"): "a cookie's SameSite value",
    ("common/names.py", "former member #{pk}"): "a key (shown through gettext: shown_username)",
    (
        "builder/printing/render.py",
        "<!doctype html>",
    ): "the warm-up page WeasyPrint lays out once, never shown",
}

TAGS = re.compile(r"<[^>]*>")
PLACEHOLDERS = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{[^{}]*\}")
TWO_WORDS = re.compile(r"[A-Za-z]{2,}[,.:;!?]?\s+\W*[A-Za-z]{2,}")
CAPITALISED = re.compile(r"(^|[\s—(«\"'])[A-Z][a-z]{2,}")
IDENTIFIER = re.compile(r"[\w.\-/:]+")
#: an HTTP header's value: a content type, an attachment's file name
HEADER = re.compile(r"^(attachment; filename=|[a-z]+/[\w.+-]+; charset=)")


def reads_as_words(text: str) -> bool:
    """Prose, a heading or a label: not a key, an id, a path, a format or markup."""
    text = TAGS.sub(" ", text).strip()
    if IDENTIFIER.fullmatch(PLACEHOLDERS.sub("x", text)) and (
        not CAPITALISED.match(text) or re.search(r"[._/:]|[a-z][A-Z]|[a-z]-[A-Z]", text)
    ):
        return False  # "melee", "bwg1.too_many", "ActionForm", "DejaVuSans.ttf"
    text = PLACEHOLDERS.sub(" ", text)
    if not re.search(r"[A-Za-z]{2,}", text) or HEADER.search(text):
        return False
    return bool(TWO_WORDS.search(text) or CAPITALISED.search(text))


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _text(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return ""


class Lint(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[tuple[int, str, str]] = []
        self.stack: list[ast.AST] = []

    def generic_visit(self, node: ast.AST) -> None:
        self.stack.append(node)
        super().generic_visit(node)
        self.stack.pop()

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.check(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self.check(node)  # the f-string's parts are not looked at one by one

    # ------------------------------------------------------------------ where it is

    @staticmethod
    def in_choices(chain: list[ast.AST]) -> bool:
        return any(isinstance(n, ast.keyword) and n.arg == "choices" for n in chain)

    def for_players(self, node: ast.AST) -> bool:
        """Passed (directly or inside a list, a tuple, a dict or a concatenation) to a place
        only players read."""
        chain = [*self.stack, node]
        for depth in range(len(chain) - 2, -1, -1):
            parent, child = chain[depth], chain[depth + 1]
            if isinstance(parent, ast.Dict):
                if child in parent.keys:
                    return False  # a key
                key = parent.keys[parent.values.index(child)]
                if _text(key) in PLAYER_KEYWORDS | {"aria-label"}:
                    return True  # attrs={"placeholder": ...}
            if (
                isinstance(parent, ast.Tuple)
                and len(parent.elts) == 2
                and parent.elts[0] is child
                and self.in_choices(chain[:depth])
            ):
                return False  # a choice's value
            if isinstance(parent, ast.keyword):
                return parent.arg in PLAYER_KEYWORDS | {"choices"}
            if isinstance(parent, ast.Call):
                name = _name(parent.func)
                if name == "add_error":
                    return len(parent.args) > 1 and child is parent.args[1]
                if name in PLAYER_CALLS:
                    return bool(parent.args) and child is parent.args[0]
                return name in MESSAGE_LEVELS and (
                    _name(getattr(parent.func, "value", None)) == "messages"
                )
            if isinstance(parent, ast.Assign):
                return any(_name(t) in PLAYER_KEYWORDS for t in parent.targets)
            if isinstance(parent, ast.stmt):
                return False
        return False

    def exempt(self, node: ast.AST) -> bool:
        parents = list(reversed(self.stack))
        if parents and isinstance(parents[0], ast.Expr):
            return True  # a docstring, or a bare string
        chain = [*self.stack, node]
        for parent, child in itertools.pairwise(chain):
            if isinstance(parent, (ast.arg, ast.AnnAssign)) and child is parent.annotation:
                return True  # a type
            if isinstance(parent, ast.FunctionDef) and child is parent.returns:
                return True
            if isinstance(parent, ast.Assign) and any(
                _name(t) == "__all__" for t in parent.targets
            ):
                return True
            if isinstance(parent, ast.keyword) and parent.arg in PROVENANCE:
                return True
            if isinstance(parent, ast.Assign) and any(
                _name(t) in PROVENANCE for t in parent.targets
            ):
                return True
            if (
                isinstance(parent, ast.Dict)
                and child in parent.values
                and _text(parent.keys[parent.values.index(child)]) in PROVENANCE
            ):
                return True
        if len(parents) > 0 and self.pattern_of_a_message(node, parents[0]):
            return True
        for i, parent in enumerate(parents):
            if isinstance(parent, ast.Call):
                name = _name(parent.func)
                if name in GETTEXT:
                    return True
                if name in REGEX_CALLS and _name(getattr(parent.func, "value", None)) == "re":
                    return True  # a regular expression
                if name in LOGGING and _name(getattr(parent.func, "value", None)) in (
                    "logger", "logging", "log",
                ):  # fmt: skip
                    return True
                if name in INTERNAL_ERRORS:
                    return True
            if isinstance(parent, ast.Assert):
                return True
            if isinstance(parent, ast.Compare):
                return True  # compared with, not shown
            if isinstance(parent, ast.Subscript) and parent.slice in (
                node,
                *(parents[i - 1 : i] if i else []),
            ):
                return True  # a key
        return False

    @staticmethod
    def pattern_of_a_message(node: ast.AST, parent: ast.AST) -> bool:
        """``(pattern, gettext_noop(message))``: the pattern recognises the stored English
        text; what players read is the message beside it (common/engine_words.py)."""
        return (
            isinstance(parent, ast.Tuple)
            and len(parent.elts) == 2
            and parent.elts[0] is node
            and isinstance(parent.elts[1], ast.Call)
            and _name(parent.elts[1].func) in GETTEXT
        )

    def check(self, node: ast.AST) -> None:
        text = _text(node)
        if not text or self.exempt(node):
            return
        if any(path == self.path and text.startswith(start) for path, start in NOT_FOR_PLAYERS):
            return
        if self.for_players(node):
            if re.search(r"[A-Za-z]{2,}", PLACEHOLDERS.sub(" ", TAGS.sub(" ", text))):
                self.found.append((node.lineno, text, "given to players"))
        elif reads_as_words(text):
            self.found.append((node.lineno, text, "reads as words"))


def lint(source: str, path: str = "x.py") -> list[tuple[int, str, str]]:
    visitor = Lint(path)
    visitor.visit(ast.parse(source))
    return visitor.found


def modules() -> list[Path]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not SKIPPED.search(relative):
                found.append(path)
    return found


def test_every_string_a_player_reads_is_wrapped_in_gettext():
    paths = modules()
    assert len(paths) > 60
    left = []
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        for line, text, why in lint(path.read_text("utf-8"), relative):
            left.append(f"{relative}:{line}: {text!r} ({why})")
    assert not left, "wrap in gettext (or list in NOT_FOR_PLAYERS with why):\n" + "\n".join(left)


def test_the_lint_finds_english_left_unwrapped():
    """Each kind of place a player reads, written without gettext, is found; the same
    wrapped in gettext, and what no player reads, are not."""
    found = lint(
        """
from django import forms
from django.contrib import messages
from django.utils.translation import gettext as _, gettext_lazy
import logging
logger = logging.getLogger(__name__)

class F(forms.Form):
    who = forms.CharField(label="Who it is", help_text="Their name.")
    kind = forms.ChoiceField(choices=[("", "— no type —"), ("a", _("Outlaw"))])
    ok = forms.CharField(label=gettext_lazy("Name"))

def view(request, form):
    form.fields["gang"].label = "For"
    messages.success(request, "Saved.")
    form.add_error("name", "Too long")
    logger.warning("Could not queue %s", "x")
    raise ValueError("not a roster: %s" % 1)

def card():
    heading = "In play"
    kind = "melee"
    shown = (r"Death roll for (?P<name>.+)", _noop("Death roll for {name}"))
    pattern = re.compile(r"^Badly wounded: which of (?P<name>.+)$")
    if kind == "Big Thing":
        return f"{kind} was played"
    return {"title": "Round"}, _("Round")
"""
    )
    texts = [text for _line, text, _why in found]
    assert texts == [
        "Who it is", "Their name.", "— no type —", "For", "Saved.", "Too long", "In play",
        "{} was played", "Round",
    ]  # fmt: skip


# --------------------------------------------------------------------------- form fields

#: Fields drawn without their label, or labelled where the form is set up: (module, name).
LABELLED_ELSEWHERE: dict[tuple[str, str], str] = {
    ("builder/editors/bwg1/__init__.py", "change"): "the - and + buttons, each with its aria-label",
    ("builder/editors/bwg1/__init__.py", "item"): "labelled in setup() (Add a weapon, Horse)",
    ("builder/editors/bwg1/__init__.py", "direction"): "the Earlier and Later buttons",
    ("campaigns/encounter_forms.py", "answer"): "the Accept and Decline buttons",
    ("campaigns/forms.py", "confirm"): "a hidden input of the page's own form",
    ("campaigns/leagues/forms.py", "confirm"): "a hidden input of the page's own form",
    **dict.fromkeys(
        [("play/forms.py", n) for n in ("do", "member", "by", "cash", "items", "client_id")]
        + [("play/forms.py", n) for n in ("made_at", "phone", "phone_seq", "seen", "sent")],
        "the table's buttons post these: the form is never drawn",
    ),
}


def unlabelled_fields(source: str) -> list[tuple[int, str]]:
    """A form field declared without ``label=`` is labelled by Django with its name, in
    English ("one_per_gang" shows "One per gang"): (line, field name) of each, but hidden
    ones."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if not (isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)):
                continue
            call = statement.value
            if not _name(call.func).endswith("Field") or not isinstance(call.func, ast.Attribute):
                continue
            if _name(call.func.value) != "forms":
                continue
            keywords = {k.arg: k.value for k in call.keywords}
            widget = keywords.get("widget")
            if "label" in keywords or (widget is not None and "Hidden" in ast.unparse(widget)):
                continue
            for target in statement.targets:
                found.append((statement.lineno, _name(target)))
    return found


def test_every_form_field_a_player_sees_has_a_translated_label():
    left = []
    for path in modules():
        relative = path.relative_to(ROOT).as_posix()
        for line, name in unlabelled_fields(path.read_text("utf-8")):
            if (relative, name) not in LABELLED_ELSEWHERE:
                left.append(f"{relative}:{line}: {name}")
    assert not left, "give these fields a label=gettext_lazy(...):\n" + "\n".join(left)


def test_the_field_check_finds_a_field_without_a_label():
    source = """
from django import forms
class F(forms.Form):
    one_per_gang = forms.ChoiceField(choices=[])
    kept = forms.CharField(widget=forms.HiddenInput)
    named = forms.CharField(label=_("Name"))
"""
    assert unlabelled_fields(source) == [(4, "one_per_gang")]
