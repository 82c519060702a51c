#!/usr/bin/env python3
"""Write a synthetic Apple Health export.xml of a chosen size, for benchmarks.

    scripts/make-health-export.py --size-mb 1024 --seed 7 --out /tmp/export.xml

The file has the shape of a modern export (iOS 17): the inline DTD, records grouped by type as
Apple's exporter writes them, entity-escaped `device` attributes, `MetadataEntry` children, HRV
records carrying a `HeartRateVariabilityMetadataList`, and the types a real export is made of
(heart rate and energy dominate; steps come from an iPhone and a Watch whose intervals overlap;
sleep stages come from the Watch, time in bed from the iPhone). Offsets follow Europe/Berlin's
daylight-saving rule, computed here so that no tz database is needed.

Speed matters more than variety: each type has a few pre-rendered day templates, and a day is
written by substituting its date and offset into one of them (bytes.replace runs in C), so the
script writes hundreds of MB/s. Only the standard library is used.
"""

import argparse
import datetime
import random
import sys

DAY_MARK, NEXT_MARK, ZONE_MARK = b"\x01", b"\x02", b"\x03"
VARIANTS = 8

WATCH = ("Ada&#x2019;s Apple Watch",
         "&lt;&lt;HKDevice: 0x3012772a0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
         "hardware:Watch6,7, software:10.2&gt;")
PHONE = ("Ada&#x2019;s iPhone",
         "&lt;&lt;HKDevice: 0x300d1c4b0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, "
         "hardware:iPhone14,2, software:17.2&gt;")

DTD = """<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
]>
"""


def clock(seconds):
    """Local time of day as HH:MM:SS; seconds past 24 h roll onto the next day's date mark."""
    mark = DAY_MARK
    if seconds >= 86_400:
        seconds -= 86_400
        mark = NEXT_MARK
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return mark + b" %02d:%02d:%02d " % (hours, minutes, secs) + ZONE_MARK


def record(kind, source, start, end, value, unit=None, children=b"", version=b"10.2"):
    name, device = source
    parts = [b' <Record type="', kind, b'" sourceName="', name.encode(), b'" sourceVersion="', version, b'"']
    if device:
        parts += [b' device="', device.encode(), b'"']
    if unit:
        parts += [b' unit="', unit, b'"']
    parts += [b' creationDate="', clock(end + 30), b'" startDate="', clock(start), b'" endDate="', clock(end),
              b'" value="', value, b'"']
    if children:
        parts += [b">\n", children, b" </Record>\n"]
    else:
        parts.append(b"/>\n")
    return b"".join(parts)


def metadata(key, value):
    return b'  <MetadataEntry key="' + key + b'" value="' + value + b'"/>\n'


def quantity_series(rng, kind, source, unit, count, value, span=(0, 86_000), length=60, child=b""):
    """`count` samples spread over the day, each `length` seconds long."""
    out = []
    for index in range(count):
        start = span[0] + (span[1] - span[0]) * index // count + rng.randrange(30)
        out.append(record(kind, source, start, start + length, value(rng), unit, child))
    return b"".join(out)


def steps(rng, source, offset):
    """Walking bouts: the phone and the watch record the same walks, shifted by `offset` seconds."""
    out = []
    for bout in range(12):
        base = 7 * 3600 + bout * 4500 + offset
        for piece in range(9):
            start = base + piece * 420
            out.append(record(b"HKQuantityTypeIdentifierStepCount", source, start, start + 400,
                              b"%d" % rng.randrange(200, 700), b"count"))
    return b"".join(out)


def hrv(rng):
    beats = b"".join(b'   <InstantaneousBeatsPerMinute bpm="%d" time="6:%02d:%02d.%02d AM"/>\n'
                     % (rng.randrange(50, 80), 10 + index // 60, index % 60, rng.randrange(100))
                     for index in range(55))
    children = b"  <HeartRateVariabilityMetadataList>\n" + beats + b"  </HeartRateVariabilityMetadataList>\n"
    return quantity_series(rng, b"HKQuantityTypeIdentifierHeartRateVariabilitySDNN", WATCH, b"ms", 5,
                           lambda r: b"%.4f" % r.uniform(25, 90), length=60, child=children)


def sleep(rng):
    """A night from ~23:00 to ~07:00 (spanning midnight): one iPhone InBed and Watch stage records."""
    tz = metadata(b"HKTimeZone", b"Europe/Berlin")
    start = 23 * 3600 + rng.randrange(1800)
    out = [record(b"HKCategoryTypeIdentifierSleepAnalysis", PHONE, start - 900, start + 8 * 3600,
                  b"HKCategoryValueSleepAnalysisInBed", children=tz, version=b"17.2")]
    stages = [b"AsleepCore", b"AsleepDeep", b"AsleepCore", b"AsleepREM", b"Awake"]
    at = start
    while at < start + 8 * 3600:
        length = rng.randrange(300, 1800)
        stage = stages[rng.randrange(len(stages))]
        out.append(record(b"HKCategoryTypeIdentifierSleepAnalysis", WATCH, at, at + length,
                          b"HKCategoryValueSleepAnalysis" + stage, children=tz))
        at += length
    return b"".join(out)


def motion(value):
    return metadata(b"HKMetadataKeyHeartRateMotionContext", value)


TYPES = [
    # (type, renders one day)
    (b"HeartRate", lambda r: quantity_series(r, b"HKQuantityTypeIdentifierHeartRate", WATCH, b"count/min", 420,
                                             lambda q: b"%d" % q.randrange(50, 140), length=0,
                                             child=motion(b"0"))),
    (b"StepCount.phone", lambda r: steps(r, PHONE, 0)),
    (b"StepCount.watch", lambda r: steps(r, WATCH, 200)),
    (b"DistanceWalkingRunning", lambda r: quantity_series(r, b"HKQuantityTypeIdentifierDistanceWalkingRunning",
                                                          PHONE, b"km", 110, lambda q: b"%.5f" % q.uniform(0, .4))),
    (b"BasalEnergyBurned", lambda r: quantity_series(r, b"HKQuantityTypeIdentifierBasalEnergyBurned", WATCH,
                                                     b"kcal", 250, lambda q: b"%.3f" % q.uniform(0.5, 2))),
    (b"ActiveEnergyBurned", lambda r: quantity_series(r, b"HKQuantityTypeIdentifierActiveEnergyBurned", WATCH,
                                                      b"kcal", 400, lambda q: b"%.3f" % q.uniform(0, 3))),
    (b"HRV", hrv),
    (b"RestingHeartRate", lambda r: quantity_series(r, b"HKQuantityTypeIdentifierRestingHeartRate", WATCH,
                                                    b"count/min", 1, lambda q: b"%d" % q.randrange(52, 68),
                                                    span=(300, 400), length=86_000)),
    (b"Sleep", sleep),
    (b"BodyMass", lambda r: record(b"HKQuantityTypeIdentifierBodyMass", ("Health", None), 7 * 3600, 7 * 3600,
                                   b"%.1f" % r.uniform(60, 62), b"kg",
                                   metadata(b"HKWasUserEntered", b"1"), version=b"17.2")),
]


def last_sunday(year, month):
    day = datetime.date(year, month + 1, 1) - datetime.timedelta(days=1) if month < 12 else datetime.date(year, 12, 31)
    return day - datetime.timedelta(days=(day.weekday() - 6) % 7)


def berlin_offset(day):
    """+0200 from the last Sunday of March to the day before the last Sunday of October, else +0100."""
    return b"+0200" if last_sunday(day.year, 3) <= day < last_sunday(day.year, 10) else b"+0100"


def expand(template, marks):
    """The template with each mark replaced by its date or offset text."""
    for mark, text in marks.items():
        template = template.replace(mark, text)
    return template


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=1024, help="approximate output size in MB (10^6 bytes)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (same seed, same file)")
    parser.add_argument("--start", default="2019-01-01", help="first day, YYYY-MM-DD")
    parser.add_argument("--out", default="-", help="output path, - for standard output")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    templates = [[render(rng) for _ in range(VARIANTS)] for _, render in TYPES]
    sample = {DAY_MARK: b"2019-01-01", NEXT_MARK: b"2019-01-02", ZONE_MARK: b"+0100"}
    per_day = sum(sum(len(expand(t, sample)) for t in variants) / VARIANTS for variants in templates)
    days = max(1, int(args.size_mb * 1_000_000 / per_day))
    first = datetime.date.fromisoformat(args.start)
    dates = [first + datetime.timedelta(days=index) for index in range(days + 1)]
    marks = [(str(d).encode(), str(dates[i + 1]).encode(), berlin_offset(d)) for i, d in enumerate(dates[:-1])]
    picks = [[rng.randrange(VARIANTS) for _ in range(days)] for _ in TYPES]

    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n' + DTD.encode() + b'<HealthData locale="en_DE">\n'
              + b' <ExportDate value="' + str(dates[-1]).encode() + b' 08:00:00 +0100"/>\n'
              + b' <Me HKCharacteristicTypeIdentifierDateOfBirth="" '
              + b'HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>\n')
    for variants, choice in zip(templates, picks):
        batch = []
        for index, (today, tomorrow, zone) in enumerate(marks):
            batch.append(expand(variants[choice[index]], {DAY_MARK: today, NEXT_MARK: tomorrow, ZONE_MARK: zone}))
            if len(batch) == 64:
                out.write(b"".join(batch))
                batch = []
        out.write(b"".join(batch))
    out.write(b"</HealthData>\n")
    if out is not sys.stdout.buffer:
        out.close()


if __name__ == "__main__":
    main()
