"""Typed values read from an answer's free text, each a `Mention` with where it stands.

Digits and number words, money, dates in common formats, yes/no, enum choices in plain words, and text as a whole
token sequence (`envforge.runtime.answers` judges an answer by them).

Parsing is table-driven on purpose. Library alternatives were measured against the 0.3 ms budget of a call:
`number-parser` takes ~1.5 ms per sentence; `text2num` is fast but either skips "one"/"two" or turns "ones" into 1;
`word2number` parses only an isolated phrase. `dateutil.parser` costs ~35 us per date and fills missing parts from
today, while the patterns in `dates` already isolate year, month and day, so `datetime.date` validates them exactly.
"""
