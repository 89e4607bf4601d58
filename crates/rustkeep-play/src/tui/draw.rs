//! Painting the full-screen game: the title line, the room's map, the side panel (health, the
//! enemies present, statuses, the character sheet against them, equipment, gold, quests), the
//! message log, the trace pane, the overlays and the key line. Everything fits 80 × 24; a larger
//! terminal gets a wider map, a wider panel and the trace beside the map instead of under it.

use std::collections::BTreeMap;

use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use rustkeep_data::grid::Pos;
use rustkeep_data::vocab::{field, Registry, CURRENCY};
use rustkeep_engine::floor::STAIRS;
use rustkeep_engine::game::{buy_price, sell_price, shown, CreatureRef};
use rustkeep_engine::map::Map;

use super::app::{App, Overlay, Phase, PromptKind, Side, Start};
use super::paint::{bold, centered, cut, dim, hanging_wrap, position, scrolled, Paint};
use super::screens;
use crate::look;
use crate::narrate::entry_name;
use crate::session::Session;

/// A bar of `width` cells filled to `left / max`.
fn bar(left: i64, max: i64, width: usize) -> String {
    let filled = if max > 0 { ((left.max(0) as f64 / max as f64) * width as f64).round() as usize } else { 0 };
    let filled = filled.min(width);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

fn popup<'a>(f: &mut Frame, area: Rect, title: &'a str, body: Text<'a>, footer: &'a str) {
    // What lies behind steps back: the screen is dimmed, so that the panels beside the box do
    // not read as part of it.
    let whole = f.area();
    f.buffer_mut().set_style(whole, Style::default().add_modifier(Modifier::DIM));
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {title} "), bold()))
        .title_bottom(Line::from(Span::styled(format!(" {footer} "), dim())));
    f.render_widget(Paragraph::new(body).block(block).wrap(Wrap { trim: false }), area);
}

pub fn draw(f: &mut Frame, app: &mut App) {
    let paint = Paint { colour: app.colour, depth: app.depth };
    match &app.phase {
        Phase::Start(st) => draw_start(f, app, st, &paint),
        Phase::Play(s) => draw_game(f, app, s, &paint),
        Phase::Moving => {}
    }
}

fn draw_start(f: &mut Frame, app: &App, st: &Start, paint: &Paint) {
    let area = f.area();
    let [title, body, keys] = Layout::vertical([Constraint::Length(1), Constraint::Min(3), Constraint::Length(1)]).areas(area);
    f.render_widget(Paragraph::new(Line::from(vec![Span::styled(" rustkeep ", bold()), Span::raw(format!("· a new game · seed {}", st.seed))])), title);
    let [list, about] = Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body);
    let mut lines = Vec::new();
    let mut heading: Option<&Option<String>> = None;
    for (i, (id, name, _)) in st.options.iter().enumerate() {
        let group = &st.groups[i];
        if heading != Some(group) && st.groups.iter().any(Option::is_some) {
            let title = group.as_deref().map_or_else(|| "Other options".to_string(), |g| format!("{}{} (one)", g[..1].to_uppercase(), &g[1..]));
            lines.push(Line::from(Span::styled(title, bold())));
            heading = Some(group);
        }
        let mark = match (st.chosen.contains(&i), group.is_some()) {
            (true, true) => "(•)",
            (false, true) => "( )",
            (true, false) => "[x]",
            (false, false) => "[ ]",
        };
        let mut style = Style::default();
        if i == st.cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        // The name alone where the ID does not fit (the About pane shows it).
        let full = format!("{mark} {name} ({id})");
        let text = if full.chars().count() + 2 <= list.width as usize { full } else { format!("{mark} {name}") };
        lines.push(Line::from(Span::styled(text, style)));
    }
    if st.options.is_empty() {
        lines.push(Line::from("The loaded mods define no character options: Enter starts without one."));
    }
    f.render_widget(Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Choose your character ")), list);
    let mut text = Vec::new();
    if let Some((id, name, d)) = st.options.get(st.cursor) {
        text.push(Line::from(Span::styled(name.clone(), bold().patch(paint.fg(Color::Cyan)))));
        text.push(Line::from(Span::styled(id.clone(), dim())));
        text.push(Line::from(""));
        text.push(Line::from(d.clone()));
    }
    text.push(Line::from(""));
    let groups = {
        let mut g: Vec<&str> = st.groups.iter().flatten().map(String::as_str).collect();
        g.dedup();
        g
    };
    text.push(Line::from(if groups.is_empty() {
        "Options stack: pick with Space, or press Enter to play the highlighted one alone.".to_string()
    } else {
        format!("Pick one of each group ({}) with Space or Enter; Enter starts once each has one.", groups.join(", "))
    }));
    if let Some(e) = &st.error {
        text.push(Line::from(Span::styled(e.clone(), paint.fg(Color::Red))));
    }
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL).title(" About ")), about);
    f.render_widget(Paragraph::new(Span::styled(" ↑↓ choose · Space pick · Enter start · q quit", dim())), keys);
    if app.overlay == Overlay::ConfirmQuit {
        popup(f, centered(area, 36, 5), "Quit", Text::from("Quit rustkeep? (y / n)"), "y quit · n stay");
    }
}

/// The title line, fitted to `width`: the floor and its depth, the room the player stands in,
/// the turn, the seed and the loaded mods. What does not fit is shortened, least useful first:
/// the mods become a count, the room loses its number, names are cut with `…`.
fn title_line(s: &Session, width: u16) -> Line<'static> {
    let g = &s.g;
    let mut place: Vec<String> = Vec::new();
    let mut room_short = None;
    if let Some(d) = g.dungeon() {
        place.push(s.floor_label().unwrap_or_default());
        match d.room.and_then(|r| d.map.rooms.get(r).map(|room| (r, room))) {
            Some((r, room)) => {
                let name = room.prefab.as_deref().map_or_else(|| "a bare room".to_string(), |p| entry_name(&s.w, Registry::Prefabs, p));
                place.push(format!("room {}/{}: {name}", r + 1, d.map.rooms.len()));
                room_short = Some(name);
            }
            None => place.push("a corridor".into()),
        }
    } else if let Some(r) = &g.room() {
        place.push(entry_name(&s.w, Registry::Prefabs, r));
    }
    let tail = vec![format!("turn {}", g.step()), format!("seed {}", g.seed())];
    let mods: Vec<&str> = s.w.project.mods.iter().map(|m| m.id.as_str()).collect();
    let recording = if s.recorder.is_some() { " · recording" } else { "" };
    let head = " rustkeep ";
    let fits =
        |parts: &[String], mods: &str| head.chars().count() + 2 + parts.join(" · ").chars().count() + mods.chars().count() + recording.len() <= width as usize;
    let all_mods = format!(" · mods: {}", mods.join(", "));
    let count = format!(" · {} mod{}", mods.len(), if mods.len() == 1 { "" } else { "s" });
    let mut parts: Vec<String> = place.iter().chain(&tail).cloned().collect();
    let mut mods_text = all_mods.clone();
    if !fits(&parts, &mods_text) {
        mods_text = count;
    }
    if !fits(&parts, &mods_text) {
        if let Some(name) = &room_short {
            parts[1] = name.clone();
        }
    }
    // The turn, the seed and the mods stay whole; the place is cut to what is left.
    let room = (width as usize).saturating_sub(head.chars().count() + recording.len());
    let (place_parts, tail_parts) = parts.split_at(place.len());
    let tail_text = format!("{}{mods_text}", tail_parts.join(" · "));
    let budget = room.saturating_sub("· ".chars().count() + " · ".chars().count() + tail_text.chars().count());
    let place_text = cut(&place_parts.join(" · "), budget);
    let mut text = if place_text.is_empty() { format!("· {tail_text}") } else { format!("· {place_text} · {tail_text}") };
    if text.chars().count() > room {
        text = cut(&text, room);
    }
    let mut spans = vec![Span::styled(head, bold()), Span::raw(text)];
    if s.recorder.is_some() {
        spans.push(Span::styled(recording, dim()));
    }
    Line::from(spans)
}

fn draw_game(f: &mut Frame, app: &App, s: &Session, paint: &Paint) {
    let area = f.area();
    let [title, main, keys] = Layout::vertical([Constraint::Length(1), Constraint::Min(6), Constraint::Length(1)]).areas(area);
    f.render_widget(Paragraph::new(title_line(s, area.width)), title);
    let panel_width = if area.width >= 120 { 40 } else { 30 }.min(area.width / 2);
    let cursor = match &app.overlay {
        Overlay::Look { at } => Some(*at),
        _ => None,
    };
    let [left, panel] = Layout::horizontal([Constraint::Min(20), Constraint::Length(panel_width)]).areas(main);
    let map_height = s.g.map().map_or(3, |m| m.height() as u16 + 2).clamp(3, left.height.saturating_sub(4).max(3));
    if app.trace_open && area.width >= 120 {
        let [play, trace] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(left);
        let [map, log] = Layout::vertical([Constraint::Length(map_height), Constraint::Min(3)]).areas(play);
        draw_map(f, s, map, cursor, paint);
        draw_log(f, app, s, log, paint);
        draw_trace(f, app, s, trace, paint);
    } else if app.trace_open {
        // Under the map, the trace gets at least half of the column: a tall map must not leave it
        // two rows.
        let map_height = map_height.min((left.height / 2).max(3));
        let [map, trace] = Layout::vertical([Constraint::Length(map_height), Constraint::Min(3)]).areas(left);
        draw_map(f, s, map, cursor, paint);
        draw_trace(f, app, s, trace, paint);
    } else {
        let [map, log] = Layout::vertical([Constraint::Length(map_height), Constraint::Min(3)]).areas(left);
        draw_map(f, s, map, cursor, paint);
        draw_log(f, app, s, log, paint);
    }
    draw_panel(f, s, panel, paint);
    let hint = match &app.overlay {
        Overlay::CommandLine { text, choices } => {
            let line = format!(":{text}");
            f.set_cursor_position(Position { x: keys.x + line.chars().count() as u16, y: keys.y });
            f.render_widget(Paragraph::new(line), keys);
            if !choices.is_empty() {
                // The candidates Tab found, over the bottom of the screen.
                let text = choices.join("  ");
                let h = (text.chars().count() as u16 / area.width.max(1) + 3).min(8).min(area.height.saturating_sub(1));
                let r = Rect { x: area.x, y: keys.y.saturating_sub(h), width: area.width, height: h };
                f.render_widget(Clear, r);
                let title = format!(" {} completions · Tab again after typing more ", choices.len());
                f.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }).block(Block::default().borders(Borders::ALL).title(title)), r);
            }
            None
        }
        _ if app.replay.is_some() => {
            let text = app.replay.as_ref().map(|r| r.status()).unwrap_or_default();
            f.render_widget(Paragraph::new(Span::styled(text, bold())), keys);
            None
        }
        _ if s.g.is_over() => Some(over_keys(s)),
        _ if area.width >= 120 => {
            Some(" hjkl move · . wait · o explore · > stairs · g get · x look · i items · C sheet · Q quests · m log · t T trace · ? help")
        }
        _ => Some(" hjkl move · o explore · > stairs · x look · i items · C sheet · T trace · ?help"),
    };
    if let Some(h) = hint {
        f.render_widget(Paragraph::new(Span::styled(h, dim())), keys);
    }
    draw_overlay(f, app, s, area, paint);
}

fn draw_map(f: &mut Frame, s: &Session, area: Rect, cursor: Option<Pos>, paint: &Paint) {
    let block = Block::default().borders(Borders::ALL).title(" Map ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(m) = s.g.map() else {
        f.render_widget(Paragraph::new("There is no map here: this game was saved from a dry run (use `:enter`, `:spawn`, `:attack`)."), inner);
        return;
    };
    let (w, h) = (m.width().max(0) as u16, m.height().max(0) as u16);
    // Tiles a space apart when the room fits that way: closer to square on most fonts.
    let spread = w > 0 && (2 * w).saturating_sub(1) <= inner.width;
    let cell = if spread { 2 } else { 1 };
    let visible_w = (inner.width / cell).min(w);
    let visible_h = inner.height.min(h);
    // Follow the player (the look cursor while looking) when the floor is larger than the pane.
    let centre = cursor.unwrap_or(m.player);
    let ox = (centre.x - i32::from(visible_w) / 2).clamp(0, i32::from(w - visible_w));
    let oy = (centre.y - i32::from(visible_h) / 2).clamp(0, i32::from(h - visible_h));
    let letters: BTreeMap<usize, char> = s.living().into_iter().map(|(i, c, _)| (i, c)).collect();
    let sight = m.sight();
    let mut lines = Vec::with_capacity(visible_h as usize);
    for y in oy..oy + i32::from(visible_h) {
        let mut spans = Vec::with_capacity(visible_w as usize * 2);
        for x in ox..ox + i32::from(visible_w) {
            let p = Pos::new(x, y);
            let (c, mut style) = if sight.contains(p) {
                tile(s, m, p, &letters, paint)
            } else if m.remembered(p) {
                remembered(s, m, p, paint)
            } else {
                (' ', Style::default())
            };
            if cursor == Some(p) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            if spread && x > ox {
                spans.push(Span::raw(" "));
            }
            spans.push(Span::styled(c.to_string(), style));
        }
        lines.push(Line::from(spans));
    }
    let used_w = if spread { (2 * visible_w).saturating_sub(1) } else { visible_w };
    let x = inner.x + (inner.width - used_w) / 2;
    let y = inner.y + (inner.height - visible_h) / 2;
    f.render_widget(Paragraph::new(lines), Rect { x, y, width: used_w, height: visible_h });
}

/// A tile the player remembers but does not see, dimmed: the NPC, pile or item on it (they stay
/// where they were seen; enemies move and are not drawn), else its ground.
fn remembered(s: &Session, m: &Map, p: Pos, paint: &Paint) -> (char, Style) {
    let c = match s.remembered_thing(p) {
        Some(c) => c,
        None => m.tile(p).unwrap_or(' '),
    };
    (c, dim().patch(paint.fg(Color::DarkGray)))
}

/// What is drawn on a tile in sight, top first: the player, an enemy, an NPC, a pile, loot, the
/// tile.
fn tile(s: &Session, m: &Map, p: Pos, letters: &BTreeMap<usize, char>, paint: &Paint) -> (char, Style) {
    if m.player == p {
        return ('@', bold().patch(paint.fg(Color::White)));
    }
    if let Some(i) = m.enemy_at(p) {
        let r = CreatureRef::Enemy(i);
        let left = s.g.creature(r).map_or(0, |c| c.health);
        let look = s.enemy_look(i);
        return (letters.get(&i).copied().unwrap_or(look.glyph), bold().patch(paint.look(&look, paint.health(left, s.g.max_health(&s.w, r)))));
    }
    if let Some(n) = m.npc_at(p) {
        let look = look::npc(&s.w, n);
        return (look.glyph, bold().patch(paint.look(&look, paint.fg(Color::Cyan))));
    }
    if m.piles.iter().any(|x| x.pos == p) {
        return ('*', paint.fg(Color::Yellow));
    }
    // The item dropped last lies on top.
    if let Some(x) = m.loot.iter().rev().find(|x| x.pos == p) {
        let look = look::item(&s.w, &x.item.item);
        return (look.glyph, paint.look(&look, paint.fg(Color::Magenta)));
    }
    match m.tile(p) {
        Some('#') => ('#', paint.fg(Color::DarkGray)),
        Some('+') => ('+', bold().patch(paint.fg(Color::Yellow))),
        Some(STAIRS) => (STAIRS, bold().patch(paint.fg(Color::White))),
        Some(c) => (c, dim()),
        None => (' ', Style::default()),
    }
}

fn draw_log(f: &mut Frame, app: &App, s: &Session, area: Rect, paint: &Paint) {
    let block = Block::default().borders(Borders::ALL).title(" Messages ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let lines = app.log_lines();
    let now = s.g.step();
    // Newest at the bottom; wrapped lines count as the rows they take.
    let width = inner.width.max(1) as usize;
    let mut rows = 0usize;
    let mut shown = Vec::new();
    for l in lines.iter().rev() {
        let text = l.shown();
        let need = text.chars().count().div_ceil(width).max(1);
        if rows + need > inner.height as usize {
            break;
        }
        rows += need;
        let style = if l.text.starts_with("error") || l.text.starts_with("warning") {
            paint.fg(Color::Red)
        } else if l.step == now {
            Style::default()
        } else {
            dim()
        };
        shown.push(Line::from(Span::styled(text, style)));
    }
    shown.reverse();
    f.render_widget(Paragraph::new(shown).wrap(Wrap { trim: false }), inner);
}

fn draw_trace(f: &mut Frame, app: &App, s: &Session, area: Rect, paint: &Paint) {
    let mut lines: Vec<Line> = app.warnings.iter().map(|w| Line::from(Span::styled(format!("warning: {w}"), paint.fg(Color::Red)))).collect();
    for st in s.last.iter() {
        for line in rustkeep_present::report::trace(st, &crate::session::step_title(st)).lines() {
            let line = s.with_enemy_names(line);
            let style = screens::trace_style(&line, app.watch.as_deref(), None, paint);
            lines.push(Line::from(Span::styled(line, style)));
        }
    }
    if lines.is_empty() {
        lines.push(Line::from("Nothing happened yet."));
    }
    // The rows the text takes decide the furthest scroll: the frame before tells the title.
    let shown = area.height.saturating_sub(2);
    let steps = format!("{} step{}", s.last.len(), if s.last.len() == 1 { "" } else { "s" });
    let at = position(app.trace_scroll, app.trace_max.get(), shown);
    let watched = match app.watch.as_deref() {
        Some(w) => match s.history.len().checked_sub(1).and_then(|i| s.history.watched(i, w)) {
            Some(crate::session::Watched::Fired) => format!(" · ★ {w} fired"),
            Some(crate::session::Watched::Skipped) => format!(" · {w} skipped"),
            None => String::new(),
        },
        None => String::new(),
    };
    let long = format!(" Trace of the last turn ({steps}{at}){watched} · [ ] scroll · T every turn ");
    let title = if long.chars().count() + 2 <= area.width as usize { long } else { format!(" Trace ({steps}{at}){watched} · [ ] · T ") };
    let block = Block::default().borders(Borders::ALL).title(title);
    let max = scrolled(f, area, block, lines, app.trace_scroll);
    app.trace_max.set(max);
}

fn draw_panel(f: &mut Frame, s: &Session, area: Rect, paint: &Paint) {
    let g = &s.g;
    let w = &s.w;
    let block = Block::default().borders(Borders::ALL).title(" Character ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let width = inner.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    let options: Vec<String> = g.player().options.iter().map(|o| entry_name(w, Registry::CharacterOptions, o)).collect();
    if !options.is_empty() {
        lines.push(Line::from(Span::styled(options.join(" · "), bold())));
    }
    let max = g.max_health(w, CreatureRef::Player);
    let numbers = format!(" {}/{max}", g.player().health);
    let bar_w = width.saturating_sub(3 + numbers.len()).max(1);
    lines.push(Line::from(vec![Span::raw("HP "), Span::styled(bar(g.player().health, max, bar_w), paint.health(g.player().health, max)), Span::raw(numbers)]));
    lines.push(Line::from(format!("gold {} · kills {}", g.gold(), g.kills())));
    let living = s.living();
    if !living.is_empty() {
        lines.push(Line::from(Span::styled("Enemies", bold())));
        for (i, c, name) in &living {
            let r = CreatureRef::Enemy(*i);
            let left = g.creature(r).map_or(0, |c| c.health);
            let emax = g.max_health(w, r);
            let nums = format!(" {left}/{emax}");
            let label: String = format!(" {name}").chars().take(width.saturating_sub(nums.len() + 5).max(3)).collect();
            let room = width.saturating_sub(label.chars().count() + 1 + nums.len() + 1).max(1);
            lines.push(Line::from(vec![
                Span::styled(c.to_string(), bold().patch(paint.look(&s.enemy_look(*i), paint.health(left, emax)))),
                Span::styled(label, paint.health(left, emax)),
                Span::raw(" "),
                Span::styled(bar(left, emax, room.min(10)), paint.health(left, emax)),
                Span::raw(nums),
            ]));
        }
    }
    if !g.player().statuses.is_empty() {
        lines.push(Line::from(Span::styled("Statuses", bold())));
        for st in &g.player().statuses {
            lines.push(Line::from(format!("{} ({})", entry_name(w, Registry::Statuses, &st.status), crate::narrate::turns(st.turns))));
            // What it does (its modifiers and triggers; how long it lasts is the line above).
            let does = rustkeep_present::words::status(w, &st.status, rustkeep_present::words::Bearer::Player);
            for line in does.into_iter().skip(1) {
                lines.push(Line::from(Span::styled(format!("  {line}"), dim())));
            }
        }
    }
    lines.push(Line::from(Span::styled("Sheet", bold())));
    for l in s.sheet() {
        if l.value == 0.0 && l.against.is_empty() {
            continue;
        }
        let mut text = format!("{} {}", l.attribute, shown(l.value));
        if !l.against.is_empty() {
            let parts: Vec<String> = l.against.iter().map(|(c, v)| format!("{} vs {}", shown(*v), entry_name(w, Registry::Creatures, c))).collect();
            text.push_str(&format!(" ({})", parts.join(", ")));
        }
        lines.push(Line::from(text));
    }
    let equipped: Vec<String> = g
        .player()
        .inventory
        .iter()
        .filter(|i| i.equipped)
        .map(|i| {
            let slot = w.entry(Registry::Items, &i.item).and_then(|e| e.str(field::SLOT)).unwrap_or("?");
            format!("{slot}: {}", s.item_label(i))
        })
        .collect();
    if !equipped.is_empty() {
        lines.push(Line::from(Span::styled("Equipped", bold())));
        lines.extend(equipped.into_iter().map(Line::from));
    }
    if !g.quests().is_empty() {
        lines.push(Line::from(Span::styled("Quests", bold())));
        for q in g.quests() {
            let name = entry_name(w, Registry::Quests, &q.quest);
            let style = if q.done { paint.fg(Color::Green) } else { Style::default() };
            let mark = if q.done { "✓ " } else { "" };
            lines.push(Line::from(Span::styled(format!("{mark}{name} {}/{}", q.count, w.quest_count(&q.quest)), style)));
        }
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

fn draw_overlay(f: &mut Frame, app: &App, s: &Session, area: Rect, paint: &Paint) {
    match &app.overlay {
        Overlay::None | Overlay::CommandLine { .. } => {
            if s.g.is_over() {
                draw_summary(f, s, area, paint);
            }
        }
        Overlay::View { view, scroll } => screens::draw_view(f, app, s, area, *view, *scroll, paint),
        Overlay::Look { at } => screens::draw_look(f, s, area, *at),
        Overlay::History { .. } => screens::draw_history(f, app, s, area, paint),
        Overlay::Inventory { cursor } => {
            let inv = &s.g.player().inventory;
            let details: Vec<String> = inv.get(*cursor).map(|i| s.describe_item(i)).unwrap_or_default();
            // The selected item's details always show: the list scrolls in the rows left over
            // (at least three), keeping the cursor in view.
            let inner = area.height.saturating_sub(2) as usize;
            let rows = inner.saturating_sub(details.len() + 1).max(3).min(inv.len().max(1));
            let first = if inv.len() <= rows { 0 } else { cursor.saturating_sub(rows / 2).min(inv.len() - rows) };
            let mut lines = Vec::new();
            if inv.is_empty() {
                lines.push(Line::from("You carry nothing."));
            }
            for (n, i) in inv.iter().enumerate().skip(first).take(rows) {
                let mut text = format!("{:>2}. {}", n + 1, s.item_label(i));
                if i.equipped {
                    text.push_str(" (equipped)");
                }
                let style = if n == *cursor { Style::default().add_modifier(Modifier::REVERSED) } else { Style::default() };
                lines.push(Line::from(Span::styled(text, style)));
            }
            if !details.is_empty() {
                lines.push(Line::from(""));
            }
            for (n, d) in details.iter().enumerate() {
                lines.push(Line::from(Span::styled(d.clone(), if n == 0 { bold() } else { Style::default() })));
            }
            let shown = if inv.len() > rows { format!("items {}–{} of {} · ↑↓ · ", first + 1, first + rows, inv.len()) } else { String::new() };
            let footer = format!("{shown}u use · e equip · d drop · Enter use/equip · Esc close");
            let h = (lines.len() as u16 + 2).clamp(7, area.height);
            popup(f, centered(area, 90, h), "Inventory", Text::from(lines), &footer);
        }
        Overlay::Shop { side, cursor } => draw_shop(f, app, s, area, *side, *cursor),
        Overlay::Prompt { kind, text } => {
            let title = if *kind == PromptKind::Save { "Save the game" } else { "Load a game" };
            let r = centered(area, 60, 5);
            popup(f, r, title, Text::from(format!("file: {text}")), "Enter confirm · Esc cancel");
            f.set_cursor_position(Position { x: r.x + 1 + 6 + text.chars().count() as u16, y: r.y + 1 });
        }
        Overlay::Output { title, text, scroll } => {
            // Long lines wrap (a command's help is never cut off); the box is as tall as the
            // wrapped text, at most the screen, and scrolls.
            let width = 90.min(area.width);
            let inner = usize::from(width.saturating_sub(2).max(1));
            let wrapped: Vec<String> = text.lines().flat_map(|l| hanging_wrap(l, inner)).collect();
            let rows = u16::try_from(wrapped.len()).unwrap_or(u16::MAX);
            let r = centered(area, width, rows.saturating_add(2).clamp(3, area.height));
            f.render_widget(Clear, r);
            let block = Block::default()
                .borders(Borders::ALL)
                .title(format!(" {title} "))
                .title_bottom(Line::from(Span::styled(" ↑↓ scroll · any key closes ", dim())));
            scrolled(f, r, block, wrapped.into_iter().map(Line::from).collect(), *scroll);
        }
        Overlay::ConfirmQuit => {
            let rec = if s.recorder.is_some() { " The recording is kept." } else { "" };
            popup(f, centered(area, 44, 6), "Quit", Text::from(format!("Quit the game? Unsaved progress is lost.{rec} (y / n)")), "y quit · n stay");
        }
    }
}

fn draw_shop(f: &mut Frame, app: &App, s: &Session, area: Rect, side: Side, cursor: usize) {
    let Some(shop) = s.shop() else { return };
    let r = centered(area, 96, 20);
    f.render_widget(Clear, r);
    let title = format!(" {} — you have {} gold ", entry_name(&s.w, Registry::Shops, shop), s.g.gold());
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, bold()))
        .title_bottom(Line::from(Span::styled(" Enter buy/sell · Tab switch · ↑↓ choose · Esc leave ", dim())));
    let inner = block.inner(r);
    f.render_widget(block, r);
    // The last word of the trade, inside the trade screen: an error (too little gold) or what
    // was bought or sold.
    // The selected item described under the lists, as the inventory does.
    let stock = s.g.shops().get(shop).map(Vec::as_slice).unwrap_or_default();
    let sellable = App::sellable(s);
    let chosen = match side {
        Side::Buy => stock.get(cursor),
        Side::Sell => sellable.get(cursor).and_then(|i| s.g.player().inventory.get(*i)),
    };
    let about: Vec<String> = chosen.map(|i| s.describe_item(i)).unwrap_or_default();
    let about_h = (about.len() as u16).min(inner.height.saturating_sub(4) / 2);
    let [lists, about_area, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(about_h), Constraint::Length(1)]).areas(inner);
    let about_lines: Vec<Line> = about.into_iter().enumerate().map(|(n, d)| Line::from(Span::styled(d, if n == 0 { bold() } else { dim() }))).collect();
    f.render_widget(Paragraph::new(about_lines).wrap(Wrap { trim: true }), about_area);
    match (&app.failed, s.messages.last()) {
        (Some(e), _) => f.render_widget(Paragraph::new(Span::styled(format!("error: {e}"), bold())), status),
        (None, Some(m)) => f.render_widget(Paragraph::new(Span::styled(m.clone(), dim())), status),
        (None, None) => {}
    }
    let [buy, sell] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(lists);
    let selected = |on: bool, n: usize| if on && n == cursor { Style::default().add_modifier(Modifier::REVERSED) } else { Style::default() };
    let mut lines = vec![Line::from(Span::styled("For sale", bold()))];
    if stock.is_empty() {
        lines.push(Line::from("nothing"));
    }
    for (n, i) in stock.iter().enumerate() {
        lines.push(Line::from(Span::styled(format!("{} — {} gold", s.item_label(i), buy_price(&s.w, shop, i)), selected(side == Side::Buy, n))));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), buy);
    let mut lines = vec![Line::from(Span::styled("Your items", bold()))];
    if sellable.is_empty() {
        lines.push(Line::from("nothing to sell"));
    }
    for (n, idx) in sellable.iter().enumerate() {
        let i = &s.g.player().inventory[*idx];
        let eq = if i.equipped { " (equipped)" } else { "" };
        lines.push(Line::from(Span::styled(format!("{}{eq} — {} gold", s.item_label(i), sell_price(&s.w, i)), selected(side == Side::Sell, n))));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), sell);
}

/// The keys once the run is over: no `L load` while the game is recorded (it would be refused).
fn over_keys(s: &Session) -> &'static str {
    if s.recorder.is_some() {
        " T trace · m messages · q quit"
    } else {
        " T trace · m messages · L load · q quit"
    }
}

fn draw_summary(f: &mut Frame, s: &Session, area: Rect, paint: &Paint) {
    let g = &s.g;
    let (title, style) = if g.won() { ("Victory!", paint.fg(Color::Green)) } else { ("You died", paint.fg(Color::Red)) };
    let floors = g.dungeon().map(|d| format!("{} of {}", d.floor + 1, d.floors.len())).unwrap_or_else(|| "-".into());
    let done: Vec<String> = g.quests().iter().filter(|q| q.done).map(|q| entry_name(&s.w, Registry::Quests, &q.quest)).collect();
    let gold = g.player().inventory.iter().filter(|i| i.item == CURRENCY).map(|i| u64::from(i.count)).sum::<u64>();
    let mut lines = vec![
        Line::from(Span::styled(title, bold().patch(style))),
        Line::from(""),
        Line::from(match (&s.death, g.won()) {
            (Some(d), false) => format!("{}{}.", d[..1].to_uppercase(), &d[1..]),
            _ => String::new(),
        }),
        Line::from(format!("character   {}", s.character_label())),
        Line::from(format!("turns       {}", g.step())),
        Line::from(format!("floor       {floors}")),
        Line::from(format!("kills       {}", g.kills())),
        Line::from(format!("quests done {}{}", done.len(), if done.is_empty() { String::new() } else { format!(": {}", done.join(", ")) })),
        Line::from(format!("gold        {gold}")),
        Line::from(format!("seed        {}", g.seed())),
    ];
    // A run that bent the rules is no proof of what the rules allow: the screen says so.
    let tested = s.testing_used();
    let mut height = if tested.is_some() { 17 } else { 15 };
    if let Some(t) = tested {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(t, paint.fg(Color::Yellow))));
    }
    if let Some(p) = &s.dumped {
        lines.push(Line::from(format!("dump        {}", p.display())));
        height += 1;
    }
    popup(f, centered(area, 64, height), "The run is over", Text::from(lines), over_keys(s).trim());
}
