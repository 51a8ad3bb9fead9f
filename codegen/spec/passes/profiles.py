"""Document profiles: each rule's code point ranges closed, and the rules about a
signature only where the spec has one."""
from __future__ import annotations

from typing import Any

from ..diagnostics import SpecError
from ..model import Profile, ProfileRule
from .draft import Draft, Problem


def profile(payload: Any) -> Profile:
    """A 'profile' statement as the transformer built it, its rules' ranges closed."""
    name, raw_rules, loc = payload
    rules = []
    for severity, kind, ranges, message, rloc in raw_rules:
        for r in ranges:
            if r.hi is None:
                raise SpecError("a profile rule needs closed code point ranges", r.loc)
        rules.append(ProfileRule(severity, kind, tuple((r.lo, r.hi) for r in ranges), message, rloc))
    return Profile(name, tuple(rules), loc)


def profile_rules(draft: Draft) -> list[Problem]:
    """A rule about a missing or misplaced signature needs a signature."""
    if draft.signatures:
        return []
    for p in draft.profiles:
        for rule in p.rules:
            if rule.kind in ("missing-signature", "misplaced-signature"):
                what = rule.kind.replace("-", " ")
                return [SpecError(f"'{what}' needs a 'signature' statement", rule.loc)]
    return []
