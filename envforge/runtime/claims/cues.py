"""The closed classes of English the claim grammar reads: auxiliaries, negation, and the frames that take a
statement out of the speaker's own assertion (a question, a report of what someone else said, a condition, a
hedge or a doubt, a denial). These are grammar words, not the domain's: the domain's words are its vocabulary.

Frame patterns match on a clause's words joined by single spaces, contractions expanded (`i have not`).
"""

from __future__ import annotations

import re

BE = frozenset({"am", "is", "are", "was", "were", "be", "been", "being"})
HAVE = frozenset({"have", "has", "had", "having"})
DO = frozenset({"do", "does", "did"})
MODALS = frozenset({"will", "would", "shall", "should", "can", "could", "may", "might", "must"})
NEGATIONS = frozenset({"not", "never"})
SUBJECT_NEGATIONS = frozenset({"no", "nothing", "none", "neither", "nor", "nobody"})
GOVERNORS = frozenset(
    {
        "able", "unable", "managed", "succeeded", "failed", "tried", "attempted", "going", "about", "happy", "glad",
        "pleased", "ready", "willing", "want", "wants", "wanted", "like", "need", "needs", "needed", "wish", "wished",
        "hope", "hoping", "asked", "ask", "requested", "request", "allowed", "allow", "allows", "permitted", "permit",
        "possible", "impossible", "refuse", "refused", "decline", "declined", "let", "me", "us", "get", "got",
        "gotten", "prefer", "expect", "expected", "supposed", "have", "has", "had", "help", "helped",
    }
)  # fmt: skip
"""Words between a subject and an infinitive or participle that say how the act stands (`was able to`)."""
ADVERBS = frozenset(
    {
        "just", "already", "now", "also", "then", "still", "yet", "fully", "finally", "officially", "immediately",
        "actually", "indeed", "really", "ever", "simply", "only", "even", "recently", "personally", "manually",
        "automatically", "quickly", "successfully", "since", "today", "both", "all", "so", "too", "therefore",
        "additionally", "further", "again", "properly", "correctly", "formally", "gladly", "unfortunately",
    }
)  # fmt: skip
DONE_MARKERS = frozenset({"now", "successfully", "just", "officially", "fully", "finally", "all"})
"""After `is`/`are`, these make a participle a change just made (`is now cancelled`), not a standing state."""
FURTHER = frozenset({"again", "anymore", "further"})
NEGATING_GOVERNORS = frozenset({"unable", "failed", "impossible", "refuse", "refused", "decline", "declined"})
PAST_GOVERNORS = frozenset({"managed", "succeeded"})
WISH_GOVERNORS = frozenset(
    {"want", "wants", "wanted", "like", "need", "needs", "needed", "wish", "wished", "hope", "hoping", "asked",
     "ask", "requested", "request", "prefer", "expect", "expected"}
)  # fmt: skip
DETERMINERS = frozenset(
    {"the", "a", "an", "your", "my", "our", "their", "his", "her", "its", "this", "that", "these", "those", "any",
     "no", "each", "every", "some", "another", "whose", "pending", "new", "full", "partial", "same", "first"}
)  # fmt: skip
"""Words after which a verb's form is a noun or an adjective (`the refund`, `your cancelled order`)."""
PREPOSITIONS = frozenset(
    {"for", "by", "about", "of", "without", "after", "before", "from", "in", "on", "with", "upon", "through"}
)
PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "it", "me", "us", "them", "him", "her", "everything"})
CHAIN = BE | HAVE | DO | MODALS | NEGATIONS | GOVERNORS | ADVERBS | {"to"}
"""Words that may stand between a subject and its verb."""
VERB_CONTEXT = CHAIN | PRONOUNS | {"please"}
"""Words after which a bare verb form is a verb (`to refund`, `I refund`, `please refund`), not a noun."""
FIRST_PERSON = frozenset({"i", "we"})
THIRD_SUBJECTS = frozenset({"it", "this", "that", "which", "who", "he", "she", "one", "system"})
GENERIC_DETERMINERS = frozenset({"any", "all", "no", "every", "each", "only"})
FUNCTION_WORDS = frozenset(
    {"its", "this", "was", "has", "is", "as", "us", "yes", "thanks", "always", "perhaps", "unless", "less", "yours",
     "ours", "theirs", "does", "his", "hers", "whereas", "thus", "plus", "across", "towards", "sometimes", "news"}
)  # fmt: skip


def is_number(word: str) -> bool:
    return word[:1].isdigit() or word in ("$", "#")


QUESTION_START = re.compile(
    r"^(?:would you|will you|could you|can you|do you|did you|shall i|should i|can i|could i|may i|shall we"
    r"|should we|would it|is it|is that|are you|have you|want me to|do you want|would you like)\b"
)
ATTRIBUTION = re.compile(
    r"(?<!\bas )\byou (?:\w+ )?(?:said|say|told|tell|mentioned|mention|wrote|write|asked|ask|requested|request|want"
    r"|wanted|wants|would like|wish|wished|needed|noted|indicated|stated|claimed|claim|reported|believe|believed"
    r"|think|thought|were hoping|hoped|expect|expected|meant|mean|prefer|seem to think|were told)\b"
    r"|\baccording to (?:you|your)\b|\byour (?:message|request|note|email|question|letter) (?:says|said|mentions"
    r"|mentioned|states|stated|asks|asked)\b|\b(?:the|this) (?:customer|user|caller) (?:said|says|asked|asks|wants"
    r"|wanted|claims|claimed)\b|\bthanks? (?:you )?for\b"
)
_RELATIVE_YOU = re.compile(r"\b(?:the|a|an|your|my|our|this|these|those|any|every|that)(?: (?!you\b)\S+){1,3} $")
"""Before `you`, a noun phrase that `you asked about` only modifies (`the refund you asked about was issued`)."""


def attributes(text: str) -> bool:
    """Whether `text` reports someone else's words or wishes (`you said`, `you asked me to`), not counting a relative
    clause on a noun (`the refund you asked about`)."""
    return any(_RELATIVE_YOU.search(text, 0, match.start()) is None for match in ATTRIBUTION.finditer(text))


_DOUBTING = (
    r"(?<!no )\bdoubt\b|\b(?:can|could) not (?:say|confirm|verify|tell|be sure|guarantee)\b|\bunable to (?:confirm"
    r"|verify|say|tell|determine)\b|\bnot (?:sure|certain|confident|positive|clear)\b|\bunsure\b|\buncertain\b"
    r"|\bunclear\b|\bno idea\b|\b(?:hard|difficult) to (?:say|tell)\b|\b(?:i|we) (?:do|did) not (?:think|believe"
    r"|know)\b|\b(?:have|has|had|did|do) not (?:yet )?(?:verified|verify|confirmed|confirm|checked|check)\b"
    r"|\bnot (?:yet )?(?:been )?(?:verified|confirmed)\b|\bi wonder\b"
)
DOUBT = re.compile(_DOUBTING)
"""The speaker doubts or cannot vouch for what follows (`I doubt`, `I can't confirm`, `I don't think`)."""
HEDGE = re.compile(
    r"\b(?:i|we) (?:\w+ )?(?:think|believe|guess|suppose|assume|reckon|suspect|imagine|expect|understand)\b"
    r"|\b(?:probably|possibly|perhaps|maybe|likely|presumably|apparently|supposedly|seemingly|hopefully|reportedly"
    r"|conceivably|allegedly)\b|\b(?:seems?|seemed|appears?|appeared|looks? like|looks? as if|sounds? like)\b"
    r"|\bas far as (?:i|we) (?:know|can tell|can see|recall|understand)\b|\bif (?:i|we) am not mistaken\b"
    r"|\bunless (?:i|we) (?:am|are) (?:mistaken|wrong)\b|\bif (?:i|we) (?:am|are) reading\b|\bif (?:i|we) recall\b"
    rf"|\bmight\b|\bmay\b(?! \d)|{_DOUBTING}"
)
"""The speaker softens what follows (`I think`, `probably`, `it seems`, `might`), or doubts it."""
DENIAL = re.compile(
    r"\b(?:wrong|incorrect|false|untrue|inaccurate|misleading|a mistake) to (?:say|claim|state|suggest|think)\b"
    r"|\b(?:not true|false|untrue|incorrect|wrong) that\b|\b(?:would|will|can|could|do|did) not (?:say|claim"
    r"|suggest|state)\b|\bit is not (?:the case|true) that\b"
)
CONDITION_START = re.compile(
    r"^(?:if|unless|in case|provided|as long as|once|suppose|supposing|assuming|if only"
    r"|(?:had|were|should) (?:i|you|we|it|they|the|your|my|this|that)\b)\b"
)
FUTURE_START = re.compile(r"^(?:before|until|till|as soon as|when|whenever)\b")
REASON_START = re.compile(r"^(?:because|since|as|given that|now that|due to)\b")
TRAILING_HEDGE = re.compile(
    r"^(?:i think|i believe|i guess|i suppose|probably|possibly|maybe|perhaps|if i am reading this correctly"
    r"|if i am not mistaken|if i recall correctly|as far as i know|as far as i can tell|right|correct|i am not sure"
    r"|is not it|is it not|did not i|have not i"
    r"|i (?:have|has|did|could) not (?:yet )?(?:verified|confirmed|checked|double checked)(?: (?:this|that|it))?)$"
)
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun"
_MONTH += r"|jul|aug|sep|sept|oct|nov|dec)"
TIME_ADJUNCT = re.compile(
    rf"^(?:\w+ ){{0,4}}?(?:on (?:the )?(?:\w+ )?(?:\d|{_MONTH}|\w+day\b)|in (?:{_MONTH}|\d{{4}})|last (?:week|month|year"
    r"|night|\w+day)|yesterday|ago|earlier|previously|back in|a (?:week|month|year) ago|\d+ (?:days|weeks) ago)"
)
"""After a past passive (`was cancelled on March 3`), a time adjunct that makes it a record of history."""
