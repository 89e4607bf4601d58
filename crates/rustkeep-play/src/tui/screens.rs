//! The screens over the map that only show things: the scrolled views (help, message history,
//! character sheet, quest log), the look panel and the trace of every turn.

use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use rustkeep_data::grid::Pos;
use rustkeep_engine::game::shown;

use super::app::{App, Input, Overlay, View, LEGEND};
use super::keys;
use super::paint::{bold, centered, dim, position, scrolled, Paint};
use crate::command::{COMMANDS, TESTING_NOTE, TESTING_WORDS};
use crate::session::{Session, Watched};

/// The lines of a scrolled view and its title.
fn view_lines(app: &App, s: &Session, view: View, paint: &Paint) -> (&'static str, Vec<Line<'static>>) {
    let key = |t: &str| Span::styled(format!("{t:<14}"), paint.fg(Color::Cyan));
    match view {
        View::Help => {
            let mut lines = Vec::new();
            for screen in keys::SCREENS {
                lines.push(Line::from(Span::styled(screen.name, bold())));
                for (k, what) in keys::rows(screen) {
                    if k.chars().count() > 13 {
                        lines.push(Line::from(Span::styled(k, paint.fg(Color::Cyan))));
                        lines.push(Line::from(vec![key(""), Span::raw(what)]));
                    } else {
                        lines.push(Line::from(vec![key(&k), Span::raw(what)]));
                    }
                }
                lines.push(Line::from(""));
            }
            // The commands that bend the rules, apart from the keys that play by them.
            lines.push(Line::from(Span::styled("Testing commands (the : line)", bold())));
            lines.push(Line::from(format!("{}{}.", TESTING_NOTE[..1].to_uppercase(), &TESTING_NOTE[1..])));
            for (name, args, doc) in COMMANDS.iter().filter(|(name, _, _)| TESTING_WORDS.contains(name)) {
                lines.push(Line::from(Span::styled(format!("{name} {args}"), paint.fg(Color::Cyan))));
                lines.push(Line::from(vec![key(""), Span::raw(*doc)]));
            }
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled("The map", bold())));
            for (c, what) in LEGEND {
                lines.push(Line::from(vec![key(c), Span::raw(*what)]));
            }
            ("Help", lines)
        }
        View::Messages => {
            let mut lines = Vec::new();
            let mut last = None;
            for l in app.log_lines() {
                let head = if last == Some(l.step) { "".to_string() } else { format!("turn {}", l.step) };
                last = Some(l.step);
                let style = if l.text.starts_with("error") || l.text.starts_with("warning") { paint.fg(Color::Red) } else { Style::default() };
                lines.push(Line::from(vec![Span::styled(format!("{head:<10}"), dim()), Span::styled(l.shown(), style)]));
            }
            if lines.is_empty() {
                lines.push(Line::from("No messages yet."));
            }
            ("Message history", lines)
        }
        View::Sheet => {
            let g = &s.g;
            let options: Vec<String> =
                g.player().options.iter().map(|o| crate::narrate::entry_name(&s.w, rustkeep_data::vocab::Registry::CharacterOptions, o)).collect();
            let mut lines = vec![
                Line::from(Span::styled(if options.is_empty() { "No character options".to_string() } else { options.join(" · ") }, bold())),
                Line::from(format!(
                    "health {} of {} · gold {} · kills {} · turn {}",
                    g.player().health,
                    g.max_health(&s.w, rustkeep_engine::game::CreatureRef::Player),
                    g.gold(),
                    g.kills(),
                    g.step()
                )),
                Line::from(""),
            ];
            for r in s.sheet_rows() {
                lines.push(Line::from(vec![
                    Span::styled(format!("{:<18}", r.attribute), bold()),
                    Span::styled(format!("{:>6}", shown(r.value)), paint.fg(Color::Cyan)),
                ]));
                lines.push(Line::from(Span::styled(format!("    = {}", r.parts.join(" · ")), Style::default())));
                lines.push(Line::from(Span::styled(format!("    {}", r.doc), dim())));
            }
            ("Character sheet", lines)
        }
        View::Quests => {
            let rows = s.quest_rows();
            let mut lines = Vec::new();
            if rows.is_empty() {
                lines.push(Line::from("No quest started yet."));
            }
            for q in rows {
                let (mark, style) = if q.done { ("✓", paint.fg(Color::Green)) } else { ("·", bold()) };
                lines.push(Line::from(Span::styled(format!("{mark} {} — {}/{} ({})", q.name, q.count, q.of, q.id), style)));
                if !q.about.is_empty() {
                    lines.push(Line::from(format!("    {}", q.about)));
                }
            }
            ("Quest log", lines)
        }
    }
}

/// A scrolled view over most of the screen.
pub(super) fn draw_view(f: &mut Frame, app: &App, s: &Session, area: Rect, view: View, scroll: u16, paint: &Paint) {
    let (title, lines) = view_lines(app, s, view, paint);
    let width = 110.min(area.width);
    let rows = Paragraph::new(lines.clone()).wrap(Wrap { trim: false }).line_count(width.saturating_sub(2).max(1));
    let at = centered(area, width, u16::try_from(rows + 2).unwrap_or(u16::MAX).max(5));
    f.render_widget(Clear, at);
    let shown = at.height.saturating_sub(2);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {title}{} ", position(scroll, app.view_max.get(), shown)), bold()))
        .title_bottom(Line::from(Span::styled(" ↑↓ PgUp PgDn g G scroll · Esc close ", dim())));
    let max = scrolled(f, at, block, lines, scroll);
    app.view_max.set(max);
}

/// Look mode's panel at the bottom of the screen: what lies under the cursor.
pub(super) fn draw_look(f: &mut Frame, s: &Session, area: Rect, at: Pos) {
    let lines: Vec<Line> = s.describe_tile(at).into_iter().map(Line::from).collect();
    let h = (lines.len() as u16 + 2).clamp(3, 9).min(area.height);
    let r = Rect { x: area.x, y: area.y + area.height - h, width: area.width, height: h };
    f.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" Look · {},{} ", at.x, at.y), bold()))
        .title_bottom(Line::from(Span::styled(" move the cursor · Tab next enemy · Esc stop ", dim())));
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }).block(block), r);
}

/// The style of a trace line: fired green, skipped dim, headers bold, the watched owner's
/// triggers reversed.
pub(super) fn trace_style(line: &str, watch: Option<&str>, query: Option<&str>, paint: &Paint) -> Style {
    let t = line.trim_start();
    let mut style = if t.starts_with("fired") {
        paint.fg(Color::Green)
    } else if t.starts_with("skipped") {
        dim()
    } else if t.starts_with('#') {
        paint.fg(Color::Cyan)
    } else if t.starts_with("warning") {
        paint.fg(Color::Red)
    } else if !line.starts_with(' ') {
        bold()
    } else {
        Style::default()
    };
    let hit = |needle: &str| !needle.is_empty() && line.to_lowercase().contains(&needle.to_lowercase());
    if watch.is_some_and(|w| (t.starts_with("fired") || t.starts_with("skipped")) && line.contains(w)) || query.is_some_and(hit) {
        style = style.add_modifier(Modifier::REVERSED);
    }
    style
}

/// A row of marks, one a turn, centred on turn `at`: `★` where the watched owner fired, `·`
/// where it was skipped, `/` a search match, `─` otherwise; the turn shown is `▼`-marked below.
fn timeline(app: &App, s: &Session, at: usize, width: usize) -> (String, usize) {
    let n = s.history.len();
    let width = width.max(1);
    let start = at.saturating_sub(width / 2).min(n.saturating_sub(width));
    let end = (start + width).min(n);
    let mut out = String::new();
    for i in start..end {
        let watched = app.watch.as_deref().and_then(|o| s.history.watched(i, o));
        out.push(match watched {
            Some(Watched::Fired) => '★',
            Some(Watched::Skipped) => '·',
            None if app.search.as_deref().is_some_and(|q| s.history.matches(i, q)) => '/',
            None => '─',
        });
    }
    (out, at - start)
}

/// The trace of every turn, over the whole screen.
pub(super) fn draw_history(f: &mut Frame, app: &App, s: &Session, area: Rect, paint: &Paint) {
    let Overlay::History { at, scroll, input } = &app.overlay else { return };
    let (at, scroll, input) = (*at, *scroll, input.as_ref());
    f.render_widget(Clear, area);
    let n = s.history.len();
    let at = at.min(n.saturating_sub(1));
    let turn = s.history.get(at);
    let head = match turn {
        Some(t) => format!(" Trace · command {} of {} · turn {} · `{}` ", at + 1, n, t.step, t.command),
        None => " Trace · no turn yet ".to_string(),
    };
    let kept = if s.history.dropped() > 0 { format!(" · {} older turns let go", s.history.dropped()) } else { String::new() };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(head, bold()))
        .title_bottom(Line::from(Span::styled(format!(" ← → turns · / search · n N matches · w watch · [ ] watched turns · Esc close{kept} "), dim())));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let [status, marks, pointer, body, prompt] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(1), Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(inner);
    let mut about = Vec::new();
    if let Some(w) = &app.watch {
        let turns = s.history.watched_turns(w);
        let fired = turns.iter().filter(|i| s.history.watched(**i, w) == Some(Watched::Fired)).count();
        about.push(format!("watching {w}: fired in {fired} turn(s), looked at in {}", turns.len()));
    }
    if let Some(q) = &app.search {
        about.push(format!("search `{q}`"));
    }
    if about.is_empty() {
        about.push("w watches an owner's triggers; / searches".into());
    }
    f.render_widget(Paragraph::new(Span::styled(about.join(" · "), paint.fg(Color::Yellow))), status);
    let (line, here) = timeline(app, s, at, marks.width as usize);
    f.render_widget(Paragraph::new(Span::styled(line, dim().remove_modifier(Modifier::DIM))), marks);
    f.render_widget(Paragraph::new(format!("{}▲", " ".repeat(here))), pointer);
    let lines: Vec<Line> = match turn {
        Some(t) => t
            .lines()
            .into_iter()
            .map(|l| {
                let l = s.with_enemy_names(&l);
                let style = trace_style(&l, app.watch.as_deref(), app.search.as_deref(), paint);
                Line::from(Span::styled(l, style))
            })
            .collect(),
        None => vec![Line::from("Nothing happened yet.")],
    };
    let max = scrolled(f, body, Block::default(), lines, scroll);
    app.view_max.set(max);
    if let Some((kind, text)) = input {
        let label = if *kind == Input::Search { "search: " } else { "watch owner (Tab completes, empty stops): " };
        let shown = format!("{label}{text}");
        f.set_cursor_position(Position { x: prompt.x + shown.chars().count() as u16, y: prompt.y });
        f.render_widget(Paragraph::new(shown), prompt);
    }
}
