//! Hostile mods for `rustkeep doc`: the site takes at most 20 times the loaded files (the
//! bundled core included) plus 10 MB, whatever the mods hold (crates/rustkeep-doc/src/budget.rs
//! says how that holds). Each test generates mods that made the site grow far faster than its
//! input — a huge name or ID repeated wherever the entry is mentioned, a long path repeated by
//! every entry, a pager linking every page from every page, thousands of entries of a few bytes
//! — runs the real binary on them, and measures the site.
//!
//! The mods here are small, so that the tests stay fast: where the 10 MB would hide the growth,
//! a test holds the part that scales to 20 times its input: the site beyond the core's own site
//! takes at most 20 times the input beyond the core's, plus [`SLACK`]. Without the cuts each of
//! them takes 3 to 30 times that (at a few megabytes, up to thousands of times its input).

mod common;

use std::path::Path;
use std::process::Output;
use std::sync::OnceLock;

use common::run;
use rustkeep_testutil::{repo_path, TempDir};

/// The size limit: the site takes at most this many bytes per byte of input …
const PER_INPUT_BYTE: u64 = 20;
/// … plus this many.
const BASE: u64 = 10_000_000;
/// What a small hostile mod may add to the site beyond 20 times its own bytes: its overview,
/// the frames of its few pages, its rows on the index.
const SLACK: u64 = 400_000;

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}

/// The bytes of every file below `dir` whose name ends with `ext` (`""`: every file).
fn bytes_below(dir: &Path, ext: &str) -> u64 {
    let files = rustkeep_testutil::walk_files(dir, &[]);
    files.iter().filter(|p| p.to_string_lossy().ends_with(ext)).map(|p| std::fs::metadata(p).expect("the file is there").len()).sum()
}

/// The bytes of the bundled core's files (part of every site's input).
fn core_input() -> u64 {
    bytes_below(&repo_path("crates/rustkeep-data/core"), ".toml")
}

/// A written site: its folder, its size and the size of its input.
struct Site {
    tmp: TempDir,
    bytes: u64,
    input: u64,
}

impl Site {
    fn read(&self, rel: &str) -> String {
        self.tmp.read(&format!("site/{rel}"))
    }
}

/// The site of `files` (paths below the folder given to `rustkeep doc`), built by the binary.
fn build(tag: &str, files: &[(String, String)]) -> Site {
    let tmp = TempDir::new(tag);
    for (rel, text) in files {
        tmp.write(&format!("mods/{rel}"), text);
    }
    std::fs::create_dir_all(tmp.path("mods")).expect("the folder can be made");
    let o = run(&tmp.0, &["doc", "mods", "--out", "site"]);
    ok(&o);
    let bytes = bytes_below(&tmp.path("site"), "");
    let input = bytes_below(&tmp.path("mods"), ".toml") + core_input();
    Site { tmp, bytes, input }
}

/// The site of the bundled core alone: its size and its input.
fn core_site() -> (u64, u64) {
    static CORE: OnceLock<(u64, u64)> = OnceLock::new();
    *CORE.get_or_init(|| {
        let s = build("core", &[]);
        (s.bytes, s.input)
    })
}

/// The site of `files` takes at most 20 times its input beyond the core's site, plus [`SLACK`].
fn assert_scales_with_input(tag: &str, files: &[(String, String)]) -> Site {
    let (core_bytes, core_in) = core_site();
    let s = build(tag, files);
    let (grew, input) = (s.bytes.saturating_sub(core_bytes), s.input - core_in);
    assert!(
        grew <= PER_INPUT_BYTE * input + SLACK,
        "{tag}: {input} bytes of mods add {grew} bytes to the site, more than {PER_INPUT_BYTE} × {input} + {SLACK}"
    );
    s
}

/// A content pack: these sites are about size, not about what the game never uses.
const MANIFEST: &str = "[mod]\nid = \"h\"\nname = \"Hostile\"\nversion = \"0.1.0\"\nlibrary = true\n";

fn one_mod(data: String) -> Vec<(String, String)> {
    vec![("h/mod.toml".into(), MANIFEST.into()), ("h/data.toml".into(), data)]
}

/// A name of about `len` characters, most of which HTML escapes at five times their size.
fn heavy_name(len: usize) -> String {
    let mut s = String::from("The ");
    while s.len() < len {
        s.push_str("<&'>");
    }
    s
}

/// `n` ordinary items of about 60 bytes each.
fn items(n: usize) -> String {
    format!("items = [\n{}]\n", repeated(n, |i| format!("{{ id = \"h:i{i}\", name = \"Item number {i}\", price = 3 }},\n")))
}

/// The texts `entry(0)`, `entry(1)`, … `entry(n - 1)`, one after the other.
fn repeated(n: usize, entry: impl Fn(usize) -> String) -> String {
    (0..n).map(entry).collect()
}

// ----- names, IDs and paths repeated ---------------------------------------------------------

/// An item with a huge name, given by `n` NPCs and asked for and given by `n` quests: the words
/// of each name it.
fn names_in_words(n: usize, len: usize) -> Vec<(String, String)> {
    let mut d = format!("[[items]]\nid = \"h:big\"\nname = \"{}\"\n\n", heavy_name(len));
    d += &repeated(n, |i| format!("[[npcs]]\nid = \"h:n{i}\"\non_talk = [{{ action = \"give_item\", item = \"h:big\", target = \"self\" }}]\n\n"));
    d += &repeated(n, |i| {
        format!("[[quests]]\nid = \"h:q{i}\"\non = \"item_picked_up\"\nwhen = {{ item = \"h:big\" }}\nactions = [{{ action = \"give_item\", item = \"h:big\", target = \"self\" }}]\n\n")
    });
    one_mod(d)
}

#[test]
fn a_huge_name_is_not_copied_into_every_sentence_naming_it() {
    let s = assert_scales_with_input("names-in-words", &names_in_words(150, 20_000));
    let npcs = s.read("mods/h/npcs.html");
    assert!(npcs.contains("The rest is cut: <code>rustkeep show h:n0</code> prints the entry as written."), "the words of an NPC are cut");
    let items = s.read("mods/h/items.html");
    assert!(items.contains(", and 260 more.</p>"), "the givers are counted past 40");
    assert!(items.contains("<li>and 260 more</li>"), "the referrers are counted past 40");
}

/// Creatures with huge names sharing a tag, and `n` quests to kill creatures of that tag (whose
/// words name the creatures).
fn tagged_quest_words(n: usize, len: usize) -> Vec<(String, String)> {
    let mut d = repeated(3, |i| format!("[[creatures]]\nid = \"h:c{i}\"\nname = \"{}\"\ntags = [\"h:undead\"]\n\n", heavy_name(len)));
    d += &repeated(n, |i| {
        format!("[[quests]]\nid = \"h:q{i}\"\non = \"creature_died\"\ncondition = [{{ check = \"has_tag\", who = \"target\", value = \"h:undead\" }}]\n\n")
    });
    one_mod(d)
}

#[test]
fn a_quest_naming_the_creatures_of_a_tag_does_not_copy_their_huge_names() {
    let s = assert_scales_with_input("tagged-quest-words", &tagged_quest_words(150, 20_000));
    assert!(s.read("mods/h/quests.html").contains("The rest is cut: <code>rustkeep show h:q0</code>"));
}

/// A loot table with a huge ID nesting `n` tables that each give an item, an NPC giving every
/// item: the huge ID is named wherever the tables and items say who rolls them and what refers
/// to them.
fn long_id(n: usize, len: usize) -> Vec<(String, String)> {
    let big = format!("h:{}", "a".repeat(len));
    let mut d = format!("[[loot_tables]]\nid = \"{big}\"\nentries = [\n{}]\n\n", repeated(n, |i| format!("{{ table = \"h:t{i}\", weight = 1 }},\n")));
    d += &repeated(n, |i| {
        format!("[[loot_tables]]\nid = \"h:t{i}\"\nentries = [{{ item = \"h:i{i}\", weight = 1 }}]\n\n[[items]]\nid = \"h:i{i}\"\nname = \"Item {i}\"\n\n")
    });
    one_mod(d)
}

#[test]
fn a_huge_id_is_cut_in_the_links_of_the_pages_that_mention_it() {
    let s = assert_scales_with_input("long-id", &long_id(200, 20_000));
    let items = s.read("mods/h/items.html");
    // Cut to 80 characters, and linked to its page without the anchor.
    let cut = format!("<a href=\"../../mods/h/loot_tables.html\"><code>h:{}…</code></a>", "a".repeat(77));
    let at = items.find("Drops from").unwrap_or(0);
    assert!(items.contains(&cut), "the huge ID is cut in the items' sources {}", &items[at..at + 1500]);
}

/// A mod with a huge name: `n` items (on several pages, each naming the mod) and overrides of
/// every core item (whose pages name the mod overriding them).
fn long_mod_name(n: usize, len: usize) -> Vec<(String, String)> {
    let manifest = format!("[mod]\nid = \"h\"\nname = \"{}\"\nversion = \"0.1.0\"\n", heavy_name(len));
    let core = std::fs::read_to_string(repo_path("crates/rustkeep-data/core/items.toml")).expect("the core's items");
    let ids = core.lines().filter_map(|l| l.strip_prefix("id = \"").and_then(|r| r.strip_suffix('"')));
    let overrides = format!("items = [\n{}]\n", ids.map(|id| format!("{{ overrides = \"{id}\", name = \"Overridden\" }},\n")).collect::<String>());
    vec![("h/mod.toml".into(), manifest), ("h/items.toml".into(), items(n)), ("h/overrides.toml".into(), overrides)]
}

#[test]
fn a_huge_mod_name_is_cut_on_every_page_but_its_own() {
    let s = assert_scales_with_input("long-mod-name", &long_mod_name(300, 20_000));
    let core_items = s.read("mods/core/items.html");
    assert!(core_items.contains("<strong>overridden by <a href=\"../../mods/h/items.html#core:gold\">The &lt;&amp;&#39;&gt;"), "the overriding mod is named");
    assert!(core_items.contains("…</a></strong>: the game uses that entry"), "the name is cut where it overrides");
    // Its own overview holds it whole.
    assert!(s.read("mods/h/index.html").contains(&html_escaped(&heavy_name(20_000))));
}

fn html_escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('\'', "&#39;")
}

/// `n` items in a file whose path is thousands of characters long (every entry says where it is
/// written).
fn long_path(n: usize) -> Vec<(String, String)> {
    let dir: Vec<String> = (0..14).map(|i| format!("{i}{}", "d".repeat(200))).collect();
    vec![("h/mod.toml".into(), MANIFEST.into()), (format!("h/{}/data.toml", dir.join("/")), items(n))]
}

#[test]
fn a_long_path_is_cut_where_each_entry_says_where_it_is_written() {
    let s = assert_scales_with_input("long-path", &long_path(2_000));
    let page = s.read("mods/h/items.html");
    assert!(page.contains("written in <code>…dddd"), "the place is cut to the end of its path");
}

/// A quest with a huge name in mod `h`, started by an NPC of each of `m` small mods (every mod's
/// quest chains draw it).
fn quest_chain_names(m: usize, len: usize) -> Vec<(String, String)> {
    let mut files = vec![
        ("h/mod.toml".to_string(), MANIFEST.to_string()),
        ("h/data.toml".to_string(), format!("[[quests]]\nid = \"h:q\"\nname = \"{}\"\non = \"turn_started\"\n", heavy_name(len))),
    ];
    for i in 0..m {
        files.push((format!("m{i}/mod.toml"), format!("[mod]\nid = \"m{i}\"\nname = \"Mod {i}\"\ndepends = [\"h\"]\n")));
        files.push((
            format!("m{i}/d.toml"),
            format!("npcs = [{{ id = \"m{i}:n\", name = \"Npc\", on_talk = [{{ action = \"start_quest\", quest = \"h:q\" }}] }}]\n"),
        ));
    }
    files
}

#[test]
fn a_huge_quest_name_is_cut_in_the_quest_chains_of_every_mod() {
    let s = assert_scales_with_input("quest-chain-names", &quest_chain_names(60, 20_000));
    let page = s.read("mods/m0/index.html");
    assert!(page.contains("<title>The &lt;&amp;&#39;&gt;"), "the quest is drawn");
    assert!(!page.contains(&html_escaped(&heavy_name(200))), "its name is cut in the drawing");
}

// ----- long lists ----------------------------------------------------------------------------

/// A mod depending on `deps` small mods, with `bearers` statuses bearing triggers and an item
/// given by `givers` NPCs.
fn long_lists(deps: usize, bearers: usize) -> Vec<(String, String)> {
    let names: Vec<String> = (0..deps).map(|i| format!("\"m{i}\"")).collect();
    let mut files = vec![("h/mod.toml".to_string(), format!("[mod]\nid = \"h\"\ndepends = [{}]\n", names.join(", ")))];
    for i in 0..deps {
        files.push((format!("m{i}/mod.toml"), format!("[mod]\nid = \"m{i}\"\n")));
    }
    let statuses = repeated(bearers, |i| {
        format!("[[statuses]]\nid = \"h:s{i}\"\nname = \"Status\"\ntriggers = [{{ on = \"attack_hit\", actions = [{{ action = \"spawn\", creature = \"h:c\" }}] }}]\n\n")
    });
    files.push(("h/data.toml".into(), format!("[[items]]\nid = \"h:i\"\nname = \"Thing\"\n\n[[creatures]]\nid = \"h:c\"\nname = \"Beast\"\n\n{statuses}")));
    files
}

#[test]
fn long_lists_are_cut_and_say_how_many_more_there_are() {
    let s = assert_scales_with_input("long-lists", &long_lists(50, 2_100));
    assert!(s.read("index.html").contains("<code>m39</code></a>, and 10 more</td>"), "the index counts the mods past 40");
    let page = s.read("mods/h/index.html");
    assert!(page.contains("<code>m39</code></a>, and 10 more</td>"), "the overview counts the mods past 40");
    assert!(page.contains("<p>And 100 more: <code>rustkeep graph</code> lists them all.</p>"), "the trigger table counts the rows past 2,000");
}

// ----- thousands of entries of a few bytes ---------------------------------------------------

/// `n` items of a few bytes each (on `n / 100` pages), and the core's currency renamed with a
/// name of `len` characters (every item's price is told in it).
fn tiny_entries(n: usize, len: usize) -> Vec<(String, String)> {
    let gold = format!(
        "[[items]]\noverrides = \"core:gold\"\nname = \"{}\"\nglyph = \"$\"\ncolor = \"bright_yellow\"\ntags = [\"core:currency\"]\nprice = 1\nstackable = true\n",
        heavy_name(len)
    );
    let d = format!("items = [\n{}]\n", repeated(n, |i| format!("{{id=\"h:{i:x}\",price=2}},\n")));
    vec![("h/mod.toml".into(), MANIFEST.into()), ("h/gold.toml".into(), gold), ("h/items.toml".into(), d)]
}

#[test]
fn a_site_past_its_limit_lists_the_most_amplifying_pages_in_brief() {
    let s = build("tiny-entries", &tiny_entries(15_000, 1_000));
    let limit = PER_INPUT_BYTE * s.input + BASE;
    assert!(s.bytes <= limit, "{} bytes of mods make a site of {} bytes, more than its limit of {limit}", s.input, s.bytes);
    assert!(s.read("index.html").contains("registry pages list their entries in brief"), "the index says pages are brief");
    // The most amplifying pages are the mod's item pages: some are made brief, a row per entry,
    // every anchor kept.
    let brief = (1..=151)
        .map(|n| s.read(&format!("mods/h/items-{n}.html").replace("items-1.html", "items.html")))
        .find(|p| p.contains("These 100 entries are listed in brief"))
        .expect("a page of items is brief");
    assert_eq!(brief.matches("<tr id=\"h:").count(), 100);
    // A pager of 151 pages links the first, the last and the three on each side of the page,
    // and marks the pages left out.
    let pager = &brief[brief.find("<nav class=\"pager\"").expect("a pager")..];
    let pager = &pager[..pager.find("</nav>").expect("the pager ends")];
    assert!(pager.matches("<li>").count() <= 11 && pager.contains("<li>…</li>"), "{pager}");
    assert!(pager.ends_with(">151</a></li></ul>") || pager.ends_with(">151</span></li></ul>"), "{pager}");
}
