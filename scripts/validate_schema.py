#!/usr/bin/env python3
"""Validate files against a committed JSON Schema with an independent validator.

usage: validate_schema.py SCHEMA.json FILE_OR_DIR... [--expect-invalid]

A folder stands for every `*.toml` data file below it (not mod.toml / rustkeep.toml); a file
named on the command line is validated as it is: `*.toml` (data files, mod.toml, rustkeep.toml)
read with Python's `tomllib` (TOML 1.0), `*.json` (what a command printed) read as JSON. The validator is the
`jsonschema` package (Draft 2020-12 or draft-07, by the schema's `$schema`). Prints one line per
invalid file. Exit 0 when every file is valid (or, with --expect-invalid, when every file is
invalid), 1 otherwise, 2 on usage errors or when a file cannot be read.
"""
import json
import pathlib
import sys

import jsonschema

# Mod data is TOML 1.0 (what `rustkeep fmt` writes by default), so the standard library's reader
# does; `tomli` is the same reader for Pythons older than 3.11.
try:
    import tomllib
except ImportError:
    import tomli as tomllib


def data_files(paths):
    for p in map(pathlib.Path, paths):
        if p.is_file():
            yield p
        else:
            for f in sorted(p.rglob("*.toml")):
                if f.name not in ("mod.toml", "rustkeep.toml", "expect.toml"):
                    yield f


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    expect_invalid = "--expect-invalid" in argv
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schema = json.loads(pathlib.Path(args[0]).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = good = 0
    for f in data_files(args[1:]):
        language = "JSON" if f.suffix == ".json" else "TOML"
        try:
            text = f.read_text(encoding="utf-8")
            doc = json.loads(text) if language == "JSON" else tomllib.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as e:
            if expect_invalid:
                bad += 1
                print(f"{f}: not {language} ({e})")
                continue
            print(f"{f}: not {language}: {e}", file=sys.stderr)
            return 2
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            bad += 1
            first = errors[0]
            print(f"{f}: {len(errors)} schema error(s); first at /{'/'.join(map(str, first.path))}: {first.message[:160]}")
        else:
            good += 1
            if expect_invalid:
                print(f"{f}: valid, but a schema error was expected")
    print(f"schema: {good} valid, {bad} invalid file(s)")
    return 0 if (bad == 0 if not expect_invalid else good == 0) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
