//! The colours of the data on the terminal at hand: `#rrggbb` as written on a terminal that
//! shows 24-bit colour (`COLORTERM=truecolor` or `24bit`), else the nearest of the 256-colour
//! palette (a `TERM` ending in `256color`), else the nearest of the sixteen ANSI colours. The
//! sixteen names of the vocabulary are the ANSI colours everywhere. No colour at all with
//! `NO_COLOR` or `--no-color` (see [`super::colour_wanted`]).

use ratatui::style::Color;

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    TrueColor,
    Ansi256,
    Ansi16,
}

impl Depth {
    /// The depth the environment announces.
    pub fn detect() -> Depth {
        let var = |k: &str| std::env::var(k).unwrap_or_default().to_ascii_lowercase();
        Depth::from_env(&var("COLORTERM"), &var("TERM"))
    }

    pub fn from_env(colorterm: &str, term: &str) -> Depth {
        if colorterm == "truecolor" || colorterm == "24bit" {
            Depth::TrueColor
        } else if term.ends_with("256color") {
            Depth::Ansi256
        } else {
            Depth::Ansi16
        }
    }
}

/// The sixteen ANSI colours as the xterm palette draws them, in ANSI order.
const ANSI: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs();
    d(a.0, b.0).pow(2) + d(a.1, b.1).pow(2) + d(a.2, b.2).pow(2)
}

/// The nearest ANSI colour.
pub fn nearest16(rgb: (u8, u8, u8)) -> Color {
    ANSI.iter().min_by_key(|(_, c)| distance(*c, rgb)).map_or(Color::White, |(c, _)| *c)
}

/// The nearest colour of the 6 × 6 × 6 cube and the grey ramp of the 256-colour palette.
pub fn nearest256(rgb: (u8, u8, u8)) -> Color {
    const STEPS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let step = |v: u8| STEPS.iter().enumerate().min_by_key(|(_, s)| (i32::from(**s) - i32::from(v)).unsigned_abs()).map_or(0, |(i, _)| i);
    let (r, g, b) = (step(rgb.0), step(rgb.1), step(rgb.2));
    let cube = (STEPS[r], STEPS[g], STEPS[b]);
    let grey_level = ((u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2)) / 3).saturating_sub(8) / 10;
    let grey_level = grey_level.min(23) as u8;
    let grey = 8 + 10 * grey_level;
    if distance((grey, grey, grey), rgb) < distance(cube, rgb) {
        Color::Indexed(232 + grey_level)
    } else {
        Color::Indexed(16 + 36 * r as u8 + 6 * g as u8 + b as u8)
    }
}

/// The terminal colour of a colour written in the data: one of the sixteen names (ANSI order, as
/// the vocabulary documents them) or `#rrggbb`, brought to `depth`.
pub fn colour_of(name: &str, depth: Depth) -> Option<Color> {
    use rustkeep_data::vocab::color::*;
    Some(match name {
        BLACK => Color::Black,
        RED => Color::Red,
        GREEN => Color::Green,
        YELLOW => Color::Yellow,
        BLUE => Color::Blue,
        MAGENTA => Color::Magenta,
        CYAN => Color::Cyan,
        WHITE => Color::Gray,
        BRIGHT_BLACK => Color::DarkGray,
        BRIGHT_RED => Color::LightRed,
        BRIGHT_GREEN => Color::LightGreen,
        BRIGHT_YELLOW => Color::LightYellow,
        BRIGHT_BLUE => Color::LightBlue,
        BRIGHT_MAGENTA => Color::LightMagenta,
        BRIGHT_CYAN => Color::LightCyan,
        BRIGHT_WHITE => Color::White,
        _ => {
            let rgb = rustkeep_data::vocab::hex_color(name)?;
            match depth {
                Depth::TrueColor => Color::Rgb(rgb.0, rgb.1, rgb.2),
                Depth::Ansi256 => nearest256(rgb),
                Depth::Ansi16 => nearest16(rgb),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_decides_the_depth() {
        assert_eq!(Depth::from_env("truecolor", "xterm"), Depth::TrueColor);
        assert_eq!(Depth::from_env("24bit", ""), Depth::TrueColor);
        assert_eq!(Depth::from_env("", "xterm-256color"), Depth::Ansi256);
        assert_eq!(Depth::from_env("", "xterm"), Depth::Ansi16);
        assert_eq!(Depth::from_env("", "linux"), Depth::Ansi16);
    }

    #[test]
    fn hex_colours_fall_back_to_the_nearest_the_terminal_has() {
        assert_eq!(colour_of("#8b4513", Depth::TrueColor), Some(Color::Rgb(0x8b, 0x45, 0x13)));
        // Saddle brown: the nearest of sixteen is red, of 256 the cube's (2, 1, 0).
        assert_eq!(colour_of("#8b4513", Depth::Ansi16), Some(Color::Red));
        assert_eq!(colour_of("#8b4513", Depth::Ansi256), Some(Color::Indexed(16 + 36 * 2 + 6)));
        assert_eq!(colour_of("#ffffff", Depth::Ansi16), Some(Color::White));
        assert_eq!(colour_of("#808080", Depth::Ansi256), Some(Color::Indexed(244)));
        // The names are ANSI colours at every depth.
        assert_eq!(colour_of("bright_blue", Depth::Ansi16), Some(Color::LightBlue));
        assert_eq!(colour_of("nonsense", Depth::TrueColor), None);
    }
}
