# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_rustkeep_global_optspecs
    string join \n h/help V/version
end

function __fish_rustkeep_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_rustkeep_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_rustkeep_using_subcommand
    set -l cmd (__fish_rustkeep_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c rustkeep -n "__fish_rustkeep_needs_command" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -s V -l version -d 'Print version'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "check" -d 'Validate a mod, several mods or a workspace (default: the current folder)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "fmt" -d 'Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "loot" -d 'Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "lsp" -d 'The language server on stdin/stdout (docs/editors/lsp.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "simulate" -d 'Dry-run a scenario (docs/engine.md) and print the causal trace'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "test" -d 'Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "arena" -d 'Many fights of a scenario\'s player against its enemies (or every option against every creature): win rate, rounds, health left, loot (docs/arena.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "graph" -d 'The trigger graph: events, the triggers listening to them, the events they raise; cycles marked'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "doc" -d 'Write the loaded mods\' documentation as a static site: every entry in words and linked, exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "diff" -d 'What a change does to the mods\' meaning: entries added, removed and changed, drop chances and arena win rates that moved, diagnostics introduced and fixed, and the version bump it needs (docs/balance.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "play" -d 'Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise; recordings and replays (docs/play.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "show" -d 'An entry as written, with its file: where to copy from to override it (docs/getting-started.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "core" -d 'The bundled core as files'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "new" -d 'Create a mod skeleton that checks clean, with a scenario to simulate'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "schema" -d 'Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a recording, or a command\'s JSON output (docs/json-schemas.md)'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "explain" -d 'What a diagnostic code means, an example, and how to fix or silence it'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "completions" -d 'Print the completion script of a shell'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "man" -d 'Print the manual page of rustkeep, or of one of its commands, as roff'
complete -c rustkeep -n "__fish_rustkeep_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l mods -d 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l format -d 'Output format, optionally with a file to write it to: `--format sarif:rustkeep.sarif`. Repeatable, to print one format and write others in the same run. Formats: human, json, json-lines, sarif, github, gitlab, junit, rdjson' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l output-file -d 'Write the output of every `--format` that names no file of its own to this file instead of standard output' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l baseline -d 'Report only diagnostics not recorded in this baseline file' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l write-baseline -d 'Record the current diagnostics as the baseline' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l no-color -d 'Disable colours'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l deny-warnings -d 'Exit with 1 on warnings too'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l fix -d 'Apply every safe suggested fix (docs/checking.md, "Safe and unsafe fixes"), keeping layout and comments, pass after pass until nothing is left to fix; lists every change'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l unsafe-fixes -d 'With `--fix` or `--diff`: also apply the unsafe fixes (another ID, a guess among several close names, a change of behaviour)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l diff -d 'Change nothing: print the unified diff of what `--fix` would change, and exit with 1 if it would change anything'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -l watch -d 'Check again on every saved change of a `.toml` file the check reads, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand check" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand fmt" -l mods -d 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand fmt" -l stdin-filename -d 'With `-`: the path the text on standard input belongs to (which key orders apply, and the `[format]` options of its workspace)' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand fmt" -l no-color -d 'Disable colours'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand fmt" -l check -d 'Change nothing; list the files that would change and exit with 1 if there are any'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand fmt" -l diff -d 'Change nothing; print a unified diff of what would change and exit with 1 if anything would'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand fmt" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l luck -d 'The luck of the one who opens or kills: p_extra = clamp(luck × balance.luck_factor, 0, 0.9)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l samples -d 'Also roll the table this many times and show the sampled frequencies next to the exact ones' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l seed -d 'Seed of the sampled rolls' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l format -d 'Output format' -r -f -a "human\t''
json\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l plot -d 'Write an SVG bar chart per drop: its expected count or its chance (see --plot-of), exact, and sampled next to it with --samples' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l plot-of -d 'What --plot draws: `expected` counts per evaluation, or the `chance` of at least one (the histogram of the drop chances)' -r -f -a "expected\t'The expected count per evaluation'
chance\t'The chance of at least one per evaluation'"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l mods -d 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -l no-color -d 'Disable colours'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand loot" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand lsp" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand simulate" -l format -d '`human` (an indented causal trace) or `json` (the stable keys documented in docs/cli.md)' -r -f -a "human\t''
json\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand simulate" -l mods -d 'More mods to load besides the scenario\'s own `mods` (repeatable), each read by the one rule of every command (docs/data-language.md, "Which mods a path loads"). Default: only the scenario\'s `mods`' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand simulate" -l watch -d 'Run again on every saved change of the scenario or of the mods it loads, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand simulate" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand test" -l format -d '`human` (failures and a summary), `json` (every expectation), `junit` (a test case per expectation) or `github` (annotations on the expectations\' lines)' -r -f -a "human\t''
json\t''
junit\t''
github\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand test" -l filter -d 'Run only the scenarios whose path contains this text' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand test" -l mods -d 'More mods to load besides each scenario\'s own `mods` (repeatable)' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand test" -l watch -d 'Run again on every saved change, only the scenarios the change touches, clearing the screen between runs, until Ctrl-C (docs/testing.md, "Watching")'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand test" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -l mods -d 'Where to find the mods to load (repeatable). With a scenario: these besides the scenario\'s own `mods` (default: only those). Without one (`--matrix`): the current folder by default, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -l runs -d 'How many fights (each cell of the matrix fights this many times)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -l seed -d 'The seed of the batch; fight `i` uses a generator derived from it and `i` alone (default: the scenario\'s `seed`, else 0)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -l rounds -d 'Rounds after which a fight is a draw' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -l format -d '`human` (a short table), `json` (the keys in docs/arena.md) or, with `--matrix`, `svg` (a heat map)' -r -f -a "human\t''
json\t''
svg\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -l matrix -d 'Every character option (as a new character with its starting kit) against one of every creature, one on one'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand arena" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand graph" -l mods -d 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand graph" -l format -d '`dot` (Graphviz) or `json`' -r -f -a "dot\t''
json\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand graph" -l no-color -d 'Disable colours'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand graph" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -l out -d 'The folder to write the site into; it must be empty, absent, or a site written before' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -l source-url -d 'A link to each entry\'s source, with `{path}` and `{line}` replaced, e.g. `https://github.com/me/my_mod/blob/main/{path}#L{line}`. Without it the place is shown as text' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -l arena -d 'Add the arena\'s matrix of each mod\'s creatures against every character option, this many fights per cell' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -l seed -d 'The seed of the arena\'s fights' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -l luck -d 'The luck of the second column of every drop chance (the first is luck 0)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -l open -d 'Open the index in the browser when the site is written'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand doc" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand diff" -l format -d 'Output format: `human`, `json` or `markdown` (a pull-request comment)' -r -f -a "human\t''
json\t''
markdown\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand diff" -l threshold -d 'The smallest move of a drop chance that is reported, in percentage points' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand diff" -l arena -d 'Fights per character option and creature for the arena\'s moves (0: no arena)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand diff" -l seed -d 'The seed of those fights (both versions fight the same seeded fights)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand diff" -l check-semver -d 'Exit with 1 (after the report) when a mod\'s new `version` is smaller than its changes need: a breaking change a major release, an addition a minor one, any other change a patch (one step less while the major version is 0)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand diff" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l mods -d 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l seed -d 'Seed of the game\'s generator (default: 0 in the line console, a fresh one in the full-screen game); the game always shows it, so a run can be played again' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l option -d 'A character option for the new character (repeatable), e.g. `core:warrior`; without one, the full-screen game lets you choose' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l floor -d 'Start the run on this floor instead of the first' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l load -d 'Start from a save instead of a new character' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l record -d 'Write a recording of the game: the seed, the mods with a hash of their data, every input' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l dump -d 'Where to write the character dump when the run ends (default: a new file in `rustkeep-play/dumps/` under the current folder)' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l replay -d 'Play a recording back without a terminal and print the final state' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l save -d 'With `--replay`: write the final state as a save' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l format -d 'With `--replay`: `human` (a summary) or `json` (the final state, as `simulate` prints it)' -r -f -a "human\t''
json\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l speed -d 'With `--watch`: inputs per second to start at (1 to 1000)' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l no-color -d 'Disable colours'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l line -d 'The line console even on a terminal'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l force -d 'With `--replay`: play it back even when the mods\' data changed since it was recorded'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -l watch -d 'With `--replay`: play the recording back on screen (Space pauses, `.` steps, `+` and `-` change the speed), then print the summary of where it was left'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand play" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand show" -l mods -d 'Where to find the mods to load (repeatable). Default: the current folder, read by the one rule of every command: the nearest `rustkeep.toml` at or above it (that workspace), else the mod it is in, else the mods below it; no mod at all: the bundled core alone. See docs/data-language.md, "Which mods a path loads"' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand show" -l override -d 'Print the entry as an override to paste into your mod: `overrides = "ID"` instead of `id = "ID"`'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand show" -l diff -d 'Print what the entry in force changes against the entry it overrides, field by field, instead of the entry'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand show" -l core-dir -d 'Print the folder the bundled core\'s files are served from (the language server\'s go-to-definition opens them there), writing them first if needed'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand show" -l no-color -d 'Disable colours'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand show" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and not __fish_seen_subcommand_from export help" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and not __fish_seen_subcommand_from export help" -f -a "export" -d 'Write the bundled core\'s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and not __fish_seen_subcommand_from export help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and __fish_seen_subcommand_from export" -l force -d 'Overwrite files that exist with another content'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write the bundled core\'s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand core; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand new" -l path -d 'The folder to create (default: NAME in the current folder)' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand new" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand schema" -l for -d 'Which schema; `--list` shows them all with their files' -r -f -a "data\t'a data file of a mod (registry arrays and [balance])'
mod\t'mod.toml, the manifest of a mod'
scenario\t'a scenario file of `rustkeep simulate` and `rustkeep arena` (`*.scenario.toml`, `scenarios/*.toml`)'
workspace\t'rustkeep.toml, the workspace file'
check-json\t'the output of `rustkeep check --format json`'
loot-json\t'the output of `rustkeep loot --format json`'
graph-json\t'the output of `rustkeep graph --format json`'
simulate-json\t'the output of `rustkeep simulate --format json`: the causal trace and the final state'
arena-json\t'the output of `rustkeep arena --format json`, with or without `--matrix`'
test-json\t'the output of `rustkeep test --format json`: every expectation of every scenario run'
diff-json\t'the output of `rustkeep diff --format json`: what a change does to entries, drop chances, the arena and the diagnostics'
save\t'a save of `rustkeep play` (`S`, `save`, `--save`)'
recording\t'one line of a recording (`rustkeep play --record`; JSON Lines: the header, then one input per line)'"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand schema" -l draft -d '`2020-12` (the default) or `07` (what Taplo and Tombi read)' -r -f -a "2020-12\t''
07\t''"
complete -c rustkeep -n "__fish_rustkeep_using_subcommand schema" -l list -d 'List every schema: its name, its file in the repository\'s `schemas/`, what it describes'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand explain" -l format -d '`text` (default) or `markdown`' -r
complete -c rustkeep -n "__fish_rustkeep_using_subcommand explain" -l all -d 'Print every code'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand explain" -s h -l help -d 'Print help'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand man" -l out-dir -d 'Write every page (`rustkeep.1` and `rustkeep-COMMAND.1`) into this folder instead, e.g. `~/.local/share/man/man1`' -r -F
complete -c rustkeep -n "__fish_rustkeep_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "check" -d 'Validate a mod, several mods or a workspace (default: the current folder)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "fmt" -d 'Format data files, `mod.toml` and `rustkeep.toml` in one canonical layout (see docs/formatting.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "loot" -d 'Exact drop chances of one loot table, optionally checked by sampled rolls (docs/loot.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "lsp" -d 'The language server on stdin/stdout (docs/editors/lsp.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "simulate" -d 'Dry-run a scenario (docs/engine.md) and print the causal trace'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "test" -d 'Run the scenarios with expectations (`[[expect]]`) and report every one that fails (docs/testing.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "arena" -d 'Many fights of a scenario\'s player against its enemies (or every option against every creature): win rate, rounds, health left, loot (docs/arena.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "graph" -d 'The trigger graph: events, the triggers listening to them, the events they raise; cycles marked'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "doc" -d 'Write the loaded mods\' documentation as a static site: every entry in words and linked, exact drop chances, where each item drops, quest chains, trigger graphs (docs/doc.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "diff" -d 'What a change does to the mods\' meaning: entries added, removed and changed, drop chances and arena win rates that moved, diagnostics introduced and fixed, and the version bump it needs (docs/balance.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "play" -d 'Play the loaded mods: a full-screen roguelike at a terminal, a line console otherwise; recordings and replays (docs/play.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "show" -d 'An entry as written, with its file: where to copy from to override it (docs/getting-started.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "core" -d 'The bundled core as files'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "new" -d 'Create a mod skeleton that checks clean, with a scenario to simulate'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "schema" -d 'Print a JSON Schema: of a data file (the default), `mod.toml`, `rustkeep.toml`, a save, a recording, or a command\'s JSON output (docs/json-schemas.md)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "explain" -d 'What a diagnostic code means, an example, and how to fix or silence it'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "completions" -d 'Print the completion script of a shell'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "man" -d 'Print the manual page of rustkeep, or of one of its commands, as roff'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and not __fish_seen_subcommand_from check fmt loot lsp simulate test arena graph doc diff play show core new schema explain completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c rustkeep -n "__fish_rustkeep_using_subcommand help; and __fish_seen_subcommand_from core" -f -a "export" -d 'Write the bundled core\'s data files into DIR (the same files the language server serves; `<core>/affixes.toml` in traces and messages is DIR/affixes.toml)'
