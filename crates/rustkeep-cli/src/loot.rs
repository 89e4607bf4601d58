//! `rustkeep loot TABLE_ID`: exact drop chances of one loot table (docs/loot.md), optionally
//! checked against sampled rolls, as a table, JSON, or an SVG bar chart.
//!
//! Exit codes: 0 success; 1 when the table exists but cannot be evaluated because of the data (a
//! `loot-table-cycle`, a broken reference below it, or a sampled evaluation over the draw limit)
//! — the same code `check` gives for data errors; 2 for usage and I/O problems, including an
//! unknown table ID.

use std::path::PathBuf;

use rustkeep_check::analyze;
use rustkeep_data::db::TableKind;
use rustkeep_data::number::{fixed, percent as pct};
use rustkeep_data::project::{discover, WhenNothing};
use rustkeep_engine::loot::{evaluations_for, one_in_text, DropStat, LootDb, LootError, LootReport, SampleReport};
use schemars::JsonSchema;
use serde::Serialize;

use crate::Common;

/// What `--plot` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlotOf {
    /// The expected count per evaluation.
    Expected,
    /// The chance of at least one per evaluation.
    Chance,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LootFormat {
    Human,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// The loot table, e.g. `core:floor_3_table`.
    pub table: String,
    /// The luck of the one who opens or kills: p_extra = clamp(luck × balance.luck_factor, 0, 0.9).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub luck: f64,
    /// Also roll the table this many times and show the sampled frequencies next to the exact ones.
    #[arg(long, value_name = "N")]
    pub samples: Option<u64>,
    /// Seed of the sampled rolls.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: LootFormat,
    /// Write an SVG bar chart per drop: its expected count or its chance (see --plot-of), exact,
    /// and sampled next to it with --samples.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// What --plot draws: `expected` counts per evaluation, or the `chance` of at least one (the
    /// histogram of the drop chances).
    #[arg(long, value_enum, default_value = "expected", requires = "plot")]
    pub plot_of: PlotOf,
    #[command(flatten)]
    pub common: Common,
}

pub fn run(args: Args) -> Result<u8, String> {
    if !args.luck.is_finite() {
        return Err(format!("--luck must be a finite number, not {}", args.luck));
    }
    if args.samples == Some(0) {
        return Err("--samples must be at least 1".into());
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    // The one discovery rule; outside any mod, the bundled core alone (asking about a core table
    // needs no mod).
    let project = discover(&args.common.mods, &cwd, WhenNothing::CoreAlone)?;
    let analysis = analyze(&project);
    let db = LootDb::new(&analysis.db);

    // A table's name without its namespace names it when only one mod has a table of that name.
    let table = crate::show::short_name(&args.table, db.table_ids(), "loot table")?.unwrap_or_else(|| args.table.clone());
    let args = Args { table, ..args };
    let report = match db.analyze(&args.table, args.luck) {
        Ok(r) => r,
        Err(e @ LootError::UnknownTable { .. }) => return Err(e.to_string()),
        Err(e) => return Ok(data_error(&e, analysis.errors())),
    };
    let samples = match args.samples {
        None => None,
        Some(n) => match db.sample(&args.table, args.luck, n, args.seed) {
            Ok(s) => Some(s),
            Err(e) => return Ok(data_error(&e, analysis.errors())),
        },
    };
    if analysis.errors() > 0 {
        let n = analysis.errors();
        say!("note: the loaded mods have {n} {} elsewhere; `rustkeep check` lists them", if n == 1 { "error" } else { "errors" });
    }

    if let Some(path) = &args.plot {
        rustkeep_data::files::write_file(path, svg_plot(&report, samples.as_ref(), args.plot_of).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let text = match args.format {
        LootFormat::Json => {
            let mut t = serde_json::to_string_pretty(&to_json(&report, samples.as_ref())).map_err(|e| e.to_string())?;
            t.push('\n');
            t
        }
        LootFormat::Human => human(&report, samples.as_ref()),
    };
    crate::out::print(&text, args.format == LootFormat::Json)?;
    Ok(0)
}

/// A product of inputs (`luck × luck_factor`) as the inputs meant it: `3 × 0.05` is `0.15`, not
/// the nearest double's `0.15000000000000002`. Twelve decimals keep every value a modder writes.
fn tidy(x: f64) -> f64 {
    format!("{x:.12}").parse().unwrap_or(x)
}

fn data_error(e: &LootError, errors: usize) -> u8 {
    say!("error: {e}");
    if errors > 0 {
        say!("note: `rustkeep check` shows where ({errors} {} in the loaded mods)", if errors == 1 { "error" } else { "errors" });
    }
    1
}

/// The output of `rustkeep loot --format json` (docs/cli.md): the exact chances of one table.
#[derive(Serialize, JsonSchema)]
#[schemars(title = "rustkeep loot --format json", deny_unknown_fields)]
pub struct LootJson<'a> {
    /// The table's ID.
    pub table: &'a str,
    /// Whether the table gives items or affixes.
    pub kind: TableKind,
    /// The `--luck` given.
    pub luck: f64,
    /// The chance of one extra draw that luck gives: clamp(luck × balance.luck_factor, 0, 0.9).
    #[schemars(range(min = 0.0, max = 0.9))]
    pub p_extra: f64,
    /// One record per item (for an affix table: per affix) the table can give, sorted by `p_any`
    /// from high to low, then by ID. Exact values, accurate to better than 1e-9.
    pub drops: Vec<JsonDrop<'a>>,
    /// Frequencies measured over `--samples N` seeded evaluations; only with `--samples`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "JsonSamples")]
    pub samples: Option<JsonSamples<'a>>,
}

/// What one evaluation of the table gives of one item or affix.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonDrop<'a> {
    /// The item's (for an affix table: the affix's) ID.
    pub id: &'a str,
    /// The probability that one evaluation yields at least one.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p_any: f64,
    /// The expected total count per evaluation (for an affix table it equals `p_any`).
    #[schemars(range(min = 0.0))]
    pub expected: f64,
    /// Per affix the item can carry: the probability that one evaluation yields at least one
    /// instance of this item carrying it. Empty for affix tables.
    pub affixes: Vec<JsonAffix<'a>>,
}

/// The chance of an item with one affix.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonAffix<'a> {
    /// The affix's ID.
    pub id: &'a str,
    /// The probability that one evaluation yields at least one instance of the item carrying it.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p_any: f64,
}

/// Sampled frequencies, to set beside the exact ones.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonSamples<'a> {
    /// The number of evaluations rolled.
    #[schemars(range(min = 1))]
    pub n: u64,
    /// The `--seed` of the rolls.
    pub seed: u64,
    /// The outcomes seen at least once, sorted like the exact `drops`.
    pub drops: Vec<JsonSampledDrop<'a>>,
}

/// How often one item or affix came up in the sampled evaluations.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonSampledDrop<'a> {
    /// The item's (for an affix table: the affix's) ID.
    pub id: &'a str,
    /// The share of evaluations that yielded at least one.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p_any: f64,
    /// The mean count per evaluation.
    #[schemars(range(min = 0.0))]
    pub expected: f64,
}

/// `p_any` and `expected` are exact; `samples` only with `--samples`.
pub fn to_json<'a>(r: &'a LootReport, samples: Option<&'a SampleReport>) -> LootJson<'a> {
    LootJson {
        table: &r.table,
        kind: r.kind,
        luck: r.luck,
        // The clamp's product (0.15000000000000002) is written as the number it means.
        p_extra: tidy(r.p_extra),
        drops: r
            .drops
            .iter()
            .map(|d| JsonDrop {
                id: &d.id,
                p_any: d.p_any,
                expected: d.expected,
                affixes: d.affixes.iter().map(|a| JsonAffix { id: &a.id, p_any: a.p_any }).collect(),
            })
            .collect(),
        samples: samples.map(|s| JsonSamples {
            n: s.n,
            seed: s.seed,
            drops: s.drops.iter().map(|d| JsonSampledDrop { id: &d.id, p_any: d.p_any, expected: d.expected }).collect(),
        }),
    }
}

fn evals_text(p: f64, c: f64) -> String {
    match evaluations_for(p, c) {
        None => "never".into(),
        Some(n) => n.to_string(),
    }
}

pub fn human(r: &LootReport, samples: Option<&SampleReport>) -> String {
    let mut out = String::new();
    let what = if r.kind.as_str() == "affixes" { "affix" } else { "item" };
    out.push_str(&format!("{} — {} table, luck {} (p_extra {:.3})\n", r.table, what, r.luck, r.p_extra));
    out.push_str("Chance = at least one per evaluation; 1 in N = evaluations per success on average;\n");
    out.push_str("50/90/99 % = evaluations (kills, chests) for that chance of at least one.\n\n");
    if r.drops.is_empty() {
        out.push_str("This table never gives anything.\n");
        return out;
    }
    let width = r.drops.iter().flat_map(|d| std::iter::once(d.id.len()).chain(d.affixes.iter().map(|a| a.id.len() + 7))).max().unwrap_or(4).max(4);
    let mut header = format!("{:<width$}  {:>10}  {:>9}  {:>9}  {:>6}  {:>6}  {:>6}", what, "chance", "1 in N", "expected", "50%", "90%", "99%");
    if samples.is_some() {
        header.push_str(&format!("  {:>10}  {:>9}", "sampled", "s. exp."));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    let sampled = |id: &str| samples.and_then(|s| s.drops.iter().find(|d| &*d.id == id));
    for d in &r.drops {
        let mut line = row(&d.id, d.p_any, Some(d.expected), width);
        if samples.is_some() {
            let (p, e) = sampled(&d.id).map(|x| (x.p_any, x.expected)).unwrap_or((0.0, 0.0));
            line.push_str(&format!("  {:>10}  {:>9}", pct(p), fixed(e, 4)));
        }
        out.push_str(&line);
        out.push('\n');
        for a in &d.affixes {
            let mut line = row(&format!("  with {}", a.id), a.p_any, None, width);
            if samples.is_some() {
                let p = sampled(&d.id).and_then(|x| x.affixes.iter().find(|y| y.id == a.id)).map(|y| y.p_any).unwrap_or(0.0);
                line.push_str(&format!("  {:>10}", pct(p)));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    if let Some(s) = samples {
        out.push_str(&format!("\nsampled: {} evaluations, seed {}\n", s.n, s.seed));
    }
    out
}

fn row(label: &str, p: f64, expected: Option<f64>, width: usize) -> String {
    let e = expected.map(|e| fixed(e, 4)).unwrap_or_default();
    format!(
        "{:<width$}  {:>10}  {:>9}  {:>9}  {:>6}  {:>6}  {:>6}",
        label,
        pct(p),
        one_in_text(p),
        e,
        evals_text(p, 0.5),
        evals_text(p, 0.9),
        evals_text(p, 0.99)
    )
}

/// A horizontal bar chart: per drop, the exact expected count and the sampled mean, on one scale.
pub fn svg_plot(r: &LootReport, s: Option<&SampleReport>, of: PlotOf) -> String {
    let drops: Vec<&DropStat> = r.drops.iter().collect();
    let value = |d: &DropStat| if of == PlotOf::Chance { d.p_any } else { d.expected };
    let sampled = |id: &str| s.and_then(|s| s.drops.iter().find(|d| &*d.id == id)).map(value).unwrap_or(0.0);
    let max = drops.iter().map(|d| value(d).max(sampled(&d.id))).fold(0.0f64, f64::max);
    // Chances share one scale, 0 to 100 %, so that plots of different tables compare.
    let scale = if of == PlotOf::Chance {
        1.0
    } else if max > 0.0 {
        max
    } else {
        1.0
    };
    let show = |x: f64| if of == PlotOf::Chance { pct(x) } else { fixed(x, 4) };
    let label_w = drops.iter().map(|d| d.id.len()).max().unwrap_or(4) as f64 * 7.5 + 20.0;
    let bar_w = 520.0;
    let row_h = 30.0;
    let top = 60.0;
    let width = label_w + bar_w + 120.0;
    let height = top + row_h * drops.len() as f64 + 30.0;
    let mut svg = String::new();
    svg.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    ));
    svg.push_str(&format!("<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"white\"/>\n"));
    svg.push_str(&format!(
        "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{} — {} per evaluation (luck {})</text>\n",
        rustkeep_data::echo::xml(&r.table),
        if of == PlotOf::Chance { "chance of at least one" } else { "expected count" },
        r.luck
    ));
    svg.push_str("<rect x=\"10\" y=\"32\" width=\"12\" height=\"10\" fill=\"#4472c4\"/><text x=\"26\" y=\"41\">exact</text>");
    if let Some(s) = s {
        svg.push_str(&format!(
            "<rect x=\"80\" y=\"32\" width=\"12\" height=\"10\" fill=\"#ed7d31\"/><text x=\"96\" y=\"41\">sampled ({} evaluations, seed {})</text>",
            s.n, s.seed
        ));
    }
    svg.push('\n');
    for (i, d) in drops.iter().enumerate() {
        let y = top + row_h * i as f64;
        let exact_w = value(d) / scale * bar_w;
        svg.push_str(&format!("<text x=\"10\" y=\"{:.1}\">{}</text>\n", y + 17.0, rustkeep_data::echo::xml(&d.id)));
        svg.push_str(&format!("<rect x=\"{label_w:.1}\" y=\"{:.1}\" width=\"{exact_w:.2}\" height=\"11\" fill=\"#4472c4\"/>\n", y + 4.0));
        svg.push_str(&format!("<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{}</text>\n", label_w + exact_w + 4.0, y + 13.0, show(value(d))));
        if s.is_some() {
            let samp = sampled(&d.id);
            let samp_w = samp / scale * bar_w;
            svg.push_str(&format!("<rect x=\"{label_w:.1}\" y=\"{:.1}\" width=\"{samp_w:.2}\" height=\"11\" fill=\"#ed7d31\"/>\n", y + 16.0));
            svg.push_str(&format!("<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{}</text>\n", label_w + samp_w + 4.0, y + 25.0, show(samp)));
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_stay_readable() {
        assert_eq!(pct(0.0845), "8.45 %");
        assert_eq!(one_in_text(0.25), "4.0");
        assert_eq!(evals_text(0.5, 0.9), "4");
    }
}
