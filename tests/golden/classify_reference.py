#!/usr/bin/env python3
"""An independent implementation of the fusiondiff-classifier/1 rule semantics (docs/classifiers.md),
used to produce the expected categories that tests/core/tst_classifier.cpp checks the C++ engine
against.

Usage: classify_reference.py RULES.json NAMES.txt > EXPECTED.tsv
NAMES.txt holds one kernel name per line; the output has "category<TAB>name" lines.
"""
import json
import sys


def lower_ascii(text):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def rule_matches(rule, name):
    if "prefix" in rule and not any(name.startswith(lower_ascii(p)) for p in rule["prefix"]):
        return False
    if "any" in rule and not any(lower_ascii(s) in name for s in rule["any"]):
        return False
    if "all" in rule and not all(lower_ascii(s) in name for s in rule["all"]):
        return False
    if "none" in rule and any(lower_ascii(s) in name for s in rule["none"]):
        return False
    return True


def classify(spec, name):
    lowered = lower_ascii(name)
    for rule in spec["rules"]:
        if rule_matches(rule, lowered):
            return rule["category"]
    return spec["fallback"]


def main():
    spec = json.load(open(sys.argv[1], encoding="utf-8"))
    print(f"# category<TAB>name: {spec['name']} rules applied by tests/golden/classify_reference.py")
    with open(sys.argv[2], encoding="utf-8") as names:
        for line in names:
            name = line.rstrip("\n")
            if name:
                print(f"{classify(spec, name)}\t{name}")


if __name__ == "__main__":
    main()
