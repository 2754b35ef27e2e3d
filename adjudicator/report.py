"""Turn reports: the journal of one power-turn rendered through a Jinja2 template per forum format.

Sentences are built here once, in plain words; the templates only lay them out (headings, lists, code
blocks), so Markdown for NodeBB, BBCode and plain text say exactly the same thing. The dice block is the
same in every format, so that `verify` can read it back from any of them.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from importlib.resources import files

from sqlmodel import Session

from . import battle_account as account
from . import dice, markup
from .errors import AdjudicatorError, ConfigError, StoreError
from .people import (People, counted, current, does, heading, objective, power, powers, prose, relations, speaking,
                     their, unit, verb, whose)
from .people import units as units_phrase
from .scenario import AGENDA_PHASES, CAP_PHASE
from .store import db
from .store.schema import now
from .turn_summary import summary_lines
from .words import capitalised

FORMATS = ("markdown", "bbcode", "text")
# The lines the built-in templates set the dice block between, per format (tests/test_reports.py holds the templates
# to them): a salt is accepted only if `verify` reads it back from each (salts.read_back).
DICE_FENCES = {"markdown": ("```", "```"), "bbcode": ("[code]", "[/code]"), "text": ("", "")}
PHASE_TITLES = {"standing": "Standing orders", "edit": "Host corrections", "purchase": "Purchase", "politics": "Politics",
                "combat_move": "Combat move", "battle": "Battles", "noncombat_move": "Non-combat move",
                "place": "Mobilize new units", "end_turn": "End of turn", "spin": "Spin", "actions": "Actions",
                # the Expanded Global Agenda (EG-09); its Purchase and Repair is "purchase"
                "surrenders": "Surrenders and armistices", "research": "Technology research and exchange",
                "influence": "Influence", "alliances": "Alliances", "declare_war": "Declarations of war",
                CAP_PHASE: "Land fighters on Combat Air Patrol"}
BID_TITLES = {"purchase": "Bid purchase", "place": "Bid placement", "end_turn": "End of the bid"}   # round 0's steps
# The bytecode cache's files (see _bytecode_cache): named anew whenever the compiled code changes for safety, as
# Jinja keys them by the template's file and text alone: "bounded", since code compiled before the size bounds
# (SIZE_LIMIT) would be taken from the cache without them.
SANDBOXED_CACHE = "__adjudicator_bounded_%s.cache"
# The version of the built-in templates, kept with every stored report (schema 5): `audit` compares a report of this
# version whole, and one of an earlier version (0: written before schema 5 kept it) by its dice block and hashes,
# as it cannot render the templates of then. Raise it with any change of the built-in templates' text.
TEMPLATE_VERSION = 4


# Bounds on a host's templates (ADJUDICATOR_TEMPLATES), which may come from a game folder someone mailed: a template
# lays out a report, so none needs more than these; one that does is refused (exit 2) instead of taking the host's
# memory or time. The built-in templates stay far inside them.
TEMPLATE_FILE_LIMIT = 1_000_000      # bytes of one template file
SIZE_LIMIT = 10_000_000              # items or characters of any value a template makes, and of the rendered report
TIME_LIMIT = 10.0                    # seconds to render a report through a host's template (POSIX, main thread)
MEMORY_LIMIT = 1 << 30               # bytes a render through a host's template may add to the process (Linux)


@lru_cache(maxsize=4)
def environment(templates_dir: Path | None = None):
    """One per templates folder and process: compiling the templates costs more than rendering a report, and
    Jinja reloads a template whose file a host changed. Sandboxed, and immutable, because a host's templates
    come from a folder that a setting, maybe from a .env file mailed around with a game, names: a template
    lays out the report's context and may reach nothing else (no Python internals, no changing the context, no
    file outside the folder, no value beyond SIZE_LIMIT).
    Jinja2 is imported here, so that `status` and `submit`, which render nothing, start without it."""
    from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined
    loaders = [_host_loader(templates_dir)] if templates_dir else []
    loaders.append(FileSystemLoader(str(files("adjudicator.templates"))))
    return _bounded_environment()(loader=ChoiceLoader(loaders), undefined=StrictUndefined, trim_blocks=True,
                                  lstrip_blocks=True, keep_trailing_newline=True, bytecode_cache=_bytecode_cache())


def _host_loader(folder: Path):
    """The loader of a host's templates: only a regular file really inside the folder, of at most
    TEMPLATE_FILE_LIMIT bytes. A tar, zip or git checkout of a mailed game folder keeps symbolic links, and Jinja's
    own loader follows them: a link to /proc/self/environ or to the dice keys would print the host's secrets."""
    import os
    import stat
    from jinja2 import BaseLoader, TemplateNotFound
    from jinja2.loaders import split_template_path

    class HostLoader(BaseLoader):
        def get_source(self, environment, template):
            pieces = split_template_path(template)          # refuses ".." itself
            path = folder
            for piece in pieces:
                path = path / piece
                try:
                    mode = os.lstat(path).st_mode
                except OSError:
                    raise TemplateNotFound(template) from None      # not the host's: the built-in one, if any
                if stat.S_ISLNK(mode):
                    raise _refused(template, folder, "is a symbolic link (or lies under one)")
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            except OSError as exc:
                raise _refused(template, folder, f"cannot be read ({exc.strerror})") from None
            with os.fdopen(fd, "rb") as fh:
                info = os.fstat(fh.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise _refused(template, folder, "is not a regular file (a pipe, device or folder)")
                data = fh.read(TEMPLATE_FILE_LIMIT + 1)
            if len(data) > TEMPLATE_FILE_LIMIT:
                raise _refused(template, folder, f"is longer than {TEMPLATE_FILE_LIMIT:,} bytes")
            try:
                source = data.decode("utf-8")
            except UnicodeDecodeError:
                raise _refused(template, folder, "is not UTF-8 text") from None
            mtime = info.st_mtime
            return source, str(path), lambda: _mtime(path) == mtime

    return HostLoader()


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def _refused(template: str, folder: Path, why: str) -> ConfigError:
    return ConfigError(f"the template {template} in ADJUDICATOR_TEMPLATES ({folder}) {why}: a template is a regular "
                       f"text file inside that folder; correct or remove it")


@lru_cache(maxsize=1)
def _bounded_environment():
    """Jinja's immutable sandbox, with values bounded by SIZE_LIMIT: the sandbox stops a template from reaching
    Python's internals, not from asking for `'x' * 4000000000` or `[1] * 10**9`, which would take the host's
    memory before any check. Products, powers and %-formats are checked before they are computed; sums, joins
    (`~`), calls of filters and methods are refused a result beyond it (at most twice the limit is ever made), and
    calls a number argument beyond it (`center(10**9)`)."""
    import math
    from jinja2.compiler import CodeGenerator
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

    def too_big(what: str) -> SecurityError:
        return SecurityError(f"{what} would be larger than the limit of {SIZE_LIMIT:,}")

    def sized(value):
        if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)) and len(value) > SIZE_LIMIT:
            raise too_big(f"a value of {len(value):,} items or characters")
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * SIZE_LIMIT:
            raise too_big("a number")
        return value

    def is_int(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    format_width = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")

    class BoundedCode(CodeGenerator):
        def visit_Concat(self, node, frame) -> None:
            """`a ~ b`, which Jinja joins without the sandbox: doubled in a loop it would take the host's memory."""
            self.write("environment.sized(")
            super().visit_Concat(node, frame)
            self.write(")")

    class Bounded(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["*", "**", "%", "+"])
        code_generator_class = BoundedCode

        def sized(self, value):
            return sized(value)

        def call_binop(self, context, operator, left, right):
            if operator == "*":
                for seq, times in ((left, right), (right, left)):
                    if hasattr(seq, "__len__") and is_int(times) and len(seq) * max(times, 0) > SIZE_LIMIT:
                        raise too_big("a repetition")
                if is_int(left) and is_int(right) and left.bit_length() + right.bit_length() > 4 * SIZE_LIMIT:
                    raise too_big("a product")
            elif operator == "**" and is_int(left) and is_int(right) and abs(left) > 1 and right > 0:
                if right * math.log2(abs(left)) > 4 * SIZE_LIMIT:
                    raise too_big("a power")
            elif operator == "%" and isinstance(left, str):
                for width in format_width.finditer(left):
                    if "*" in width.groups() or any(w and int(w) > SIZE_LIMIT for w in width.groups()):
                        raise too_big("a %-format's width")
            elif operator == "+" and hasattr(left, "__len__") and hasattr(right, "__len__"):
                if len(left) + len(right) > SIZE_LIMIT:
                    raise too_big("a sum")
            return sized(super().call_binop(context, operator, left, right))

        def call(__self, __context, __obj, *args, **kwargs):      # noqa: N805 (Jinja's own signature)
            for value in (*args, *kwargs.values()):
                if is_int(value) and abs(value) > SIZE_LIMIT:
                    raise too_big(f"the number {value:,} given to a call")
            return sized(super().call(__context, __obj, *args, **kwargs))

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.filters = {name: _checked_filter(f, sized, too_big)
                            for name, f in {**self.filters, **markup.FILTERS}.items()}

    return Bounded


def _checked_filter(f, sized, too_big):
    """A filter whose number arguments and result are held to SIZE_LIMIT (Jinja calls filters directly, not
    through the sandbox's `call`); Jinja's markers (pass_context…) are kept, as it reads them off the function."""
    from functools import wraps

    @wraps(f)
    def checked(*args, **kwargs):
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SIZE_LIMIT:
                raise too_big(f"the number {value:,} given to a filter")
        return sized(f(*args, **kwargs))

    if hasattr(f, "jinja_pass_arg"):
        checked.jinja_pass_arg = f.jinja_pass_arg
    return checked


def _bytecode_cache():
    """Compiled templates kept between commands, as Python keeps byte-code: compiling them costs a `report` more
    than reading its game. Jinja's own per-user folder in the temporary directory (private to the user, and
    checked for it); a cache that cannot be made or written only costs the compile, never the report. Its files
    have a name of their own: Jinja keys the cache by the template's file alone, and code compiled outside the
    sandbox (under Jinja's default name, or by an adjudicator before the sandbox) calls what a template names
    without the sandbox's checks."""
    from jinja2 import FileSystemBytecodeCache

    class QuietCache(FileSystemBytecodeCache):
        def dump_bytecode(self, bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    try:
        return QuietCache(pattern=SANDBOXED_CACHE)
    except (OSError, RuntimeError):
        return None


def pus(n: int) -> str:
    return f"{n} PU" if n == 1 else f"{n} PUs"


_CORRECTIONS = (
    (re.compile(r"(add|remove) (\S+) (\d+ [^\s,]+(?:, \d+ [^\s,]+)*) (.+)"),
     lambda m: f"{units_phrase({u: int(n) for n, u in (x.split(' ') for x in m[3].split(', '))})} of "
               f"{power(m[2])} {'added in' if m[1] == 'add' else 'removed from'} {m[4]}"),
    (re.compile(r"owner (.+) (\S+)"), lambda m: f"{m[1]} is now held by {power(m[2])}"),
    (re.compile(r"pus (\S+) (-?\d+)"), lambda m: f"{whose(m[1])} treasury is set to {pus(int(m[2]))}"),
    (re.compile(r"damage (.+) (\S+) (\d+)"), lambda m: f"the {unit(m[2])} in {m[1]} is set to {m[3]} damage"),
    (re.compile(r"(war|peace) (\S+) (\S+)"),
     lambda m: f"{power(m[2])} and {power(m[3])} are now {'at war' if m[1] == 'war' else 'at peace'}"),
)


def correction_phrase(change: str) -> str:
    """A host's correction, kept in the journal as its canonical order (`add Russians 2 aaGun Eastern Poland`), as a
    sentence in players' words: "2 AA guns of the Soviet Union added in Eastern Poland"."""
    for pattern, phrase in _CORRECTIONS:
        m = pattern.fullmatch(change)
        if m:
            return phrase(m)
    return prose(change)


def objective_phrase(line: dict, power: str = "") -> str:
    """`power`: whose objective, named at the start of the map's names of objectives (`Germans 1 Trade with Russia`),
    where a report heading the power's income says it already."""
    name = objective(line["name"], power)
    if line["paid"]:
        times = f" ({line['times']} × {line['value']})" if line.get("times") else ""
        return f"National objective met: {name}, {line['paid']:+d} PUs{times}."
    why = f" ({prose(line['note'], sentence=False)})" if line.get("note") else ""
    if line["value"] < 0:               # a penalty (europe_improved's Soviet convoy center): nothing lost
        return f"National objective not triggered: {name} (no penalty of {line['value']} PUs){why}."
    return f"National objective missed: {name} ({line['value']} PUs){why}."


def describe(event: dict) -> list[str]:
    """The report's sentences for one journal event: a game's own words first, where it gave them ("text": a
    declaration, an alliance formed, a rule of its own at work), then the engine's for its own kinds."""
    kind = event["type"]
    if kind == "rule" or ("text" in event and not kind.startswith("victory")):
        return [prose(event["text"]) + (f" [{event['rule']}]" if event.get("rule") else "")]
    if kind == "purchase" and "bid_left" in event:
        return [f"{does(event['power'], 'buy')} {units_phrase(event['units'])} for {event['cost']} PUs of "
                f"{their(event['power'])} bid ({event['bid_left']} of it left)."]
    if kind == "purchase":
        return [f"{does(event['power'], 'buy')} {units_phrase(event['units'])} for {event['cost']} PUs "
                f"({event['treasury']} left)."]
    if kind == "bid_end":
        kept, its = event["kept"], their(event["power"])
        if not kept:
            return [f"{does(event['power'], 'have')} spent {its} whole bid."]
        return [f"{does(event['power'], 'keep')} the {kept} PU{'' if kept == 1 else 's'} left of {its} bid in {its} "
                f"treasury (now {event['treasury']})."]
    if kind == "spending":          # the Expanded Global's war status, taken as Purchase and Repair begins (EG-29)
        if event["cap"] is None:
            return [f"{heading(event['power'])}: at war (with {powers(event['at_war_with'])}) — full spending."]
        return [f"{heading(event['power'])}: at peace — Peacetime Spending: at most {event['cap']} IPCs this turn (half "
                f"the income of {event['income']}, rounded down) [EG-29]."]
    if kind == "repair":
        return [f"{does(event['power'], 'repair')} {event['amount']} damage on the {unit(event['unit'])} in "
                f"{event['place']} for {event.get('cost', event['amount'])} PUs ({event['treasury']} PUs left)."]
    if kind == "war":
        also = [c for c in event.get("changes", []) if {c[0], c[1]} != {event["power"], event["target"]}]
        declared = f"{does(event['power'], 'declare')} war on {power(event['target'])}"
        return [f"{declared}; with it, {relations(also, towards=event['power'])}." if also else f"{declared}."]
    if kind == "politics":          # a game's own sentence before the changes; a trigger's name (a label) is left out
        what = f"{prose(event['what'])}: " if re.search(r"\b[a-z]{2,}\b", event.get("what", "")) else ""
        return [f"{what}{relations(event['changes'])}." if what else f"{capitalised(relations(event['changes']))}."]
    if kind == "frontier":
        return [f"{prose(event['what'])}: {power(event['power'])} now {verb(event['power'], 'buy')} from the list "
                f"{prose(event['frontier'])}."]
    if kind == "removed":
        return [f"{prose(event['reason'])}: {units_phrase(event['units'])} of {power(event['power'])} removed from "
                f"{event['place']}."]
    if kind == "placed_by_rule":
        return [f"{prose(event['reason'])}: {units_phrase(event['units'])} of {power(event['power'])} placed in "
                f"{event['place']}."]
    if kind == "move":
        line = f"{units_phrase(event['units'])}: {' > '.join(event['path'])}"
        if event.get("riders"):
            line += f" (with {units_phrase(event['riders'])} aboard)"
        if event.get("airborne"):
            line += f" ({units_phrase(event['airborne'])} left airborne in {event['path'][0]}, not named in the order)"
        if event.get("raid"):
            line += f" (bombing raid on the {unit(event['raid'])})"
        if event.get("attack"):
            line += f" (attack on {event['attack']})"
        short = ([f"Order partly carried out: `{event['ordered']}`: {units_phrase(event['units'])} went; "
                  f"{units_phrase(event['short'])} could not ({prose(event['short_reason'], sentence=False)})."] if event.get("short") else [])
        return [line] + short + [blitz_phrase(c) for c in event.get("captures", [])]
    if kind == "battle_order":
        return [f"Battle order: `{event['order']}`"]
    if kind == "bombard_order":
        if not event["units"]:
            return [f"No ship in {event['from']} bombards {event['place']} (`{event['order']}`)."]
        return [f"{units_phrase(event['units'])} in {event['from']} to bombard {event['place']} (`{event['order']}`)."]
    if kind == "capture":
        return [capture_phrase(event) + "."]
    if kind == "place":
        given = "".join(f"; {'they' if units == event['units'] else units_phrase(units)} pass to {power(owner)}"
                        for owner, units in event.get("given", {}).items())      # battle_account.mark_given
        return [f"{units_phrase(event['units'])} placed in {event['place']}{' (bid)' if event.get('bid') else ''}{given}."]
    if kind == "void":
        return [f"Order void: `{event['order']}`: {prose(event['reason'])}."]
    if kind == "crash":
        why = f": {event['reason']}" if event.get("reason") else ""
        return [f"{capitalised(whose(event['power']))} {unit(event['unit'])} in {event['place']} found no place to "
                f"land and is lost{why}."]
    if kind == "landing":
        where = ", where its order sent it" if event.get("as_ordered") else ""
        return [f"{capitalised(whose(event['power']))} {unit(event['unit'])} in {event['from']} lands in {event['to']}"
                f"{where} ({event['reason']})."]
    if kind == "scramble":
        if not event["units"]:
            return [f"{does(event['power'], 'scramble')} nothing from {event['from']} into {event['to']} "
                    f"({event.get('note', 'none ready')}; {event['why']})."]
        against = f" against the landing in {', '.join(event['landing'])}" if event.get("landing") else ""
        return [f"{does(event['power'], 'scramble')} {units_phrase(event['units'])} from {event['from']} into "
                f"{event['to']}{against} ({event['why']})."]
    if kind == "kamikaze":
        return [kamikaze_phrase(event)]
    if kind == "assault_landing":
        return [f"{units_phrase(event['units'])} land from {event['from']} in {event['place']}."]
    if kind == "landing_called_off" and event.get("retreated_from") is not None:
        return [f"The landing in {event['place']} is called off: the transports retreated from "
                f"{event['retreated_from']} to {event['from']}; {units_phrase(event['units'])} stay aboard."]
    if kind == "landing_called_off":
        why = event.get("reason", f"enemy warships still hold {event['from']}")
        return [f"The landing in {event['place']} is called off: {why}; {units_phrase(event['units'])} stay aboard."]
    if kind == "called_off":
        return [f"The attack on {event['place']} is called off: {event['reason']}."]
    if kind == "ship_repaired":
        where = f" at the naval base in {event['base']}" if event.get("base") else ""
        if "fee" in event:          # the Expanded Global's repair fee (EG-30)
            return [f"{capitalised(whose(event['power']))} {unit(event['unit'])} in {event['place']} is repaired{where} "
                    f"for {event['fee']} IPCs ({event['treasury']} left)."]
        return [f"{capitalised(whose(event['power']))} {unit(event['unit'])} in {event['place']} is repaired{where}."]
    if kind == "convoy":
        return [f"Convoy disruption in {event['zone']} against {power(event['power'])}: "
                f"{' '.join(map(str, event['values']))} — dice of 1-3 sum {event['rolled']}, at most {event['cap']}: "
                f"{power(event['power'])} {verb(event['power'], 'lose')} {pus(event['loss'])}."]
    if kind == "raid":
        return raid_phrases(event)
    if kind == "income":
        cut = sum(-line["amount"] for line in event.get("lines", []) if line["item"] == "convoy disruption")
        less = f", {cut} less for convoy disruption" if cut else ""
        return [f"{does(event['power'], 'collect')} {event['income']} PUs{less} (treasury {event['treasury']})."] + [
            f"Income: {prose(line['note'], sentence=False)}." for line in event.get("lines", [])
            if line["item"] != "objective" and line.get("note")
        ] + [objective_phrase(line, event["power"]) for line in event.get("lines", []) if line["item"] == "objective"] + (
            [f"{does(event['power'], 'gain')} {event['vps']} victory point{'' if event['vps'] == 1 else 's'} (1 for each full "
             f"10 PUs collected): {event['vps_total']} of the {event['vps_needed']} that win."] if "vps" in event else [])
    if kind == "held_over":
        return [f"Bought but not placed, kept for later: {units_phrase(event['units'])}."]
    if kind == "units_given":
        return [f"{capitalised(units_phrase(event['units']))} of {power(event['power'])} in {event['place']} pass to "
                f"{power(event['to'])}."]
    if kind == "unplaced_lost":
        return [f"Bought but not placed, lost (not refunded): {units_phrase(event['units'])} of "
                f"{power(event['power'])}."]
    if kind in ("victory_hold", "victory_hold_broken", "victory"):
        return [victory_phrase(event)]
    if kind == "next" and event["round"] == 0:
        return [f"Next: the bid of {power(event['power'])}."]
    if kind == "next":
        return [f"Next: round {event['round']}, {power(event['power'])}, {PHASE_TITLES[event['phase']].lower()}."]
    if kind == "edit":
        return [f"The host corrected the game ({event['reason']}): {correction_phrase(change)}." for change in event["changes"]]
    if kind == "standing":
        orders = "; ".join(f"`{o}`" for o in event["orders"])
        return [f"{capitalised(whose(event['power']))} standing orders: {orders}"]
    if kind == "salts":
        return salts_phrases(event)
    return [json.dumps(event, sort_keys=True)]


def kamikaze_phrase(event: dict) -> str:
    """Kamikaze strikes in one zone: each token's target, die and effect, and the tokens left (RULINGS.md "kamikaze")."""
    who = event["power"]
    head = f"Kamikaze in {event['place']}: {power(who)}"
    if not event["strikes"]:
        why = (f"{verb(who, 'have')} no tokens left" if not event["tokens_left"]
               else f"{verb(who, 'strike')} with none (max 0)")
        return f"{head} {why} ({event['why']}) [kamikaze]."
    n = len(event["strikes"])
    strikes = ", ".join(f"{unit(s['unit'])} {s['die']} {s['result']}" for s in event["strikes"])
    lost = f"; lost aboard: {units_phrase(event['lost'])}" if event.get("lost") else ""
    return (f"{head} {verb(who, 'spend')} {n} token{'s' if n > 1 else ''} on {whose(event['attacker'])} ships "
            f"({event['why']}), hitting on "
            f"{event['attack']} or less: {strikes}{lost}; {event['tokens_left']} token"
            f"{'' if event['tokens_left'] == 1 else 's'} left [kamikaze].")


def victory_phrase(event: dict) -> str:
    """A game's victory condition: a hold begun or kept (players must see it coming), broken, or won; a game
    whose end is not a hold words its event itself ("text")."""
    if "text" in event:
        return prose(event["text"])
    side, rule, who = event["side"], event["rule"], event["power"]
    begun = f"the turn of {power(who)} in round {event['round']}"
    when = f"when {power(who)} {verb(who, 'have')} played {their(who)} turn of round {event['until']}"
    if "cities" not in event:           # a map's victory trigger: what the side must hold, in the map's places
        goal = event["condition"]
        if event["type"] == "victory":
            return (f"Game over: the {side} win. They held {goal} for a whole round, from {begun} to their turn in "
                    f"round {event['until']} [{rule}].")
        if event["type"] == "victory_hold_broken":
            return (f"The {side} no longer hold {goal}: their hold begun with {begun} is broken; a new one starts "
                    f"only when they hold it again [{rule}].")
        if not event["new"]:
            return (f"The {side} still hold {goal}, a hold counted from {begun}: they win if that still holds {when} "
                    f"[{rule}].")
        return f"The {side} hold {goal}: they win if that still holds {when}, a whole round from now [{rule}]."
    n, counted = event["cities"], event["counted"]
    held = f"{n} cit{'y' if n == 1 else 'ies'}"
    if event["type"] == "victory":
        return (f"Game over: the {side} win. The {counted} held {event['condition']} cities for a whole round, from "
                f"{begun} to their turn in round {event['until']}; they hold {held} [{rule}].")
    if event["type"] == "victory_hold_broken":
        return (f"The {counted} hold {held}, no longer {event['condition']}: the hold of the {side} begun with {begun} "
                f"is broken; a new one starts only when the condition is met again [{rule}].")
    if not event["new"]:
        return (f"The {counted} still hold {held}, {event['condition']}, a hold counted from {begun}: the {side} "
                f"win if that still holds {when} [{rule}].")
    if event.get("at_round_start"):
        return (f"Round {event['round']} begins with the {counted} holding {held}, {event['condition']}: the hold "
                f"starts with {begun}, and the {side} win if that still holds {when} [{rule}].")
    return (f"The {counted} hold {held}, {event['condition']}: the {side} win if that still holds {when}, a whole "
            f"round from now [{rule}].")


def salts_phrases(event: dict) -> list[str]:
    """Strict dice: whose salts key this turn's dice, in the order of the key (turn order; in old games, the order
    they were accepted), which orders they bind, and whose are missing."""
    salts = ", ".join(f"{power(s['power'])} (`{s['salt']}`)" for s in event["salts"])
    if salts and "orders" in event:
        bound = ", ".join(sorted({s["binds"] for s in event["salts"]}))
        lines = [f"Strict dice: this turn's dice key is salted by {salts}, in turn order; the salts bind the orders "
                 f"with sha256 {bound}."]
    else:
        lines = [f"Strict dice: this turn's dice key is salted by {salts}, in that order." if salts
                 else "Strict dice: no salt came in for this turn."]
    if event["missing"]:
        lines.append(f"The host adjudicated without the salts of {powers(event['missing'])} "
                     "(deadline passed, `adjudicate --without-salts`).")
    return lines


def dice_phrase(grp: dict | None) -> str:
    if not grp:
        return "no dice"
    if len(grp.get("units", ())) == len(grp["values"]) and all("@" in u for u in grp["units"]):
        return grouped_dice(grp)
    return f"{' '.join(map(str, grp['values']))} ({grp['hits']} hit{'s' if grp['hits'] != 1 else ''})"


def event_lines(event: dict, types: dict) -> list[str]:
    """An event's lines in a turn's report; a raid's, with the value of the units it cost (the game's prices)."""
    lines = describe(event)
    lost = account.raid_lost_value(event, types) if event["type"] == "raid" else None
    return lines + [lost] if lost else lines


def raid_phrases(event: dict) -> list[str]:
    """A strategic bombing raid: who flew, the air battle, the facility's AA, the damage."""
    lines = [f"{does(event['attacker'], 'raid')} the {unit(event['facility'])} in {event['place']} with "
             f"{units_phrase(event['raiders'])}."]
    aa = event.get("aa")
    if aa and aa.get("first"):              # the classic rulebooks: AA first, at every raiding aircraft
        lines.append(f"AA fires ({units_phrase(aa['guns'])}) at every raiding aircraft: {account.raid_shots(aa)}; "
                     f"lost {units_phrase(aa['losses'])}.")
    if "air_battle" in event:
        ab = event["air_battle"]
        lines.append(f"Air battle with {units_phrase(event['interceptors'])} intercepting: raiders {dice_phrase(ab['attacker'])}, "
                     f"interceptors {dice_phrase(ab['defender'])}; raiders lose {units_phrase(ab['attacker_losses'])}, "
                     f"interceptors lose {units_phrase(ab['defender_losses'])}.")
    if aa and not aa.get("first"):
        lines.append(f"The {unit(event['facility'])}'s AA fires: {account.raid_shots(aa)}; lost {units_phrase(aa['losses'])}.")
    dmg = event.get("damage")
    if dmg and "treasury_lost" in dmg:
        points = (f"; {power(dmg['power'])} {verb(dmg['power'], 'lose')} {dmg['vps_lost']} victory point{'s' if dmg['vps_lost'] != 1 else ''} "
                  f"({dmg['vps_total']} left)" if dmg.get("vps_lost") else "")
        points += f"; {dmg['vps_why']}" if dmg.get("vps_why") else ""        # a game's own count (its words)
        lines.append(f"Bombing: {' '.join(map(str, dmg['values']))} → {dmg['rolled']}; {power(dmg['power'])} "
                     f"{verb(dmg['power'], 'lose')} {pus(dmg['treasury_lost'])}{points}.")
    elif dmg:
        state = "" if dmg["operative"] else "; it is out of operation"
        lines.append(f"Bombing: {' '.join(map(str, dmg['values']))} → {dmg['rolled']} damage, {dmg['dealt']} taken "
                     f"(now {dmg['total']} of at most {dmg['max']}{state}).")
    elif event.get("raiders"):
        lines.append("No bomber got through: no damage.")
    lines += [f"Note: {prose(n)}" for n in event.get("notes", [])]
    return lines


def blitz_phrase(capture: dict) -> str:
    """A territory taken by moving through or into it: a neutral that joins, one taken back, one blitzed."""
    if capture.get("neutral") or capture.get("home"):
        return capture_phrase(capture) + "."
    return f"{capture['place']} is blitzed and taken by {power(capture['owner'])}."


def capture_phrase(event: dict) -> str:
    if event.get("neutral"):
        by = event["by"]
        army = f", and its {units_phrase(event['joined'])} join {'them' if current().plural(by) else 'it'}" \
            if event.get("joined") else ""
        return f"{event['place']} ({power(event['from'])}) joins {power(by)}, who {verb(by, 'take')} control{army}"
    if event.get("home"):           # taken back by its original owner (battle_account.mark_liberations)
        line = f"{event['place']} is liberated from {power(event['from'])} by {power(event['by'])}, its original owner"
    else:
        # "France is captured from France" reads as a slip: a territory named as its owner is, needs no "from"
        held = "" if heading(event["from"]) == event["place"] else f" from {power(event['from'])}"
        line = f"{event['place']} is captured{held}"
        line += (f" and liberated for {power(event['owner'])}" if event["owner"] != event["by"]
                 else f" by {power(event['by'])}")
    if event.get("treasury_taken"):
        line += f"; {power(event['by'])} {verb(event['by'], 'take')} {pus(event['treasury_taken'])} from the capital"
    if "bonus" in event:
        paid = ", ".join(f"{prose(b['item'])} {b['amount']}" for b in event["bonus"])
        source = "the bank" if event.get("bonus_from") is None else power(event["bonus_from"])
        line += f"; capture bonus to {power(event['by'])}: {paid} — {pus(event['bonus_paid'])} from {source}"
        if event.get("bonus_short"):
            line += f" ({event['bonus_short']} short: {source} had no more)"
    for c in event.get("changed", []):      # a marker's change (a city captured) is the map's bookkeeping, not news
        if not (current().is_marker(c["from"]) or current().is_marker(c["to"])):
            line += f"; the captured {unit(c['from'])} becomes {units_phrase({c['to']: c['count']})}"
    return line


def battle_view(event: dict, ools: dict[str, str], types: dict | None = None) -> dict:
    """A battle laid out for the templates: header, one line per step, result. `ools` names, per side, the order
    of loss that chose its casualties; `types`, the game's unit types by name, for the value each side lost and the
    hits no unit could take."""
    rounds = []
    if event.get("aa"):
        rounds.append(account.aa_line(event))
    fired_back = account.bombarded_in_round_one(event)
    if event.get("bombard"):
        bb = event["bombard"]
        rounds.append(f"Shore bombardment: {dice_phrase(bb)} → defender loses {units_phrase(bb['losses'])}")
    if event.get("strikes"):            # a game's own strikes as round 1 begins (MapFacts.opening_strikes)
        rounds.append(prose(event["strikes"].get("text") or f"Opening strikes: {dice_phrase(event['strikes'])}"))
    for r in event["rounds"]:
        head = f"Round {r['round']}"
        if r.get("held_fire"):
            rounds.append(f"{head}: the attacker's {units_phrase(r['held_fire'])} take no shot this round")
        if r.get("submerged", {}).get("defender"):
            rounds.append(f"{head}: defending {units_phrase(r['submerged']['defender'])} submerge ({r['submerged']['why']})")
        if r.get("submerged", {}).get("attacker"):
            rounds.append(f"{head}: attacking {units_phrase(r['submerged']['attacker'])} submerge and stay in "
                          f"{event['place']}, out of the battle ({r['submerged']['attacker_why']})")
        if r.get("surprise"):
            rounds += _exchange(f"{head}, surprise strike", r["surprise"], ools)
            rounds += _not_taken(f"{head}, surprise strike", event, r, types, surprise=True)
        if "attacker" in r and fired_back and r is event["rounds"][0]:
            rounds += _exchange(head, {**r, "defender_losses": dict(+(Counter(r["defender_losses"]) - fired_back))}, ools)
            rounds.append(f"{head}: the bombardment's {units_phrase(dict(fired_back))} fired back and are removed now")
        elif "attacker" in r:
            rounds += _exchange(head, r, ools)
        if "attacker" in r:
            rounds += _not_taken(head, event, r, types)
        for role, units in r.get("defenceless", {}).items():
            rounds.append(f"{head}: the {role}'s {units_phrase(units)}, left without escort, are destroyed")
        for group in r.get("left", []):
            rounds.append(f"{head}: the attacker's {units_phrase(group['units'])} leave the battle: {prose(group['why'])}")
    sea = event.get("sea")
    result = {"captured": "the attackers win",
              "defended": "the defence holds",
              "retreated": f"the attacker retreats to {event.get('retreat', {}).get('to', '?')}",
              "cleared": account.won_at_sea(event) if sea else
                         "the defenders are destroyed but no land unit is left to take the territory",
              "submerged": "the attacking submarines submerge, and no other attacker is left: the battle ends",
              "stalemate": "neither side can hit the other: the battle ends with both in place",
              "destroyed": "both sides are destroyed" if not event["survivors"]["defender"] else "the attack is wiped out"}[event["result"]]
    if event.get("capture"):
        result = capture_phrase(event["capture"])
    notes = account.distinct_notes([prose(n) for n in event.get("notes", []) if not n.startswith("neither side can hit")])
    if event.get("aircraft_retreat"):
        gone = event["aircraft_retreat"]
        notes.append(f"the attacking aircraft leave the battle after round {gone['after_round']} "
                     f"({units_phrase(gone['units'])}) and land in the non-combat move; the units that came ashore "
                     "fight on")
    if event.get("retreat", {}).get("stay"):
        notes.append(f"units that came ashore from the sea cannot retreat and fight on: {units_phrase(event['retreat']['stay'])}")
    return {"place": event["place"], "attacker": power(event["attacker"]), "attacks": verb(event["attacker"], "attack"),
            "defenders": powers(event["defenders"]),
            "attacking": units_phrase(event["attacking"]), "defending": units_phrase(event["defending"]),
            "rounds": rounds, "result": result, "notes": notes,
            "survivors": account.attackers_left(event), "defender_survivors": units_phrase(event["survivors"]["defender"]),
            "lost": account.lost_value(event, types) if types is not None else ""}


def _not_taken(head: str, event: dict, r: dict, types: dict | None, surprise: bool = False) -> list[str]:
    """Hits that no unit could take, said, so that a reader does not look for the losses they did not cause."""
    lines = []
    for side in ("attacker", "defender") if types is not None else ():
        n = account.hits_not_taken(event, r, side, types, surprise)
        if n:
            lines.append(f"{head}: {n} of the {side}'s hits found no unit they may hit (aircraft cannot hit submarines "
                         "without a destroyer of their own; submarines cannot hit aircraft)")
    return lines


def _exchange(head: str, r: dict, ools: dict[str, str]) -> list[str]:
    """One exchange of fire: each side's dice by unit group with the number they need, then the losses, the
    damage and the order of loss that chose them."""
    lines = [f"{head}, {side}: {grouped_dice(r[side])}" if r[side] else f"{head}, {side}: cannot fire"
             for side in ("attacker", "defender")]
    losses = []
    for side in ("attacker", "defender"):
        lost = units_phrase(r[f"{side}_losses"])
        if r.get(f"{side}_damaged"):
            lost += f" (and {units_phrase(r[f'{side}_damaged'])} damaged)"
        if r[f"{side}_losses"] or r.get(f"{side}_damaged"):
            lost += f" ({ools[side]})"
        losses.append(f"{side} loses {lost}")
    return lines + [f"{head}, losses: {'; '.join(losses)}"]


def grouped_dice(grp: dict) -> str:
    """`2 infantry@1: 6 1; 1 armour@3: 2 → 1 hit`: the dice of a roll by unit type and the number a die needs
    (at most), in the order they were rolled, as the dice block lists them one by one."""
    groups: dict[str, list[int]] = {}
    for name, value in zip(grp["units"], grp["values"]):
        groups.setdefault(unit(name), []).append(value)
    each = "; ".join(_unit_dice(name, v) for name, v in groups.items())
    return f"{each} → {grp['hits']} hit{'s' if grp['hits'] != 1 else ''}"


def _unit_dice(unit: str, values: list[int]) -> str:
    """`2 infantry@1: 6 1`; a unit that rolls several dice and keeps the best (`bomber@4 best of 2`, a game's Long
    Range Bombers) shows each unit's dice together: `2 bomber@4 best of 2: (2 3) (6 6)`."""
    found = re.search(r" best of (\d+)$", unit)
    if not found:
        return f"{counted(len(values), unit)}: {' '.join(map(str, values))}"
    n = int(found.group(1))
    each = [values[i:i + n] for i in range(0, len(values), n)]
    return f"{counted(len(each), unit)}: " + " ".join("(" + " ".join(map(str, d)) + ")" for d in each)


def ool_phrase(power: str, role: str, battle: str | None, standing: str | None) -> str:
    """The order of loss that chose a side's casualties: the battle's own, the power's standing one, and the
    default for whatever those do not list (combat.order_of_loss)."""
    chosen = []
    if battle:
        chosen.append(f"{whose(power)} order for this battle ({_ool_words(battle)})")
    if standing:
        chosen.append(f"{their(power) if chosen else whose(power)} standing order ({_ool_words(standing)})")
    default = f"lowest {'attack' if role == 'attacker' else 'defence'}, then cheapest"
    chosen.append(f"then the default: {default}" if chosen else f"the default order of loss: {default}")
    return ", ".join(chosen)


def _ool_words(order: str) -> str:
    """An order of loss as the players' words: `infantry, mech_infantry, 2 armour` → `infantry, mech infantry,
    2 armour` (the order itself, as posted, is quoted in the combat move)."""
    return ", ".join(re.sub(r"[^\s\d][^\s]*(?:_[^\s]+)*$", lambda m: unit(m.group(0)), item.strip())
                     for item in order.split(","))


def _orders_understood(setup, turn_subs: list) -> list[str]:
    """The turn's orders as the adjudicator read them: each locked submission parsed again, in canonical form."""
    return [o.canonical() for sub in turn_subs for o in setup.parse(sub.text, sub.power, sub.phase).submission.orders]


def _ool_sources(steps: list, events: dict[int, list[dict]], mine: list) -> dict[int, dict[str, dict[str, str]]]:
    """For each step of the turn, the orders of loss in force: "standing" by power, "battle" (this turn's) by place."""
    standing: dict[str, str] = {}
    battle: dict[str, str] = {}
    ids = {st.id for st in mine}
    out = {}
    for st in steps:
        for e in events[st.id]:
            if e["type"] == "standing":
                for order in e["orders"]:
                    if order.startswith("ool "):
                        standing[e["power"]] = order.removeprefix("ool ")
            elif e["type"] == "battle_order" and st.id in ids and e["order"].startswith("ool "):
                place, _, units = e["order"].removeprefix("ool ").rpartition(": ")
                battle[place] = units
        if st.id in ids:
            out[st.id] = {"standing": dict(standing), "battle": dict(battle)}
    return out


def _battle_ools(event: dict, sources: dict) -> dict[str, str]:
    attacker = event["attacker"]
    defenders = event["defenders"]
    lead = defenders[0] if len(defenders) == 1 else None
    ools = {"attacker": ool_phrase(attacker, "attacker", sources["battle"].get(event["place"]),
                                   sources["standing"].get(attacker))}
    if lead:
        ools["defender"] = ool_phrase(lead, "defender", None, sources["standing"].get(lead))
    else:
        ools["defender"] = "the order of loss of the defending power with most units there (its standing order, then the default)"
    return ools


def _standings(snapshot: dict | None, scenario_powers: list[str]) -> dict:
    """The treasury table, the game's own picture of the position ("board") and the victory standing after the
    turn, from the turn's snapshot."""
    if not snapshot:
        return {"table": [], "victory": [], "board": []}
    income = snapshot.get("income", {})
    listed = [p for p in scenario_powers if p in snapshot["treasury"]] or sorted(snapshot["treasury"])
    table = [{"power": heading(p), "treasury": snapshot["treasury"][p], "income": income.get(p, "")} for p in listed
             if p in income or not income]
    victory = snapshot.get("victory", {})
    lines = [prose(victory["winner"]["text"])] if victory.get("winner") else [
        prose(h["text"]) for h in victory.get("holds", [])]
    return {"table": table, "victory": lines, "board": snapshot.get("board", [])}


def turn_ordered(scenario) -> list[str]:
    """The scenario's powers in the order the standings list them: those taking no turns by name, then the others
    in turn order, as reports have always listed them (ORDER BY the power table's turn_order, -1 for no turns, in
    the table's key order). From the setup, which `audit` replays and the setup hash covers, not from the table's
    copy of the order, which a hand may edit unseen by `audit`."""
    turns = scenario.turn_players()
    return sorted((p.name for p in scenario.players), key=lambda p: (turns.index(p) if p in turns else -1, p))


def _in_players_words(build):
    """A report's context built with the game's words for people (adjudicator/people.py): every phrase of this
    module asks for them while it is built."""
    from functools import wraps

    @wraps(build)
    def built(session: Session, turn_index: int | None, game=None, snapshot: dict | None = None) -> dict:
        from .game import setup_of                              # game imports this module
        game = game or db.the_game(session)
        setup = setup_of(session, game)
        with speaking(People(setup.scenario, setup.rules.people_names)):
            return build(session, turn_index, game, snapshot)
    return built


@_in_players_words
def turn_context(session: Session, turn_index: int | None, game=None, snapshot: dict | None = None) -> dict:
    """`game`: the game's row, and `snapshot`: the turn's, when the caller has them."""
    from .game import setup_of                              # game imports this module
    game = game or db.the_game(session)
    setup = setup_of(session, game)
    # the journal's turns only ever go on: the first and the last adjudicated are its first and last steps' turns
    played = "SELECT turn_index FROM step WHERE game_id = :game AND phase != 'standing' ORDER BY seq {} LIMIT 1"
    last = next((row[0] for row in db.rows(session, played.format("DESC"), game=game.id)), None)
    if last is None:
        raise AdjudicatorError("nothing has been adjudicated yet: there is no report to show")
    if turn_index is None:
        turn_index = last
    # the turn's steps, and the standing orders filed before them (the orders of loss in force in its battles): each
    # part found by its index (a plain `turn_index = :turn OR phase = 'standing'` reads every step of the game)
    steps = db.rows(session, "SELECT * FROM step WHERE id IN (SELECT id FROM step WHERE game_id = :game AND "
                             "turn_index = :turn UNION SELECT id FROM step WHERE game_id = :game AND phase = 'standing') "
                             "ORDER BY seq", game=game.id, turn=turn_index)
    mine = [s for s in steps if s.turn_index == turn_index and s.phase != "standing"]
    if not mine:
        first = db.rows(session, played.format("ASC"), game=game.id)[0][0]
        raise AdjudicatorError(f"no report for turn {turn_index}: the turns played so far are {first} to {last}")
    groups = db.rows(session, "SELECT * FROM dice_group WHERE game_id = :game AND turn_index = :turn ORDER BY id",
                   game=game.id, turn=turn_index)
    seed = next(iter(db.rows(session, "SELECT seed, salts FROM revealedseed WHERE game_id = :game AND turn_index = :turn",
                           game=game.id, turn=turn_index)), None)
    ids = list(dict.fromkeys(st.submission_id for st in mine if st.submission_id is not None))
    subs = {sub.id: sub for sub in db.rows(session, "SELECT * FROM submission WHERE id IN :ids", ids=ids)} if ids else {}
    turn_subs = [subs[i] for i in ids if i in subs and subs[i].kind == "turn"]
    events = {st.id: json.loads(st.events) for st in steps}
    sources = _ool_sources(steps, events, mine)
    types, originals = account.unit_types(setup.scenario), account.original_owners(setup.scenario)
    phases, game_over = [], []
    # a turn that ends the game has no next turn to announce
    over = any(e["type"] == "victory" for st in mine for e in events[st.id])
    for st in mine:
        mine_events = [e for e in events[st.id] if not (over and e["type"] == "next")]
        if not mine_events:             # a phase in which nothing happened is left out
            continue
        account.mark_liberations(mine_events, originals)
        account.mark_given(mine_events, setup.rules)
        game_over += [victory_phrase(e) for e in mine_events if e["type"] == "victory"]
        title = ((BID_TITLES if st.round == 0 else setup.rules.phase_titles).get(st.phase)
                 or PHASE_TITLES.get(st.phase, st.phase))
        before, battles = account.at_battles(mine_events)
        phases.append({"phase": st.phase, "title": title, "code": False,
                       "lines": [line for e in before for line in event_lines(e, types)],
                       "battles": [{**account.own_words(battle_view(b, _battle_ools(b, sources[st.id]), types), b,
                                                        setup.rules),
                                    "after": [line for e in after for line in event_lines(e, types)]} for b, after in battles],
                       "state_hash": st.state_hash})
    understood = _orders_understood(setup, turn_subs)
    if understood:
        phases.insert(0, {"phase": "orders", "title": "Orders as understood", "code": True, "battles": [], "state_hash": "",
                          "lines": understood})
    snapshot = snapshot or db.load_snapshot(session, game, turn_index)
    awaiting = None
    if snapshot and snapshot["turn_index"] == turn_index and not over and snapshot["round"] == 0:
        awaiting = f"Next: the bid of {power(snapshot['power'])}, before round 1."
    elif snapshot and snapshot["turn_index"] == turn_index and not over:
        awaiting = (f"Next: orders from {power(snapshot['power'])} for {their(snapshot['power'])} "
                    f"{PHASE_TITLES.get(snapshot['phase'], snapshot['phase']).lower()} (round {snapshot['round']}).")
    return {
        "game": {"id": game.id, "title": game.title, "name": game.name, "rules": game.rules_version,
                 "anchor": game.anchor, "setup_hash": setup.setup_hash, "test_seed": game.test_seed, "dice_mode": dice.mode_name(game.dice_mode)},
        "turn": {"index": turn_index, "round": mine[0].round, "power": mine[0].power, "name": heading(mine[0].power),
                 "bid": mine[0].round == 0},
        "orders": [{"seq": sub.seq, "power": sub.power, "name": heading(sub.power), "sha256": sub.sha256}
                   for sub in turn_subs],
        "seed": seed.seed if seed else None,
        "salts": json.loads(seed.salts) if seed else [],
        "salted": next(({"binds": [s["binds"] for s in e["salts"]], "orders": e["orders"]} for st in mine
                        for e in events[st.id] if e["type"] == "salts" and "orders" in e), None),
        "phases": phases,
        "game_over": game_over,
        "standings": _standings(snapshot, turn_ordered(setup.scenario)),
        "summary": summary_lines(setup, snapshot),
        "awaiting": awaiting,
        "dice": [{"label": g.label, "sides": g.sides, "values": json.loads(g.dice), "units": json.loads(g.units)} for g in groups],
        "state_hash": mine[-1].state_hash,
        "part": None,
    }


def dice_block(ctx: dict, groups: list[dict] | None = None) -> str:
    """The machine-checkable part of every report: game, turn, anchor, seed, how many groups and dice the block
    holds (so that a line a mail client cut or a forum dropped is an error, not a die less to check), and each
    dice group on one line. `groups` makes the block of one part of a report split for posting."""
    groups = ctx["dice"] if groups is None else groups
    lines = ["adjudicator dice", f"game: {ctx['game']['id']}", f"turn: {ctx['turn']['index']}",
             f"anchor: {ctx['game']['anchor']}",
             f"seed: {ctx['seed'] or '(revealed when this turn is over)'}"]
    if ctx["salts"]:
        lines.append("salts: " + " | ".join(ctx["salts"]))
        if ctx.get("salted"):           # which orders each salt binds, and the orders salted (verify compares)
            lines += ["binds: " + " | ".join(ctx["salted"]["binds"]), f"orders: {ctx['salted']['orders']}"]
    lines.append(f"holds: {len(groups)} groups, {sum(len(g['values']) for g in groups)} dice")
    for g in groups:
        lines.append(f"{g['label']} | d{g['sides']} | {' '.join(map(str, g['values']))} | {', '.join(g['units'])}")
    return "\n".join(lines)


def context(session: Session, turn_index: int | None, game=None, snapshot: dict | None = None) -> dict:
    """The template context of a turn's report; a journal damaged by hand is a StoreError, not a traceback."""
    try:
        ctx = turn_context(session, turn_index, game, snapshot)
        ctx["dice_block"] = dice_block(ctx)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StoreError(f"the stored journal of this turn is damaged ({type(exc).__name__}: {str(exc)[:100]}), so "
                         "its report cannot be written; restore the database from a copy") from None
    return ctx


def check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise AdjudicatorError(f"--format takes {', '.join(FORMATS)}, not {fmt!r}")


def render(session: Session, turn_index: int | None, fmt: str, templates_dir: Path | None = None) -> str:
    check_format(fmt)
    return render_context(context(session, turn_index), fmt, templates_dir)


def render_context(ctx: dict, fmt: str, templates_dir: Path | None = None) -> str:
    """A host's template that fails in any way, tries what the sandbox forbids, or goes beyond the bounds (its
    values or the report beyond SIZE_LIMIT, its rendering beyond TIME_LIMIT seconds) is the host's to fix (exit
    2, naming it); a built-in one that fails is a bug."""
    from jinja2.sandbox import SecurityError
    name = f"report.{fmt}.j2"
    env = environment(templates_dir)
    try:
        template = env.get_template(name)
        if templates_dir is None:
            return template.render(**ctx)
        with _time_limit(TIME_LIMIT), _memory_limit(MEMORY_LIMIT):
            text = template.render(**ctx)
        if len(text) > SIZE_LIMIT:
            raise SecurityError(f"the report it made is {len(text):,} characters, beyond the limit of {SIZE_LIMIT:,}")
        return text
    except AdjudicatorError:
        raise
    except (Exception, _TooSlow) as exc:    # noqa: BLE001 — a host's template may raise anything; a built-in one not
        if templates_dir is None or not _host_template_used(templates_dir, name, exc):
            raise
        if isinstance(exc, SecurityError):
            what = "tried an unsafe operation"
        elif isinstance(exc, _TooSlow):
            what = f"took longer than {TIME_LIMIT:g} seconds to render"
        else:
            what = "failed"
        why = str(exc) if isinstance(exc, _TooSlow) else f"{type(exc).__name__}: {exc}" if \
            not _is_template_error(exc) else str(exc)
        raise ConfigError(f"the template {name} in ADJUDICATOR_TEMPLATES ({templates_dir}) {what}: {why[:300]}. A "
                          f"template may only lay out the report's values; correct or remove it") from None


def _is_template_error(exc: Exception) -> bool:
    from jinja2 import TemplateError
    return isinstance(exc, TemplateError)


def _host_template_used(templates_dir: Path, name: str, exc: Exception) -> bool:
    """Whether the failure is the host's: their folder holds the report's template (which may include others), or
    the traceback passes through a template of their folder."""
    if (templates_dir / name).is_file():
        return True
    folder = str(templates_dir)
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(folder):
            return True
        tb = tb.tb_next
    return False


@contextmanager
def _memory_limit(extra: int):
    """The process's address space held to what it has plus `extra` while a host's template renders: the checks of
    values (SIZE_LIMIT) cannot foresee every filter's product (a long text's lines each indented by a million
    spaces); past this, an allocation fails with a MemoryError, which names the template like any failure. Linux
    only (the size now is read from /proc); elsewhere the value checks alone bound it."""
    try:
        import resource
        with open("/proc/self/statm") as fh:
            now = int(fh.read().split()[0]) * resource.getpagesize()
        previous = resource.getrlimit(resource.RLIMIT_AS)
        hard = previous[1]
        limit = now + extra if hard == resource.RLIM_INFINITY else min(now + extra, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, previous)


class _TooSlow(BaseException):
    """A host's template ran out of its TIME_LIMIT: not an Exception, which Jinja or a filter might catch."""


@contextmanager
def _time_limit(seconds: float):
    """Stops a host's template after `seconds` (a loop over ranges of 100,000, nested, runs for hours): a timer
    signal, so on POSIX in the main thread only; elsewhere the template runs unbounded in time (its values are
    still bounded in size)."""
    import signal
    import threading
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(_signum, _frame):
        raise _TooSlow(f"stopped after {seconds:g} seconds")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def length(text: str) -> int:
    """A post's length as NodeBB counts it: JavaScript string length, UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def store_report(session: Session, turn_index: int, fmt: str = "markdown", templates_dir: Path | None = None,
                 game=None, snapshot: dict | None = None) -> str:
    """Render the Markdown report of a turn with the built-in templates and keep it in the journal, where `audit`
    compares it with the replay's (a host's own templates change only what is printed); return the report in
    `fmt` with the host's templates, from the same context. `game` and `snapshot`: as for turn_context."""
    ctx = context(session, turn_index, game, snapshot)
    text = render_context(ctx, "markdown")
    db.insert(session, "report", game_id=ctx["game"]["id"], turn_index=turn_index, format="markdown", text=text,
              template_version=TEMPLATE_VERSION, created_at=now())
    return text if (fmt, templates_dir) == ("markdown", None) else render_context(ctx, fmt, templates_dir)
