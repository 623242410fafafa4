"""Tasks, their verifiers, and what verifying a run produces."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from envforge.ir.answers import AnswerSpec
from envforge.ir.base import IRModel

TaskKind = Literal["write", "multi_write", "read"]


class ToolCall(IRModel):
    """One tool call of an oracle chain or a transcript."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Reaction(IRModel):
    """A turn of the user's script: what they say once the agent's message meets `when`, played once and in order.

    `done`: the agent says what it did is done, and the user asks for more. `refused`: the agent says it cannot do
    what the user asked, and the user pushes back once. `offered`: the agent proposes something in place of the
    request, naming every value in `cue`, and asks; the user accepts it, or (`takes` false) declines it, and the
    right run then leaves that request undone."""

    when: Literal["done", "refused", "offered"]
    say: str
    requests: list[str] = Field(default_factory=list)
    """Request clauses this turn adds to what the user wants (a follow-up), in the user's words."""
    cue: list[str] = Field(default_factory=list)
    """Values the agent's message must name to meet `offered` (the amount the policy allows)."""
    calls_from: int | None = None
    """For a follow-up: the index of the oracle's first call that serves the request this turn adds."""
    details: list[str] = Field(default_factory=list)
    """For a follow-up: the held-back details (names in `UserScenario.details`) of the request it adds, which the
    agent asks for after it."""
    which: list[str] = Field(default_factory=list)
    """For a follow-up: the entities of `UserScenario.which` the request it adds leaves vague."""
    offer: dict[str, Any] = Field(default_factory=dict)
    """For `offered`: the arguments the policy sets in place of those asked for (`amount` 25.0), which the agent
    proposes."""
    takes: bool = True
    """For `offered`: whether the user takes the offer; one they decline leaves the request undone."""
    changes: bool = False
    """For `done`: the user changes their mind about the request's value (`cue`), asking for the write from
    `calls_from` in its place. Also met by a proposal that names the value before any write (an agent that
    confirms first), so the first write may never be made."""


class UserScenario(IRModel):
    """Who asks, what they can say up front, and what they reveal only when asked."""

    persona: str
    """Persona id from the blueprint."""
    person: str
    """Key of the person row the user is (never shown to the agent)."""
    known: dict[str, Any]
    """What the user states or can state at once (names, email). `record_ids` lists record keys the user
    has (e.g. from a confirmation email) when nothing else singles a record out; otherwise the user
    never names internal keys."""
    hidden: dict[str, Any] = Field(default_factory=dict)
    """What the user reveals only when the agent asks for it."""
    details: dict[str, Any] = Field(default_factory=dict)
    """Details of the request the user holds back until the agent asks (a reason, the new address), by the
    name the agent's tool gives them; the task cannot be done without them."""
    said: dict[str, Any] = Field(default_factory=dict)
    """Details the request gives up front in the user's own words rather than as stored (`I don't need it
    anymore`), by the name the agent's tool gives them: the value those words stand for (`no_longer_needed`)."""
    which: dict[str, str] = Field(default_factory=dict)
    """Rows the user names only when the agent asks which: entity -> how the user describes the row (`the Desk
    Lamp from my order placed on March 3`). The request itself says only `one of my orders`."""
    requests: list[str] = Field(default_factory=list)
    """What the user wants, one clause per request in their own words (`cancel my order from March 3`),
    without greeting or identity: what a simulated user restates when the agent drifts. A request a reaction adds
    is here too, and in that reaction's `requests`."""
    script: list[Reaction] = Field(default_factory=list)
    """How the user reacts to what the agent says, in order: a follow-up once the first request is done, a push
    back on a refusal, an offer accepted. Empty: the user only answers and agrees."""


class Difficulty(IRModel):
    """Metadata for curricula: how long the golden chain is and how much can distract."""

    chain_length: int
    writes: int
    distractors: int
    """Tools available to the agent that the oracle does not use."""
    band: Literal["easy", "medium", "hard"]


class RowChange(IRModel):
    """One row the task changes: an insert (`before` is None), delete (`after` is None), or update."""

    entity: str
    key: str | None
    """Key of an updated or deleted row; None for an insert (new keys depend on call order)."""
    before: dict[str, Any] | None
    """Changed fields before (updates), or the whole row (deletes)."""
    after: dict[str, Any] | None
    """Changed fields after (updates), or the whole new row without its key (inserts)."""


class RowWrite(IRModel):
    """One committed write to one row, as the store logged it: the whole row before and after."""

    seq: int
    """Position in the session's history (increasing; gaps where a refused call's writes rolled back)."""
    call: int | None = None
    """`seq` of the WRITE call that made it; None for SQL issued outside a tool call."""
    entity: str
    key: str
    op: Literal["insert", "update", "delete"]
    before: dict[str, Any] | None
    """The row before the write; None for an insert."""
    after: dict[str, Any] | None
    """The row after the write; None for a delete."""

    def changed(self) -> dict[str, tuple[Any, Any]]:
        """Column -> (before, after) for the columns this write changed (all of them for an insert or delete)."""
        before, after = self.before or {}, self.after or {}
        return {
            column: (before.get(column), after.get(column))
            for column in sorted(before.keys() | after.keys())
            if self.op != "update" or before.get(column) != after.get(column)
        }


class CallRecord(IRModel):
    """One logged call: a committed WRITE call, a refused attempt at one, or a READ call and the rows it returned."""

    seq: int
    """Position among the session's logged calls (reads and writes share it)."""
    tool: str
    kind: Literal["read", "write"]
    arguments: dict[str, Any]
    """As the action stores them: where its effects lower-case an argument, the lower-cased value."""
    persons: list[str] = Field(default_factory=list)
    """Keys of the person rows a lookup of the person entity (or of a record linked to the person) returned."""
    rows: dict[str, list[str]] = Field(default_factory=dict)
    """A READ call: entity -> keys of the rows it returned (the entity present even when it returned none)."""
    refusal: str | None = None
    """A refused WRITE attempt: `ownership` when it named another person's row, else the error code. Nothing it
    did reached the state."""
    others: dict[str, dict[str, str]] = Field(default_factory=dict)
    """A lookup of people: the personal fields (names, credentials) it showed of each person other than the one
    served, by their key. What no message to the user may repeat."""


class RunHistory(IRModel):
    """What a session logged since its last reset: what a verifier judges."""

    calls: list[CallRecord] = Field(default_factory=list)
    writes: list[RowWrite] = Field(default_factory=list)
    keys: dict[str, str] = Field(default_factory=dict)
    """Entity -> its key column, for the entities written."""


class ExpectedCall(IRModel):
    """A WRITE call a correct run commits, with every argument the user stated."""

    tool: str
    arguments: dict[str, Any]
    accumulative: bool = False
    """The action adds up over calls (the blueprint says so): only the end result counts, not the calls."""
    optional: bool = False
    """A write the user took back once the agent named it or made it (a change of mind): a run may make it or not;
    no other call counts in its place."""


class Footprint(IRModel):
    """The cells a correct run writes, and how many times each changes. Any other write fails the run, even one
    a later write undoes."""

    updates: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    """Entity -> key -> column -> how many writes change it."""
    inserts: dict[str, int] = Field(default_factory=dict)
    """Entity -> rows inserted."""
    deletes: dict[str, list[str]] = Field(default_factory=dict)
    """Entity -> keys deleted."""


class IdentitySpec(IRModel):
    """Whom the agent serves, and what the user says about themselves. The first lookup that returns the person
    must authenticate them: take one full credential of theirs and return exactly them."""

    entity: str
    person: str
    stated: list[str]
    credentials: list[dict[str, str]] = Field(default_factory=list)
    """The credentials the user holds (field -> the stored value), from the blueprint's `authentication`."""


class VerifierSpec(IRModel):
    """What a correct run does: exactly these row changes through these calls, and (questions) this answer."""

    task_id: str
    expected_changes: list[RowChange]
    """The golden net changes from the initial to the final state. Any other change is a side effect."""
    expected_calls: list[ExpectedCall] = Field(default_factory=list)
    """The committed WRITE calls, in any order."""
    footprint: Footprint = Field(default_factory=Footprint)
    identity: IdentitySpec | None = None
    """Whom the task serves; every task touching the person's data has it, questions included."""
    answer: AnswerSpec | None = None
    """Set for questions."""
    refused: list[str] = Field(default_factory=list)
    """The actions of the request's parts a policy forbids: no message may say one was done, and one must say it
    was not, and why."""
    refused_because: list[str] = Field(default_factory=list)
    """The text of each policy behind the refused parts: the reason a message saying one was not done gives."""


class TaskSpec(IRModel):
    """A task: what the user wants, how an oracle does it, and how a run is judged."""

    schema_version: Literal[1] = 1
    id: str
    kind: TaskKind
    instruction: str
    """What the user says, worded for a chat with an agent that has the tools."""
    scenario: UserScenario
    oracle: list[ToolCall]
    """A golden tool-call chain: lookups that discover keys, then the writes."""
    expected_answer: str | None = None
    difficulty: Difficulty
    verifier: VerifierSpec
    policies: list[str] = Field(default_factory=list)
    """Ids of the policies the task hinges on: the user asks for something one forbids, or one changes
    the right action. Empty for tasks no policy decides."""
    intent: str = ""
    """What the task asks, for curricula and the report's diversity figures: `cancel_order`,
    `cancel_order+add_address`, `ask:order.status`, `refuse:return_window+add_address`, `offer:store_credit_cap`."""
    conditions: list[str] = Field(default_factory=list)
    """The conditions of `policies` that the verdict on the request they judge turns on: each, changed alone,
    would change whether the request is allowed (`customer.loyalty_tier == 'gold'` where a gold customer returns
    an item on day 45, which a silver one could not). Empty for tasks no policy decides; a request that breaks two
    conditions at once turns on neither alone."""
    forbidden: list[ToolCall] = Field(default_factory=list)
    """Calls the user asks for that a policy forbids: the request as asked, which the right run refuses or
    replaces by what the policy offers. The gate checks that a run making one fails."""
    domains: list[str] = Field(default_factory=list)
    """In a fused environment, the member domains the task works in, sorted; two or more make it a
    cross-domain task. Empty in an environment of one domain."""

    def told(self) -> list[str]:
        """What the user says of their own accord: the request, then each reaction of their script."""
        return [self.instruction, *(reaction.say for reaction in self.scenario.script)]


class Transcript(IRModel):
    """What an agent did: its tool calls, its messages to the user, and its final answer."""

    calls: list[ToolCall] = Field(default_factory=list)
    answer: str | None = None
    messages: list[str] = Field(default_factory=list)
    """Every message the agent sent the user, in order, the final answer included; empty where only the final
    answer is known (then it is the one message judged)."""
    channel: Literal["chat", "app"] = "chat"
    """`chat`: the agent serves the user in a conversation, so it must tell them what it did. `app`: it worked the
    web or phone app's screens, which show the user what changed; what it says is judged, but no report is due."""

    def said(self) -> list[str]:
        """The agent's messages to judge: all of them, or the final answer alone."""
        if self.messages:
            return list(self.messages)
        return [self.answer] if self.answer else []


class Verdict(IRModel):
    """The judgement of one run. Reward is 1 only when every component holds."""

    reward: float
    passed: bool
    components: dict[str, bool]
    reasons: list[str]
    """Why a component failed, one line each."""
    others_read: int = 0
    """How many people other than the user the run looked up and saw the personal records of."""
