#!/usr/bin/env python3
"""Forecast quality on real people: PMData's 16 participants (Tests/Fixtures/pmdata-early, CC BY 4.0; see its
SOURCES.md), each person's last N logged mornings walked forward, as `pipeline predict --for D` at noon of D - 1
sees them.

    scripts/bench/real.py PIPELINE FIXTURE_FOLDER WORK_FOLDER [N]

1. Converts the fixture with its mapping (scripts/pmdata-to-jsonl.py) and ingests it into a new SQLite database.
2. The served forecast, as a deployment makes it: for every date D - 1 before a scored morning D, in order,
   `pipeline retrain --force` at noon of D - 1 (Europe/Oslo), then `pipeline predict --for D --json` for each person
   who logged D.
3. `pipeline evaluate --logged-days N` on the same database: the same forecasts, walked by one command, with the
   ungated personal and population models and the interval's coverage.
4. The baselines, computed here from the converted records alone: tomorrow = today (the last severity logged before
   D), the person's mean before D, and exponential smoothing of the person's severities (alpha 0.3, the level
   started at the first).
Prints every forecaster's MAE on the same mornings and its ratio to tomorrow = today; how sure the served forecast's
ratios to tomorrow = today and to exponential smoothing are, as a 90% interval from a paired bootstrap over the
people (10,000 draws, a fixed seed, so the same run prints the same interval), and for how many people the served
forecast did better, worse and the same as each; and checks that the replay and `pipeline evaluate` scored the same
mornings the same way.
"""

import json
import random
import statistics
import subprocess
import sys
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(args[:2])} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def noon_before(day):
    """Noon of the day before `day`, Oslo winter time (the fixture's days are all in CET)."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat() + "T12:00:00+01:00"


# The bootstrap's draws and seed: a fixed seed, so the interval printed is the same from one run to the next, and
# every comparison is made on the same draws of people.
BOOTSTRAP_DRAWS = 10_000
BOOTSTRAP_SEED = 1


def ratio_interval(sums, forecaster, baseline, draws=BOOTSTRAP_DRAWS, seed=BOOTSTRAP_SEED):
    """The 5th and 95th percentiles of sum(forecaster) / sum(baseline) over the people, the people drawn with
    replacement `draws` times. Each person brings all their mornings' errors to both sums, so the two forecasters
    are compared on the same mornings (paired), and the spread is that between people, the unit that varies: one
    person's mornings are not independent of each other."""
    rng = random.Random(seed)
    people = sorted(sums)
    ratios = []
    for _ in range(draws):
        drawn = [rng.choice(people) for _ in people]
        ratios.append(sum(sums[user][forecaster] for user in drawn) / sum(sums[user][baseline] for user in drawn))
    cuts = statistics.quantiles(ratios, n=20, method="inclusive")
    return cuts[0], cuts[-1]


def comparison(sums, baseline, label, expected):
    """One line: the served forecast's ratio to `baseline` over everyone, its 90% interval over people, and the
    people it did better, worse and the same for. The ratio is recomputed from the per-person sums and must equal the
    table's `expected`: the bootstrap resamples the same errors the table was made of."""
    ratio = sum(errors["served"] for errors in sums.values()) / sum(errors[baseline] for errors in sums.values())
    if abs(ratio - expected) > 1e-9:
        sys.exit(f"error: the per-person sums give served ÷ {label} {ratio}, the table {expected}")
    low, high = ratio_interval(sums, "served", baseline)
    # Every person's forecasters are scored on the same mornings, so comparing sums compares their MAEs.
    better = sum(errors["served"] < errors[baseline] for errors in sums.values())
    worse = sum(errors["served"] > errors[baseline] for errors in sums.values())
    # A person whose severity did not move can leave both forecasters with the same errors: those are named apart.
    same = len(sums) - better - worse
    return (f"  served ÷ {label} {ratio:.3f}, 90% interval over people (bootstrap, {BOOTSTRAP_DRAWS:,} draws) "
            f"[{low:.2f}, {high:.2f}]; better for {better} of {len(sums)} people, worse for {worse}"
            + (f", the same for {same}" if same else ""))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    pipeline, fixture, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    scored_count = int(sys.argv[4]) if len(sys.argv) == 5 else 21
    here = Path(__file__).resolve().parent
    records = run([sys.executable, str(here.parent / "pmdata-to-jsonl.py"), str(fixture)])
    (work / "pmdata.jsonl").write_text(records)
    severities = defaultdict(dict)
    for line in records.splitlines():
        record = json.loads(line)
        if record["type"] == "entry" and "symptomSeverity" in record:
            severities[record["user"]][record["day"]] = record["symptomSeverity"]
    last_day = max(day for days in severities.values() for day in days)
    now = (date.fromisoformat(last_day) + timedelta(days=1)).isoformat() + "T12:00:00+01:00"
    db = str(work / "pmdata.sqlite")
    run([pipeline, "ingest", str(work / "pmdata.jsonl"), "--db", db, "--now", now])

    # The mornings scored: each person's last N logged ones, with a severity logged before them.
    scored = {}
    for user, days in severities.items():
        ordered = sorted(days)
        scored[user] = [day for day in ordered[-scored_count:] if day > ordered[0]]

    # The baselines, from the records alone; each forecaster's errors are also summed by person, for the bootstrap.
    baselines = defaultdict(float)
    by_person = defaultdict(lambda: defaultdict(float))
    forecasts = 0
    for user, days in scored.items():
        history = severities[user]
        for day in days:
            before = [history[d] for d in sorted(history) if d < day]
            level = before[0]
            for value in before[1:]:
                level += 0.3 * (value - level)
            target = history[day]
            baselines["persistence"] += abs(before[-1] - target)
            baselines["userMean"] += abs(sum(before) / len(before) - target)
            baselines["smoothing"] += abs(level - target)
            by_person[user]["persistence"] += abs(before[-1] - target)
            by_person[user]["smoothing"] += abs(level - target)
            forecasts += 1

    # The served forecasts, replayed as a deployment makes them.
    by_date = defaultdict(list)
    for user, days in scored.items():
        for day in days:
            by_date[day].append(user)
    served = 0.0
    covered = 0
    width = 0.0
    replayed = 0
    for day in sorted(by_date):
        run([pipeline, "retrain", "--force", "--db", db, "--now", noon_before(day)])
        for user in sorted(by_date[day]):
            output = run(
                [pipeline, "predict", "--user", user, "--for", day, "--db", db, "--now", noon_before(day), "--json"])
            forecast = json.loads(output)
            target = severities[user][day]
            served += abs(forecast["severity"] - target)
            by_person[user]["served"] += abs(forecast["severity"] - target)
            lower, upper = forecast["interval"]
            covered += lower <= target <= upper
            width += upper - lower
            replayed += 1

    # The same walk by pipeline evaluate, on a copy (evaluate records its result).
    evaluated = json.loads(
        run([pipeline, "evaluate", "--logged-days", str(scored_count), "--db", db, "--now", now, "--json"]))
    mae = evaluated["meanAbsoluteError"]

    def line(label, value):
        if value is None:
            return f"  {label:<44} {'—':>6}"
        return f"  {label:<44} {value:6.3f}   {value / persistence:5.3f}"

    persistence = baselines["persistence"] / forecasts
    print(f"  {forecasts} mornings of {len(scored)} people (each person's last {scored_count} logged), "
          f"{min(min(d) for d in scored.values())} to {max(max(d) for d in scored.values())}")
    print(f"  {'forecast':<44} {'MAE':>6}   ÷ tomorrow = today")
    print(line("served: retrain at noon of D-1, predict --for D", served / replayed))
    print(line("tomorrow = today", persistence))
    print(line("the person's mean", baselines["userMean"] / forecasts))
    print(line("exponential smoothing, alpha 0.3", baselines["smoothing"] / forecasts))
    print(line("personal model, ungated (pipeline evaluate)", mae["ungatedPersonal"]))
    population = mae.get("population")
    print(line("population model (pipeline evaluate)", population)
          + ("" if population is not None else "   (not pooled: too few days before the 84-day window)"))
    # With so few people, a few percent between forecasters can be chance: how sure the served forecast's lead is.
    print(comparison(by_person, "persistence", "tomorrow = today", (served / replayed) / persistence))
    print(comparison(by_person, "smoothing", "exponential smoothing",
                     (served / replayed) / (baselines["smoothing"] / forecasts)))
    print(f"  80% interval: held {100 * covered / replayed:.1f}% of the mornings, mean width {width / replayed:.2f} "
          f"points (evaluate: {100 * evaluated['interval']['coverage']:.1f}%, "
          f"{evaluated['interval']['meanWidth']:.2f})")
    # The replay and evaluate walk the same mornings with the same models: their figures agree.
    checks = [
        ("mornings", evaluated["forecasts"], forecasts),
        ("served", mae["served"], served / replayed),
        ("tomorrow = today", mae["persistence"], persistence),
        ("the person's mean", mae["userMean"], baselines["userMean"] / forecasts),
        ("exponential smoothing", mae["smoothing"], baselines["smoothing"] / forecasts),
    ]
    for label, theirs, ours in checks:
        if abs(theirs - ours) > 1e-9:
            sys.exit(f"error: pipeline evaluate's {label} {theirs} differs from the replay's {ours}")
    print("  pipeline evaluate --logged-days scored the same mornings with the same forecasts")


if __name__ == "__main__":
    main()
