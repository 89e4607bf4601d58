//! How the game paints: styles with or without colour, the colours of the data at the
//! terminal's depth, and the shapes every screen shares (a centred box, a scrolled text).

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::colour::{colour_of, Depth};
use crate::look::Look;

/// Styles, or none of them when colour is off (`NO_COLOR`, `--no-color`); bold, dim and reverse
/// stay, as they carry no colour.
pub(super) struct Paint {
    pub colour: bool,
    pub depth: Depth,
}

impl Paint {
    pub(super) fn fg(&self, c: Color) -> Style {
        if self.colour {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }

    pub(super) fn health(&self, left: i64, max: i64) -> Style {
        let f = if max > 0 { left as f64 / max as f64 } else { 0.0 };
        self.fg(if f > 2.0 / 3.0 {
            Color::Green
        } else if f > 1.0 / 3.0 {
            Color::Yellow
        } else {
            Color::Red
        })
    }
}

impl Paint {
    /// The style of a [`Look`]: its colour, else `otherwise`.
    pub(super) fn look(&self, look: &Look, otherwise: Style) -> Style {
        match look.color.as_deref().and_then(|c| colour_of(c, self.depth)) {
            Some(c) => self.fg(c),
            None => otherwise,
        }
    }
}

pub(super) fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

pub(super) fn dim() -> Style {
    Style::default().add_modifier(Modifier::DIM)
}

/// A rectangle of at most `w` × `h` in the middle of `area`.
pub(super) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}

/// Draws `lines` wrapped in `block` over `area`, scrolled down by `scroll` rows at most as far as
/// puts the last row at the bottom. Returns that furthest scroll.
pub(super) fn scrolled(f: &mut Frame, area: Rect, block: Block, lines: Vec<Line>, scroll: u16) -> u16 {
    let inner = block.inner(area);
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let rows = text.line_count(inner.width.max(1));
    let max = u16::try_from(rows.saturating_sub(inner.height as usize)).unwrap_or(u16::MAX);
    f.render_widget(text.block(block).scroll((scroll.min(max), 0)), area);
    max
}

/// Where a scrolled view stands, for its title: ` · rows 1–20/64`, or nothing when it all fits.
pub(super) fn position(scroll: u16, max: u16, shown: u16) -> String {
    // Nothing to scroll, or not drawn yet (the furthest scroll is not known before a frame).
    if max == 0 || max >= u16::MAX - 1 {
        return String::new();
    }
    let (top, shown, max) = (u32::from(scroll.min(max)), u32::from(shown), u32::from(max));
    format!(" · rows {}–{}/{}", top + 1, top + shown, max + shown)
}

/// A line wrapped at spaces into rows of at most `width` characters, the rows after the first
/// indented to where its text begins — after a gap of two spaces or more, as in a two-column list
/// such as `help`'s, else after its leading spaces. A word longer than a row is cut.
pub(super) fn hanging_wrap(line: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= width {
        return vec![line.to_string()];
    }
    let lead = chars.iter().take_while(|c| **c == ' ').count();
    let gap = (lead..chars.len().saturating_sub(1)).find(|&i| chars[i] == ' ' && chars[i + 1] == ' ' && i > lead).map(|i| {
        let mut j = i;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        j
    });
    // The first row keeps the line's own spacing up to where its text begins.
    let lead = lead.min(width / 2);
    let prefix = gap.filter(|g| *g < width).unwrap_or(lead);
    let indent = if prefix <= width / 2 { prefix } else { lead };
    let mut rows = Vec::new();
    let mut row: String = chars[..prefix].iter().collect();
    let mut len = prefix;
    let mut fresh = true;
    for word in chars[prefix..].iter().collect::<String>().split(' ').filter(|w| !w.is_empty()) {
        let mut word: String = word.to_string();
        loop {
            let n = word.chars().count();
            let space = usize::from(!fresh);
            if len + space + n <= width {
                if !fresh {
                    row.push(' ');
                }
                row.push_str(&word);
                len += space + n;
                fresh = false;
                break;
            }
            if fresh {
                // Alone on its row and still too long: cut it.
                let fits = width.saturating_sub(len).max(1);
                row.extend(word.chars().take(fits));
                word = word.chars().skip(fits).collect();
            }
            rows.push(std::mem::take(&mut row));
            row = " ".repeat(indent);
            len = indent;
            fresh = true;
            if word.is_empty() {
                break;
            }
        }
    }
    if !fresh || rows.is_empty() {
        rows.push(row);
    }
    rows
}

/// `text` in at most `width` characters: whole when it fits, else cut with `…` (nothing when
/// even that does not fit).
pub(super) fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else if width < 2 {
        String::new()
    } else {
        text.chars().take(width - 1).collect::<String>() + "…"
    }
}
