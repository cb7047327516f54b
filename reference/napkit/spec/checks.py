"""The checks beyond the schemas (spec/README.md, "Checks"): cross-references and dealability,
and the players' questions (read here, as nothing else reads them but the search).

Every problem is a :class:`SpecError` naming the file, the JSON path and, in words, the rule,
decision, option or bid involved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import cast

from napkit.errors import SpecError, json_path
from napkit.spec.catalog import Spec
from napkit.spec.decisions import check_register
from napkit.spec.lawbook import check_lawbook
from napkit.spec.loading import JSON, JSONObject
from napkit.spec.questions import check_questions, read_questions
from napkit.spec.render import format_players
from napkit.spec.rulesets import Ruleset, bid_present, can_meet, is_switch
from napkit.spec.sources import Citation, check_files, check_index, citation_problem

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
HAND = 5  # cards dealt to each player


def check_spec(spec: Spec, sources_dir: Path | None = None) -> list[SpecError]:
    """Every check of the whole spec; ``sources_dir``, if it exists, is compared to the index."""
    errors = check_index(spec.index, list(spec.index_entries))
    if sources_dir is not None and sources_dir.is_dir():
        errors += check_files(spec.index, sources_dir)
    errors += check_lawbook(spec.lawbook)
    errors += check_register(spec.register, spec.index, spec.lawbook)
    for ruleset in spec.rulesets.values():
        errors += check_ruleset(ruleset, spec)
    errors += check_sources_of_rules(spec)
    errors += check_decisions_used(spec)
    questions, problems = read_questions(spec.dir)
    errors += problems + check_questions(questions, spec.lawbook, spec.register, spec.index)
    return _unique(errors)


def check_sources_of_rules(spec: Spec) -> list[SpecError]:
    """Every law-book rule of the sources is in force in some ruleset (its citations are its
    sources); a rule of house play (``origin = "house"``) in none, since no source has it."""
    in_force = {rule_id for r in spec.rulesets.values() for rule_id in r.rules}
    errors = [
        SpecError(rule.file, rule.where,
                  f"{rule.id} ({rule.title}) is in force in no ruleset, so nothing cites a "
                  "source for it")
        for rule in spec.lawbook if rule.id not in in_force and not rule.house
    ]
    errors += [
        SpecError(rule.file, f"{rule.where}.origin",
                  f"{rule.id} ({rule.title}) is marked as of house play, in no source, but "
                  f"{', '.join(sorted(r.id for r in spec.rulesets.values() if rule.id in r.rules))}"
                  " puts it in force")
        for rule in spec.lawbook if rule.id in in_force and rule.house
    ]
    errors += [SpecError(rule.file, rule.where,
                         f"{rule.id} is of house play, so it needs params: a house file puts "
                         "it in force by setting one")
               for rule in spec.lawbook if rule.house and not rule.params]
    return errors


def check_decisions_used(spec: Spec) -> list[SpecError]:
    """Every decision is cited by a ruleset; every one with a choice to make is an option."""
    cited: set[str] = set()
    offered: set[str] = set()
    for ruleset in spec.rulesets.values():
        cited.update(ruleset.decision_ids())
        offered.update(o.decision for o in ruleset.options.values() if o.decision)
    errors = []
    for decision in spec.register:
        if decision.id not in cited:
            errors.append(SpecError(spec.register.file, decision.where,
                                    f"{decision.id} ({decision.title}) is cited by no ruleset"))
        if decision.offers_option and decision.id not in offered:
            errors.append(SpecError(spec.register.file, decision.where,
                                    f"{decision.id} has {len(decision.alternatives)} "
                                    "alternatives but no ruleset offers it as an option"))
    return errors


def check_ruleset(ruleset: Ruleset, spec: Spec) -> list[SpecError]:
    """The checks that concern one ruleset (all of them, for a player's own file)."""
    errors = _check_own_entries(ruleset, spec)
    switch_errors = _check_switches(ruleset)
    errors += switch_errors
    errors += _check_params_read(ruleset, spec)
    if not switch_errors:
        # Resolving needs sound switches; with them, check every combination that matters.
        errors += _check_combinations(ruleset)
    return _unique(errors)


# --- entries the ruleset's own file writes: rules, citations, options ----------------------


def _check_own_entries(ruleset: Ruleset, spec: Spec) -> list[SpecError]:
    errors: list[SpecError] = []
    raw = ruleset.raw
    file = ruleset.file
    if spec.index.get(ruleset.source) is None:
        errors.append(SpecError(file, "$.source",
                                f"{ruleset.source} is not in the source index"))
    parent = ruleset.parent
    for rule_id, cites in raw.rules.items():
        where = ["rules", rule_id]
        if spec.lawbook.get(rule_id) is None:
            errors.append(SpecError(file, json_path(where),
                                    f"{ruleset.id} puts in force {rule_id}, which the law book "
                                    "does not have"))
        if cites is None:
            if parent is None or rule_id not in parent.rules:
                errors.append(SpecError(file, json_path(where),
                                        f"null removes an inherited rule, but {rule_id} is not "
                                        f"inherited{_from(parent)}"))
            continue
        for k, text in enumerate(cites):
            errors += _citation_errors(ruleset, spec, Citation.parse(text), [*where, k],
                                       f"{rule_id} in {ruleset.id}")
    for name, option in raw.options.items():
        where = ["options", name]
        if option is None:
            if parent is None or name not in parent.options:
                errors.append(SpecError(file, json_path(where),
                                        f"null removes an inherited option, but {name} is not "
                                        f"inherited{_from(parent)}"))
            continue
        decision_id = option.get("decision")
        if isinstance(decision_id, str):
            errors += _decision_option_errors(ruleset, spec, name, decision_id,
                                              [*where, "decision"])
            continue
        loaded = ruleset.options[name]
        if spec.lawbook.get(loaded.rule) is None:
            errors.append(SpecError(file, json_path([*where, "rule"]),
                                    f"option {name} is about {loaded.rule}, which the law book "
                                    "does not have"))
        if loaded.default not in loaded.choices:
            errors.append(SpecError(file, json_path([*where, "default"]),
                                    f"option {name}: the default {loaded.default!r} is not one of "
                                    f"its choices ({', '.join(loaded.choices)})"))
        for k, citation in enumerate(loaded.cite):
            errors += _citation_errors(ruleset, spec, citation, [*where, "cite", k],
                                       f"option {name} of {ruleset.id}")
    return errors


def _from(parent: Ruleset | None) -> str:
    return " (the ruleset extends nothing)" if parent is None else f" from {parent.id}"


def _citation_errors(ruleset: Ruleset, spec: Spec, citation: Citation,
                     where: list[str | int], what: str) -> list[SpecError]:
    path = json_path(where)
    if citation.decision is not None:
        decision = spec.register.get(citation.decision)
        if decision is None:
            return [SpecError(ruleset.file, path,
                              f"{what} cites {citation.decision}, which is not in the register")]
        if decision.source != ruleset.source:
            return [SpecError(ruleset.file, path,
                              f"{what} cites {decision.id}, a decision on {decision.source}; a "
                              f"ruleset cites only its own source ({ruleset.source})")]
        return []
    source = spec.index.get(ruleset.source)
    if source is None:
        return []  # reported once, at $.source
    why = citation_problem(citation, source)
    return [] if why is None else [SpecError(ruleset.file, path, f"{what} cites {why}")]


def _decision_option_errors(ruleset: Ruleset, spec: Spec, name: str, decision_id: str,
                            where: list[str | int]) -> list[SpecError]:
    path = json_path(where)
    decision = spec.register.get(decision_id)
    if decision is None:
        return [SpecError(ruleset.file, path,
                          f"option {name} offers {decision_id}, which is not in the register")]
    if decision.source != ruleset.source:
        return [SpecError(ruleset.file, path,
                          f"option {name} offers {decision_id}, a decision on {decision.source}; "
                          f"a ruleset cites only its own source ({ruleset.source})")]
    if not decision.offers_option:
        return [SpecError(ruleset.file, path,
                          f"option {name} offers {decision_id}, which has a single alternative "
                          "and so is no option (cite it in rules instead)")]
    return []


# --- switches and bid conditions ------------------------------------------------------------


def _check_switches(ruleset: Ruleset) -> list[SpecError]:
    errors: list[SpecError] = []
    for key, value in ruleset.params.items():
        _walk_switches(ruleset, value, ["params", key], _inherited(ruleset, key), errors)
    return errors


def _dropped_rules(ruleset: Ruleset, spec: Spec) -> list[str]:
    """The params read by the parent's rules that are not in force in ``ruleset`` (a house
    game's inherited rules whose needs its params cannot meet: spec/README.md)."""
    parent = ruleset.parent
    if parent is None:
        return []
    return [entry for rule_id in parent.rules if rule_id not in ruleset.rules
            and (rule := spec.lawbook.get(rule_id)) is not None and rule.needs
            and not all(can_meet(ruleset.params, need) for need in rule.needs)
            for entry in rule.params]


def _inherited(ruleset: Ruleset, key: str) -> str:
    origin = ruleset.param_files.get(key, ruleset.file)
    return "" if origin == ruleset.file else f" (inherited from {origin})"


def _walk_switches(ruleset: Ruleset, value: JSON, where: list[str | int], note: str,
                   errors: list[SpecError]) -> None:
    file = ruleset.file
    if isinstance(value, list):
        for i, item in enumerate(value):
            _walk_switches(ruleset, item, [*where, i], note, errors)
        return
    if not isinstance(value, dict):
        return
    if is_switch(value):
        name = str(value["by_option"])
        cases = value["cases"]
        assert isinstance(cases, dict)
        option = ruleset.options.get(name)
        if option is None:
            errors.append(SpecError(file, json_path([*where, "by_option"]),
                                    f"switches on option {name!r}, which {ruleset.id} does not "
                                    f"have{note}"))
        else:
            missing = [c for c in option.choices if c not in cases]
            extra = [c for c in cases if c not in option.choices]
            if missing:
                errors.append(SpecError(file, json_path([*where, "cases"]),
                                        f"has no case for {_choices(missing)} of option {name}"
                                        f"{note}"))
            if extra:
                errors.append(SpecError(file, json_path([*where, "cases"]),
                                        f"has a case for {_choices(extra)}, which option {name} "
                                        f"does not offer{note}"))
        for choice, case in cases.items():
            _walk_switches(ruleset, case, [*where, "cases", choice], note, errors)
        return
    condition = value.get("only_when")
    if isinstance(condition, dict):
        name = str(condition.get("option"))
        option = ruleset.options.get(name)
        wanted = condition.get("choices")
        bid = value.get("id", "?")
        if option is None:
            errors.append(SpecError(file, json_path([*where, "only_when", "option"]),
                                    f"bid {bid} depends on option {name!r}, which {ruleset.id} "
                                    f"does not have{note}"))
        elif isinstance(wanted, list):
            unknown = [str(c) for c in wanted if c not in option.choices]
            if unknown:
                errors.append(SpecError(file, json_path([*where, "only_when", "choices"]),
                                        f"bid {bid} depends on {_choices(unknown)}, which option "
                                        f"{name} does not offer{note}"))
    for key, item in value.items():
        if key != "only_when":
            _walk_switches(ruleset, item, [*where, key], note, errors)


def _choices(names: Iterable[str]) -> str:
    listed = [repr(n) for n in names]
    return ("choice " if len(listed) == 1 else "choices ") + ", ".join(listed)


# --- every parameter is read by a rule in force --------------------------------------------


def param_paths(params: Mapping[str, JSON]) -> dict[str, list[str | int]]:
    """The parameter paths that some rule must read, each with where it first occurs.

    Each top-level parameter, each field of an object-valued one (``preparation.usual``) and
    each field of every bid (``bids[*].lead``).
    """
    found: dict[str, list[str | int]] = {}
    for key, value in params.items():
        found.setdefault(key, ["params", key])
        if key == "bids" and isinstance(value, list):
            for i, bid in enumerate(value):
                if isinstance(bid, dict):
                    for field in bid:
                        found.setdefault(f"bids[*].{field}", ["params", key, i, field])
        elif isinstance(value, dict) and not is_switch(value):
            for field in value:
                found.setdefault(f"{key}.{field}", ["params", key, field])
    return found


def reads(entry: str, path: str) -> bool:
    """Whether a rule's params entry reads the parameter at ``path`` (wholly or in part)."""
    return entry == path or path.startswith(entry + ".") or entry.startswith(path + ".")


def _check_params_read(ruleset: Ruleset, spec: Spec) -> list[SpecError]:
    entries = [entry for rule_id in ruleset.rules
               if (rule := spec.lawbook.get(rule_id)) is not None for entry in rule.params]
    errors = []
    dropped = _dropped_rules(ruleset, spec)
    for path, where in param_paths(ruleset.params).items():
        if not any(reads(entry, path) for entry in entries):
            key = str(where[1])
            if any(reads(entry, path) for entry in dropped):
                continue  # read by a rule the game's params put out of force (a bid's lose, of
                # NAP-9.2.1, on a score sheet in points: NAP-9.6.1): unused, not wrong
            errors.append(SpecError(ruleset.file, json_path(where),
                                    f"no rule in force in {ruleset.id} reads {path} (a rule's "
                                    f"params must list it){_inherited(ruleset, key)}"))
    return errors


# --- under every combination of options: bids and packs ------------------------------------


def _check_combinations(ruleset: Ruleset) -> list[SpecError]:
    found: dict[tuple[str, str], str] = {}  # (path, message) -> the first combination's words
    defaults = {name: option.default for name, option in ruleset.options.items()}
    raw_bids = ruleset.params.get("bids")
    bid_list = raw_bids if isinstance(raw_bids, list) else []
    all_ids = {str(b.get("id")) for b in bid_list if isinstance(b, dict)}
    allowed: set[int] = set()  # players allowed under some combination
    listed: dict[tuple[int, int], str] = {}  # (pack entry, players) -> first combination
    # The bids and preparation checked, by identity (resolve_kept shares a value between the
    # combinations of options it does not read): each is checked once, not under each of
    # up to hundreds of combinations, which made a house file's thousands of bids take minutes.
    # (The values are kept here, so that no other takes their ids.)
    checked: dict[tuple[int, int], tuple[JSON, JSON]] = {}
    for values in ruleset.option_combinations(only_relevant=True):
        combination = _combination(values, defaults)
        try:
            # resolve's JSON, shared: read here, never changed.
            resolved = cast(JSONObject, ruleset.resolve_kept(values))
        except SpecError as exc:
            found.setdefault((exc.path, exc.message), combination)
            continue
        bids, prep = resolved.get("bids"), resolved.get("preparation")
        problems = []
        if (id(bids), id(prep)) not in checked:
            checked[id(bids), id(prep)] = (bids, prep)
            positions = [i for i, bid in enumerate(bid_list) if bid_present(bid, values)]
            problems += _bid_problems(resolved, positions, all_ids, ruleset.id)
        problems += _pack_problems(resolved, ruleset.id)
        for path, message in problems:
            found.setdefault((path, message), combination)
        allowed.update(_ints(resolved.get("players")))
        pack = resolved.get("pack")
        for e, entry in enumerate(pack if isinstance(pack, list) else []):
            for n in _ints(entry.get("players") if isinstance(entry, dict) else None):
                listed.setdefault((e, n), combination)
    errors = [SpecError(ruleset.file, path, f"{message} {combination}")
              for (path, message), combination in found.items()]
    # A pack entry may serve more players than one choice allows, but not a number of players
    # that no choice allows (a typo, or a pack for a game the ruleset does not have).
    for (e, n), combination in listed.items():
        if n not in allowed:
            errors.append(SpecError(ruleset.file, json_path(["params", "pack", e, "players"]),
                                    f"the pack lists {n} players, which {ruleset.id} never "
                                    f"allows (players: {format_players(allowed)}) {combination}"))
    return errors


def _ints(value: JSON) -> list[int]:
    return [n for n in value if isinstance(n, int)] if isinstance(value, list) else []


def _combination(values: Mapping[str, str], defaults: Mapping[str, str]) -> str:
    changed = [f"{k}={v}" for k, v in values.items() if defaults.get(k) != v]
    return "(with the default options)" if not changed else f"(with {', '.join(changed)})"


def _bid_problems(resolved: JSONObject, positions: list[int], all_ids: set[str],
                  ruleset_id: str) -> list[tuple[str, str]]:
    bids = resolved.get("bids")
    if not isinstance(bids, list):
        return []
    problems: list[tuple[str, str]] = []
    order: dict[str, int] = {}
    # Where each id is last: "a later bid" is one whose last place is after n (a set of the
    # later ids made at each bid made checking a house file of 5,000 bids take minutes).
    last = {str(b.get("id")): n for n, b in enumerate(bids) if isinstance(b, dict)}
    for n, bid in enumerate(bids):
        if not isinstance(bid, dict):
            continue
        here: list[str | int] = ["params", "bids", positions[n]]
        bid_id = str(bid.get("id"))
        if bid_id in order:
            problems.append((json_path([*here, "id"]),
                             f"bid {bid_id} appears twice in {ruleset_id}'s bids"))
        order.setdefault(bid_id, n)
        requires = bid.get("requires", [])
        for g, group in enumerate(requires if isinstance(requires, list) else []):
            names = [str(x) for x in group] if isinstance(group, list) else []
            reported = len(problems)
            for k, name in enumerate(names):
                where = json_path([*here, "requires", g, k])
                if name not in all_ids:
                    problems.append((where, f"bid {bid_id} requires {name}, which is not a bid "
                                            f"of {ruleset_id}"))
                elif name == bid_id:
                    problems.append((where, f"bid {bid_id} requires itself"))
                elif last.get(name, -1) > n and order.get(name, n) >= n:
                    problems.append((where, f"bid {bid_id} requires {name}, which comes later "
                                            "in the bids (requires names earlier bids)"))
            earlier = any(order.get(name, n) < n for name in names)
            if names and not earlier and len(problems) == reported:
                problems.append((json_path([*here, "requires", g]),
                                 f"bid {bid_id} requires one of {', '.join(names)}, but none of "
                                 "them is a bid of this game"))
    prep = resolved.get("preparation")
    shuffles = prep.get("shuffle_after_made") if isinstance(prep, dict) else None
    for k, made in enumerate(shuffles if isinstance(shuffles, list) else []):
        if str(made) not in all_ids:
            problems.append((json_path(["params", "preparation", "shuffle_after_made", k]),
                             f"{made} is not a bid of {ruleset_id}"))
    return problems


def _pack_problems(resolved: JSONObject, ruleset_id: str) -> list[tuple[str, str]]:
    players = resolved.get("players")
    pack = resolved.get("pack")
    if not isinstance(players, list) or not isinstance(pack, list):
        return []
    counts = _ints(players)
    widow = 1 if resolved.get("widow") is not None else 0
    problems: list[tuple[str, str]] = []
    for n in counts:
        entries = [e for e, entry in enumerate(pack)
                   if isinstance(entry, dict) and isinstance(entry.get("players"), list)
                   and n in entry["players"]]  # type: ignore[operator]
        if len(entries) != 1:
            how = "no pack entry" if not entries else f"{len(entries)} pack entries"
            problems.append(("$.params.pack", f"{how} for {n} players in {ruleset_id} "
                                              "(each allowed number needs exactly one)"))
            continue
        entry = pack[entries[0]]
        assert isinstance(entry, dict)
        lowest = entry.get("lowest_rank")
        if lowest not in RANKS:
            continue
        cards = 4 * (len(RANKS) - RANKS.index(str(lowest)))
        needed = HAND * n + widow
        if cards < needed:
            extra = " and the widow" if widow else ""
            problems.append((json_path(["params", "pack", entries[0], "lowest_rank"]),
                             f"a {cards}-card pack ({lowest} to A) cannot deal {n} players "
                             f"{HAND} cards each{extra} ({needed} cards) in {ruleset_id}"))
    return problems


def _unique(errors: list[SpecError]) -> list[SpecError]:
    return list(dict.fromkeys(errors))
