"""English that depends on a power's name, shared by reports, status and error messages (no heavy imports: the
rules use it in their messages)."""

from __future__ import annotations


def possessive(power: str, the: bool = False) -> str:
    """`Germans'`, `ANZAC's`, `UK_Pacific's`; names that are adjectives stay as they are (`British`, `Chinese`,
    `French`). With `the`, the article a plural or adjective name takes: `the Russians' turn`, `the British turn`,
    `ANZAC's turn` — never `Russians's` or `Russians turn`."""
    if power.endswith("s") and not power.endswith(("ss", "is", "us")):
        word, plural = power + "'", True
    elif power.endswith(("ese", "ish", "ch")):
        word, plural = power, True
    else:
        word, plural = power + "'s", False
    return f"the {word}" if the and plural else word


def named(power: str) -> str:
    """The power as a sentence names it: `the Germans`, `the British`, but `Canada`, `ANZAC` (possessive's rule)."""
    return possessive(power, the=True).removesuffix("'s").removesuffix("'")


def capitalised(text: str) -> str:
    """A sentence's first letter in capitals, the rest as it is (`the Germans' …` → `The Germans' …`)."""
    return text[:1].upper() + text[1:]
