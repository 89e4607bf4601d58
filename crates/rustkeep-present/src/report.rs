//! The engine's results as text for people: a scenario's run (`rustkeep simulate`), one step's
//! causal trace (also the trace pane of `rustkeep play`), a batch of fights and the arena's matrix
//! (`rustkeep arena`). The engine gives them as types; their JSON is the engine's own.

use rustkeep_data::number::{fixed, percent};
use rustkeep_engine::arena::{self, Matrix};
use rustkeep_engine::effect::Outcome;
use rustkeep_engine::scenario::Report;
use rustkeep_engine::stats::{mean, percentile};
use rustkeep_engine::trace::StepTrace;

/// A scenario's run: every step's trace, the final state, the warnings and the expectations.
pub fn run(report: &Report) -> String {
    let mut out = format!("seed {}\n", report.seed);
    out.push_str(&trace(&report.setup, "setup"));
    for s in &report.steps {
        let title = match &s.source {
            Some(who) => format!("step {} ({who}'s turn)", s.step),
            None => format!("step {}", s.step),
        };
        out.push_str(&trace(s, &title));
    }
    out.push_str("final\n");
    let p = &report.final_state["player"];
    out.push_str(&format!("  player health {} / {}\n", p["health"], p["max_health"]));
    for i in p["inventory"].as_array().into_iter().flatten() {
        out.push_str(&format!("  inventory {}\n", i));
    }
    for q in p["quests"].as_array().into_iter().flatten() {
        let done = if q["done"].as_bool() == Some(true) { " done" } else { "" };
        out.push_str(&format!("  quest {} {}{done}\n", q["quest"].as_str().unwrap_or(""), q["count"]));
    }
    for e in report.final_state["enemies"].as_array().into_iter().flatten() {
        out.push_str(&format!("  {} {} health {}\n", e["ref"].as_str().unwrap_or(""), e["creature"].as_str().unwrap_or(""), e["health"]));
    }
    for i in report.final_state["floor_loot"].as_array().into_iter().flatten() {
        out.push_str(&format!("  on the floor {}\n", i));
    }
    for w in &report.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    for c in &report.expectations {
        if c.passed {
            out.push_str(&format!("expect {}: {} — passed\n", c.subject(), c.expected));
        } else {
            out.push_str(&format!("expect {}: FAILED: {}\n", c.subject(), c.outcome()));
        }
        if c.fragile {
            out.push_str(&format!("  {}\n", c.fragility()));
        }
    }
    out
}

/// One step's causal trace, indented: the act's effects, then each event with the triggers it
/// met and what they did, the events it caused below it.
pub fn trace(st: &StepTrace, title: &str) -> String {
    let mut out = format!("{title}: {}\n", st.act);
    for e in &st.effects {
        effect_lines(e, 1, &mut out);
    }
    for (i, e) in st.events.iter().enumerate() {
        if e.cause.is_none() {
            event_tree(st, i, 1, &mut out);
        }
    }
    out
}

fn event_tree(st: &StepTrace, i: usize, depth: usize, out: &mut String) {
    let e = &st.events[i];
    let pad = "  ".repeat(depth);
    out.push_str(&format!("{pad}#{i} {}\n", e.headline()));
    for t in &e.triggers {
        let mark = if t.fired { "fired" } else { "skipped" };
        let mut line = format!("{pad}  {mark} {} ({})", t.owner, t.at);
        if let Some(p) = &t.progress {
            line.push_str(&format!(" progress {p}"));
        }
        if let Some(r) = &t.reason {
            line.push_str(&format!(": {r}"));
        }
        out.push_str(&line);
        out.push('\n');
        for a in &t.actions {
            effect_lines(a, depth + 2, out);
        }
    }
    for (j, c) in st.events.iter().enumerate() {
        if c.cause == Some(i) {
            event_tree(st, j, depth + 1, out);
        }
    }
}

fn effect_lines(e: &Outcome, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match e.action {
        Some(a) => out.push_str(&format!("{pad}{}: {}\n", a.name(), e.effect)),
        None => out.push_str(&format!("{pad}{}\n", e.effect)),
    }
    for s in e.actions.iter().flatten() {
        effect_lines(s, depth + 1, out);
    }
}

/// A batch of fights as a short table, under `title`.
pub fn fights(r: &arena::Report, title: &str) -> String {
    let (lo, hi) = r.win_rate_ci95();
    let mut out = format!("{title}\n{} fights, seed {}, at most {} rounds each\n\n", r.runs, r.seed, r.max_rounds);
    out.push_str(&format!("  win rate      {} (95 % interval {} – {})\n", percent(r.win_rate()), percent(lo), percent(hi)));
    out.push_str(&format!("  wins          {}\n  escapes       {}\n  losses        {}\n  draws         {}\n", r.wins, r.escapes, r.losses, r.draws));
    if r.limited > 0 {
        out.push_str(&format!(
            "                {} of the draws stopped at {} turns, their share of the {} a batch may take: fewer runs give each fight more\n",
            r.limited,
            rustkeep_data::text::thousands(arena::turns_per_fight(r.runs, r.max_rounds)),
            rustkeep_data::text::thousands(arena::BATCH_TURNS)
        ));
    }
    let p = |q: f64| percentile(&r.rounds, q).map_or("-".to_string(), |v| v.to_string());
    out.push_str(&format!(
        "  rounds        mean {}, median {}, 90 % within {}, at most {}\n",
        fixed(r.mean_rounds(), 2),
        p(0.5),
        p(0.9),
        r.rounds.last().map_or("-".to_string(), |v| v.to_string())
    ));
    match mean(r.health_left.iter().map(|h| *h as f64)) {
        Some(m) => out.push_str(&format!(
            "  health left   mean {} after a win; 10 % of wins end at {} or less\n",
            fixed(m, 1),
            percentile(&r.health_left, 0.1).unwrap_or(0)
        )),
        None => out.push_str("  health left   - (no wins)\n"),
    }
    if r.loot.is_empty() {
        out.push_str("  loot          none\n");
    } else {
        out.push_str("  loot per fight\n");
        for (item, n) in &r.loot {
            out.push_str(&format!("    {item:<32} {}\n", fixed(*n as f64 / r.runs.max(1) as f64, 2)));
        }
    }
    out
}

/// The arena's matrix as a table: a row per creature, a column per option, each cell
/// `win rate / mean rounds`.
pub fn matrix(m: &Matrix) -> String {
    // As wide as the widest option and the widest cell (`100.00 % / 12.3`).
    let widest_cell = m.cells.iter().flatten().map(|(wr, mr)| format!("{} / {:>4}", percent(*wr), fixed(*mr, 1)).chars().count()).max().unwrap_or(0);
    let width = m.options.iter().map(|o| o.len()).max().unwrap_or(0).max(12).max(widest_cell);
    let first = m.creatures.iter().map(|c| c.len()).max().unwrap_or(0).max(8);
    let mut out = format!(
        "Every option against one of every creature: {} fights per cell, seed {}, at most {} rounds\nEach cell: win rate of the option / mean rounds\n\n",
        m.runs, m.seed, m.max_rounds
    );
    out.push_str(&format!("{:<first$}", "creature"));
    for o in &m.options {
        out.push_str(&format!("  {o:>width$}"));
    }
    out.push('\n');
    for (ci, c) in m.creatures.iter().enumerate() {
        out.push_str(&format!("{c:<first$}"));
        for (wr, mr) in &m.cells[ci] {
            out.push_str(&format!("  {:>width$}", format!("{} / {:>4}", percent(*wr), fixed(*mr, 1))));
        }
        out.push('\n');
    }
    out
}
