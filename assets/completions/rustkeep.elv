
use builtin;
use str;

set edit:completion:arg-completer[rustkeep] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'rustkeep'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'rustkeep'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Validate a mod, several mods or a workspace (default: the current folder)'
            cand fmt 'Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md)'
            cand loot 'Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md)'
            cand lsp 'The language server on stdin/stdout (docs/editors/lsp.md)'
            cand simulate 'Dry-run a scenario (docs/engine.md) and print the causal trace'
            cand test 'Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md)'
            cand arena 'Many fights of a scenario''s player against its enemies (or every option against every creature): win rate, rounds, health left, loot (docs/arena.md)'
            cand graph 'The trigger graph: events, the triggers listening to them, the events they raise; cycles marked'
            cand doc 'Write the loaded mods'' documentation as a static site: every entry in words and linked, exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md)'
            cand diff 'What a change does to the mods'' meaning: entries added, removed and changed, drop chances and arena win rates that moved, diagnostics introduced and fixed, and the version bump it needs (docs/balance.md)'
            cand play 'Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise; recordings and replays (docs/play.md)'
            cand show 'An entry as written, with its file: where to copy from to override it (docs/getting-started.md)'
            cand core 'The bundled core as files'
            cand new 'Create a mod skeleton that checks clean, with a scenario to simulate'
            cand schema 'Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a recording, or a command''s JSON output (docs/json-schemas.md)'
            cand explain 'What a diagnostic code means, an example, and how to fix or silence it'
            cand completions 'Print the completion script of a shell'
            cand man 'Print the manual page of rustkeep, or of one of its commands, as roff'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'rustkeep;check'= {
            cand --mods 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --format 'Output format, optionally with a file to write it to: `--format sarif:rustkeep.sarif`. Repeatable, to print one format and write others in the same run. Formats: human, json, json-lines, sarif, github, gitlab, junit, rdjson'
            cand --output-file 'Write the output of every `--format` that names no file of its own to this file instead of standard output'
            cand --baseline 'Report only diagnostics not recorded in this baseline file'
            cand --write-baseline 'Record the current diagnostics as the baseline'
            cand --no-color 'Disable colours'
            cand --deny-warnings 'Exit with 1 on warnings too'
            cand --fix 'Apply every safe suggested fix (docs/checking.md, "Safe and unsafe fixes"), keeping layout and comments, pass after pass until nothing is left to fix; lists every change'
            cand --unsafe-fixes 'With `--fix` or `--diff`: also apply the unsafe fixes (another ID, a guess among several close names, a change of behaviour)'
            cand --diff 'Change nothing: print the unified diff of what `--fix` would change, and exit with 1 if it would change anything'
            cand --watch 'Check again on every saved change of a `.toml` file the check reads, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;fmt'= {
            cand --mods 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --stdin-filename 'With `-`: the path the text on standard input belongs to (which key orders apply, and the `[format]` options of its workspace)'
            cand --no-color 'Disable colours'
            cand --check 'Change nothing; list the files that would change and exit with 1 if there are any'
            cand --diff 'Change nothing; print a unified diff of what would change and exit with 1 if anything would'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;loot'= {
            cand --luck 'The luck of the one who opens or kills: p_extra = clamp(luck × balance.luck_factor, 0, 0.9)'
            cand --samples 'Also roll the table this many times and show the sampled frequencies next to the exact ones'
            cand --seed 'Seed of the sampled rolls'
            cand --format 'Output format'
            cand --plot 'Write an SVG bar chart per drop: its expected count or its chance (see --plot-of), exact, and sampled next to it with --samples'
            cand --plot-of 'What --plot draws: `expected` counts per evaluation, or the `chance` of at least one (the histogram of the drop chances)'
            cand --mods 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --no-color 'Disable colours'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'rustkeep;lsp'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;simulate'= {
            cand --format '`human` (an indented causal trace) or `json` (the stable keys documented in docs/cli.md)'
            cand --mods 'More mods to load besides the scenario''s own `mods` (repeatable), each read by the one rule of every command (docs/data-language.md, "Which mods a path loads"). Default: only the scenario''s `mods`'
            cand --watch 'Run again on every saved change of the scenario or of the mods it loads, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;test'= {
            cand --format '`human` (failures and a summary), `json` (every expectation), `junit` (a test case per expectation) or `github` (annotations on the expectations'' lines)'
            cand --filter 'Run only the scenarios whose path contains this text'
            cand --mods 'More mods to load besides each scenario''s own `mods` (repeatable)'
            cand --watch 'Run again on every saved change, only the scenarios the change touches, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;arena'= {
            cand --mods 'Where to find the mods to load (repeatable). With a scenario: these besides the scenario''s own `mods` (default: only those). Without one (`--matrix`): the current folder by default, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --runs 'How many fights (each cell of the matrix fights this many times)'
            cand --seed 'The seed of the batch; fight `i` uses a generator derived from it and `i` alone (default: the scenario''s `seed`, else 0)'
            cand --rounds 'Rounds after which a fight is a draw'
            cand --format '`human` (a short table), `json` (the keys in docs/arena.md) or, with `--matrix`, `svg` (a heat map)'
            cand --matrix 'Every character option (as a new character with its starting kit) against one of every creature, one on one'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;graph'= {
            cand --mods 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --format '`dot` (Graphviz) or `json`'
            cand --no-color 'Disable colours'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;doc'= {
            cand --out 'The folder to write the site into; it must be empty, absent, or a site written before'
            cand --source-url 'A link to each entry''s source, with `{path}` and `{line}` replaced, e.g. `https://github.com/me/my_mod/blob/main/{path}#L{line}`. Without it the place is shown as text'
            cand --arena 'Add the arena''s matrix of each mod''s creatures against every character option, this many fights per cell'
            cand --seed 'The seed of the arena''s fights'
            cand --luck 'The luck of the second column of every drop chance (the first is luck 0)'
            cand --open 'Open the index in the browser when the site is written'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;diff'= {
            cand --format 'Output format: `human`, `json` or `markdown` (a pull-request comment)'
            cand --threshold 'The smallest move of a drop chance that is reported, in percentage points'
            cand --arena 'Fights per character option and creature for the arena''s moves (0: no arena)'
            cand --seed 'The seed of those fights (both versions fight the same seeded fights)'
            cand --check-semver 'Exit with 1 (after the report) when a mod''s new `version` is smaller than its changes need: a breaking change a major release, an addition a minor one, any other change a patch (one step less while the major version is 0)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;play'= {
            cand --mods 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --seed 'Seed of the game''s generator (default: 0 in the line console, a fresh one in the full-screen game); the game always shows it, so a run can be played again'
            cand --option 'A character option for the new character (repeatable), e.g. `core:warrior`; without one, the full-screen game lets you choose'
            cand --floor 'Start the run on this floor instead of the first'
            cand --load 'Start from a save instead of a new character'
            cand --record 'Write a recording of the game: the seed, the mods with a hash of their data, every input'
            cand --dump 'Where to write the character dump when the run ends (default: a new file in `rustkeep-play/dumps/` under the current folder)'
            cand --replay 'Play a recording back without a terminal and print the final state'
            cand --save 'With `--replay`: write the final state as a save'
            cand --format 'With `--replay`: `human` (a summary) or `json` (the final state, as `simulate` prints it)'
            cand --speed 'With `--watch`: inputs per second to start at (1 to 1000)'
            cand --no-color 'Disable colours'
            cand --line 'The line console even on a terminal'
            cand --force 'With `--replay`: play it back even when the mods'' data changed since it was recorded'
            cand --watch 'With `--replay`: play the recording back on screen (Space pauses, `.` steps, `+` and `-` change the speed), then print the summary of where it was left'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;show'= {
            cand --mods 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"'
            cand --override 'Print the entry as an override to paste into your mod: `overrides = "ID"` instead of `id = "ID"`'
            cand --diff 'Print what the entry in force changes against the entry it overrides, field by field, instead of the entry'
            cand --core-dir 'Print the folder the bundled core''s files are served from (the language server''s go-to-definition opens them there), writing them first if needed'
            cand --no-color 'Disable colours'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;core'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand export 'Write the bundled core''s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'rustkeep;core;export'= {
            cand --force 'Overwrite files that exist with another content'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;core;help'= {
            cand export 'Write the bundled core''s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'rustkeep;core;help;export'= {
        }
        &'rustkeep;core;help;help'= {
        }
        &'rustkeep;new'= {
            cand --path 'The folder to create (default: NAME in the current folder)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;schema'= {
            cand --for 'Which schema; `--list` shows them all with their files'
            cand --draft '`2020-12` (the default) or `07` (what Taplo and Tombi read)'
            cand --list 'List every schema: its name, its file in the repository''s `schemas/`, what it describes'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'rustkeep;explain'= {
            cand --format '`text` (default) or `markdown`'
            cand --all 'Print every code'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'rustkeep;completions'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'rustkeep;man'= {
            cand --out-dir 'Write every page (`rustkeep.1` and `rustkeep-COMMAND.1`) into this folder instead, e.g. `~/.local/share/man/man1`'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'rustkeep;help'= {
            cand check 'Validate a mod, several mods or a workspace (default: the current folder)'
            cand fmt 'Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md)'
            cand loot 'Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md)'
            cand lsp 'The language server on stdin/stdout (docs/editors/lsp.md)'
            cand simulate 'Dry-run a scenario (docs/engine.md) and print the causal trace'
            cand test 'Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md)'
            cand arena 'Many fights of a scenario''s player against its enemies (or every option against every creature): win rate, rounds, health left, loot (docs/arena.md)'
            cand graph 'The trigger graph: events, the triggers listening to them, the events they raise; cycles marked'
            cand doc 'Write the loaded mods'' documentation as a static site: every entry in words and linked, exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md)'
            cand diff 'What a change does to the mods'' meaning: entries added, removed and changed, drop chances and arena win rates that moved, diagnostics introduced and fixed, and the version bump it needs (docs/balance.md)'
            cand play 'Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise; recordings and replays (docs/play.md)'
            cand show 'An entry as written, with its file: where to copy from to override it (docs/getting-started.md)'
            cand core 'The bundled core as files'
            cand new 'Create a mod skeleton that checks clean, with a scenario to simulate'
            cand schema 'Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a recording, or a command''s JSON output (docs/json-schemas.md)'
            cand explain 'What a diagnostic code means, an example, and how to fix or silence it'
            cand completions 'Print the completion script of a shell'
            cand man 'Print the manual page of rustkeep, or of one of its commands, as roff'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'rustkeep;help;check'= {
        }
        &'rustkeep;help;fmt'= {
        }
        &'rustkeep;help;loot'= {
        }
        &'rustkeep;help;lsp'= {
        }
        &'rustkeep;help;simulate'= {
        }
        &'rustkeep;help;test'= {
        }
        &'rustkeep;help;arena'= {
        }
        &'rustkeep;help;graph'= {
        }
        &'rustkeep;help;doc'= {
        }
        &'rustkeep;help;diff'= {
        }
        &'rustkeep;help;play'= {
        }
        &'rustkeep;help;show'= {
        }
        &'rustkeep;help;core'= {
            cand export 'Write the bundled core''s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)'
        }
        &'rustkeep;help;core;export'= {
        }
        &'rustkeep;help;new'= {
        }
        &'rustkeep;help;schema'= {
        }
        &'rustkeep;help;explain'= {
        }
        &'rustkeep;help;completions'= {
        }
        &'rustkeep;help;man'= {
        }
        &'rustkeep;help;help'= {
        }
    ]
    $completions[$command]
}
