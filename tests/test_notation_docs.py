"""The examples of docs/notation.md are run: what players read there is what the adjudicator accepts.

A ```orders block must read without errors; an ```orders-rejected block must produce exactly the errors
printed in the ```output block that follows it.
"""

import re
from pathlib import Path

import pytest
from g40_names import g40_names_scenario

from adjudicator.notation import Lexicon, VerbRegistry, parse_submission

DOC = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
G40 = Lexicon.from_scenario(g40_names_scenario())
BLOCK = re.compile(r"^( *)```([\w-]+)\n(.*?)^\1```$", re.M | re.S)


def blocks() -> list[tuple[str, str]]:
    """(info, text) of each fenced block, with the indentation of list items taken off."""
    out = []
    for m in BLOCK.finditer(DOC.read_text()):
        indent = len(m.group(1))
        out.append((m.group(2), "".join(line[indent:] for line in m.group(3).splitlines(keepends=True))))
    return out


ACCEPTED = [text for info, text in blocks() if info == "orders"]
REJECTED = [(text, out) for (info, text), (next_info, out) in zip(blocks(), blocks()[1:])
            if info == "orders-rejected" and next_info == "output"]


def test_the_doc_has_examples():
    assert len(ACCEPTED) >= 10 and REJECTED
    assert len(REJECTED) == sum(info == "orders-rejected" for info, _ in blocks())


@pytest.mark.parametrize("text", ACCEPTED, ids=[t.splitlines()[0] for t in ACCEPTED])
def test_accepted_examples_read_without_errors(text):
    result = parse_submission(text, G40)
    assert result.errors == [], "\n".join(e.render() for e in result.errors)
    assert result.submission.orders or result.submission.power


@pytest.mark.parametrize("text, output", REJECTED)
def test_rejected_examples_print_the_documented_errors(text, output):
    result = parse_submission(text, G40)
    assert "\n".join(e.render() for e in result.errors) == output.rstrip("\n")


def test_every_order_of_the_table_is_documented_as_it_is_written():
    text = DOC.read_text().replace("\\|", "|")
    for verb in VerbRegistry.g40().verbs():
        assert verb.usage in text, verb.usage
