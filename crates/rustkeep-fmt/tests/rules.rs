//! One fixture per rule of the layout: input → expected output, and the expected output formats
//! to itself. The rules themselves are documented in `docs/formatting.md`.

use rustkeep_fmt::{format_document, format_range, range_edits, FileKind, FormatError, FormatOptions, TomlVersion};

fn opts() -> FormatOptions {
    FormatOptions::default()
}

/// `[format] toml_version = "1.1"`: inline tables open like arrays.
fn v1_1() -> FormatOptions {
    FormatOptions { toml_version: TomlVersion::V1_1, ..opts() }
}

#[track_caller]
fn check_with(options: FormatOptions, input: &str, expected: &str) {
    let out = format_document(input, &options).unwrap_or_else(|e| panic!("not formatted: {e:?}"));
    assert!(out == expected, "\n--- got\n{out}\n--- expected\n{expected}\n--- diff\n{}", rustkeep_fmt::diff::unified("x", expected, &out));
    let again = format_document(&out, &options).unwrap();
    assert!(again == out, "not idempotent:\n{}", rustkeep_fmt::diff::unified("x", &out, &again));
}

#[track_caller]
fn check(input: &str, expected: &str) {
    check_with(opts(), input, expected)
}

// ----- key order -------------------------------------------------------------------------------

#[test]
fn entry_keys_follow_the_reference_and_unknown_keys_go_last_in_their_order() {
    check(
        r#"[[items]]
zeal = 1
price = 5
name = "Lamp"
aaa = 2
tags = ["lamp:light"]
id = "lamp:lamp"
overrides = "core:lamp"
"#,
        r#"[[items]]
id = "lamp:lamp"
overrides = "core:lamp"
name = "Lamp"
tags = ["lamp:light"]
price = 5
zeal = 1
aaa = 2
"#,
    );
}

#[test]
fn keys_never_move_across_a_blank_line_or_a_comment() {
    check(
        r#"[[items]]
price = 5
name = "Lamp"

tags = ["lamp:light"]
id = "lamp:lamp"
# The slot comes last on purpose.
stackable = true
slot = "ring"
"#,
        r#"[[items]]
name = "Lamp"
price = 5

id = "lamp:lamp"
tags = ["lamp:light"]
# The slot comes last on purpose.
stackable = true
slot = "ring"
"#,
    );
}

#[test]
fn a_commented_key_stays_under_its_comment_and_trailing_comments_move_with_their_key() {
    check(
        r#"[[creatures]]
# What it is called.
name = "Rat"
loot = "core:rat_loot" # its drops
id = "core:rat"
tags = ["core:beast"] # for has_tag
"#,
        r#"[[creatures]]
# What it is called.
name = "Rat"
id = "core:rat"
tags = ["core:beast"] # for has_tag
loot = "core:rat_loot" # its drops
"#,
    );
}

#[test]
fn triggers_checks_actions_and_loot_entries_are_ordered_inside_inline_tables() {
    check_with(
        v1_1(),
        r#"[[items]]
id = "a:b"
name = "B"
triggers = [
  { actions = [ { target = "self", amount = 2, action = "heal" } ], chance = 0.5, condition = [ { not = true, value = "a:t", who = "self", check = "has_tag" } ], on = "attack_hit" },
]

[[loot_tables]]
entries = [ { weight = 5, count = "1-2", item = "a:b" }, { weight = 1, nothing = true } ]
id = "a:t"

[[creatures]]
id = "a:c"
name = "C"
ai = [ { actions = [ { action = "flee" } ], condition = [ { below = 3, who = "self", check = "attribute", attribute = "level" } ] } ]
"#,
        r#"[[items]]
id = "a:b"
name = "B"
triggers = [
  {
    on = "attack_hit",
    condition = [ { check = "has_tag", who = "self", value = "a:t", not = true } ],
    chance = 0.5,
    actions = [ { action = "heal", amount = 2, target = "self" } ],
  },
]

[[loot_tables]]
id = "a:t"
entries = [ { item = "a:b", weight = 5, count = "1-2" }, { nothing = true, weight = 1 } ]

[[creatures]]
id = "a:c"
name = "C"
ai = [
  {
    condition = [ { check = "attribute", who = "self", attribute = "level", below = 3 } ],
    actions = [ { action = "flee" } ],
  },
]
"#,
    );
}

#[test]
fn sub_tables_of_entries_and_flattened_quests_are_ordered_too() {
    check(
        r#"[[items]]
name = "Brand"
id = "a:brand"

[[items.triggers]]
actions = [ { action = "heal", amount = 1, target = "self" } ]
on = "attack_hit"

[[quests]]
count = 3
on = "creature_died"
name = "Q"
id = "a:q"

[balance]
luck_factor = 0.1
"#,
        r#"[[items]]
id = "a:brand"
name = "Brand"

[[items.triggers]]
on = "attack_hit"
actions = [ { action = "heal", amount = 1, target = "self" } ]

[[quests]]
id = "a:q"
name = "Q"
on = "creature_died"
count = 3

[balance]
luck_factor = 0.1
"#,
    );
}

#[test]
fn manifests_and_workspace_files_follow_their_key_lists() {
    let manifest = FormatOptions { kind: FileKind::Manifest, ..opts() };
    check_with(
        manifest,
        "[mod]\ndepends = [\"core\"]\nversion = \"0.1.0\"\nname = \"M\"\nid = \"m\"\n",
        "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\ndepends = [\"core\"]\n",
    );
    let workspace = FormatOptions { kind: FileKind::Workspace, ..opts() };
    check_with(
        workspace,
        "[format]\nreorder_keys = false\nline_width = 80\n[lints]\nunknown-tag = \"allow\"\nquest-never-started = \"warn\"\n[workspace]\ncore = \"bundled\"\nmods = [\"mods/*\"]\n",
        "[format]\nline_width = 80\nreorder_keys = false\n\n[lints]\nunknown-tag = \"allow\"\nquest-never-started = \"warn\"\n\n[workspace]\nmods = [\"mods/*\"]\ncore = \"bundled\"\n",
    );
}

#[test]
fn the_top_level_other_files_and_reorder_keys_false_keep_the_authors_order() {
    let input = "[[items]]\nname = \"B\"\nid = \"a:b\"\n";
    check_with(FormatOptions { reorder_keys: false, ..opts() }, input, input);
    check_with(FormatOptions { kind: FileKind::Plain, ..opts() }, input, input);
    // Registries and `[balance]` stay where the author put them.
    let input = "[balance]\nluck_factor = 0.1\n\n[[items]]\nid = \"a:b\"\nname = \"B\"\n";
    check(input, input);
    check("shops = []\nitems = []\n", "shops = []\nitems = []\n");
}

#[test]
fn dotted_keys_sort_by_their_first_part_and_stay_together() {
    check(
        "[[creatures]]\nattributes.level = 2\nname = \"Rat\"\nattributes . speed = 1.5\nid = \"a:rat\"\n",
        "[[creatures]]\nid = \"a:rat\"\nname = \"Rat\"\nattributes.level = 2\nattributes.speed = 1.5\n",
    );
}

// ----- layout ----------------------------------------------------------------------------------

#[test]
fn spacing_is_normalised() {
    check(
        "  [ items ]  \n  a=1\nb\t=\t[1,2 , 3]\nc = {x=1,y=[ ]}\n\"quoted key\"  =  'literal'\n",
        "[items]\na = 1\nb = [1, 2, 3]\nc = { x = 1, y = [] }\n\"quoted key\" = 'literal'\n",
    );
}

#[test]
fn values_that_do_not_fit_are_written_one_element_per_line() {
    let long = format!("[[floors]]\nid = \"a:f\"\ncreatures = [{}]\n", (0..12).map(|i| format!("\"a:creature_{i}\"")).collect::<Vec<_>>().join(", "));
    let expected = format!("[[floors]]\nid = \"a:f\"\ncreatures = [\n{}]\n", (0..12).map(|i| format!("  \"a:creature_{i}\",\n")).collect::<String>());
    check(&long, &expected);
    // Exactly at the width it stays on one line; one column more and it opens.
    let at = |w: usize| FormatOptions { line_width: w, ..opts() };
    check_with(at(17), "tags = [\"a\", \"b\"]\n", "tags = [\"a\", \"b\"]\n");
    check_with(at(16), "tags = [\"a\", \"b\"]\n", "tags = [\n  \"a\",\n  \"b\",\n]\n");
    // Outer values open first; inner ones only if they still do not fit at their indentation.
    check_with(
        at(40),
        "x = [ { a = 1, b = [1, 2, 3] }, { c = \"a long string value here\" } ]\n",
        "x = [\n  { a = 1, b = [1, 2, 3] },\n  { c = \"a long string value here\" },\n]\n",
    );
    // An inline table never opens in TOML 1.0 (the default): its line stays long.
    check_with(at(30), "x = [ { c = \"a long string value here\" } ]\n", "x = [\n  { c = \"a long string value here\" },\n]\n");
    check_with(at(30), "x = { c = \"a long string value here\" }\n", "x = { c = \"a long string value here\" }\n");
    let at_1_1 = |w: usize| FormatOptions { line_width: w, ..v1_1() };
    check_with(at_1_1(30), "x = [ { c = \"a long string value here\" } ]\n", "x = [\n  {\n    c = \"a long string value here\",\n  },\n]\n");
}

#[test]
fn toml_1_0_keeps_every_inline_table_on_one_line() {
    let input = r#"[[items]]
id = "a:b"
triggers = [ { actions = [ { target = "self", amount = 2, action = "heal" } ], chance = 0.5, condition = [ { not = true, value = "a:t", who = "self", check = "has_tag" } ], on = "attack_hit" } ]
"#;
    // The array of inline tables opens, one table per line; the table stays on its (long) line.
    check(
        input,
        r#"[[items]]
id = "a:b"
triggers = [
  { on = "attack_hit", condition = [ { check = "has_tag", who = "self", value = "a:t", not = true } ], chance = 0.5, actions = [ { action = "heal", amount = 2, target = "self" } ] },
]
"#,
    );
    // A multi-line inline table without comments, or with a comma after its last key (TOML 1.1),
    // is joined; arrays inside keep no magic comma and no blank line.
    check("t = {\n  a = 1,\n\n  b = [\n    1,\n    2,\n  ],\n}\n", "t = { a = 1, b = [1, 2] }\n");
    // TOML 1.0 lets an array span lines inside an inline table: one holding comments keeps them.
    check("t = { a = [ # one\n 1,\n 2, # two\n], b = 2 }\n", "t = { a = [ # one\n  1,\n  2, # two\n], b = 2 }\n");
    // A multi-line string stays inside its one-line table, and opens the array around it.
    check("x = [ { grid = \"\"\"\n#.#\n\"\"\" } ]\n", "x = [\n  { grid = \"\"\"\n#.#\n\"\"\" },\n]\n");
    // The same inputs with TOML 1.1.
    check_with(v1_1(), "t = {\n  a = 1,\n}\n", "t = {\n  a = 1,\n}\n");
    check_with(v1_1(), "t = { a = [ # one\n 1,\n], b = 2 }\n", "t = {\n  a = [ # one\n    1,\n  ],\n  b = 2,\n}\n");
}

#[test]
fn toml_1_1_syntax_is_found_at_its_first_place() {
    use rustkeep_fmt::{toml_1_1_use, Toml11Syntax::*};
    let found = |text: &str| toml_1_1_use(text).map(|u| (u.offset, u.syntax));
    assert_eq!(found("a = 1\nt = { x = 1,\n y = 2 }\n"), Some((18, InlineTableAcrossLines)));
    assert_eq!(found("t = { x = 1, }\n"), Some((13, TrailingCommaInInlineTable)));
    assert_eq!(found("t = { # c\n x = 1 }\n"), Some((6, CommentInInlineTable)));
    assert_eq!(found("s = \"a\\eb\"\n"), Some((6, EscapeE)));
    assert_eq!(found("[\"\\x41\"]\n"), Some((2, EscapeX)));
    assert_eq!(found("t = 07:32\n"), Some((4, TimeWithoutSeconds)));
    assert_eq!(found("\u{feff}t = 1979-05-27T07:32Z\n"), Some((7, TimeWithoutSeconds)));
    // TOML 1.0: arrays across lines and with comments, also inside inline tables; other escapes.
    for ok in ["a = [\n 1, # c\n]\n", "t = { a = [\n 1,\n] }\n", "s = \"\\\\e \\u0041\"\nl = '\\e'\n", "t = 07:32:00\n", "x = { s = \"\"\"\na\n\"\"\" }\n"] {
        assert_eq!(found(ok), None, "{ok:?}");
    }
    assert_eq!(found("not = = toml"), None);
}

#[test]
fn values_that_fit_are_joined_onto_one_line_unless_the_author_ended_them_with_a_comma() {
    check("tags = [\n  \"a\",\n  \"b\"\n]\n", "tags = [\"a\", \"b\"]\n");
    // The magic trailing comma keeps a short array (and an inline table) open.
    check("tags = [\"a\", \"b\",]\n", "tags = [\n  \"a\",\n  \"b\",\n]\n");
    check_with(v1_1(), "t = { a = 1, }\n", "t = {\n  a = 1,\n}\n");
    // In TOML 1.0 (the default) a comma after the last key of an inline table is TOML 1.1: dropped.
    check("t = { a = 1, }\n", "t = { a = 1 }\n");
    check("tags = [\n  \"a\",\n  \"b\",\n]\n", "tags = [\n  \"a\",\n  \"b\",\n]\n");
}

#[test]
fn arrays_of_inline_tables_are_padded() {
    check("use = [{action = \"flee\"}]\nempty = [ ]\nnone = { }\n", "use = [ { action = \"flee\" } ]\nempty = []\nnone = {}\n");
}

#[test]
fn comments_inside_values_keep_their_places() {
    check(
        "entries = [ # weighted\n    # common\n    { item = \"a:x\", weight = 5 }, # most of the time\n\n\n    # rare\n    { item = \"a:y\", weight = 1 }\n    # nothing else\n] # end\n",
        "entries = [ # weighted\n  # common\n  { item = \"a:x\", weight = 5 }, # most of the time\n\n  # rare\n  { item = \"a:y\", weight = 1 },\n  # nothing else\n] # end\n",
    );
    // A blank line between elements is a group boundary too: the array stays open.
    check("x = [\n  1,\n\n  2\n]\n", "x = [\n  1,\n\n  2,\n]\n");
}

#[test]
fn a_comment_before_a_separating_comma_is_kept_in_its_place() {
    // The comma written on the next line moves up to its element; the comment after the element
    // stays on its line, the one after the comma goes on its own line before the next element.
    check("tags = [\n  \"x\" # A\n  , # B\n  \"y\",\n]\n", "tags = [\n  \"x\", # A\n  # B\n  \"y\",\n]\n");
    // Comment lines between the element and its comma stay in their order, before the next one.
    check("tags = [\n  \"x\" # A\n  # C\n  , # B\n  \"y\" # D\n  , # E\n]\n", "tags = [\n  \"x\", # A\n  # C\n  # B\n  \"y\", # D\n  # E\n]\n");
    // Alone after the comma, a comment still trails the element; in inline tables alike.
    check("tags = [\n  \"x\"\n  , # B\n  \"y\",\n]\n", "tags = [\n  \"x\", # B\n  \"y\",\n]\n");
    check("t = { a = 1 # A\n , # B\n b = 2 }\n", "t = {\n  a = 1, # A\n  # B\n  b = 2,\n}\n");
}

#[test]
fn blank_lines_at_most_one_and_one_between_entries() {
    check(
        "\n\n# header\n\n\n[[items]]\nid = \"a:a\"\n\n\n\nname = \"A\"\n[[items]]\nid = \"a:b\"\n# about c\n[[items]]\nid = \"a:c\"\n\n\n",
        "# header\n\n[[items]]\nid = \"a:a\"\n\nname = \"A\"\n\n[[items]]\nid = \"a:b\"\n\n# about c\n[[items]]\nid = \"a:c\"\n",
    );
    // A comment the author separated from the next header by a blank line stays where it was.
    check("[[items]]\nid = \"a:a\"\n# still about a\n\n[[items]]\nid = \"a:b\"\n", "[[items]]\nid = \"a:a\"\n# still about a\n\n[[items]]\nid = \"a:b\"\n");
}

#[test]
fn strings_numbers_and_dates_keep_their_spelling() {
    let input = "a = 'lit'\nb = \"esc\\u00e9\\t\"\nc = 0x1F\nd = 1_000\ne = 1e3\nf = +inf\ng = 1979-05-27 07:32:00Z\nh = \"\"\"\nx\"\"\"\n";
    check(input, input);
}

#[test]
fn multi_line_strings_are_untouched_and_open_what_holds_them() {
    let grid = "[[prefabs]]\nid = \"a:p\"\ngrid = \"\"\"\n  #####  \n  #.@.#\t\n  ##+##\n\"\"\"\n";
    check(grid, grid);
    check("x = [ \"\"\"\na\"\"\" ]\n", "x = [\n  \"\"\"\na\"\"\",\n]\n");
}

#[test]
fn line_endings_follow_the_first_line() {
    check("[[items]]\r\nname = \"A\"\r\nid = \"a:a\"\r\ntags = [\"a\",]\r\n", "[[items]]\r\nid = \"a:a\"\r\nname = \"A\"\r\ntags = [\r\n  \"a\",\r\n]\r\n");
    // Mixed endings become the first line's.
    check("a = 1\r\nb = 2\nc = 3\n", "a = 1\r\nb = 2\r\nc = 3\r\n");
    check("a = 1\nb = 2\r\n", "a = 1\nb = 2\n");
    // Inside a multi-line string every byte stays, line ends included.
    check("s = \"\"\"\r\nx\ny\"\"\"\r\n", "s = \"\"\"\r\nx\ny\"\"\"\r\n");
}

#[test]
fn a_byte_order_mark_is_kept() {
    check("\u{feff}a=1", "\u{feff}a = 1\n");
    check("\u{feff}", "\u{feff}");
}

#[test]
fn no_trailing_whitespace_and_one_final_newline() {
    check("a = 1   # note   \n\n\n", "a = 1 # note\n");
    check("", "");
    check("\n\n\n", "");
    check("# only a comment", "# only a comment\n");
}

#[test]
fn a_file_with_a_syntax_error_is_refused() {
    for bad in ["a = 1\na = 2\n", "name = \"x\" price = 3\n", "[[items]\n", "x = [1,,2]\n", "n = 99999999999999999999\n", "a = \"\\q\"\n"] {
        match format_document(bad, &opts()) {
            Err(FormatError::Syntax(errors)) => assert!(!errors.is_empty() && errors.iter().all(|e| e.span.end <= bad.len()), "{bad:?}: {errors:?}"),
            other => panic!("{bad:?} was not refused: {other:?}"),
        }
    }
    // Spans count from the start of the text, byte-order mark included.
    let Err(FormatError::Syntax(errors)) = format_document("\u{feff}a = 1\na = 2\n", &opts()) else { panic!() };
    assert!(errors[0].span.start >= "\u{feff}a = 1\n".len(), "{errors:?}");
}

// ----- range formatting ------------------------------------------------------------------------

const THREE: &str = "[[items]]\nname=\"A\"\nid=\"a:a\"\n[[items]]\nname=\"B\"\nid=\"a:b\"\n[[items]]\nname=\"C\"\nid=\"a:c\"\n";

#[test]
fn a_range_formats_only_the_entries_it_touches() {
    let b = THREE.find("name=\"B\"").unwrap();
    let out = format_range(THREE, b..b + 3, &opts()).unwrap();
    assert_eq!(out, "[[items]]\nname=\"A\"\nid=\"a:a\"\n\n[[items]]\nid = \"a:b\"\nname = \"B\"\n[[items]]\nname=\"C\"\nid=\"a:c\"\n");
    // An empty range is the entry the cursor is in.
    let c = THREE.find("id=\"a:c\"").unwrap();
    let out = format_range(THREE, c..c, &opts()).unwrap();
    assert!(out.ends_with("\n[[items]]\nname=\"B\"\nid=\"a:b\"\n\n[[items]]\nid = \"a:c\"\nname = \"C\"\n"), "{out}");
    // The whole text is the whole document.
    assert_eq!(format_range(THREE, 0..THREE.len(), &opts()).unwrap(), format_document(THREE, &opts()).unwrap());
    // Each formatted entry equals its counterpart in the formatted document.
    let full = format_document(THREE, &opts()).unwrap();
    let edits = range_edits(THREE, b..c, &opts()).unwrap();
    assert_eq!(edits.len(), 2);
    for e in &edits {
        assert!(full.contains(&e.text), "{e:?}");
    }
    // A syntax error anywhere refuses the range too.
    assert!(matches!(range_edits("a = 1\na = 2\nb=3\n", 12..13, &opts()), Err(FormatError::Syntax(_))));
}

#[test]
fn top_level_keys_are_entries_of_their_own_for_ranges() {
    let text = "a=1\nb=2\nc=3\n";
    assert_eq!(format_range(text, 4..5, &opts()).unwrap(), "a=1\nb = 2\nc=3\n");
    let bom = format!("\u{feff}{text}");
    assert_eq!(format_range(&bom, 7..8, &opts()).unwrap(), "\u{feff}a=1\nb = 2\nc=3\n");
}

#[test]
fn line_breaks_and_comments_inside_an_inline_tables_pair_are_read_as_the_reader_reads_them() {
    // The `toml` reader takes a line break (and a comment) between a key and its `=`, or between
    // the `=` and the value, inside an inline table; the comment goes on its own line above.
    check("t = { a = # the a\n 1, b\n = 2 }\n", "t = {\n  # the a\n  a = 1,\n  b = 2,\n}\n");
    check("t = { a = { x = # inner\n 1 } }\n", "t = {\n  a = {\n    # inner\n    x = 1,\n  },\n}\n");
    check("t = { a = # outer\n { x = 1 } }\n", "t = {\n  # outer\n  a = { x = 1 },\n}\n");
    for bad in ["t = { a.\nb = 1 }\n", "t = { a\n.b = 1 }\n", "a = \n1\n"] {
        assert!(matches!(format_document(bad, &opts()), Err(FormatError::Syntax(_))), "{bad:?}");
        assert!(!rustkeep_fmt::is_valid_toml(bad), "{bad:?}");
    }
    assert!(rustkeep_fmt::is_valid_toml("t = { a # c\n = 1 }\n"));
}
