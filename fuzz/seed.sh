#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/) from the examples and fixtures.
#  - data_file: every .toml of examples/ and tests/fixtures/, prefixed with the selector byte the
#    target reads first (0x00: a data file, 0x01: the manifest).
#  - fast_reader: the same files as they are.
#  - play_save, play_recording: a save and a recording of a short game played by the CLI.
#  - toml_mutate, lsp_edits, loot_tables, format, play_save_map: the inputs are `arbitrary` choices over files
#    compiled into the targets, so their seeds are a few deterministic pseudo-random byte strings.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
corpus="$here/corpus"
mkdir -p "$corpus"/{data_file,fast_reader,toml_mutate,lsp_edits,loot_tables,format,play_save_map}

n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  if [ "$(basename "$f")" = mod.toml ]; then sel='\x01'; else sel='\x00'; fi
  { printf "$sel"; cat "$f"; } > "$corpus/data_file/seed-$n"
  cp "$f" "$corpus/fast_reader/seed-$n"
done < <(find "$repo/examples" "$repo/tests/fixtures" -name '*.toml' -print0 | sort -z)

python3 - "$corpus" <<'PY'
import random, sys, os
corpus = sys.argv[1]
rng = random.Random(1)
for target in ("toml_mutate", "lsp_edits", "loot_tables", "format", "play_save_map"):
    for i in range(32):
        size = rng.choice([16, 64, 256, 1024, 4096])
        with open(os.path.join(corpus, target, f"seed-{i}"), "wb") as f:
            f.write(bytes(rng.randrange(256) for _ in range(size)))
PY
# play_save, play_recording: a real save and recording of a short game, from the CLI itself.
mkdir -p "$corpus"/{play_save,play_recording}
(cd "$repo" && printf 'enter core:elders_hall\ngive core:gold 50\nmove n\nmove n\ntalk core:elder\nbuy 1\nleave\nspawn core:rat 2\nattack enemy:0\nwait\nmove s\nsave %s\nquit\n' "$corpus/play_save/seed-1" |
  cargo run --quiet -p rustkeep-cli -- play --line --seed 3 --option core:warrior --record "$corpus/play_recording/seed-1" >/dev/null)
echo "seeded: $(ls "$corpus/data_file" | wc -l) data files, 32 each for the arbitrary-driven targets"
