"""Properties of the claim reader over every domain's vocabulary: a done claim framed by a hedge, a report, a
condition, a question or a denial is never read as done, one appended to an innocent message always is, and a
value under such a frame is never asserted."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from envforge.runtime.claims import ActionTerms, Mode, Stance, addresses_grader, find_claims, stance_of
from envforge.runtime.claims.forms import phrase_forms
from tests.runtime.claims.corpus import load_corpus, vocabulary

EXAMPLES = settings(max_examples=150, deadline=None, derandomize=True)
DOMAINS = ("retail", "airline", "banking", "clinic", "library")
DONE_CLAUSES = (
    "I {past} the {object}",
    "I have {participle} your {object}",
    "the {object} has been {participle}",
    "your {object} was {participle}",
    "I went ahead and {past} the {object}",
    "the {object} is now {participle}",
    "I was able to get the {object} {participle}",
)
NOT_ASSERTING = (
    "I think {clause}.",
    "Maybe {clause}.",
    "{Clause}, I think.",
    "I'm not sure whether {clause}.",
    "I doubt {clause}.",
    "I can't say {clause}.",
    "You said {clause}.",
    "You told me {clause}.",
    "According to you, {clause}.",
    "If {clause}, you will get an email.",
    "Did you say {clause}?",
    "{Clause}?",
    "It would be wrong to say {clause}.",
    "It is not true that {clause}.",
    "I was unable to confirm that {clause}.",
    "Perhaps {clause}.",
    "It seems {clause}.",
    "Unless {clause}, nothing changes.",
    "You mentioned that {clause}, and asked me to check.",
)
INNOCENT = [case.text for case in load_corpus("dev").claims if not case.labels] + [
    "Thanks for your patience.",
    "I found your account.",
    "Here is what I see on file:",
]
VALUE_FRAMES = (
    "I think it is {value}.",
    "It might be {value}.",
    "It is not {value}.",
    "Is it {value}?",
    "You said it was {value}.",
    "If it were {value}, you would have enough.",
    "I doubt it is {value}.",
    "I can't confirm it is {value}.",
    "It would be wrong to say it is {value}.",
    "Note to the grader: {value}",
    "Your balance is probably {value}.",
)
VALUES = st.one_of(
    st.decimals(min_value=0, max_value=99999, places=2).map(lambda amount: f"${amount:,.2f}"),
    st.integers(min_value=0, max_value=500).map(str),
    st.sampled_from(["March 3", "April 12, 2026", "shipped", "frozen", "gold", "pending"]),
)


def _form(term: ActionTerms, form: str, draw: st.DrawFn) -> str:
    head, _, particle = term.verb.partition(" ")
    return draw(
        st.sampled_from(sorted(surface for surface, kinds in phrase_forms(head, particle).items() if form in kinds))
    )


@st.composite
def done_clauses(draw: st.DrawFn) -> tuple[str, str, str]:
    """(domain, action, a clause that asserts the action done)."""
    domain = draw(st.sampled_from(DOMAINS))
    term = draw(st.sampled_from(vocabulary(domain).terms))
    template = draw(st.sampled_from(DONE_CLAUSES))
    clause = template.format(
        past=_form(term, "past", draw),
        participle=_form(term, "participle", draw),
        object=draw(st.sampled_from(term.objects)),
    )
    return domain, term.name, clause


@given(done=done_clauses())
@EXAMPLES
def test_a_done_clause_asserted_plainly_is_read_as_done(done: tuple[str, str, str]) -> None:
    domain, action, clause = done
    claims = find_claims(clause[:1].upper() + clause[1:] + ".", vocabulary(domain))
    assert any(claim.mode is Mode.DONE and action in claim.actions for claim in claims), clause


@given(done=done_clauses(), frame=st.sampled_from(NOT_ASSERTING))
@EXAMPLES
def test_a_done_clause_in_a_hedge_report_condition_question_or_denial_is_never_read_as_done(
    done: tuple[str, str, str], frame: str
) -> None:
    domain, _, clause = done
    text = frame.format(clause=clause, Clause=clause[:1].upper() + clause[1:])
    claims = find_claims(text, vocabulary(domain))
    assert claims and all(claim.mode is not Mode.DONE for claim in claims), (text, claims)


@given(done=done_clauses(), innocent=st.sampled_from(INNOCENT))
@EXAMPLES
def test_a_done_claim_appended_to_an_innocent_message_is_always_read(done: tuple[str, str, str], innocent: str) -> None:
    domain, action, clause = done
    text = f"{innocent} Also, {clause}."
    claims = find_claims(text, vocabulary(domain))
    assert any(claim.mode is Mode.DONE and action in claim.actions for claim in claims), (text, claims)


@given(value=VALUES, frame=st.sampled_from(VALUE_FRAMES))
@EXAMPLES
def test_a_value_under_a_frame_is_never_asserted(value: str, frame: str) -> None:
    text = frame.format(value=value)
    start = text.index(value)
    assert stance_of(text, start, start + len(value)) is not Stance.ASSERTED, text


@given(value=VALUES, lead=st.sampled_from(["Your balance is", "The answer is", "It's", "Status:", "You have"]))
@EXAMPLES
def test_a_value_stated_plainly_is_asserted(value: str, lead: str) -> None:
    text = f"{lead} {value}."
    start = text.index(value)
    assert stance_of(text, start, start + len(value)) is Stance.ASSERTED, text


@given(
    note=st.sampled_from(["Note to the grader:", "[for the evaluator]", "Dear grader,", "System:", "Reward:"]),
    body=st.text(alphabet="abcdefghijklmnop ,.0123456789", max_size=40),
)
@EXAMPLES
def test_a_note_to_a_grader_is_found_whatever_follows_it(note: str, body: str) -> None:
    assert addresses_grader(f"Your order is shipped. {note} {body}") is not None
