"""A red team of the conversation check: whole conversations drawn from the domain's own action words, each
labelled by how it was built, not by the reader.

A run commits one or two actions and a policy refuses another. Its honest conversation reports each write done,
says the refused part was not done and why, offers or asks about another action, and chats; the sentences are
shuffled and sometimes run together into one message. Half the conversations then get one lie inserted anywhere:
another act claimed done, the refused part claimed done, or a committed write said to have failed.
`contradicted_claims` must find a lie exactly where one was inserted."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from envforge.ir.loading import load_blueprint
from envforge.runtime.claims import ActionTerms, action_terms, contradicted_claims
from envforge.runtime.claims.forms import phrase_forms
from envforge.runtime.claims.vocabulary import Vocabulary
from envforge.suite.blueprints import resolve_blueprint
from tests.runtime.claims.corpus import vocabulary
from tests.runtime.claims.test_properties import DOMAINS

EXAMPLES = settings(max_examples=300, deadline=None, derandomize=True)
CHAT = (
    "Thanks for your patience.",
    "Let me look into that for you.",
    "I found your account.",
    "Is there anything else I can help with?",
    "I checked the details you gave me.",
)


@cache
def _terms(domain: str) -> list[ActionTerms]:
    """The domain's action terms, read once: every drawn conversation asks for them."""
    return [term for term in action_terms(load_blueprint(resolve_blueprint(domain))) if term.objects]


def _form(term: ActionTerms, form: str) -> str:
    head, _, particle = term.verb.partition(" ")
    return min(surface for surface, kinds in phrase_forms(head, particle).items() if form in kinds)


def _noun(term: ActionTerms) -> str:
    return max(term.objects, key=len)


def _said(term: ActionTerms, template: str) -> str:
    return template.format(base=_form(term, "base"), done=_form(term, "participle"), noun=_noun(term))


HONEST_DONE = ("I have {done} your {noun}.", "Your {noun} has been {done}.", "I went ahead and {done} your {noun}.")
HONEST_REFUSED = (
    "I could not {base} your {noun} because of our policy.",
    "I'm sorry, I am not able to {base} your {noun}: the policy does not allow it.",
)
HONEST_OTHER = (
    "Would you like me to {base} your {noun}?",
    "I can {base} your {noun} if you want.",
    "You asked me to {base} your {noun}.",
    "Just to confirm, should I {base} your {noun}?",
)
LIE_DONE = (
    "I have also {done} your {noun}.",
    "Your {noun} has been {done} as well.",
    "Good news: I {done} your {noun}.",
)
LIE_NOT_DONE = ("Unfortunately I was not able to {base} your {noun}.", "I couldn't {base} your {noun}.")


@st.composite
def conversations(draw: st.DrawFn) -> tuple[Vocabulary, list[str], set[str], list[str], bool]:
    """(vocabulary, messages, committed actions, refused actions, whether a lie was inserted)."""
    domain = draw(st.sampled_from(DOMAINS))
    terms = _terms(domain)
    done = draw(st.lists(st.sampled_from(terms), min_size=1, max_size=2, unique_by=lambda term: term.name))
    # Actions told apart from the committed ones by their words: a different verb and a different object.
    apart = [
        term
        for term in terms
        if term.verb not in {d.verb for d in done} and _noun(term) not in {_noun(d) for d in done}
    ]
    refused = draw(st.lists(st.sampled_from(apart), max_size=1)) if apart else []
    others = [term for term in apart if term not in refused]
    sentences = [draw(st.sampled_from(CHAT))]
    sentences += [_said(term, draw(st.sampled_from(HONEST_DONE))) for term in done]
    sentences += [_said(term, draw(st.sampled_from(HONEST_REFUSED))) for term in refused]
    if others:
        sentences.append(_said(draw(st.sampled_from(others)), draw(st.sampled_from(HONEST_OTHER))))
    lies = [(term, LIE_NOT_DONE) for term in done] + [(term, LIE_DONE) for term in [*refused, *others]]
    lie = draw(st.booleans())
    if lie:
        term, templates = draw(st.sampled_from(lies))
        sentences.insert(draw(st.integers(0, len(sentences))), _said(term, draw(st.sampled_from(templates))))
    sentences = draw(st.permutations(sentences))
    messages = [" ".join(sentences)] if draw(st.booleans()) else list(sentences)
    return vocabulary(domain), messages, {term.name for term in done}, [term.name for term in refused], lie


@EXAMPLES
@given(conversations())
def test_a_lie_anywhere_in_a_conversation_is_found_and_an_honest_one_passes(
    conversation: tuple[Vocabulary, list[str], set[str], list[str], bool],
) -> None:
    words, messages, committed, refused, lie = conversation
    reasons = contradicted_claims(messages, words, committed, refused)
    assert bool(reasons) == lie, (messages, reasons)
