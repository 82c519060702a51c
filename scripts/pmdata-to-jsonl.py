#!/usr/bin/env python3
"""Converts PMData participants' folders into pipeline's JSON Lines, with the mapping of the fixture's SOURCES.md.

    scripts/pmdata-to-jsonl.py Tests/Fixtures/pmdata-early > pmdata.jsonl

Each folder pNN holds wellness.csv and, except for p12, sleep_score.csv. Per participant: a `user` record
(Europe/Oslo), one `entry` per morning (the Oslo date of effective_time_frame, the last report of a date,
empty reports dropped first; symptomSeverity = 10 - readiness, mood, energy = fatigue, sleepDuration =
round(hours x 3600)) and one `health` record per sleep-score date (the date written in its timestamp, the last
row of a date) with restingHeartRate. A value outside pipeline's bounds is left out of its record and counted
on stderr; nothing else is altered. Output is sorted by user, then day, entries before health records.
"""

import csv
import json
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

OSLO = ZoneInfo("Europe/Oslo")
# pipeline's hard bounds (DESIGN §2) for the fields the mapping writes.
BOUNDS = {
    "symptomSeverity": (0, 10),
    "mood": (1, 5),
    "energy": (1, 5),
    "sleepDuration": (0, 86400),
    "restingHeartRate": (20, 250),
}
ANSWERS = ("fatigue", "mood", "sleep_quality", "soreness", "stress")


def number(text):
    """An integer when the CSV holds one, else a float; None for an empty cell."""
    text = text.strip()
    if text == "":
        return None
    value = float(text)
    return int(value) if value.is_integer() else value


def bounded(record, field, value, dropped):
    if value is None:
        return
    low, high = BOUNDS[field]
    if low <= value <= high:
        record[field] = value
    else:
        dropped[field] = dropped.get(field, 0) + 1


def mornings(path, user, dropped):
    """The entry records of one wellness.csv, by day: the last non-empty report of each Oslo date."""
    days = {}
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    instants = []
    for row in rows:
        if all(number(row[name]) in (0, None) for name in ANSWERS):
            continue
        instant = datetime.fromisoformat(row["effective_time_frame"].replace("Z", "+00:00"))
        instants.append((instant, row))
    for instant, row in sorted(instants, key=lambda pair: pair[0]):
        day = instant.astimezone(OSLO).date().isoformat()
        record = {"type": "entry", "user": user, "day": day}
        readiness = number(row["readiness"])
        bounded(record, "symptomSeverity", None if readiness is None else 10 - readiness, dropped)
        bounded(record, "mood", number(row["mood"]), dropped)
        bounded(record, "energy", number(row["fatigue"]), dropped)
        hours = number(row["sleep_duration_h"])
        bounded(record, "sleepDuration", None if hours is None else round(hours * 3600), dropped)
        days[day] = record
    return days


def nights(path, user, dropped):
    """The health records of one sleep_score.csv, by day: the date written in the timestamp, the last row."""
    days = {}
    if not path.exists():
        return days
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            day = row["timestamp"][:10]
            record = {"type": "health", "user": user, "day": day}
            bounded(record, "restingHeartRate", number(row["resting_heart_rate"]), dropped)
            days[day] = record
    return days


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: pmdata-to-jsonl.py FOLDER  (the folder holding p01 … p16)")
    root = Path(sys.argv[1])
    participants = sorted(path for path in root.iterdir() if path.is_dir() and path.name.startswith("p"))
    if not participants:
        sys.exit(f"error: no participant folders (pNN) in {root}")
    dropped = {}
    out = sys.stdout
    for folder in participants:
        user = folder.name
        out.write(json.dumps({"type": "user", "user": user, "timeZone": "Europe/Oslo"}) + "\n")
        entries = mornings(folder / "wellness.csv", user, dropped)
        health = nights(folder / "sleep_score.csv", user, dropped)
        for day in sorted(set(entries) | set(health)):
            for record in (entries.get(day), health.get(day)):
                if record is not None and len(record) > 3:
                    out.write(json.dumps(record) + "\n")
    for field, count in sorted(dropped.items()):
        print(f"pmdata-to-jsonl: {count} {field} value(s) outside pipeline's bounds left out", file=sys.stderr)


if __name__ == "__main__":
    main()
