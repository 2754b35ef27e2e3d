"""The order notation (NOTATION.md): pasted text to `Order` objects with the game's own names.

    lex = Lexicon.from_scenario(scenario)
    result = parse_submission(text, lex, start_phase="purchase")
    result.submission.orders, result.errors

Modules: `text` cleans up a pasted post or mail, `lexicon` knows the game's names and aliases, `parser`
holds the tokenizer and the grammar's building blocks, `verbs` the verb table (the one grammar, which games
extend), `submission` reads a whole submission; `orders` defines what comes out.
"""

from adjudicator.notation.lexicon import Lexicon
from adjudicator.notation.parser import Reader
from adjudicator.notation.submission import ParseResult, parse_submission
from adjudicator.notation.text import Line, clean_text
from adjudicator.notation.verbs import Verb, VerbRegistry

__all__ = ["Lexicon", "Line", "ParseResult", "Reader", "Verb", "VerbRegistry", "clean_text", "parse_submission"]
