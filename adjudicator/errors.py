"""The errors a player or host sees. Every failure the CLI reports is one of these, never a traceback."""

from __future__ import annotations

from dataclasses import dataclass, field


class AdjudicatorError(Exception):
    """A failure with a message a player or host can act on; the CLI prints it and exits non-zero."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ConfigError(AdjudicatorError):
    """A bad setting, path or key file."""


class MapError(AdjudicatorError):
    """A map path or file that cannot be imported."""


class StoreError(AdjudicatorError):
    """A database that is missing, corrupt, or not an adjudicator game."""


class Busy(StoreError):
    """Another command holds the game (a submission, an adjudication): nothing changed; try again in a moment."""


class NothingToDo(AdjudicatorError):
    exit_code = 1


class DeliveryError(AdjudicatorError):
    """A report that could not be posted or mailed: the turn stays adjudicated, and `post` / `mail` retries.
    Exit code 4, so that a script tells a delivery failure from bad input (2) and a rejected order (1)."""

    exit_code = 4


# The three kinds of order error (NOTATION.md "Errors"), after python-chess.
INVALID = "invalid"      # cannot be read
ILLEGAL = "illegal"      # read, but the rules forbid it
AMBIGUOUS = "ambiguous"  # read, but it could mean several things


@dataclass
class OrderError:
    """One problem in a submission, pointing at the spot in the text."""

    kind: str                      # INVALID, ILLEGAL or AMBIGUOUS
    message: str
    line: int = 0                  # 1-based line of the submission text; 0 = the submission as a whole
    column: int = 0                # 1-based column; 0 = the whole line
    source: str = ""               # the line's text as the player wrote it (after paste clean-up)
    expected: str = ""             # what the parser expected there
    rule: str = ""                 # ledger id (e.g. "BG-12") for ILLEGAL errors, where one applies
    candidates: list[str] = field(default_factory=list)   # for AMBIGUOUS and "did you mean"

    def render(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "") if self.line else "submission"
        head = f"{where}: {self.kind}: {self.message}"
        if self.rule:
            head += f" [{self.rule}]"
        out = [head]
        if self.source:
            out.append("    " + self.source)
            if self.column:
                out.append("    " + " " * (self.column - 1) + "^")
        if self.expected:
            out.append(f"    expected {self.expected}")
        if self.candidates and self.kind == AMBIGUOUS:
            out.append("    candidates: " + ", ".join(self.candidates))
        return "\n".join(out)

    def to_dict(self) -> dict:
        return {
            "kind": self.kind, "message": self.message, "line": self.line, "column": self.column,
            "source": self.source, "expected": self.expected, "rule": self.rule, "candidates": list(self.candidates),
        }


# Errors listed for one submission, and lines about the broken dice blocks of one `verify`: the rest are counted
# (a paste gone wrong has thousands).
MAX_SHOWN = 50


class SubmissionRejected(AdjudicatorError):
    """A submission with one or more order errors; nothing was stored."""

    exit_code = 1

    def __init__(self, errors: list[OrderError]):
        self.errors = errors[:MAX_SHOWN]
        self.more = len(errors) - len(self.errors)
        n = len(errors)
        text = f"submission rejected: {n:,} error{'s' if n != 1 else ''}\n" + "\n".join(e.render() for e in self.errors)
        if self.more:
            text += f"\n… and {self.more:,} more error{'s' if self.more != 1 else ''} (the first {MAX_SHOWN} are shown)"
        super().__init__(text)
