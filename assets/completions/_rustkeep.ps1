
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'rustkeep' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'rustkeep'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'rustkeep' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate a mod, several mods or a workspace (default: the current folder)')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md)')
            [CompletionResult]::new('loot', 'loot', [CompletionResultType]::ParameterValue, 'Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md)')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'The language server on stdin/stdout (docs/editors/lsp.md)')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Dry-run a scenario (docs/engine.md) and print the causal trace')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md)')
            [CompletionResult]::new('arena', 'arena', [CompletionResultType]::ParameterValue, 'Many fights of a scenario''s player against its enemies (or every option against every creature): win rate, rounds, health left, loot (docs/arena.md)')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'The trigger graph: events, the triggers listening to them, the events they raise; cycles marked')
            [CompletionResult]::new('doc', 'doc', [CompletionResultType]::ParameterValue, 'Write the loaded mods'' documentation as a static site: every entry in words and linked, exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What a change does to the mods'' meaning: entries added, removed and changed, drop chances and arena win rates that moved, diagnostics introduced and fixed, and the version bump it needs (docs/balance.md)')
            [CompletionResult]::new('play', 'play', [CompletionResultType]::ParameterValue, 'Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise; recordings and replays (docs/play.md)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'An entry as written, with its file: where to copy from to override it (docs/getting-started.md)')
            [CompletionResult]::new('core', 'core', [CompletionResultType]::ParameterValue, 'The bundled core as files')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a mod skeleton that checks clean, with a scenario to simulate')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a recording, or a command''s JSON output (docs/json-schemas.md)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'What a diagnostic code means, an example, and how to fix or silence it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script of a shell')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page of rustkeep, or of one of its commands, as roff')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rustkeep;check' {
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format, optionally with a file to write it to: `--format sarif:rustkeep.sarif`. Repeatable, to print one format and write others in the same run. Formats: human, json, json-lines, sarif, github, gitlab, junit, rdjson')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Write the output of every `--format` that names no file of its own to this file instead of standard output')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Report only diagnostics not recorded in this baseline file')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Record the current diagnostics as the baseline')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Disable colours')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Exit with 1 on warnings too')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Apply every safe suggested fix (docs/checking.md, "Safe and unsafe fixes"), keeping layout and comments, pass after pass until nothing is left to fix; lists every change')
            [CompletionResult]::new('--unsafe-fixes', '--unsafe-fixes', [CompletionResultType]::ParameterName, 'With `--fix` or `--diff`: also apply the unsafe fixes (another ID, a guess among several close names, a change of behaviour)')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Change nothing: print the unified diff of what `--fix` would change, and exit with 1 if it would change anything')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Check again on every saved change of a `.toml` file the check reads, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;fmt' {
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'With `-`: the path the text on standard input belongs to (which key orders apply, and the `[format]` options of its workspace)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Disable colours')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Change nothing; list the files that would change and exit with 1 if there are any')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Change nothing; print a unified diff of what would change and exit with 1 if anything would')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;loot' {
            [CompletionResult]::new('--luck', '--luck', [CompletionResultType]::ParameterName, 'The luck of the one who opens or kills: p_extra = clamp(luck × balance.luck_factor, 0, 0.9)')
            [CompletionResult]::new('--samples', '--samples', [CompletionResultType]::ParameterName, 'Also roll the table this many times and show the sampled frequencies next to the exact ones')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the sampled rolls')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--plot', '--plot', [CompletionResultType]::ParameterName, 'Write an SVG bar chart per drop: its expected count or its chance (see --plot-of), exact, and sampled next to it with --samples')
            [CompletionResult]::new('--plot-of', '--plot-of', [CompletionResultType]::ParameterName, 'What --plot draws: `expected` counts per evaluation, or the `chance` of at least one (the histogram of the drop chances)')
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Disable colours')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rustkeep;lsp' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;simulate' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human` (an indented causal trace) or `json` (the stable keys documented in docs/cli.md)')
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'More mods to load besides the scenario''s own `mods` (repeatable), each read by the one rule of every command (docs/data-language.md, "Which mods a path loads"). Default: only the scenario''s `mods`')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Run again on every saved change of the scenario or of the mods it loads, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;test' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human` (failures and a summary), `json` (every expectation), `junit` (a test case per expectation) or `github` (annotations on the expectations'' lines)')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Run only the scenarios whose path contains this text')
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'More mods to load besides each scenario''s own `mods` (repeatable)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Run again on every saved change, only the scenarios the change touches, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;arena' {
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). With a scenario: these besides the scenario''s own `mods` (default: only those). Without one (`--matrix`): the current folder by default, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--runs', '--runs', [CompletionResultType]::ParameterName, 'How many fights (each cell of the matrix fights this many times)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'The seed of the batch; fight `i` uses a generator derived from it and `i` alone (default: the scenario''s `seed`, else 0)')
            [CompletionResult]::new('--rounds', '--rounds', [CompletionResultType]::ParameterName, 'Rounds after which a fight is a draw')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`human` (a short table), `json` (the keys in docs/arena.md) or, with `--matrix`, `svg` (a heat map)')
            [CompletionResult]::new('--matrix', '--matrix', [CompletionResultType]::ParameterName, 'Every character option (as a new character with its starting kit) against one of every creature, one on one')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;graph' {
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`dot` (Graphviz) or `json`')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Disable colours')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;doc' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'The folder to write the site into; it must be empty, absent, or a site written before')
            [CompletionResult]::new('--source-url', '--source-url', [CompletionResultType]::ParameterName, 'A link to each entry''s source, with `{path}` and `{line}` replaced, e.g. `https://github.com/me/my_mod/blob/main/{path}#L{line}`. Without it the place is shown as text')
            [CompletionResult]::new('--arena', '--arena', [CompletionResultType]::ParameterName, 'Add the arena''s matrix of each mod''s creatures against every character option, this many fights per cell')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'The seed of the arena''s fights')
            [CompletionResult]::new('--luck', '--luck', [CompletionResultType]::ParameterName, 'The luck of the second column of every drop chance (the first is luck 0)')
            [CompletionResult]::new('--open', '--open', [CompletionResultType]::ParameterName, 'Open the index in the browser when the site is written')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;diff' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: `human`, `json` or `markdown` (a pull-request comment)')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'The smallest move of a drop chance that is reported, in percentage points')
            [CompletionResult]::new('--arena', '--arena', [CompletionResultType]::ParameterName, 'Fights per character option and creature for the arena''s moves (0: no arena)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'The seed of those fights (both versions fight the same seeded fights)')
            [CompletionResult]::new('--check-semver', '--check-semver', [CompletionResultType]::ParameterName, 'Exit with 1 (after the report) when a mod''s new `version` is smaller than its changes need: a breaking change a major release, an addition a minor one, any other change a patch (one step less while the major version is 0)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;play' {
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the game''s generator (default: 0 in the line console, a fresh one in the full-screen game); the game always shows it, so a run can be played again')
            [CompletionResult]::new('--option', '--option', [CompletionResultType]::ParameterName, 'A character option for the new character (repeatable), e.g. `core:warrior`; without one, the full-screen game lets you choose')
            [CompletionResult]::new('--floor', '--floor', [CompletionResultType]::ParameterName, 'Start the run on this floor instead of the first')
            [CompletionResult]::new('--load', '--load', [CompletionResultType]::ParameterName, 'Start from a save instead of a new character')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Write a recording of the game: the seed, the mods with a hash of their data, every input')
            [CompletionResult]::new('--dump', '--dump', [CompletionResultType]::ParameterName, 'Where to write the character dump when the run ends (default: a new file in `rustkeep-play/dumps/` under the current folder)')
            [CompletionResult]::new('--replay', '--replay', [CompletionResultType]::ParameterName, 'Play a recording back without a terminal and print the final state')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'With `--replay`: write the final state as a save')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'With `--replay`: `human` (a summary) or `json` (the final state, as `simulate` prints it)')
            [CompletionResult]::new('--speed', '--speed', [CompletionResultType]::ParameterName, 'With `--watch`: inputs per second to start at (1 to 1000)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Disable colours')
            [CompletionResult]::new('--line', '--line', [CompletionResultType]::ParameterName, 'The line console even on a terminal')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With `--replay`: play it back even when the mods'' data changed since it was recorded')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'With `--replay`: play the recording back on screen (Space pauses, `.` steps, `+` and `-` change the speed), then print the summary of where it was left')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;show' {
            [CompletionResult]::new('--mods', '--mods', [CompletionResultType]::ParameterName, 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"')
            [CompletionResult]::new('--override', '--override', [CompletionResultType]::ParameterName, 'Print the entry as an override to paste into your mod: `overrides = "ID"` instead of `id = "ID"`')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Print what the entry in force changes against the entry it overrides, field by field, instead of the entry')
            [CompletionResult]::new('--core-dir', '--core-dir', [CompletionResultType]::ParameterName, 'Print the folder the bundled core''s files are served from (the language server''s go-to-definition opens them there), writing them first if needed')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Disable colours')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;core' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the bundled core''s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rustkeep;core;export' {
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite files that exist with another content')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;core;help' {
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the bundled core''s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rustkeep;core;help;export' {
            break
        }
        'rustkeep;core;help;help' {
            break
        }
        'rustkeep;new' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The folder to create (default: NAME in the current folder)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;schema' {
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Which schema; `--list` shows them all with their files')
            [CompletionResult]::new('--draft', '--draft', [CompletionResultType]::ParameterName, '`2020-12` (the default) or `07` (what Taplo and Tombi read)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List every schema: its name, its file in the repository''s `schemas/`, what it describes')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rustkeep;explain' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, '`text` (default) or `markdown`')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Print every code')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'rustkeep;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rustkeep;man' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write every page (`rustkeep.1` and `rustkeep-COMMAND.1`) into this folder instead, e.g. `~/.local/share/man/man1`')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'rustkeep;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate a mod, several mods or a workspace (default: the current folder)')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md)')
            [CompletionResult]::new('loot', 'loot', [CompletionResultType]::ParameterValue, 'Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md)')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'The language server on stdin/stdout (docs/editors/lsp.md)')
            [CompletionResult]::new('simulate', 'simulate', [CompletionResultType]::ParameterValue, 'Dry-run a scenario (docs/engine.md) and print the causal trace')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md)')
            [CompletionResult]::new('arena', 'arena', [CompletionResultType]::ParameterValue, 'Many fights of a scenario''s player against its enemies (or every option against every creature): win rate, rounds, health left, loot (docs/arena.md)')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'The trigger graph: events, the triggers listening to them, the events they raise; cycles marked')
            [CompletionResult]::new('doc', 'doc', [CompletionResultType]::ParameterValue, 'Write the loaded mods'' documentation as a static site: every entry in words and linked, exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'What a change does to the mods'' meaning: entries added, removed and changed, drop chances and arena win rates that moved, diagnostics introduced and fixed, and the version bump it needs (docs/balance.md)')
            [CompletionResult]::new('play', 'play', [CompletionResultType]::ParameterValue, 'Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise; recordings and replays (docs/play.md)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'An entry as written, with its file: where to copy from to override it (docs/getting-started.md)')
            [CompletionResult]::new('core', 'core', [CompletionResultType]::ParameterValue, 'The bundled core as files')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a mod skeleton that checks clean, with a scenario to simulate')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a recording, or a command''s JSON output (docs/json-schemas.md)')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'What a diagnostic code means, an example, and how to fix or silence it')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script of a shell')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page of rustkeep, or of one of its commands, as roff')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'rustkeep;help;check' {
            break
        }
        'rustkeep;help;fmt' {
            break
        }
        'rustkeep;help;loot' {
            break
        }
        'rustkeep;help;lsp' {
            break
        }
        'rustkeep;help;simulate' {
            break
        }
        'rustkeep;help;test' {
            break
        }
        'rustkeep;help;arena' {
            break
        }
        'rustkeep;help;graph' {
            break
        }
        'rustkeep;help;doc' {
            break
        }
        'rustkeep;help;diff' {
            break
        }
        'rustkeep;help;play' {
            break
        }
        'rustkeep;help;show' {
            break
        }
        'rustkeep;help;core' {
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the bundled core''s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)')
            break
        }
        'rustkeep;help;core;export' {
            break
        }
        'rustkeep;help;new' {
            break
        }
        'rustkeep;help;schema' {
            break
        }
        'rustkeep;help;explain' {
            break
        }
        'rustkeep;help;completions' {
            break
        }
        'rustkeep;help;man' {
            break
        }
        'rustkeep;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
