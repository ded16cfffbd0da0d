"""The cross-checks of a loaded spec that its JSON Schemas cannot state: references between
spec files (clause ids and their line ranges, third-party names, roles, King cards,
targets), variation points and rulesets, engine parameters, the register and the rulings,
rule modules, the rules' declarations, visibility, the turn flow and the invariants.
:func:`palast.spec.load.load_spec` runs :func:`cross_check` and reports every problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from palast.spec.flow import flow_problems
from palast.spec.house_rulesets import house_problems
from palast.spec.model import OPEN, Clause, Spec
from palast.spec.modules import module_problems, rule_entries
from palast.spec.visibility import visibility_problems


def _third_party_refs(data: Any, path: list[str | int]) -> list[tuple[list[str | int], str]]:
    out: list[tuple[list[str | int], str]] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "third_party" and isinstance(v, list):
                for i, t in enumerate(v):
                    name = t if isinstance(t, str) else t.get("source") if isinstance(t, dict) else None
                    if name:
                        out.append((path + [k, i], name))
            else:
                out.extend(_third_party_refs(v, path + [k]))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.extend(_third_party_refs(v, path + [i]))
    return out


def cross_check(spec: Spec, sources_dir: Path | None, *, rulings: bool = True) -> list[str]:
    """Check references between spec files; return one message per problem (empty: fine).

    Checks: clause ids exist and their line ranges lie inside their source; third-party
    names exist; roles agree between files; King roles are roles; a target for every
    player count; every variation point's readings, sides and ruleset choices are
    consistent and every parameter is set by one variation point whose readings
    the rules' declarations implement; the discrepancy register's own rules and the
    rulings' references (:mod:`palast.spec.register`); every invariant declares its expression.
    """
    from palast.lang.syntax import written_column
    from palast.spec.register import clause_refs, register_problems, ruling_reference_problems
    from palast.spec.sources import check_sources
    from palast.spec.yamlio import data_at

    problems: list[str] = []
    docs = spec.documents

    def at(fname: str, path: list[str | int], msg: str, column: int | None = None) -> None:
        # an expression's column counts in the text read as one line: where it is written
        value = data_at(docs[fname].data, path) if column is not None else None
        if isinstance(value, str) and column is not None:
            column = written_column(value, column)
        problems.append(f"{docs[fname].file}: {docs[fname].place(path, column)}: {msg}")

    # clauses and sources
    seen_clauses: set[str] = set()
    for i, raw in enumerate(docs["clauses.yaml"].data["clauses"]):
        cid = raw["id"]
        c = Clause(cid, raw["source"], "?", raw["lines"][0], raw["lines"][1], raw["paraphrase"])
        if cid in seen_clauses:
            at("clauses.yaml", ["clauses", i, "id"], f"clause {cid} is listed twice")
        seen_clauses.add(cid)
        src = spec.sources.get(c.source)
        if src is None:
            at("clauses.yaml", ["clauses", i, "source"], f"clause {cid} names unknown source {c.source!r}")
            continue
        if not cid.startswith(c.source + "."):
            at("clauses.yaml", ["clauses", i, "id"], f"clause {cid} does not start with its source id {c.source}")
        if not (1 <= c.first_line <= c.last_line <= int(src["line_count"])):
            at("clauses.yaml", ["clauses", i, "lines"], f"clause {cid} lines {c.first_line}-{c.last_line} "
                                                         f"lie outside {src['file']} (1-{src['line_count']})")
    # a missing folder or file is no problem here; palast spec check says what was verified
    problems.extend(f"clauses.yaml: {p}" for p in check_sources(spec, sources_dir).problems)
    for fname, doc in docs.items():
        if fname == "clauses.yaml":
            continue
        for path, cid in clause_refs(doc.data, []):
            if cid not in spec.clauses:
                at(fname, path, f"cites clause {cid!r}, which is not in the clause registry")
        for path, tp in _third_party_refs(doc.data, []):
            if tp not in spec.third_party:
                at(fname, path, f"names third-party source {tp!r}, which clauses.yaml does not list")

    # game
    _game_problems(spec, at)
    if set(spec.role_actions) != set(spec.roles):
        missing = sorted(set(spec.roles) - set(spec.role_actions))
        extra = sorted(set(spec.role_actions) - set(spec.roles))
        problems.append(f"roles.yaml: roles without an action: {missing}; actions for unknown roles: {extra}")
    if spec.neutral_per_role * len(spec.roles) != int(spec.game["cards"]["neutral_total"]):
        at("game.yaml", ["cards", "neutral_per_role"],
           f"{spec.neutral_per_role} neutral cards for each of {len(spec.roles)} roles do not make the "
           f"{spec.game['cards']['neutral_total']} neutral cards the sources give")
    for i, k in enumerate(spec.king_roles):
        if k not in spec.roles:
            at("game.yaml", ["king_cards", "roles", i], f"King card names unknown role {k!r}")
    for n in range(spec.min_players, spec.max_players + 1):
        if n not in spec.game["targets"]["by_players"]:
            at("game.yaml", ["targets", "by_players"], f"no target for {n} players")
    if spec.max_players > len(spec.player_colours):
        at("game.yaml", ["colours", "player"], "fewer player colours than the most players")
    if spec.six > len(spec.roles) or spec.six >= spec.hand_size + 1:
        at("game.yaml", ["six"], "six different roles must be possible within one hand")
    seen_alias: dict[str, str] = {}
    for r in spec.game["roles"]:
        for a in [r["id"], *r.get("aliases", [])]:
            if a in seen_alias and seen_alias[a] != r["id"]:
                at("game.yaml", ["roles"], f"alias {a!r} names two roles")
            seen_alias[a] = r["id"]

    # rules
    for rid, rule in spec.rules.items():
        for vp in rule.variation_points:
            if vp not in spec.variation_points:
                problems.append(f"rule {rid} names unknown variation point {vp!r}")

    # variation points and rulesets
    from palast.lang.logic import declared_readings
    declared = declared_readings(spec)
    params_seen: dict[str, str] = {}
    for i, (vid, point) in enumerate(spec.variation_points.items()):
        base: list[str | int] = ["variation_points", i]
        reading_ids = [r.id for r in point.readings]
        if len(set(reading_ids)) != len(reading_ids):
            at("variation_points.yaml", base + ["readings"], f"{vid}: a reading id is repeated")
        for side in ("A", "B"):
            r = point.sides[side]["reading"]
            if r is not None and r not in reading_ids:
                at("variation_points.yaml", base + ["sides", side, "reading"],
                   f"{vid}: side {side} reads {r!r}, which is not one of its readings {reading_ids}")
        for rs in spec.rulesets:
            choice = point.choices.get(rs)
            if choice is None:
                at("variation_points.yaml", base + ["rulesets"],
                   f"{vid}: ruleset {rs!r} has no reading (name one of {reading_ids} or 'open')")
            elif choice != OPEN and choice not in reading_ids:
                at("variation_points.yaml", base + ["rulesets", rs],
                   f"{vid}: ruleset {rs!r} takes {choice!r}, which is not one of its readings {reading_ids}")
        for rs in point.choices:
            if rs not in spec.rulesets:
                at("variation_points.yaml", base + ["rulesets", rs], f"{vid}: unknown ruleset {rs!r}")
        # a source ruleset follows its side (a component fact is read alike by every ruleset)
        for side, rs in (("A", "source-a"), ("B", "source-b")):
            if rs in point.choices and rs in spec.rulesets and not point.component:
                want = point.sides[side]["reading"] or OPEN
                if point.choices[rs] != want:
                    at("variation_points.yaml", base + ["rulesets", rs],
                       f"{vid}: {rs} must take source {side}'s reading {want!r}, not {point.choices[rs]!r}")
        if point.parameter is not None:
            if point.parameter in params_seen:
                at("variation_points.yaml", base + ["parameter"],
                   f"{vid}: parameter {point.parameter} is already set by {params_seen[point.parameter]}")
            params_seen[point.parameter] = vid
            if vid not in declared:
                at("variation_points.yaml", base + ["parameter"],
                   f"{vid}: no rule's declaration reads the point (parameter {point.parameter!r})")
            else:
                for r in reading_ids:
                    if r not in declared[vid]:
                        at("variation_points.yaml", base + ["readings"],
                           f"{vid}: no rule declares what reading {r!r} does (declared: {sorted(declared[vid])})")
    problems.extend(house_problems(spec))
    if spec.default_ruleset not in spec.rulesets:
        at("rulesets.yaml", ["default"], f"default ruleset {spec.default_ruleset!r} is not defined "
                                         f"(rulesets: {', '.join(spec.rulesets)})")

    problems.extend(register_problems(spec))
    # rule ids are listed once, across rules.yaml, roles.yaml and the modules
    seen_rules: set[str] = set()
    for raw_rule, fname, rpath, _ in rule_entries(docs):
        if raw_rule["id"] in seen_rules:
            at(fname, [*rpath, "id"], f"rule {raw_rule['id']} is listed twice")
        seen_rules.add(raw_rule["id"])
    problems.extend(module_problems(spec))
    seen_points: set[str] = set()
    for i, raw_vp in enumerate(docs["variation_points.yaml"].data["variation_points"]):
        if raw_vp["id"] in seen_points:
            at("variation_points.yaml", ["variation_points", i, "id"],
               f"variation point {raw_vp['id']} is listed twice")
        seen_points.add(raw_vp["id"])
    # the rules' logic blocks (the rule language)
    from palast.lang.logic import declarations
    from palast.lang.logic import problems as logic_problems
    for place, inner, msg, column in logic_problems(spec):
        at(place.file, [*place.path, *inner], msg, column)
    if rulings:
        problems.extend(ruling_reference_problems(spec))
    # who sees what (spec/visibility.yaml)
    from palast.spec.state import state_problems
    state_problems(spec, at)
    visibility_problems(spec, frozenset(spec.flow.decisions), at)
    from palast.spec.event_text import event_text_problems
    event_text_problems(spec, at)
    # the rules declared with statements (do blocks)
    from palast.lang.block_checks import problems as block_problems
    effect_rules = {d.rule: d.step for d in declarations(spec)}
    for fname, where, msg, column in block_problems(spec, frozenset(spec.flow.decisions),
                                                    frozenset(spec.visibility.effects), effect_rules):
        at(fname, list(where), msg, column)
    flow_problems(spec, at)

    # invariants
    from palast.lang.invariant_exprs import problems as invariant_problems
    for where, msg, column in invariant_problems(spec):
        at("invariants.yaml", list(where), msg, column)
    for i, inv in enumerate(spec.invariants.values()):
        if inv.holds is None:
            at("invariants.yaml", ["invariants", i, "id"],
               f"invariant {inv.id!r} declares no expression (holds): say what it claims, in the rule language")
    _reachability_problems(spec, at)
    return problems


def _reachability_problems(spec: Spec, at: Any) -> None:
    """The reachability questions of ``invariants.yaml`` (as the file lists them: the spec
    keeps one per id) have ids of their own, name rules, rulesets and decisions of the spec,
    state their conditions in the rule language, and give stored games (each file once, each
    ruleset by one game, searched under one of its rulesets) exactly where they expect a
    witness."""
    from palast.lang.invariant_exprs import decision_numbers
    from palast.lang.reach_exprs import reach_problems

    for path, msg, column in reach_problems(spec):
        at("invariants.yaml", list(path), msg, column)
    taken = {*spec.invariants, *(lem.id for inv in spec.invariants.values() for lem in inv.lemmas)}
    seen: set[str] = set()
    files: set[str] = set()
    decisions = decision_numbers(spec)
    for i, entry in enumerate(spec.documents["invariants.yaml"].data.get("reachability") or []):
        where = ["reachability", i]
        rid = entry["id"]
        if rid in seen:
            at("invariants.yaml", [*where, "id"], f"{rid!r} is already the id of a reachability question")
        elif rid in taken:
            at("invariants.yaml", [*where, "id"], f"{rid!r} is already the id of an invariant or lemma")
        seen.add(rid)
        if "fires" not in entry and "reaches" not in entry:
            at("invariants.yaml", where, "say what the question asks about: the rules (fires), the position an action "
                                         "reaches (reaches), or both")
        for j, rule in enumerate(entry.get("fires", ())):
            if rule not in spec.rules:
                at("invariants.yaml", [*where, "fires", j], f"unknown rule {rule!r}")
        witnesses = entry.get("witnesses") or []
        if bool(witnesses) != (entry["expect"] == "witness"):
            at("invariants.yaml", where, "give witnesses (each with its title, ruleset and search bound) exactly when "
                                         "the answer expected is witness")
        covered: set[str] = set()
        for j, w in enumerate(witnesses):
            wat = [*where, "witnesses", j]
            known = w["ruleset"] in spec.rulesets
            if not known:
                at("invariants.yaml", [*wat, "ruleset"], f"unknown ruleset {w['ruleset']!r}")
            for k, r in enumerate(w.get("rulesets", ())):
                if r not in spec.rulesets:
                    at("invariants.yaml", [*wat, "rulesets", k], f"unknown ruleset {r!r}")
                elif r in covered:
                    at("invariants.yaml", [*wat, "rulesets", k], f"another witness of {rid} already answers it "
                                                                 f"under {r}")
            rulesets = w.get("rulesets", list(spec.rulesets))
            if known and "rulesets" in w and w["ruleset"] not in rulesets:
                at("invariants.yaml", [*wat, "ruleset"], f"the search's ruleset {w['ruleset']} is not one of the "
                                                         "rulesets the witness answers under (rulesets)")
            if "rulesets" not in w and covered:
                at("invariants.yaml", wat, "a witness without rulesets answers under every ruleset: another witness "
                                           "of this question already answers under some")
            covered.update(rulesets)
            file = w.get("file", f"{rid}.yaml")
            if not file.startswith((f"{rid}.yaml", f"{rid}.")):
                # so that a search never writes over another obligation's stored game
                at("invariants.yaml", [*wat, "file"], f"a witness of {rid} is stored as {rid}.yaml or {rid}.NAME.yaml, "
                                                      f"not {file}")
            if file in files:
                at("invariants.yaml", [*wat, *(["file"] if "file" in w else [])],
                   f"{file} is already the file of another witness")
            files.add(file)
            sketch = list(w.get("sketch", ()))
            for k, d in enumerate(sketch):
                if d not in decisions:
                    at("invariants.yaml", [*wat, "sketch", k], f"unknown decision {d!r} (the decisions: "
                                                                f"{', '.join(decisions)})")
                elif k and sketch[k - 1] in decisions and not spec.flow.follows(sketch[k - 1], d):
                    at("invariants.yaml", [*wat, "sketch", k], f"{d!r} cannot come right after {sketch[k - 1]!r} "
                                                                "(the turn flow of spec/flow.yaml)")
            if sketch and len(sketch) < w.get("min_steps", 1):
                # the search answers only the decisions the sketch names, one per action
                at("invariants.yaml", [*wat, "sketch"], f"the sketch names {len(sketch)} decisions, fewer than "
                                                         f"min_steps ({w['min_steps']}): no game it guides is long "
                                                         "enough")
            if w.get("min_steps", 1) > w["max_steps"]:
                at("invariants.yaml", [*wat, "min_steps"], "min_steps is above max_steps")


def _game_problems(spec: Spec, at: Any) -> None:
    """Checks of ``game.yaml`` that its schema cannot state: ids listed once, the player
    range, enough cards for every player count, aliases that name one thing, and no King
    card for a role whose action reveals King cards (banned-role). Each problem is
    reported through ``at(file, path, message)``."""
    game = spec.game
    for key, ids in (("roles", spec.roles), ("colours.player", spec.player_colours)):
        for i, x in enumerate(ids):
            if x in ids[:i]:
                at("game.yaml", [*key.split("."), i, "id"], f"{x!r} is listed twice")
    if spec.neutral_colour in spec.player_colours:
        at("game.yaml", ["colours", "neutral", "id"], f"the neutral colour {spec.neutral_colour!r} is also a player "
                                                      "colour")
    for i, a in enumerate(game["colours"]["neutral"].get("aliases", [])):
        if a in spec.player_colours:
            at("game.yaml", ["colours", "neutral", "aliases", i], f"alias {a!r} is already a player colour")
    if spec.max_players < spec.min_players:
        at("game.yaml", ["players"], f"max ({spec.max_players}) is below min ({spec.min_players})")
    short = []
    for n in range(spec.min_players, spec.max_players + 1):
        cards = len(spec.roles) * (n * spec.per_colour + spec.neutral_per_role)
        if n * spec.hand_size > cards:
            short.append(f"{n} players need {n * spec.hand_size} and have {cards}")
    if short:
        at("game.yaml", ["hand_size", "value"], f"a deal of {spec.hand_size} cards to every player needs more cards "
                                                f"than the game has: {'; '.join(short)}")
    for i, k in enumerate(spec.king_roles):
        ra = spec.role_actions.get(k)
        if ra is not None and ra.action == "reveal-king":
            at("game.yaml", ["king_cards", "roles", i], f"a King card names the {k}, whose action reveals King "
                                                        "cards; that role can never be banned (banned-role)")
