"""A turn's report in posts under a forum's limit on a post's length.

Each part is a report of its own: the header, its share of the phases, and a dice block of the dice groups that
share's narrative prints, so that a part posted alone verifies fully (verify holds the narrative's dice to its
block). The parts are filled in the order of the report, each as full as it goes, measured on the rendered text
rather than estimated: a split in order can have no fewer parts. A battle whose narrative and dice together do
not fit in one post has its dice in the parts after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import Session

from . import verify
from .errors import AdjudicatorError
from .report import check_format, context, dice_block, length, render_context
from .verify_narrative import aliases, told_rolls


@dataclass
class _Item:
    """What goes into a part whole: a line or a battle of a phase (`phase` is its index, `opens` that it is the
    phase's first), the dice groups it prints (indices into the context's dice), or the standings that end the
    report (`last`)."""

    phase: int | None = None
    kind: str = ""
    body: object = None
    opens: bool = False
    groups: list[int] = field(default_factory=list)
    last: bool = False


def render_parts(session: Session, turn_index: int | None, fmt: str, limit: int,
                 templates_dir: Path | None = None) -> list[str]:
    """The report in posts of at most `limit` characters (as NodeBB counts them), numbered "part k of n" when
    there is more than one; each with the game, turn, anchor and seed in its dice block."""
    check_format(fmt)
    ctx = context(session, turn_index)
    whole = render_context(ctx, fmt, templates_dir)
    if length(whole) <= limit:
        return [whole]

    def render(items: list[_Item], k: int, n: int) -> str:
        groups = sorted(g for it in items for g in it.groups)
        return render_context({**ctx, "phases": _phases(ctx, items), "dice_block":
                               dice_block(ctx, [ctx["dice"][g] for g in groups]),
                               "part": {"number": k + 1, "of": n, "first": k == 0,
                                        "last": any(it.last for it in items)}}, fmt, templates_dir)

    items = _items(ctx, lambda item: render([item], 0, 1))
    most = 10 ** len(str(len(items) + len(ctx["dice"]))) - 1       # as many digits as the count of parts can have

    def fits(part: list[_Item], k: int) -> bool:
        return length(render(part, k, most)) <= limit

    # the fewer parts, and of as many, those that keep each battle's dice with it
    filled = [bins for bins in (_fill(items, fits, False), _fill(items, fits, True)) if bins is not None]
    if not filled:
        raise AdjudicatorError(f"a post may hold at most {limit:,} characters, too few for this report's header "
                               "and a single line, battle or dice line of it: raise the forum's limit on a post's "
                               "length (maximumPostLength)")
    bins = min(filled, key=len)
    return [render(b, k, len(bins)) for k, b in enumerate(bins)]


def _fill(items: list[_Item], fits, apart: bool) -> list[list[_Item]] | None:
    """The items in order into parts, each as full as `fits` lets it be. A battle too long for a part with its dice
    has them in the parts after it; `apart` does so for a battle that does not fit with its dice in what room a
    part has left, which may save a part."""
    bins: list[list[_Item]] = [[]]
    queue = list(reversed(items))
    while queue:
        item = queue.pop()
        if fits(bins[-1] + [item], len(bins) - 1):
            bins[-1].append(item)
        elif item.groups and item.kind and (apart or not bins[-1]):
            queue += [_Item(groups=[g]) for g in reversed(item.groups)] + [_Item(item.phase, item.kind, item.body,
                                                                                 item.opens)]
        elif bins[-1]:
            bins.append([])
            queue.append(item)
        else:
            return None                 # the item is too long for a part of its own
    return bins


def _items(ctx: dict, alone) -> list[_Item]:
    """The report's lines and battles in order, each with the dice groups its narrative prints (as verify reads
    it from `alone(item)`, the item rendered by itself); a group no narrative prints follows the item of the
    group rolled before it; the standings last."""
    items = []
    for p, phase in enumerate(ctx["phases"]):
        pieces = [("line", x) for x in phase["lines"]] + [("battle", b) for b in phase["battles"]] or [("", None)]
        items += [_Item(p, kind, body, opens=k == 0) for k, (kind, body) in enumerate(pieces)]
    free = set(range(len(ctx["dice"])))
    for item in items:
        if item.kind != "battle":
            continue
        for told in told_rolls(verify.clean(alone(item))):
            mine = next((g for g in sorted(free) if told.label in aliases(ctx["dice"][g]["label"])), None)
            if mine is not None:
                item.groups.append(mine)
                free.discard(mine)
    holder = {g: k for k, item in enumerate(items) for g in item.groups}
    after: dict[int, list[int]] = {}            # the groups no narrative prints, by the item they follow (-1: none)
    for g in sorted(free):
        before = [h for h in holder if h < g]
        after.setdefault(holder[max(before)] if before else -1, []).append(g)
    ordered = [_Item(groups=[g]) for g in after.get(-1, [])]
    for k, item in enumerate(items):
        ordered += [item] + [_Item(groups=[g]) for g in after.get(k, [])]
    return ordered + [_Item(last=True)]


def _phases(ctx: dict, items: list[_Item]) -> list[dict]:
    """The phases a part's items make: a phase begun in an earlier part has its title marked "(continued)"."""
    phases: list[dict] = []
    current = None
    for item in items:
        if item.phase is None:
            continue
        if item.phase != current:
            phase = ctx["phases"][item.phase]
            title = phase["title"] if item.opens else phase["title"] + " (continued)"
            phases.append({**phase, "title": title, "lines": [], "battles": []})
            current = item.phase
        if item.kind:
            phases[-1][item.kind + "s"].append(item.body)
    return phases
